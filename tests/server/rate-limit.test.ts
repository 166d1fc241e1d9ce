import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateConfig } from "../../server/config.js";
import { ruleFor } from "../../server/http/rate-limit.js";
import { createTestApp, type TestApp } from "../helpers/app.js";
import { createClient } from "../helpers/client.js";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

describe("rate-limit rules", () => {
  const config = validateConfig(
    { rateLimit: { customRules: { "/get-session": false, "/ok": { window: 1, max: 1000 } } } },
    "test",
  );

  it("has the documented defaults and special rules", () => {
    expect(ruleFor(config, "/list-sessions")).toEqual({ window: 10, max: 100 });
    expect(ruleFor(config, "/sign-in/email")).toEqual({ window: 10, max: 3 });
    expect(ruleFor(config, "/sign-up/email")).toEqual({ window: 10, max: 3 });
    expect(ruleFor(config, "/change-password")).toEqual({ window: 10, max: 3 });
    expect(ruleFor(config, "/change-email")).toEqual({ window: 10, max: 3 });
    expect(ruleFor(config, "/request-password-reset")).toEqual({ window: 60, max: 3 });
    expect(ruleFor(config, "/forget-password")).toEqual({ window: 60, max: 3 });
    expect(ruleFor(config, "/send-verification-email")).toEqual({ window: 60, max: 3 });
  });

  it("lets custom rules win, including switching a path off", () => {
    expect(ruleFor(config, "/get-session")).toBe(false);
    expect(ruleFor(config, "/ok")).toEqual({ window: 1, max: 1000 });
  });
});

describe("rate limiting in memory", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { rateLimit: { enabled: true } } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("allows 3 sign-ins per 10 s per address, then 429 with Retry-After", async () => {
    const client = createClient(t.app);
    const attempt = () =>
      client.post("/sign-in/email", { email: "nobody@example.com", password: "whatever1" });
    for (let i = 0; i < 3; i++) expect((await attempt()).statusCode).toBe(401);
    const limited = await attempt();
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      code: "TOO_MANY_REQUESTS",
      message: "Too many requests. Please try again later.",
    });
    const retryAfter = Number(limited.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(10);
    expect(limited.headers["x-retry-after"]).toBe(limited.headers["retry-after"]);
  });

  it("counts each address separately (X-Forwarded-For is ignored without trustProxy)", async () => {
    const attempt = (ip: string) =>
      t.app.inject({
        method: "POST",
        url: "/api/auth/request-password-reset",
        remoteAddress: ip,
        headers: { origin: "http://localhost:3000", "x-forwarded-for": "203.0.113.9" },
        payload: { email: "nobody@example.com" },
      });
    for (let i = 0; i < 3; i++) expect((await attempt("10.0.0.1")).statusCode).toBe(200);
    expect((await attempt("10.0.0.1")).statusCode).toBe(429);
    expect((await attempt("10.0.0.2")).statusCode).toBe(200);
  });

  it("keeps the general limit separate per route", async () => {
    const client = createClient(t.app);
    const response = await client.get("/get-session");
    expect(response.statusCode).toBe(200);
    expect(response.headers["x-ratelimit-limit"]).toBe("100");
  });
});

describe("rate limiting behind a trusted proxy", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      config: { rateLimit: { enabled: true }, server: { trustProxy: 1 } },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("keys on the client address from X-Forwarded-For", async () => {
    const attempt = (client: string) =>
      t.app.inject({
        method: "POST",
        url: "/api/auth/send-verification-email",
        remoteAddress: "10.9.9.9",
        headers: { origin: "http://localhost:3000", "x-forwarded-for": client },
        payload: { email: "nobody@example.com" },
      });
    for (let i = 0; i < 3; i++) expect((await attempt("198.51.100.1")).statusCode).toBe(200);
    expect((await attempt("198.51.100.1")).statusCode).toBe(429);
    expect((await attempt("198.51.100.2")).statusCode).toBe(200);
  });
});

describe("rate limiting shared through Redis", () => {
  let redis: Redis;
  let first: TestApp;
  let second: TestApp;
  const namespace = `test-${Date.now()}`;

  beforeAll(async () => {
    redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    const config = {
      rateLimit: {
        enabled: true,
        storage: "redis" as const,
        customRules: { "/list-accounts": { window: 30, max: 4 } },
      },
      redis: { url: REDIS_URL },
    };
    first = await createTestApp({ config, redis, redisNamespace: namespace });
    second = await createTestApp({ config, redis, redisNamespace: namespace });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    const keys = await redis.keys(`${namespace}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis?.disconnect();
  });

  it("two instances count one client together", async () => {
    const call = (app: TestApp) =>
      app.app.inject({
        method: "GET",
        url: "/api/auth/list-accounts",
        remoteAddress: "192.0.2.77",
      });
    const statuses: number[] = [];
    for (const app of [first, second, first, second, first])
      statuses.push((await call(app)).statusCode);
    // Four allowed in total (401: not signed in), the fifth refused, whichever instance answers.
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
  });
});
