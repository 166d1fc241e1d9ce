/**
 * Admission control: with every slot taken and the queue full, a request is answered
 * 503 SERVICE_UNAVAILABLE with Retry-After at once; a queued request whose wait runs out
 * is answered 503 too; the probes are never held up; slots come back when answers go
 * out. A statement past `database.statementTimeout` answers 503, not 500.
 *
 * Requests are held by a lock another connection takes on the user table, so the test
 * decides when they finish.
 */
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.js";
import { createClient } from "../helpers/client.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `condition` holds (the gate's counts), for at most 10 s on a busy machine. */
async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = performance.now() + 10_000;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(5);
  }
}

/**
 * An app with two slots and two places in the queue, whose queued requests wait at most
 * `queueTimeout` seconds, and the cookie of a user signed up on it.
 */
async function gatedApp(queueTimeout: number): Promise<{ t: TestApp; cookie: string }> {
  const t = await createTestApp({
    config: {
      server: { maxConcurrentRequests: 2, maxQueuedRequests: 2, queueTimeout },
      metrics: { enabled: true },
    },
  });
  const client = createClient(t.app);
  const signUp = await client.post("/sign-up/email", {
    email: "held@example.com",
    password: "password-123456",
    name: "Held",
  });
  expect(signUp.statusCode).toBe(200);
  const cookie = [...client.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  return { t, cookie };
}

/**
 * Holds an exclusive lock on the user table from a connection of its own, so every
 * request that reads users waits until `release`.
 */
async function lockUserTable(url: string) {
  const locker = postgres(url, { max: 1, onnotice: () => {} });
  let unlock: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    unlock = resolve;
  });
  let locked: () => void = () => {};
  const lockTaken = new Promise<void>((resolve) => {
    locked = resolve;
  });
  const holding = locker.begin(async (tx) => {
    await tx`lock table "user" in access exclusive mode`;
    locked();
    await released;
  });
  await lockTaken;
  let ended: Promise<void> | undefined;
  return {
    /** Lets the waiting requests through; awaited, also ends the connection. */
    release(): Promise<void> {
      unlock();
      ended ??= holding.then(
        () => locker.end(),
        () => locker.end(),
      );
      return ended;
    },
  };
}

