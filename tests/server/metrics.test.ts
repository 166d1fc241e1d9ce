/**
 * Prometheus metrics: off by default; on, GET /metrics answers the Prometheus text
 * format with authd's counters (requests by route pattern, sign-ins by outcome, 429s,
 * 503s, mail), the admission gate's gauges, and the process metrics. Each app counts in a registry of its own. `serve --metrics-port` puts them on
 * a listener of their own, over real HTTP.
 */
import { createServer } from "node:net";
import { register as globalRegistry } from "prom-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../server/config.js";
import { AuthError } from "../../server/errors.js";
import { createLogger } from "../../server/logger.js";
import { signInOutcome, socialCallbackOutcome } from "../../server/metrics/metrics.js";
import { startServer } from "../../server/serve.js";
import { createTestApp, type TestApp } from "../helpers/app.js";
import { scratchDirectory, startServe } from "../helpers/cli.js";
import { createClient } from "../helpers/client.js";
import { createTestDatabase } from "../helpers/database.js";

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const NAME = "[a-zA-Z_:][a-zA-Z0-9_:]*";
const SAMPLE_LINE = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (\\S+)$`);
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"(,|$)/y;

/** The samples of a text exposition; throws on any line that is not one. */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (line === "") continue;
    if (line.startsWith("#")) {
      if (!new RegExp(`^# (HELP ${NAME} .*|TYPE ${NAME} (counter|gauge|histogram))$`).test(line)) {
        throw new Error(`not a HELP or TYPE line: ${line}`);
      }
      continue;
    }
    const match = SAMPLE_LINE.exec(line);
    const value = Number(match?.[3]?.replace("+Inf", "Infinity"));
    if (!match?.[1] || Number.isNaN(value)) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    const body = match[2] ?? "";
    LABEL.lastIndex = 0;
    while (LABEL.lastIndex < body.length) {
      const label = LABEL.exec(body);
      if (!label?.[1] || label[2] === undefined) throw new Error(`bad labels: ${line}`);
      labels[label[1]] = label[2];
    }
    samples.push({ name: match[1], labels, value });
  }
  return samples;
}

