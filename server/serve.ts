/**
 * Starting and stopping the HTTP server around buildApp: secret, database, schema
 * check (or migration), listen, and a graceful drain on shutdown.
 */
import Fastify, { type FastifyInstance } from "fastify";
import { buildApp, clientLimits } from "./app.js";
import { recordAuditEvent } from "./audit/audit.js";
import {
  ConfigError,
  dataPath,
  ensureSecret,
  type LoadedConfig,
  type SecretSource,
  secretList,
} from "./config.js";
import { auditConfig } from "./config-safety.js";
import type { Queryable } from "./db/connection.js";
import { type Database, openDatabase } from "./db/connection.js";
import { migrationStatus, runMigrations } from "./db/migrations.js";
import { healthRoutes, type Readiness } from "./health/routes.js";
import { trackConnections } from "./http/drain.js";

import { serveMetrics } from "./http/metrics.js";
import { countsInRedis } from "./http/rate-limit.js";
import { REDIS_COMMAND_TIMEOUT_MS, REDIS_CONNECT_TIMEOUT_MS } from "./http/rate-limit-store.js";

import { checkStoredKeys } from "./keys/keys.js";
import type { Logger } from "./logger.js";
import { createMailer, type Mailer } from "./mail/mailer.js";
import { createMailTransport, type MailTransport } from "./mail/transport.js";

/** The schema is behind this version of authd: exit 10, naming the command to run. */
export class SchemaOutOfDateError extends Error {
  readonly pending: string[];
  constructor(pending: string[]) {
    super(
      `the database schema is behind: ${pending.length} pending migration(s) (${pending.join(", ")}). ` +
        "Run `authd migrate`, or start with `authd serve --migrate`.",
    );
    this.name = "SchemaOutOfDateError";
    this.pending = pending;
  }
}

/** The address cannot be bound: exit 71. */
export class ListenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ListenError";
  }
}

/** The mailer authd uses: the configured transport, failures kept in the audit trail. */
export function createMailerFor(loaded: LoadedConfig, sql: Queryable): Mailer {
  return createMailer(loaded.config, createMailTransport(loaded), async (failure) => {
    await recordAuditEvent(sql, {
      action: "mail.delivery_failed",
      actorType: "system",
      targetType: "email",
      targetId: failure.to,
      details: { kind: failure.kind, reason: failure.reason },
    });
  });
}

export type MigrationsMode = "check" | "apply" | "ignore";

export interface StartServerOptions {
  logger: Logger;
  /**
   * Pending migrations: `check` refuses to start (SchemaOutOfDateError), `apply` runs
   * them first, `ignore` starts anyway with /readyz at 503 until they are applied.
   */
  migrations?: MigrationsMode;
  /** Also serve /healthz and /readyz on this port (a management port, as Keycloak does). */
  managementPort?: number;
}

export interface RunningServer {
  app: FastifyInstance;
  db: Database;
  /** The URL the server answers on, e.g. http://127.0.0.1:3000. */
  url: string;
  readiness: Readiness;
  /** The management port actually bound (with `managementPort: 0`, the one chosen). */
  managementPort?: number;
  /** The metrics port actually bound, when metrics have a port of their own. */
  metricsPort?: number;
  /** Where the secret came from (a development secret may have just been generated). */
  secretSource: SecretSource;
  /** Where mail goes: an SMTP server or the outbox folder. */
  mail: Pick<MailTransport, "kind" | "describe">;
  /**
   * Drain: /readyz 503 and serving on for `server.drainDelay`, then stop accepting,
   * finish in-flight requests, close the database.
   */
  close(options?: { skipDrainDelay?: boolean }): Promise<void>;
}