describe("admission control", () => {
  let t: TestApp;
  let cookie: string;

  beforeAll(async () => {
    ({ t, cookie } = await gatedApp(0.5));
  });

  afterAll(async () => {
    await t?.close();
  });

  const getSession = () =>
    t.app.inject({
      method: "GET",
      url: "/api/auth/get-session",
      headers: { cookie, origin: "http://localhost:3000" },
    });

  it("serves two at once, queues two, sheds the rest at once, and recovers", async () => {
    const lock = await lockUserTable(t.testDatabase.url);
    try {
      const startedAt = performance.now();
      const timed = () =>
        getSession().then((response) => ({
          response,
          ms: performance.now() - startedAt,
        }));
      // Two take the slots (and wait on the lock), two queue, two are shed.
      const requests = Array.from({ length: 6 }, timed);
      await until(() => t.app.admission.stats().waiting === 2, "two requests wait");
      expect(t.app.admission.stats()).toMatchObject({ inFlight: 2, waiting: 2, max: 2 });
      // The probes are outside the gate.
      expect((await t.app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);

      // The queued two wait past the queue timeout (0.5 s).
      await until(() => t.app.admission.stats().waiting === 0, "the queued two are shed");
      expect(t.app.admission.stats()).toMatchObject({ inFlight: 2, waiting: 0 });
      const releasedAt = performance.now() - startedAt;
      void lock.release();
      const outcomes = await Promise.all(requests);
      const statuses = outcomes.map(({ response }) => response.statusCode).sort();
      expect(statuses).toEqual([200, 200, 503, 503, 503, 503]);
      const shed = outcomes.filter(({ response }) => response.statusCode === 503);
      for (const { response } of shed) {
        expect(response.json()).toMatchObject({ code: "SERVICE_UNAVAILABLE" });
        expect(response.headers["retry-after"]).toBe("1");
      }
      // Shed at once (queue full: before any wait could run out), or when the wait ran
      // out (not before it), never after the lock went.
      const times = shed.map(({ ms }) => ms).sort((a, b) => a - b);
      expect(times[1]).toBeLessThan(500);
      expect(times[2]).toBeGreaterThanOrEqual(490);
      expect(times[3]).toBeLessThan(releasedAt);
      // Counted by reason.
      const scraped = (await t.app.inject({ method: "GET", url: "/metrics" })).body;
      expect(scraped).toContain('authd_requests_shed_total{reason="queue_full"} 2');
      expect(scraped).toContain('authd_requests_shed_total{reason="queue_timeout"} 2');
    } finally {
      await lock.release();
    }
    // Every slot is back.
    expect(t.app.admission.stats()).toMatchObject({ inFlight: 0, waiting: 0 });
    expect((await getSession()).statusCode).toBe(200);
  });

  it("gives back the slot of a request whose handler failed", async () => {
    const bad = await t.app.inject({
      method: "POST",
      url: "/api/auth/sign-in/email",
      headers: { origin: "http://localhost:3000", "content-type": "application/json" },
      payload: "{not json",
    });
    expect(bad.statusCode).toBe(400);
    expect(t.app.admission.stats()).toMatchObject({ inFlight: 0, waiting: 0 });
  });
});

// Its own app: the queued sign-ins wait as long as releasing the lock takes, however
// busy the machine.
describe("admission control with a long queue timeout", () => {
  it("serves queued requests that carry a body once a slot frees", async () => {
    const { t, cookie } = await gatedApp(30);
    const lock = await lockUserTable(t.testDatabase.url);
    try {
      // Over a real socket: a request whose body has been read is a finished stream
      // while its client still waits, which must not pass for a client that left.
      const address = await t.app.listen({ host: "127.0.0.1", port: 0 });
      const send = (path: string, init: RequestInit = {}) =>
        fetch(`${address}/api/auth${path}`, {
          ...init,
          headers: { origin: "http://localhost:3000", cookie, ...init.headers },
        }).then((response) => response.status);
      const held = [send("/get-session"), send("/get-session")];
      await until(() => t.app.admission.stats().inFlight === 2, "two requests hold the slots");
      const signIns = [1, 2].map(() =>
        send("/sign-in/email", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email: "held@example.com", password: "password-123456" }),
        }),
      );
      await until(() => t.app.admission.stats().waiting === 2, "two sign-ins wait");
      expect(t.app.admission.stats()).toMatchObject({ inFlight: 2, waiting: 2 });
      void lock.release();
      expect(await Promise.all([...held, ...signIns])).toEqual([200, 200, 200, 200]);
      expect(t.app.admission.stats()).toMatchObject({ inFlight: 0, waiting: 0 });
    } finally {
      await lock.release();
      await t.close();
    }
  }, 30_000);
});

describe("statement timeout", () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ config: { database: { statementTimeout: 1 } } });
  });

  afterAll(async () => {
    await t?.close();
  });

  it("answers 503 when a statement runs past it, and the database stays available", async () => {
    const client = createClient(t.app);
    const lock = await lockUserTable(t.testDatabase.url);
    try {
      const signUp = await client.post("/sign-up/email", {
        email: "slow@example.com",
        password: "password-123456",
        name: "Slow",
      });
      expect(signUp.statusCode).toBe(503);
      expect(signUp.json()).toMatchObject({ code: "SERVICE_UNAVAILABLE" });
      expect(signUp.headers["retry-after"]).toBe("1");
    } finally {
      await lock.release();
    }
    // A slow statement is overload, not an outage: nothing else is shed.
    expect(t.app.database.available).toBe(true);
    const again = await client.post("/sign-up/email", {
      email: "slow@example.com",
      password: "password-123456",
      name: "Slow",
    });
    expect(again.statusCode).toBe(200);
  });
});
