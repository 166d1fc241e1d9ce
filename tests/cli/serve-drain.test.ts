/**
 * `authd serve` shutting down under load: /readyz turns 503 at once, requests are served
 * for the drain delay with `Connection: close`, then the listener closes without
 * resetting any request a client had already sent, and the process exits 0.
 *
 * The load can tell: run with `--drain-delay 0` (the listener and the idle kept-alive
 * connections closed at once), the same clients see a dozen or more requests reset.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSlowPost, runAuthd, type ServeProcess, startServe } from "../helpers/cli.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";

const SECRET = "serve-drain-secret-0123456789-0123456789";
const CLIENTS = 20;
const DRAIN_DELAY_MS = 1000;
const SHUTDOWN_TIMEOUT_MS = 5000;

let testDatabase: TestDatabase;
let dir: string;

beforeAll(async () => {
  testDatabase = await createTestDatabase();
  dir = await mkdtemp(path.join(tmpdir(), "authd-drain-"));
  // The load would trip the default rate limit and flood the log with request lines.
  await writeFile(
    path.join(dir, "authd.config.json"),
    JSON.stringify({ rateLimit: { enabled: false }, log: { requests: false } }),
  );
  const migrated = await runAuthd(["migrate"], {
    cwd: dir,
    env: { DATABASE_URL: testDatabase.url, AUTHD_SECRET: SECRET },
  });
  expect(migrated.code, migrated.stderr).toBe(0);
});

afterAll(async () => {
  await testDatabase?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

interface Outcome {
  path: string;
  /** Date.now() just before the request was handed to its connection. */
  sentAt: number;
  /** Date.now() when the whole answer had arrived. */
  receivedAt?: number;
  status?: number;
  connection?: string;
  body?: string;
  /** The error's code (ECONNREFUSED, ECONNRESET, …) when no answer came. */
  error?: string;
  /** On a connection of its own, opened for it, rather than a kept-alive one. */
  newConnection?: boolean;
  /** Milliseconds from sending to the error. */
  failedAfter?: number;
}

function send(
  url: string,
  options: { path: string; agent: http.Agent | false; method?: string; headers?: object },
  body?: string,
): Promise<Outcome> {
  const sentAt = Date.now();
  return new Promise((resolve) => {
    const request = http.request(
      `${url}${options.path}`,
      {
        agent: options.agent,
        method: options.method ?? "GET",
        headers: { ...options.headers, ...(body ? { "content-type": "application/json" } : {}) },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          text += chunk;
        });
        response.on("end", () =>
          resolve({
            path: options.path,
            sentAt,
            receivedAt: Date.now(),
            status: response.statusCode,
            connection: response.headers.connection,
            body: text,
          }),
        );
        response.on("error", failed);
      },
    );
    let newConnection = true;
    request.on("socket", (socket) => {
      newConnection = socket.connecting;
    });
    const failed = (error: NodeJS.ErrnoException) =>
      resolve({
        path: options.path,
        sentAt,
        error: error.code ?? error.message,
        newConnection,
        failedAfter: Date.now() - sentAt,
      });
    request.on("error", failed);
    request.end(body);
  });
}