export async function startServer(
  loaded: LoadedConfig,
  options: StartServerOptions,
): Promise<RunningServer> {
  const { config } = loaded;
  const { logger } = options;
  const { source: secretSource } = await ensureSecret(loaded);
  if (loaded.production) {
    // Production refuses insecure settings, as Keycloak's
    // `start` does (the rules of `authd config validate --strict`).
    const problems = auditConfig(loaded, dataPath(loaded, "secret")).filter(
      (finding) => finding.severity === "problem",
    );
    if (problems.length > 0) {
      throw new ConfigError([
        "refusing to serve in production with unsafe settings (see `authd config validate --strict`):",
        ...problems.map((finding) => `${finding.key}: ${finding.message}`),
      ]);
    }
  }
  const db = await openDatabase(loaded, {
    logger,
    statementTimeout: config.database.statementTimeout,
  });
  try {
    const mode = options.migrations ?? "check";
    let status = await migrationStatus(db.sql);
    if (mode === "apply" && status.pending.length > 0) {
      const ran = await runMigrations(db, { direction: "up", waitForLock: true });
      if (ran.length > 0) logger.info({ migrations: ran }, "applied migrations");
      status = await migrationStatus(db.sql);
    }
    const readiness: Readiness = { draining: false };
    if (status.pending.length > 0) {
      if (mode !== "ignore") throw new SchemaOutOfDateError(status.pending);
      logger.warn(
        { pending: status.pending },
        "starting with pending migrations (--migrations ignore): /readyz answers 503 until `authd migrate` applies them",
      );
      readiness.schemaPending = async () => (await migrationStatus(db.sql)).pending.length > 0;
    }
    if (status.unknown.length > 0) {
      logger.warn(
        { unknown: status.unknown },
        "the database has migrations this version of authd does not know (a newer version ran them)",
      );
    }

    if (config.jwt.enabled && status.pending.length === 0) {
      // Keys no secret opens would fail every token request: refuse to start instead.
      const keys = await checkStoredKeys(db.sql, config, secretList(config));
      if (keys.resealed.length > 0) {
        logger.info(
          { keys: keys.resealed },
          "sealed jwt signing keys again under the newest secret",
        );
      }
    }

    const mailer = createMailerFor(loaded, db.sql);
    // ioredis costs ~25 MB resident: loaded only when the rate limits count in Redis.
    const redis =
      config.redis.url && countsInRedis(config)
        ? new (await import("ioredis")).Redis(config.redis.url, {
            // Connected once the app follows its outages (below).
            lazyConnect: true,
            maxRetriesPerRequest: 1,
            enableOfflineQueue: false,
            // A dead Redis never holds a request up: counting falls back to this process.
            commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
            connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
          })
        : undefined;
    const app = await buildApp(config, { sql: db.sql, logger, readiness, mailer, redis });
    app.addHook("onClose", async () => {
      mailer.transport.close();
      redis?.disconnect();
    });
    // Shared counting from the first request when Redis answers now; otherwise the
    // outage is logged once and counting is per process until it does (reconnecting
    // in the background).
    await redis?.connect().catch(() => {});
    const connections = trackConnections(app.server);
    try {
      await app.listen({ host: config.server.host, port: config.server.port });
    } catch (error) {
      await app.close();
      const code = (error as { code?: string }).code;
      const where = `${config.server.host}:${config.server.port}`;
      if (code === "EADDRINUSE")
        throw new ListenError(`port ${config.server.port} is already in use (${where})`);
      if (code === "EACCES") throw new ListenError(`not permitted to listen on ${where}`);
      if (code === "EADDRNOTAVAIL") throw new ListenError(`address not available: ${where}`);
      throw error;
    }
    const address = app.server.address();
    const port = typeof address === "object" && address ? address.port : config.server.port;
    // The listeners beside the API: the probes on the management port, the metrics on
    // theirs (one listener when both name the same port).
    const sideListeners: FastifyInstance[] = [];
    const listenBeside = async (
      sidePort: number,
      what: string,
      register: (instance: FastifyInstance) => Promise<void> | void,
    ): Promise<FastifyInstance> => {
      const instance = Fastify({ logger: false, ...clientLimits(config) });
      await register(instance);
      try {
        await instance.listen({ host: config.server.host, port: sidePort });
      } catch (error) {
        await instance.close();
        for (const opened of sideListeners) await opened.close();
        await app.close();
        const where = `${config.server.host}:${sidePort}`;
        throw new ListenError(`cannot listen on ${what} ${where}: ${(error as Error).message}`);
      }
      sideListeners.push(instance);
      return instance;
    };
    const metrics = app.authContext.metrics;
    const metricsPort = metrics ? config.metrics.port : undefined;
    const sharedPort =
      metricsPort !== undefined && metricsPort !== 0 && metricsPort === options.managementPort;
    let management: FastifyInstance | undefined;
    if (options.managementPort !== undefined) {
      management = await listenBeside(
        options.managementPort,
        "the management port",
        async (instance) => {
          await instance.register(healthRoutes(app.database, readiness));
          if (metrics && sharedPort) serveMetrics(instance, metrics, config.metrics.path);
        },
      );
    }
    let metricsListener: FastifyInstance | undefined;
    if (metrics && metricsPort !== undefined) {
      metricsListener = sharedPort
        ? management
        : await listenBeside(metricsPort, "the metrics port", (instance) =>
            serveMetrics(instance, metrics, config.metrics.path),
          );
    }
    const boundPort = (instance: FastifyInstance | undefined): number | undefined => {
      const address = instance?.server.address();
      return typeof address === "object" && address ? address.port : undefined;
    };
    const host =
      config.server.host === "0.0.0.0" || config.server.host === "::"
        ? "127.0.0.1"
        : config.server.host;
    let closing: Promise<void> | undefined;
    return {
      app,
      db,
      url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
      readiness,
      secretSource,
      mail: { kind: mailer.transport.kind, describe: mailer.transport.describe },
      managementPort: boundPort(management),
      metricsPort: boundPort(metricsListener),
      close(options = {}) {
        closing ??= (async () => {
          readiness.draining = true;
          connections.closeAfterAnswers();
          const { shutdownTimeout } = config.server;
          const drainDelay = options.skipDrainDelay ? 0 : config.server.drainDelay;
          if (drainDelay > 0) {
            logger.info(
              { drainDelay },
              "draining: /readyz answers 503, requests are served for the drain delay",
            );
            await new Promise((resolve) => setTimeout(resolve, drainDelay * 1000));
          }
          // Up to a second each for the settle and the idle grace, within what the
          // shutdown timeout leaves, half of that kept for the requests in flight. No
          // drain delay asks for the quickest stop: both are skipped.
          const spareMs = drainDelay > 0 ? ((shutdownTimeout - drainDelay) * 1000) / 4 : 0;
          await connections.close({
            settleMs: Math.min(1000, spareMs),
            idleGraceMs: Math.min(1000, spareMs),
            onListenerClosed: (openConnections) =>
              logger.info({ openConnections }, "listener closed: finishing in-flight requests"),
          });
          await app.close();
          for (const listener of sideListeners) await listener.close();
          await db.close();
        })();
        return closing;
      },
    };
  } catch (error) {
    await db.close().catch(() => {});
    throw error;
  }
}
