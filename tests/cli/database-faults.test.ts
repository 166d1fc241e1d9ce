/**
 * `authd serve` while its PostgreSQL stops and comes back under load: answers during
 * the outage are 503 SERVICE_UNAVAILABLE with Retry-After within a second, /readyz says
 * so within a second while /healthz stays up, the outage is logged once rather than
 * once per request, authd serves again within 2 s of the database's return without a
 * restart, and no acknowledged sign-up is lost or half-written.
 *
 * The PostgreSQL is the test's own (started with pg_ctl, stopped with a fast shutdown as
 * an operator's restart does); about 15 s.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAuthd, type ServeProcess, startServe } from "../helpers/cli.js";
import { type OwnPostgres, startOwnPostgres } from "../helpers/own-postgres.js";

const SECRET = "database-faults-secret-0123456789-0123456789";
const ORIGIN = "http://localhost:3000";
const CLIENTS = 20;
const OUTAGE_MS = 4000;

let pg: OwnPostgres;
let dir: string;
let serve: ServeProcess | undefined;

beforeAll(async () => {
  pg = await startOwnPostgres();
  dir = await mkdtemp(path.join(tmpdir(), "authd-faults-"));
  await writeFile(
    path.join(dir, "authd.config.json"),
    JSON.stringify({
      baseURL: ORIGIN,
      rateLimit: { enabled: false },
      log: { requests: false },
    }),
  );
  const migrated = await runAuthd(["migrate"], {
    cwd: dir,
    env: { DATABASE_URL: pg.url, AUTHD_SECRET: SECRET },
  });
  expect(migrated.code, migrated.stderr).toBe(0);
}, 60_000);

afterAll(async () => {
  await serve?.stop("SIGKILL");
  await pg?.remove();
  if (dir) await rm(dir, { recursive: true, force: true });
});

interface Answer {
  sentAt: number;
  receivedAt: number;
  status: number;
  body: string;
  retryAfter?: string;
  cookie?: string;
}

function send(
  url: string,
  agent: http.Agent,
  request: { method: string; path: string; body?: unknown; cookie?: string },
): Promise<Answer> {
  const sentAt = Date.now();
  const body = request.body === undefined ? undefined : JSON.stringify(request.body);
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      `${url}${request.path}`,
      {
        agent,
        method: request.method,
        headers: {
          origin: ORIGIN,
          ...(body ? { "content-type": "application/json" } : {}),
          ...(request.cookie ? { cookie: request.cookie } : {}),
        },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          text += chunk;
        });
        response.on("end", () => {
          const setCookie = response.headers["set-cookie"]?.[0];
          resolve({
            sentAt,
            receivedAt: Date.now(),
            status: response.statusCode ?? 0,
            body: text,
            retryAfter: response.headers["retry-after"] as string | undefined,
            cookie: setCookie?.split(";")[0],
          });
        });
      },
    );
    outgoing.on("error", (error: Error) =>
      reject(new Error(`${request.method} ${url}${request.path}: ${error.message}`)),
    );
    outgoing.end(body);
  });
}

describe("PostgreSQL stopping and returning under load", () => {
  it("sheds with 503 during the outage, recovers within 2 s and loses nothing", async () => {
    serve = await startServe([], {
      cwd: dir,
      env: { DATABASE_URL: pg.url, AUTHD_SECRET: SECRET, LOG_LEVEL: "info" },
    });
    const url = serve.url;
    const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS + 4 });
    const probeAgent = new http.Agent({ keepAlive: true, maxSockets: 4 });

    // One signed-in user whose session every get-session reads.
    const first = await send(url, agent, {
      method: "POST",
      path: "/api/auth/sign-up/email",
      body: { email: "reader@example.com", password: "password-123456", name: "Reader" },
    });
    expect(first.status, first.body).toBe(200);
    const cookie = first.cookie as string;

    const answers: Answer[] = [];
    const acknowledged: string[] = [];
    const failures: string[] = [];
    let running = true;
    const client = async (index: number) => {
      let n = 0;
      while (running) {
        n++;
        const signUp = (n + index) % 4 === 0;
        const email = `load-${index}-${n}-${randomBytes(3).toString("hex")}@example.com`;
        try {
          const answer = signUp
            ? await send(url, agent, {
                method: "POST",
                path: "/api/auth/sign-up/email",
                body: { email, password: "password-123456", name: `Load ${index}` },
              })
            : await send(url, agent, { method: "GET", path: "/api/auth/get-session", cookie });
          answers.push(answer);
          if (signUp && answer.status === 200) acknowledged.push(email);
          // Clients back off as Retry-After asks, briefly.
          if (answer.status === 503) await new Promise((resolve) => setTimeout(resolve, 50));
        } catch (error) {
          failures.push((error as Error).message);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
    };
    const clients = Array.from({ length: CLIENTS }, (_, index) => client(index));

    await new Promise((resolve) => setTimeout(resolve, 1500));
    const stoppedAt = Date.now();
    await pg.stop();
    const stopDone = Date.now();

    // Probes during the outage, on their own connections.
    const ready = await send(url, probeAgent, { method: "GET", path: "/readyz" }).catch(
      (error: Error) => {
        throw new Error(`${error.message}\n${serve?.output()}`);
      },
    );
    const health = await send(url, probeAgent, { method: "GET", path: "/healthz" });

    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS - (Date.now() - stoppedAt)));
    await pg.start();
    const returnedAt = Date.now();
    // Wait for serving to resume, then a little more load.
    let firstServedAt: number | undefined;
    while (Date.now() - returnedAt < 10_000) {
      const ok = answers.find((answer) => answer.sentAt >= returnedAt && answer.status === 200);
      if (ok) {
        firstServedAt = ok.receivedAt;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
    running = false;
    await Promise.all(clients);
    const readyAfter = await send(url, probeAgent, { method: "GET", path: "/readyz" });
    agent.destroy();
    probeAgent.destroy();

    // The probes: readiness fails fast while liveness stays up; ready again after.
    expect(ready.status).toBe(503);
    expect(ready.receivedAt - ready.sentAt).toBeLessThan(1000);
    expect(health.status).toBe(200);
    expect(readyAfter.status).toBe(200);

    // No connection broke and nothing but 200 and 503 was answered.
    expect(failures).toEqual([]);
    const statuses = new Set(answers.map((answer) => answer.status));
    expect([...statuses].filter((status) => status !== 200 && status !== 503)).toEqual([]);
    // Every 503 says what it is and when to come back.
    const shed = answers.filter((answer) => answer.status === 503);
    expect(shed.length).toBeGreaterThan(0);
    for (const answer of shed) {
      expect(JSON.parse(answer.body)).toMatchObject({ code: "SERVICE_UNAVAILABLE" });
      expect(Number(answer.retryAfter)).toBeGreaterThan(0);
    }
    // During the outage, every answer came within a second.
    const duringOutage = answers.filter(
      (answer) => answer.sentAt >= stopDone && answer.sentAt < returnedAt,
    );
    expect(duringOutage.length).toBeGreaterThan(CLIENTS);
    const slowest = Math.max(...duringOutage.map((answer) => answer.receivedAt - answer.sentAt));
    expect(slowest).toBeLessThan(1000);
    // Serving again within 2 s of the database's return.
    expect(firstServedAt).toBeDefined();
    expect((firstServedAt as number) - returnedAt).toBeLessThan(2000);

    // One degradation line and one recovery line, no stack per request.
    const log = serve.output();
    expect(log.match(/database unavailable/g)?.length ?? 0).toBe(1);
    expect(log).toMatch(/database available again/);
    expect(log).not.toMatch(/unhandled error/);

    // Nothing acknowledged was lost, nothing half-written remains.
    const sql = postgres(pg.url, { max: 1, onnotice: () => {} });
    try {
      const rows = await sql<{ email: string }[]>`
        select u.email from "user" u
        join account a on a.user_id = u.id and a.provider_id = 'credential'
        where u.email = any(${acknowledged})`;
      expect(rows.length).toBe(acknowledged.length);
      const orphans = await sql`
        select u.id from "user" u
        where not exists (select 1 from account a where a.user_id = u.id)`;
      expect(orphans.length).toBe(0);
    } finally {
      await sql.end();
    }
    expect(await serve.stop()).toBe(0);
    serve = undefined;
  }, 60_000);
});