/** The value of the one sample named `name` whose labels include `labels`. */
function sampleValue(
  samples: Sample[],
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const found = samples.filter(
    (sample) =>
      sample.name === name &&
      Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
  if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)}: several samples`);
  return found[0]?.value;
}

async function scrape(t: TestApp): Promise<Sample[]> {
  const response = await t.app.inject({ method: "GET", url: "/metrics" });
  expect(response.statusCode).toBe(200);
  return parseExposition(response.body);
}

const PASSWORD = "metrics-password-1";

describe("metrics off (the default)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it("serves no /metrics and counts nothing", async () => {
    expect(t.app.authContext.metrics).toBeNull();
    const response = await t.app.inject({ method: "GET", url: "/metrics" });
    // The pages' not-found page, or the API's 404 where the pages are not built.
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain("# TYPE");
  });
});

describe("metrics on the main listener", () => {
  let t: TestApp;
  let other: TestApp;
  beforeAll(async () => {
    [t, other] = await Promise.all([
      createTestApp({
        config: {
          metrics: { enabled: true },
          rateLimit: { enabled: true },
          emailVerification: { sendOnSignUp: true },
          socialProviders: { github: { clientId: "github-id", clientSecret: "github-secret" } },
        },
        // Posted id tokens checked here: "good" is Lin's, anything else is refused.
        social: {
          verifyIdToken: async (_provider, idToken) => {
            if (idToken.token !== "good") throw new AuthError("INVALID_TOKEN", { status: 401 });
            const profile = {
              id: "lin-1",
              email: "lin@example.com",
              emailVerified: true,
              name: "Lin",
              image: null,
            };
            return { profile, tokens: { accessToken: "provider-access-token" } };
          },
        },
        // A 503 SERVICE_UNAVAILABLE through the error handler, as shedding answers.
        extend: (app) => {
          app.get("/overloaded", async () => {
            throw new AuthError("SERVICE_UNAVAILABLE");
          });
        },
      }),
      // Mail goes nowhere (nothing listens on port 1): every delivery fails.
      createTestApp({
        config: {
          metrics: { enabled: true },
          emailVerification: { sendOnSignUp: true },
          mail: { smtpUrl: "smtp://127.0.0.1:1" },
        },
      }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([t?.close(), other?.close()]);
  });

  it("counts requests by route pattern, sign-ins by outcome, 429s, 503s and mail", async () => {
    const client = createClient(t.app);
    const email = "ada@example.com";
    const signUp = await client.post("/sign-up/email", { name: "Ada", email, password: PASSWORD });
    expect(signUp.statusCode).toBe(200);
    const signIn = (password: string) => client.post("/sign-in/email", { email, password });
    expect((await signIn(PASSWORD)).statusCode).toBe(200);
    expect((await signIn("wrong-password-1")).statusCode).toBe(401);
    expect((await signIn("wrong-password-2")).statusCode).toBe(401);
    // The fourth within 10 s: the rate limiter answers before any sign-in is tried.
    expect((await signIn(PASSWORD)).statusCode).toBe(429);
    const token = "secret-reset-token-abc123";
    const reset = await client.get(`/reset-password/${token}`, {
      query: { callbackURL: "/reset" },
    });
    expect(reset.statusCode).toBe(302);
    const unknown = "/api/auth/no/such/path";
    expect((await t.app.inject({ method: "GET", url: unknown })).statusCode).toBe(404);
    expect((await t.app.inject({ method: "GET", url: "/overloaded" })).statusCode).toBe(503);
    // A callback of a provider that is not configured: a social sign-in that failed.
    expect((await client.get("/callback/nowhere", { query: { state: "x" } })).statusCode).toBe(302);

    const response = await t.app.inject({ method: "GET", url: "/metrics" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/plain; version=0.0.4; charset=utf-8");
    const samples = parseExposition(response.body);

    const requests = (method: string, route: string, status: string) =>
      sampleValue(samples, "authd_http_requests_total", { method, route, status });
    expect(requests("POST", "/api/auth/sign-up/email", "200")).toBe(1);
    expect(requests("POST", "/api/auth/sign-in/email", "200")).toBe(1);
    expect(requests("POST", "/api/auth/sign-in/email", "401")).toBe(2);
    expect(requests("POST", "/api/auth/sign-in/email", "429")).toBe(1);
    expect(requests("GET", "/api/auth/reset-password/:token", "302")).toBe(1);
    expect(requests("GET", "unmatched", "404")).toBe(1);
    expect(requests("GET", "/overloaded", "503")).toBe(1);
    // Route patterns only: no URL, so no token, ever becomes a label.
    expect(response.body).not.toContain(token);
    expect(response.body).not.toContain(unknown);
    expect(
      sampleValue(samples, "authd_http_request_duration_seconds_count", {
        method: "POST",
        route: "/api/auth/sign-in/email",
      }),
    ).toBe(4);
    expect(
      sampleValue(samples, "authd_http_request_duration_seconds_bucket", {
        method: "POST",
        route: "/api/auth/sign-in/email",
        le: "+Inf",
      }),
    ).toBe(4);

    const signIns = (method: string, outcome: string) =>
      sampleValue(samples, "authd_sign_ins_total", { method, outcome });
    expect(signIns("email", "success")).toBe(1);
    expect(signIns("email", "invalid_credentials")).toBe(2);
    expect(signIns("email", "banned")).toBe(0);
    expect(signIns("social", "rejected")).toBe(1);
    expect(signIns("social", "success")).toBe(0);

    expect(
      sampleValue(samples, "authd_rate_limit_hits_total", { route: "/api/auth/sign-in/email" }),
    ).toBe(1);
    expect(sampleValue(samples, "authd_requests_shed_total", { reason: "unavailable" })).toBe(1);
    expect(
      sampleValue(samples, "authd_mail_sent_total", { kind: "verification", outcome: "sent" }),
    ).toBe(1);
    expect(t.smtp.messages).toHaveLength(1);

    // The admission gate, read at each scrape (the scrape itself is outside it).
    expect(sampleValue(samples, "authd_requests_admitted", { state: "in_flight" })).toBe(0);
    expect(sampleValue(samples, "authd_requests_admitted", { state: "queued" })).toBe(0);
    expect(sampleValue(samples, "authd_requests_admitted_max")).toBe(40);

    // The database pool (the test app opens 4 connections): no transaction holds one
    // between requests.
    expect(sampleValue(samples, "authd_database_connections", { state: "leased" })).toBe(0);
    expect(sampleValue(samples, "authd_database_connections", { state: "shared" })).toBe(4);
    expect(sampleValue(samples, "authd_database_transactions_waiting")).toBe(0);

    // The process metrics, under prom-client's default names.
    expect(sampleValue(samples, "process_resident_memory_bytes")).toBeGreaterThan(0);
    expect(sampleValue(samples, "process_cpu_seconds_total")).toBeGreaterThan(0);
    expect(sampleValue(samples, "nodejs_heap_size_used_bytes")).toBeGreaterThan(0);
    expect(sampleValue(samples, "nodejs_version_info", { version: process.version })).toBe(1);
  });

  it("counts the connections transactions hold and the transactions waiting for one", async () => {
    const held = await Promise.all(Array.from({ length: 4 }, () => t.db.sql.reserve()));
    const waiting = t.db.sql.reserve();
    try {
      const samples = await scrape(t);
      expect(sampleValue(samples, "authd_database_connections", { state: "leased" })).toBe(4);
      expect(sampleValue(samples, "authd_database_connections", { state: "shared" })).toBe(0);
      expect(sampleValue(samples, "authd_database_transactions_waiting")).toBe(1);
    } finally {
      for (const tx of held) tx.release();
      (await waiting).release();
    }
    const samples = await scrape(t);
    expect(sampleValue(samples, "authd_database_connections", { state: "leased" })).toBe(0);
  });

  it("counts a banned user's sign-in as banned", async () => {
    const client = createClient(t.app, { origin: "http://localhost:3000" });
    const email = "banned@example.com";
    await client.post("/sign-up/email", { name: "B", email, password: PASSWORD });
    await t.db.sql`update "user" set banned = true where email = ${email}`;
    // Another address: the sign-in limit counts per address and route.
    const response = await t.app.inject({
      method: "POST",
      url: "/api/auth/sign-in/email",
      payload: { email, password: PASSWORD },
      headers: { origin: "http://localhost:3000" },
      remoteAddress: "10.0.0.2",
    });
    expect(response.json()).toMatchObject({ code: "BANNED_USER" });
    expect(
      sampleValue(await scrape(t), "authd_sign_ins_total", { method: "email", outcome: "banned" }),
    ).toBe(1);
  });

  it("counts social sign-ins with an id token", async () => {
    const client = createClient(t.app);
    const signIn = (token: string) =>
      client.post("/sign-in/social", { provider: "github", idToken: { token } });
    expect((await signIn("good")).statusCode).toBe(200);
    expect((await signIn("forged")).statusCode).toBe(401);
    const samples = await scrape(t);
    const social = (outcome: string) =>
      sampleValue(samples, "authd_sign_ins_total", { method: "social", outcome });
    expect(social("success")).toBe(1);
    expect(social("invalid_credentials")).toBe(1);
    // The failed callback of the first test.
    expect(social("rejected")).toBe(1);
  });

  it("serves the scrape with no CORS, no rate limit and outside the OpenAPI document", async () => {
    const response = await t.app.inject({
      method: "GET",
      url: "/metrics",
      headers: { origin: "http://localhost:3000" },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers["access-control-allow-origin"]).toBeUndefined();
    expect(response.headers["x-ratelimit-limit"]).toBeUndefined();
    expect(response.headers["cache-control"]).toBe("no-store");
    const openapi = await t.app.inject({ method: "GET", url: "/api/auth/openapi.json" });
    expect(openapi.statusCode).toBe(200);
    expect(Object.keys(openapi.json().paths)).not.toContain("/metrics");
  });

  it("keeps each app's counts its own, and leaves prom-client's global registry empty", async () => {
    expect(t.app.authContext.metrics).not.toBe(other.app.authContext.metrics);
    const client = createClient(other.app);
    await client.post("/sign-up/email", {
      name: "Grace",
      email: "grace@example.com",
      password: PASSWORD,
    });
    const mine = await scrape(t);
    const theirs = await scrape(other);
    const signUps = { method: "POST", route: "/api/auth/sign-up/email", status: "200" };
    expect(sampleValue(theirs, "authd_http_requests_total", signUps)).toBe(1);
    // Both sign-ups of the first app, none of the other's.
    expect(sampleValue(mine, "authd_http_requests_total", signUps)).toBe(2);
    expect(
      sampleValue(theirs, "authd_sign_ins_total", { method: "email", outcome: "success" }),
    ).toBe(0);
    // Each app's own mail: the other's failed, the first's went out.
    expect(
      sampleValue(theirs, "authd_mail_sent_total", { kind: "verification", outcome: "failed" }),
    ).toBe(1);
    expect(
      sampleValue(theirs, "authd_mail_sent_total", { kind: "verification", outcome: "sent" }),
    ).toBeUndefined();
    expect(
      sampleValue(mine, "authd_mail_sent_total", { kind: "verification", outcome: "failed" }),
    ).toBeUndefined();
    expect(globalRegistry.getMetricsAsArray()).toEqual([]);
  });
});

describe("sign-in outcomes", () => {
  it("reads an error as what it says about the attempt", () => {
    expect(signInOutcome(new AuthError("INVALID_EMAIL_OR_PASSWORD"))).toBe("invalid_credentials");
    expect(signInOutcome(new AuthError("INVALID_TOKEN"))).toBe("invalid_credentials");
    expect(signInOutcome(new AuthError("BANNED_USER"))).toBe("banned");
    expect(signInOutcome(new AuthError("EMAIL_NOT_VERIFIED"))).toBe("unverified");
    expect(signInOutcome(new AuthError("SIGNUP_DISABLED"))).toBe("rejected");
    expect(signInOutcome(new AuthError("PROVIDER_UNAVAILABLE"))).toBe("error");
    expect(signInOutcome(new Error("connection reset"))).toBe("error");
  });

  it("reads a social callback's redirect code", () => {
    expect(socialCallbackOutcome("BANNED_USER")).toBe("banned");
    expect(socialCallbackOutcome("invalid_code")).toBe("invalid_credentials");
    expect(socialCallbackOutcome("internal_server_error")).toBe("error");
    expect(socialCallbackOutcome("access_denied")).toBe("rejected");
  });
});

describe("metrics configuration", () => {
  const load = (env: Record<string, string>, overrides: Record<string, unknown> = {}) =>
    loadConfig({ cwd: scratchDirectory(), env, overrides });
  const problems = async (promise: Promise<unknown>) => {
    try {
      await promise;
    } catch (error) {
      if (error instanceof ConfigError) return error.problems;
      throw error;
    }
    throw new Error("expected a ConfigError");
  };

  it("is off at /metrics by default; the environment turns it on and gives a port", async () => {
    expect((await load({})).config.metrics).toEqual({ enabled: false, path: "/metrics" });
    const loaded = await load({ AUTHD_METRICS_ENABLED: "true", AUTHD_METRICS_PORT: "9464" });
    expect(loaded.config.metrics).toEqual({ enabled: true, port: 9464, path: "/metrics" });
    expect(loaded.envSources["metrics.enabled"]).toBe("AUTHD_METRICS_ENABLED");
    expect((await load({ AUTHD_METRICS_ENABLED: "0" })).config.metrics.enabled).toBe(false);
    expect(await problems(load({ AUTHD_METRICS_ENABLED: "yes" }))).toEqual([
      "AUTHD_METRICS_ENABLED: expected a boolean, got a string",
    ]);
  });

  it("refuses a path the API, a probe or a page holds, and the API's own port", async () => {
    const on = (metrics: Record<string, unknown>, more: Record<string, unknown> = {}) =>
      problems(load({}, { metrics: { enabled: true, ...metrics }, ...more }));
    expect(await on({ path: "/api/auth/metrics" })).toEqual([
      expect.stringContaining(
        'metrics.path: expected a path outside the API\'s basePath "/api/auth"',
      ),
    ]);
    expect(await on({ path: "/readyz" })).toEqual([
      expect.stringContaining("metrics.path: expected a path no probe or page uses"),
    ]);
    expect(await on({ path: "/sign-in" })).toHaveLength(1);
    expect(await on({ path: "/metrics/" })).toHaveLength(1);
    expect(await on({ port: 3000 })).toEqual([
      expect.stringContaining("metrics.port: expected a port other than server.port (3000)"),
    ]);
    // On a port of their own, the path is theirs to choose.
    expect(
      (await load({}, { metrics: { enabled: true, port: 9464, path: "/readyz" } })).config.metrics,
    ).toMatchObject({ port: 9464, path: "/readyz" });
  });
});

describe("serve --metrics-port", () => {
  it("serves the metrics on their own port, and not on the API's", async () => {
    const database = await createTestDatabase();
    const server = await startServe(["--migrate", "--metrics-port", "0"], {
      env: {
        DATABASE_URL: database.url,
        AUTHD_SECRET: "metrics-secret-0123456789-0123456789-abcdef",
      },
    });
    try {
      const line = server
        .output()
        .split("\n")
        .find((text) => text.includes('"msg":"authd listening"'));
      const metricsUrl = JSON.parse(line ?? "{}").metricsUrl as string;
      expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      expect(metricsUrl.startsWith(`${server.url}/`)).toBe(false);

      expect((await fetch(`${server.url}/api/auth/ok`)).status).toBe(200);
      expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
      const response = await fetch(metricsUrl);
      expect(response.status).toBe(200);
      const samples = parseExposition(await response.text());
      const ok = { method: "GET", route: "/api/auth/ok", status: "200" };
      expect(sampleValue(samples, "authd_http_requests_total", ok)).toBe(1);
      // A scrape is no request of the API's: the metrics listener counts nothing.
      expect(samples.some((sample) => sample.labels.route === "/metrics")).toBe(false);
      expect(sampleValue(samples, "nodejs_eventloop_lag_p99_seconds")).toBeGreaterThanOrEqual(0);
    } finally {
      expect(await server.stop()).toBe(0);
      await database.drop();
    }
  });
});

/** A port nothing listens on right now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== "object" || !address) throw new Error("no port");
  return address.port;
}

describe("metrics on the management port", () => {
  it("shares the listener when both name the same port", async () => {
    const database = await createTestDatabase();
    const port = await freePort();
    const loaded = await loadConfig({
      cwd: scratchDirectory(),
      env: {},
      overrides: {
        secret: "metrics-secret-0123456789-0123456789-abcdef",
        database: { url: database.url },
        server: { host: "127.0.0.1", port: 0, drainDelay: 0 },
        log: { level: "silent" },
        metrics: { enabled: true, port },
      },
    });
    const server = await startServer(loaded, {
      logger: createLogger(loaded.config),
      migrations: "apply",
      managementPort: port,
    });
    try {
      expect(server.managementPort).toBe(port);
      expect(server.metricsPort).toBe(port);
      expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
      const response = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain("# TYPE authd_http_requests_total counter");
    } finally {
      await server.close();
      await database.drop();
    }
  });
});
