/**
 * Several `authd serve` processes on one database (and one Redis), over real HTTP:
 * whatever one instance changes, the others honour at once (or, with the cookie cache
 * on, within its maxAge), and rate limits are shared through Redis, per process while
 * Redis is down, and shared again once it is back.
 *
 * Separate processes rather than two apps in this one: nothing they could share by
 * accident (a module, a client, a cache), and each builds its own Redis client and logs
 * as an operator sees it. About 15 s, most of it starting servers and waiting out maxAge.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAuthd, type ServeProcess, startServe } from "../helpers/cli.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";

const ORIGIN = "http://localhost:3000";
const SECRET = "instances-test-secret-0123456789-abcdefghij";
const PASSWORD = "correct horse battery staple";
const DEGRADED = "rate limits: Redis unavailable, counting per process";
const RECOVERED = "rate limits: Redis reachable again, counting shared again";

let testDatabase: TestDatabase;
let dir: string;

const SEED = {
  version: 1,
  users: [
    "admin",
    "roaming",
    "banned",
    "owner",
    "removed",
    "promoted",
    "cached",
    "tokens",
    "limited",
  ].map((name) => ({
    email: `${name}@example.test`,
    name,
    emailVerified: true,
    ...(name === "admin" ? { role: "admin" } : {}),
    password: { fromEnv: "SEED_PASSWORD" },
  })),
  organizations: [
    {
      slug: "acme",
      name: "Acme",
      owner: "owner@example.test",
      members: ["removed", "promoted", "tokens"].map((name) => ({
        user: `${name}@example.test`,
        role: "member",
      })),
    },
  ],
};

beforeAll(async () => {
  testDatabase = await createTestDatabase();
  dir = await mkdtemp(path.join(tmpdir(), "authd-instances-"));
  const env = { DATABASE_URL: testDatabase.url };
  const migrated = await runAuthd(["migrate"], { env });
  expect(migrated.code, migrated.stderr).toBe(0);
  const seeded = await runAuthd(["seed", "-", "--share-password-hashes"], {
    env: { ...env, SEED_PASSWORD: PASSWORD },
    input: JSON.stringify(SEED),
  });
  expect(seeded.code, seeded.stderr).toBe(0);
});

afterAll(async () => {
  await testDatabase?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Two instances of one configuration on the test database (and `env`, e.g. REDIS_URL). */
async function startPair(
  name: string,
  config: Record<string, unknown>,
  env: Record<string, string> = {},
): Promise<[ServeProcess, ServeProcess]> {
  const file = path.join(dir, `${name}.json`);
  await writeFile(file, JSON.stringify({ log: { requests: false }, ...config }));
  const options = {
    env: {
      DATABASE_URL: testDatabase.url,
      AUTHD_SECRET: SECRET,
      AUTHD_BASE_URL: ORIGIN,
      ...env,
    },
  };
  const [a, b] = await Promise.all([
    startServe(["--config", file], options),
    startServe(["--config", file], options),
  ]);
  return [a, b];
}

async function stopPair(servers: ServeProcess[]): Promise<void> {
  const codes = await Promise.all(servers.map((server) => server.stop()));
  expect(codes).toEqual(servers.map(() => 0));
}

interface Answer {
  status: number;
  // Whatever the endpoint answers; each test reads the fields it expects.
  // biome-ignore lint/suspicious/noExplicitAny: JSON of many shapes, read field by field
  body: any;
  headers: Headers;
  ms: number;
}

/**
 * A browser on the trusted origin behind a load balancer: one cookie jar, whichever
 * instance answers. POSTs carry the Origin header, as a browser's do.
 */