/** When the server logged a line starting with `message` (epoch ms, like Date.now()). */
function loggedAt(server: ServeProcess, message: string): number {
  const line = server
    .output()
    .split("\n")
    .find((text) => text.includes(`"msg":"${message}`));
  if (!line) throw new Error(`no "${message}" line:\n${server.output()}`);
  return (JSON.parse(line) as { time: number }).time;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("authd serve draining under load", () => {
  it("serves through the drain delay, resets nothing, exits 0", async () => {
    const server = await startServe(
      ["--drain-delay", `${DRAIN_DELAY_MS}ms`, "--shutdown-timeout", `${SHUTDOWN_TIMEOUT_MS}ms`],
      { cwd: dir, env: { DATABASE_URL: testDatabase.url, AUTHD_SECRET: SECRET } },
    );
    const signUp = (email: string) =>
      send(
        server.url,
        { path: "/api/auth/sign-up/email", agent: false, method: "POST" },
        JSON.stringify({ email, password: "a-long-password", name: "Drain" }),
      );
    const first = await signUp("drain-first@example.com");
    expect(first.status, first.body).toBe(200);
    // Half the clients look their session up (a database round trip), half ask /ok.
    const cookie = await (async () => {
      const response = await fetch(`${server.url}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "drain-first@example.com", password: "a-long-password" }),
      });
      expect(response.status).toBe(200);
      return response.headers
        .getSetCookie()
        .map((value) => value.split(";")[0])
        .join("; ");
    })();

    const outcomes: Outcome[] = [];
    let signalAt = Number.POSITIVE_INFINITY;
    const agents: http.Agent[] = [];
    // Answers each client had before the signal: the signal waits for every client to be
    // under way (a fixed pause is too short on a busy machine, where the cold server
    // answers slowly).
    const answeredBefore = new Array<number>(CLIENTS).fill(0);
    // Each client keeps one connection alive and sends on it back to back, until a new
    // connection is refused (the listener closed) or the test's own bound passes.
    const clients = Array.from({ length: CLIENTS }, async (_, index) => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      agents.push(agent);
      const target =
        index % 2 === 0
          ? { path: "/api/auth/get-session", agent, headers: { cookie } }
          : { path: "/api/auth/ok", agent };
      for (;;) {
        const outcome = await send(server.url, target);
        outcomes.push(outcome);
        if (outcome.status !== undefined && Date.now() < signalAt) {
          answeredBefore[index] = (answeredBefore[index] ?? 0) + 1;
        }
        if (outcome.error === "ECONNREFUSED") return;
        if (Date.now() > signalAt + SHUTDOWN_TIMEOUT_MS) return;
      }
    });

    const underWayBy = Date.now() + 10_000;
    while (answeredBefore.some((count) => count < 2)) {
      if (Date.now() > underWayBy) throw new Error(`clients not under way: ${answeredBefore}`);
      await sleep(10);
    }
    // In flight when the listener closes: its body is finished only after that.
    const slowSignUp = await openSlowPost(
      server.url,
      "/api/auth/sign-up/email",
      JSON.stringify({
        email: "drain-slow@example.com",
        password: "a-long-password",
        name: "Drain",
      }),
    );
    // A sign-up hashes a password: in flight when the signal arrives.
    const inFlightSignUp = signUp("drain-in-flight@example.com");
    await sleep(5);
    signalAt = Date.now();
    server.child.kill("SIGTERM");

    let draining: Outcome | undefined;
    let health: Outcome | undefined;
    const probes: Array<Outcome & { at: number }> = [];
    while (Date.now() < signalAt + 800) {
      const ready = await send(server.url, { path: "/readyz", agent: false });
      probes.push({ ...ready, at: Date.now() - signalAt, sentAt: ready.sentAt - signalAt });
      if (ready.status === 503) {
        draining = ready;
        health = await send(server.url, { path: "/healthz", agent: false });
        break;
      }
      await sleep(10);
    }

    while (!server.output().includes('"msg":"listener closed')) await sleep(5);
    slowSignUp.finish();

    const code = await server.exited;
    const exitedAfter = Date.now() - signalAt;
    await Promise.all(clients);
    for (const agent of agents) agent.destroy();

    // The server logs the moment it turns /readyz to 503, then when its listener closed.
    const drainingAt = loggedAt(server, "shutting down");
    const closedAt = loggedAt(server, "listener closed");
    const resets = outcomes.filter((outcome) => outcome.error && outcome.error !== "ECONNREFUSED");
    const refused = outcomes.filter((outcome) => outcome.error === "ECONNREFUSED");
    const answered = outcomes.filter((outcome) => outcome.status !== undefined);
    const duringDelay = answered.filter(
      (outcome) => outcome.sentAt > signalAt && outcome.sentAt < signalAt + DRAIN_DELAY_MS - 100,
    );
    // Told apart by when each was sent against the moment the listener closed.
    const summary = {
      sent: outcomes.length,
      answered: answered.length,
      answeredDuringDelay: duringDelay.length,
      answeredAfterClose: answered.filter((outcome) => outcome.sentAt >= closedAt).length,
      refused: refused.length,
      resetsBeforeClose: resets.filter((outcome) => outcome.sentAt < closedAt).length,
      resetsAfterClose: resets.filter((outcome) => outcome.sentAt >= closedAt).length,
      someResets: resets.slice(0, 5).map((outcome) => ({
        ...outcome,
        sentAt: outcome.sentAt - closedAt,
      })),
      drainingAfter: drainingAt - signalAt,
      listenerClosedAfter: closedAt - signalAt,
      probes,
      exitedAfter,
    };

    expect(code, server.output()).toBe(0);
    expect(exitedAfter).toBeLessThan(SHUTDOWN_TIMEOUT_MS);
    // Readiness turned at once; the probe's answer is as slow as any under this load.
    expect(drainingAt - signalAt).toBeLessThan(500);
    // No probe sent after the server turned was answered ready (one sent as the signal
    // went may still be read, and answered ready, before the signal is handled).
    const readyAfterTurn = probes.filter(
      (probe) => probe.status === 200 && signalAt + probe.sentAt > drainingAt,
    );
    expect(readyAfterTurn, JSON.stringify(probes)).toEqual([]);
    expect(draining?.body).toBe('{"status":"draining"}');
    expect(health?.status).toBe(200);
    expect((await inFlightSignUp).status).toBe(200);
    const slow = await slowSignUp.response();
    expect(slow).toMatch(/^HTTP\/1\.1 200 /);
    expect(slow.toLowerCase()).toContain("connection: close");

    // Not one request was reset, before the listener closed or after (when a request on
    // a kept-alive connection is still answered, and a new connection is refused).
    expect(resets, JSON.stringify(summary)).toEqual([]);
    // Every answer was a normal one, and the load went on through the delay.
    expect(answered.filter((outcome) => outcome.status !== 200)).toEqual([]);
    expect(duringDelay.length, JSON.stringify(summary)).toBeGreaterThan(CLIENTS);
    // Answers the server gave before it began draining kept their connections alive;
    // through the drain delay, and once the listener closed, each told its client to
    // reconnect (elsewhere); in between, the settle kept connections alive.
    const before = answered.filter((outcome) => (outcome.receivedAt ?? 0) < drainingAt);
    expect(before.length).toBeGreaterThan(CLIENTS);
    expect(before.filter((outcome) => outcome.connection !== "keep-alive")).toEqual([]);
    const toldToReconnect = answered.filter(
      (outcome) =>
        (outcome.sentAt > drainingAt && (outcome.receivedAt ?? 0) < drainingAt + DRAIN_DELAY_MS) ||
        outcome.sentAt > closedAt,
    );
    expect(toldToReconnect.length).toBeGreaterThan(CLIENTS);
    expect(toldToReconnect.filter((outcome) => outcome.connection !== "close")).toEqual([]);
    // The listener stayed open for the drain delay: only later were connections refused.
    expect(closedAt - drainingAt).toBeGreaterThanOrEqual(DRAIN_DELAY_MS);
    expect(refused.length, JSON.stringify(summary)).toBeGreaterThan(0);
    expect(refused.filter((outcome) => outcome.sentAt < signalAt + DRAIN_DELAY_MS)).toEqual([]);
  }, 30_000);

  it("Ctrl-C (SIGINT) stops at once, without the drain delay", async () => {
    const server = await startServe(["--drain-delay", "4s", "--shutdown-timeout", "10s"], {
      cwd: dir,
      env: { DATABASE_URL: testDatabase.url, AUTHD_SECRET: SECRET },
    });
    const signalled = Date.now();
    server.child.kill("SIGINT");
    expect(await server.exited).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(3000);
    expect(server.output()).not.toContain('"msg":"draining');
  });

  it("a second signal during the drain delay exits 1 at once", async () => {
    const server = await startServe(["--drain-delay", "4s", "--shutdown-timeout", "10s"], {
      cwd: dir,
      env: { DATABASE_URL: testDatabase.url, AUTHD_SECRET: SECRET },
    });
    server.child.kill("SIGTERM");
    while (!server.output().includes('"msg":"draining')) await sleep(10);
    // Still serving: the listener is open until the delay ends.
    expect((await send(server.url, { path: "/api/auth/ok", agent: false })).status).toBe(200);
    const second = Date.now();
    server.child.kill("SIGINT");
    expect(await server.exited).toBe(1);
    expect(Date.now() - second).toBeLessThan(1000);
  });
});
