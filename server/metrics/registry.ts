/**
 * The Metrics of one app: a prom-client Registry of its own (never prom-client's global
 * default registry, so two apps in one process count apart) holding authd's counters,
 * the admission gate's and the database pool's gauges, and the process metrics.
 * buildApp loads this module only when metrics are on: prom-client costs ~13 MB resident.
 */
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { ClientPoolStats } from "../db/clients.js";
import type { LoadStats, Metrics } from "./metrics.js";
import { SIGN_IN_OUTCOMES } from "./metrics.js";
import { collectProcessMetrics } from "./process.js";

export interface MetricsOptions {
  /** The admission gate's counts, read at each scrape. */
  load: () => LoadStats;
  /** The database pool's counts, read at each scrape. */
  pool: () => ClientPoolStats;
}

export function createMetrics(options: MetricsOptions): Metrics {
  const registry = new Registry();
  const registers = [registry];

  const requests = new Counter({
    name: "authd_http_requests_total",
    help: "HTTP requests answered, by method, route pattern and status.",
    labelNames: ["method", "route", "status"] as const,
    registers,
  });
  const durations = new Histogram({
    name: "authd_http_request_duration_seconds",
    help: "Time from a request's arrival to its answer, by method and route pattern.",
    labelNames: ["method", "route"] as const,
    registers,
  });
  const signIns = new Counter({
    name: "authd_sign_ins_total",
    help: "Sign-ins by method (email, social) and outcome.",
    labelNames: ["method", "outcome"] as const,
    registers,
  });
  // Every sign-in series from the start, so that rates and ratios have a zero to start from.
  for (const method of ["email", "social"] as const) {
    for (const outcome of SIGN_IN_OUTCOMES) signIns.inc({ method, outcome }, 0);
  }
  const rateLimitHits = new Counter({
    name: "authd_rate_limit_hits_total",
    help: "Requests the rate limiter answered 429 Too Many Requests, by route pattern.",
    labelNames: ["route"] as const,
    registers,
  });
  const shed = new Counter({
    name: "authd_requests_shed_total",
    help: "Requests answered 503 Service Unavailable because the server was overloaded, by reason.",
    labelNames: ["reason"] as const,
    registers,
  });
  const mail = new Counter({
    name: "authd_mail_sent_total",
    help: "Mails whose delivery finished, by kind and outcome (sent, failed).",
    labelNames: ["kind", "outcome"] as const,
    registers,
  });

  const { load } = options;
  new Gauge({
    name: "authd_requests_admitted",
    help: "API requests being served (each holding or waiting for a database connection), and those queued for a turn.",
    labelNames: ["state"] as const,
    registers,
    collect() {
      const stats = load();
      this.set({ state: "in_flight" }, stats.inFlight);
      this.set({ state: "queued" }, stats.waiting);
    },
  });
  new Gauge({
    name: "authd_requests_admitted_max",
    help: "The most API requests served at once (server.maxConcurrentRequests).",
    registers,
    collect() {
      this.set(load().max);
    },
  });

  const { pool } = options;
  new Gauge({
    name: "authd_database_connections",
    help: "The database pool's connections: held by a transaction (leased) or shared by statements (shared).",
    labelNames: ["state"] as const,
    registers,
    collect() {
      const stats = pool();
      this.set({ state: "leased" }, stats.leased);
      this.set({ state: "shared" }, stats.size - stats.leased);
    },
  });
  new Gauge({
    name: "authd_database_transactions_waiting",
    help: "Transactions waiting for a connection of their own (every connection is leased).",
    registers,
    collect() {
      this.set(pool().waiting);
    },
  });

  const stopProcessMetrics = collectProcessMetrics(registry);

  return {
    countResponse(method, route, status, seconds) {
      requests.inc({ method, route, status });
      durations.observe({ method, route }, seconds);
    },
    countSignIn(method, outcome) {
      signIns.inc({ method, outcome });
    },
    countRateLimitHit(route) {
      rateLimitHits.inc({ route });
    },
    shed(reason) {
      shed.inc({ reason });
    },
    countMail(kind, outcome) {
      mail.inc({ kind, outcome });
    },
    exposition: () => registry.metrics(),
    contentType: registry.contentType,
    close: stopProcessMetrics,
  };
}