function browser() {
  const cookies = new Map<string, string>();
  const send = async (
    server: ServeProcess,
    method: "GET" | "POST",
    route: string,
    body?: unknown,
  ): Promise<Answer> => {
    const headers: Record<string, string> = { origin: ORIGIN };
    if (cookies.size > 0) {
      headers.cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    }
    if (body !== undefined) headers["content-type"] = "application/json";
    const started = performance.now();
    const response = await fetch(`${server.url}/api/auth${route}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const ms = performance.now() - started;
    for (const line of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";");
      const eq = pair.indexOf("=");
      const cookie = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (value === "" || attributes.some((a) => /^\s*max-age=0\s*$/i.test(a))) {
        cookies.delete(cookie);
      } else cookies.set(cookie, value);
    }
    const parsed = text === "" ? null : JSON.parse(text);
    return { status: response.status, body: parsed, headers: response.headers, ms };
  };
  return {
    cookies,
    get: (server: ServeProcess, route: string) => send(server, "GET", route),
    post: (server: ServeProcess, route: string, body: unknown = {}) =>
      send(server, "POST", route, body),
    async signIn(server: ServeProcess, name: string): Promise<Answer> {
      const answer = await send(server, "POST", "/sign-in/email", {
        email: `${name}@example.test`,
        password: PASSWORD,
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer;
    },
  };
}

/** The claims of a signed token (its payload, unverified: the test only reads them). */
function claimsOf(token: string | null): Record<string, unknown> {
  const payload = token?.split(".")[1];
  if (!payload) throw new Error(`not a token: ${token}`);
  return JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("instances on one database", () => {
  let a: ServeProcess;
  let b: ServeProcess;

  beforeAll(async () => {
    // updateAge 0: every get-session extends the session, so B's refresh is visible.
    [a, b] = await startPair("plain", {
      rateLimit: { enabled: false },
      session: { updateAge: 0 },
    });
  });
  afterAll(async () => {
    if (a && b) await stopPair([a, b]);
  });

  it("a session made on A is read and refreshed on B, revoked on B and refused on A", async () => {
    const phone = browser();
    const laptop = browser();
    const signedIn = await phone.signIn(a, "roaming");
    await laptop.signIn(b, "roaming");
    const madeOnA = await phone.get(a, "/get-session");
    const sessionId = madeOnA.body.session.id;

    await sleep(20);
    const onB = await phone.get(b, "/get-session");
    expect(onB.body.session.id).toBe(sessionId);
    expect(onB.body.user.id).toBe(signedIn.body.user.id);
    // Refreshed by B: a later expiry, and the cookie sent again.
    expect(new Date(onB.body.session.expiresAt).getTime()).toBeGreaterThan(
      new Date(madeOnA.body.session.expiresAt).getTime(),
    );
    expect(onB.headers.getSetCookie().some((line) => line.startsWith("authd.session_token="))).toBe(
      true,
    );

    // The laptop, on B, revokes the phone's session: A refuses it at once.
    expect((await laptop.post(b, "/revoke-session", { token: sessionId })).status).toBe(200);
    expect((await phone.get(a, "/get-session")).body).toBeNull();
    expect((await phone.get(a, "/list-sessions")).status).toBe(401);

    // Signing out on B ends the laptop's session on A too.
    const laptopSession = (await laptop.get(a, "/get-session")).body.session.id;
    expect(laptopSession).toBeTruthy();
    const cookiesBeforeSignOut = new Map(laptop.cookies);
    expect((await laptop.post(b, "/sign-out")).status).toBe(200);
    // The same cookies, replayed on A (a copy kept elsewhere), no longer sign anyone in.
    for (const [name, value] of cookiesBeforeSignOut) laptop.cookies.set(name, value);
    expect((await laptop.get(a, "/get-session")).body).toBeNull();
  });

  it("a user banned by an admin on A is refused on B", async () => {
    const admin = browser();
    const user = browser();
    const { body } = await user.signIn(b, "banned");
    expect((await user.get(b, "/list-sessions")).status).toBe(200);
    await admin.signIn(a, "admin");
    const banned = await admin.post(a, "/admin/ban-user", { userId: body.user.id });
    expect(banned.status, JSON.stringify(banned.body)).toBe(200);
    expect((await user.get(b, "/get-session")).body).toBeNull();
    expect((await user.get(b, "/list-sessions")).status).toBe(401);
    // Nor can the user sign in again anywhere.
    const again = await browser().post(b, "/sign-in/email", {
      email: "banned@example.test",
      password: PASSWORD,
    });
    expect(again.status).toBe(403);
  });

  it("a member removed on A loses access on B; a role changed on A shows on B", async () => {
    const owner = browser();
    const removed = browser();
    const promoted = browser();
    await owner.signIn(a, "owner");
    await removed.signIn(b, "removed");
    await promoted.signIn(b, "promoted");
    // B builds (and keeps) its answers first.
    const seenOnB = await removed.get(
      b,
      "/organization/get-full-organization?organizationSlug=acme",
    );
    expect(seenOnB.status).toBe(200);
    expect(
      (await removed.post(b, "/organization/set-active", { organizationSlug: "acme" })).status,
    ).toBe(200);
    expect(
      (await promoted.post(b, "/organization/set-active", { organizationSlug: "acme" })).status,
    ).toBe(200);
    expect((await promoted.get(b, "/organization/get-active-member-role")).body.role).toBe(
      "member",
    );
    const organizationId = seenOnB.body.id;
    const memberOf = (name: string) =>
      seenOnB.body.members.find(
        (member: { user: { email: string } }) => member.user.email === `${name}@example.test`,
      );

    const removal = await owner.post(a, "/organization/remove-member", {
      organizationId,
      memberIdOrEmail: "removed@example.test",
    });
    expect(removal.status, JSON.stringify(removal.body)).toBe(200);
    const refused = await removed.get(
      b,
      "/organization/get-full-organization?organizationSlug=acme",
    );
    expect(refused.status).toBe(403);
    // The removal also cleared the organization from the member's sessions.
    expect((await removed.get(b, "/get-session")).body.session.activeOrganizationId).toBeNull();
    expect((await removed.get(b, "/organization/get-active-member")).body.code).toBe(
      "NO_ACTIVE_ORGANIZATION",
    );
    expect((await removed.get(b, "/organization/list")).body).toEqual([]);
    const rejoin = await removed.post(b, "/organization/set-active", { organizationSlug: "acme" });
    expect(rejoin.body.code).toBe("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");

    const change = await owner.post(a, "/organization/update-member-role", {
      organizationId,
      memberId: memberOf("promoted").id,
      role: "admin",
    });
    expect(change.status, JSON.stringify(change.body)).toBe(200);
    expect((await promoted.get(b, "/organization/get-active-member-role")).body.role).toBe("admin");
    const full = await promoted.get(b, "/organization/get-full-organization?organizationSlug=acme");
    expect(
      full.body.members.find((member: { id: string }) => member.id === memberOf("promoted").id)
        .role,
    ).toBe("admin");
    // The full organization B kept from before the changes is not what it answers now.
    expect(full.body.members).toHaveLength(seenOnB.body.members.length - 1);
  });
});

describe("instances with the cookie cache on", () => {
  const MAX_AGE = 2;
  let a: ServeProcess;
  let b: ServeProcess;

  beforeAll(async () => {
    [a, b] = await startPair("cookie-cache", {
      rateLimit: { enabled: false },
      session: { cookieCache: { enabled: true, maxAge: MAX_AGE } },
      jwt: { enabled: true },
    });
  });
  afterAll(async () => {
    if (a && b) await stopPair([a, b]);
  });

  it("a session revoked and a role changed on A show on B once maxAge has passed", async () => {
    const cached = browser();
    const other = browser();
    const owner = browser();
    const member = browser();
    await owner.signIn(a, "owner");
    await cached.signIn(b, "cached");
    await other.signIn(a, "cached");
    await member.signIn(b, "tokens");
    await member.post(b, "/organization/set-active", { organizationSlug: "acme" });

    // B answers from the cookie cache; the token it makes carries the role read now.
    const before = await cached.get(b, "/get-session");
    expect(before.body.session.id).toBeTruthy();
    const token = await member.get(b, "/token");
    expect(claimsOf(token.body.token).org_role).toBe("member");
    const full = await owner.get(a, "/organization/get-full-organization?organizationSlug=acme");
    const memberId = full.body.members.find(
      (m: { user: { email: string } }) => m.user.email === "tokens@example.test",
    ).id;

    const changedAt = Date.now();
    expect((await other.post(a, "/revoke-session", { token: before.body.session.id })).status).toBe(
      200,
    );
    const roleChange = await owner.post(a, "/organization/update-member-role", {
      organizationId: full.body.id,
      memberId,
      role: "admin",
    });
    expect(roleChange.status).toBe(200);

    // A caller that bypasses the cache sees the revocation at once. (Within maxAge the
    // cache cookie itself may still answer: the documented exception.)
    const kept = new Map(cached.cookies);
    expect((await cached.get(b, "/get-session?disableCookieCache=true")).body).toBeNull();
    for (const [name, value] of kept) cached.cookies.set(name, value);

    // Once maxAge has passed, B answers the truth even to the cookie it cached.
    await sleep(Math.max(0, changedAt + MAX_AGE * 1000 + 200 - Date.now()));
    expect(cached.cookies.has("authd.session_data")).toBe(true);
    expect((await cached.get(b, "/get-session")).body).toBeNull();

    // The member's cache cookie is written again without a new token (a profile save
    // that changes nothing): the token B made before the role change is older than
    // maxAge, so it is not handed out again on the cache's word.
    expect((await member.post(b, "/update-user", { name: "tokens" })).status).toBe(200);
    const after = await member.get(b, "/token");
    expect(claimsOf(after.body.token).org_role).toBe("admin");
  });

  it("a role changed on A shows in B's cached get-session after maxAge", async () => {
    const admin = browser();
    const user = browser();
    const { body } = await user.signIn(b, "promoted");
    await admin.signIn(a, "admin");
    expect((await user.get(b, "/get-session")).body.user.role).toBe("user");
    const changedAt = Date.now();
    expect(
      (await admin.post(a, "/admin/set-role", { userId: body.user.id, role: "admin" })).status,
    ).toBe(200);
    await sleep(Math.max(0, changedAt + MAX_AGE * 1000 + 200 - Date.now()));
    expect((await user.get(b, "/get-session")).body.user.role).toBe("admin");
  });
});

/** A free loopback port (the kernel's choice, released at once). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== "object" || !address) throw new Error("no port");
  return address.port;
}

/** A redis-server of this test's own (never the shared one), without persistence. */
async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    "redis-server",
    [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
      "--daemonize",
      "no",
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  await new Promise<void>((resolve, reject) => {
    let output = "";
    const timer = setTimeout(
      () => reject(new Error(`redis-server did not start:\n${output}`)),
      10_000,
    );
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Ready to accept connections")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}:\n${output}`));
    });
  });
  return child;
}

async function stopRedis(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
}

/** Log lines of a serve process with this message. */
function logLines(server: ServeProcess, message: string): Record<string, unknown>[] {
  return server
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((entry) => entry.msg === message);
}

async function until(
  condition: () => boolean,
  timeoutMs: number,
  what: string,
  meanwhile: () => Promise<unknown> = async () => {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await meanwhile();
    await sleep(100);
  }
}

describe("rate limits through Redis", () => {
  let redis: ChildProcess;
  let port: number;
  let a: ServeProcess;
  let b: ServeProcess;

  beforeAll(async () => {
    port = await freePort();
    redis = await startRedis(port);
    [a, b] = await startPair("redis", {}, { REDIS_URL: `redis://127.0.0.1:${port}` });
  });
  afterAll(async () => {
    if (a && b) await stopPair([a, b]);
    if (redis) await stopRedis(redis);
  });

  /** A sign-in with a wrong password; the limit is 3 per 10 s per client address. */
  const attempt = (server: ServeProcess) =>
    browser().post(server, "/sign-in/email", {
      email: "limited@example.test",
      password: "not the password",
    });

  it("are shared, per process while Redis is down, and shared again once it is back", async () => {
    // Shared: a client alternating between A and B is limited as by one instance.
    const shared = [];
    for (const server of [a, b, a, b]) shared.push((await attempt(server)).status);
    expect(shared).toEqual([401, 401, 401, 429]);

    // Redis goes away: every request is still answered, promptly, and each instance now
    // allows its own 3.
    await stopRedis(redis);
    const down: Answer[] = [];
    for (const server of [a, b, a, b, a, b, a, b]) down.push(await attempt(server));
    for (const server of [a, b, a, b]) down.push(await browser().get(server, "/ok"));
    expect(down.map((answer) => answer.status)).toEqual([
      ...[401, 401, 401, 401, 401, 401, 429, 429],
      ...[200, 200, 200, 200],
    ]);
    for (const answer of down) expect(answer.ms).toBeLessThan(1000);
    // One warning per instance for the whole outage, however many reconnection attempts.
    await sleep(1500);
    for (const server of [a, b]) {
      const warnings = logLines(server, DEGRADED);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]?.level).toBe(40);
      expect(server.output()).not.toContain("redis error");
      expect(server.output()).not.toContain("Unhandled error event");
    }

    // Redis comes back on the same address: within a few seconds counting is shared
    // again (each instance's own count of 4 no longer applies), and that is logged once.
    redis = await startRedis(port);
    await until(
      () => logLines(a, RECOVERED).length > 0 && logLines(b, RECOVERED).length > 0,
      10_000,
      "both instances to count in Redis again",
    );
    const again = [];
    for (const server of [b, a, b, a]) again.push((await attempt(server)).status);
    expect(again).toEqual([401, 401, 401, 429]);
    for (const server of [a, b]) {
      expect(logLines(server, RECOVERED)).toHaveLength(1);
      expect(logLines(server, DEGRADED)).toHaveLength(1);
    }
  });
  it("a Redis that stops answering holds no request up, and is used again once it answers", async () => {
    // Paused, not gone: the connection stays open and commands get no answer.
    const pid = redis.pid as number;
    const count = (message: string) => [a, b].map((server) => logLines(server, message).length);
    const [degraded, recovered] = [count(DEGRADED), count(RECOVERED)];
    process.kill(pid, "SIGSTOP");
    try {
      const answers: Answer[] = [];
      for (const server of [a, b, a, b]) answers.push(await browser().get(server, "/ok"));
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
      for (const answer of answers) expect(answer.ms).toBeLessThan(1000);
      // Each instance waited once (the command timeout), then stopped asking; one line each.
      expect(count(DEGRADED)).toEqual(degraded.map((n) => n + 1));
    } finally {
      process.kill(pid, "SIGCONT");
    }
    // No reconnection happens: a request now and then tries Redis again.
    await until(
      () => count(RECOVERED).every((n, i) => n === (recovered[i] ?? 0) + 1),
      10_000,
      "both instances to count in Redis again",
      () => Promise.all([browser().get(a, "/ok"), browser().get(b, "/ok")]),
    );
    // Shared: sign-up's limit (3 per 10 s, not used so far) holds across both.
    const statuses = [];
    for (const server of [a, b, a, b])
      statuses.push((await browser().post(server, "/sign-up/email", {})).status);
    expect(statuses).toEqual([400, 400, 400, 429]);
  });
});
