import { existsSync, readdirSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import net from "node:net";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSlowPost, runAuthd, startServe } from "../helpers/cli.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";

let testDatabase: TestDatabase;
let emptyDatabase: TestDatabase;

beforeAll(async () => {
  testDatabase = await createTestDatabase();
  emptyDatabase = await createTestDatabase();
  const migrated = await runAuthd(["migrate"], { env: { DATABASE_URL: testDatabase.url } });
  expect(migrated.code, migrated.stderr).toBe(0);
});

afterAll(async () => {
  await testDatabase?.drop();
  await emptyDatabase?.drop();
});

describe("authd serve on PostgreSQL", () => {
  it("answers /ok once the schema is migrated", async () => {
    const server = await startServe([], { env: { DATABASE_URL: testDatabase.url } });
    try {
      const response = await fetch(`${server.url}/api/auth/ok`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ ok: true });
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it.skipIf(!existsSync("/proc/self/task"))(
    "runs one libuv pool thread per core (at least 2) unless UV_THREADPOOL_SIZE is set",
    async () => {
      const threads = async (env: Record<string, string>) => {
        const server = await startServe([], { env: { DATABASE_URL: testDatabase.url, ...env } });
        try {
          await fetch(`${server.url}/api/auth/ok`);
          return readdirSync(`/proc/${server.child.pid}/task`).length;
        } finally {
          expect(await server.stop()).toBe(0);
        }
      };
      const sized = await threads({});
      const operator = await threads({ UV_THREADPOOL_SIZE: "9" });
      expect(operator - sized).toBe(9 - Math.max(2, availableParallelism()));
    },
  );

  it("refuses a schema that is behind, naming the command, exit 10", async () => {
    const result = await runAuthd(["serve", "--port", "0"], {
      env: { DATABASE_URL: emptyDatabase.url },
    });
    expect(result.code).toBe(10);
    expect(result.stderr).toContain("pending migration");
    expect(result.stderr).toContain("authd migrate");
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it("migrates first with --migrate", async () => {
    const fresh = await createTestDatabase();
    try {
      const server = await startServe(["--migrate"], { env: { DATABASE_URL: fresh.url } });
      try {
        expect((await fetch(`${server.url}/api/auth/ok`)).status).toBe(200);
      } finally {
        await server.stop();
      }
      const status = await runAuthd(["migrate", "status", "--json"], {
        env: { DATABASE_URL: fresh.url },
      });
      expect(JSON.parse(status.stdout).upToDate).toBe(true);
    } finally {
      await fresh.drop();
    }
  });

  it("drains on SIGTERM: the in-flight request finishes, then exit 0", async () => {
    const server = await startServe([], { env: { DATABASE_URL: testDatabase.url } });
    const slow = await openSlowPost(server.url, "/api/auth/ok", '{"a": 12345}');
    await new Promise((resolve) => setTimeout(resolve, 100));
    server.child.kill("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(server.child.exitCode).toBeNull();
    // New connections are no longer accepted while draining.
    await expect(fetch(`${server.url}/api/auth/ok`)).rejects.toThrow();
    slow.finish();
    const response = await slow.response();
    expect(response).toMatch(/^HTTP\/1\.1 404/);
    expect(response).toContain('"code":"NOT_FOUND"');
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('"msg":"stopped"');
  });

  it("a second signal exits 1 without waiting", async () => {
    const server = await startServe([], { env: { DATABASE_URL: testDatabase.url } });
    await openSlowPost(server.url, "/api/auth/ok", '{"a": 12345}');
    await new Promise((resolve) => setTimeout(resolve, 100));
    server.child.kill("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 200));
    server.child.kill("SIGINT");
    expect(await server.exited).toBe(1);
  });

  it("names a port in use, exit 71", async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", () => resolve()));
    const address = blocker.address();
    const port = typeof address === "object" && address ? address.port : 0;
    try {
      const result = await runAuthd(["serve", "--host", "127.0.0.1", "--port", String(port)], {
        env: { DATABASE_URL: testDatabase.url },
      });
      expect(result.code).toBe(71);
      expect(result.stderr).toContain(`port ${port} is already in use`);
    } finally {
      blocker.close();
    }
  });

  it("names an unreachable database by host and port, exit 69, no stack, no password", async () => {
    const result = await runAuthd(["serve"], {
      env: { DATABASE_URL: "postgres://postgres:sekrit@127.0.0.1:1/authd" },
    });
    expect(result.code).toBe(69);
    expect(result.stderr).toBe(
      "authd: cannot reach PostgreSQL at 127.0.0.1:1/authd: connection refused (is the server running?)\n",
    );
  });

  it("refuses a port that does not speak PostgreSQL, quickly, exit 69", async () => {
    const impostor = http.createServer((_request, response) => response.end("hello"));
    await new Promise<void>((resolve) => impostor.listen(0, "127.0.0.1", () => resolve()));
    const { port } = impostor.address() as net.AddressInfo;
    try {
      const result = await runAuthd(["serve"], {
        env: { DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/authd` },
        timeoutMs: 20_000,
      });
      expect(result.code).toBe(69);
      expect(result.stderr).toBe(
        `authd: cannot connect to PostgreSQL at 127.0.0.1:${port}/authd: the server there does not speak PostgreSQL\n`,
      );
    } finally {
      impostor.close();
    }
  });

  it("rejects an invalid config with exit 78", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "authd-serve-"));
    try {
      await writeFile(
        path.join(dir, "authd.config.json"),
        JSON.stringify({ server: { port: -1 } }),
      );
      const result = await runAuthd(["serve"], {
        cwd: dir,
        env: { DATABASE_URL: testDatabase.url },
      });
      expect(result.code).toBe(78);
      expect(result.stderr).toBe("authd: authd.config.json: server.port: expected a number >= 0\n");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("requires a secret in production", async () => {
    const result = await runAuthd(["serve"], {
      env: { DATABASE_URL: testDatabase.url, NODE_ENV: "production" },
    });
    expect(result.code).toBe(78);
    expect(result.stderr).toContain("AUTHD_SECRET: a secret is required");
  });

  it("logs JSON with request ids and without cookies or tokens", async () => {
    const server = await startServe([], { env: { DATABASE_URL: testDatabase.url } });
    try {
      await fetch(`${server.url}/api/auth/error?error=x&token=tok-SECRET-1`, {
        headers: {
          cookie: "authd.session_token=COOKIE-SECRET",
          authorization: "Bearer AUTH-SECRET",
        },
      });
    } finally {
      await server.stop();
    }
    const lines = server
      .output()
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const request = lines.find(
      (line) => line.msg === "incoming request" && JSON.stringify(line).includes("/error"),
    );
    expect(request?.reqId).toEqual(expect.any(String));
    const text = server.output();
    expect(text).not.toContain("tok-SECRET-1");
    expect(text).not.toContain("COOKIE-SECRET");
    expect(text).not.toContain("AUTH-SECRET");
  });
});

describe("authd serve with the embedded database", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "authd-embedded-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("runs with no environment at all and keeps its data across restarts", async () => {
    const first = await startServe([], { cwd: dir, timeoutMs: 90_000 });
    try {
      const response = await fetch(`${first.url}/api/auth/ok`);
      expect(response.status).toBe(200);
      expect(first.output()).toContain("applied migrations");
      // Once, what a newcomer needs: where it answers, data, secret, mail.
      const listening = first
        .output()
        .split("\n")
        .filter((line) => line.includes('"msg":"authd listening"'));
      expect(listening).toHaveLength(1);
      // The newcomer's next step: the sign-up page, served by the built package.
      expect(first.output()).toContain(`"msg":"Sign up at ${first.url}/sign-up"`);
      const page = await fetch(`${first.url}/sign-up`);
      expect(page.status).toBe(200);
      expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
      const asset = /src="(\/assets\/[^"]+\.js)"/.exec(await page.text())?.[1];
      expect((await fetch(`${first.url}${asset}`)).status).toBe(200);
      expect(JSON.parse(listening[0] ?? "{}")).toMatchObject({
        url: `${first.url}/api/auth`,
        signUpUrl: `${first.url}/sign-up`,
        database: `embedded PGlite (${path.join(dir, ".authd", "pgdata")})`,
        config: "defaults",
        secretSource: `generated for development in ${path.join(dir, ".authd", "secret")}`,
        mail: `written to ${path.join(dir, ".authd", "outbox")} (not sent)`,
      });
    } finally {
      expect(await first.stop()).toBe(0);
    }
    expect(existsSync(path.join(dir, ".authd", "pgdata"))).toBe(true);
    expect(existsSync(path.join(dir, ".authd", "secret"))).toBe(true);

    const before = await runAuthd(["migrate", "status", "--json"], { cwd: dir, timeoutMs: 90_000 });
    expect(before.code, before.stderr).toBe(0);
    const applied = JSON.parse(before.stdout);
    expect(applied.upToDate).toBe(true);

    const second = await startServe([], { cwd: dir, timeoutMs: 90_000 });
    try {
      expect((await fetch(`${second.url}/api/auth/ok`)).status).toBe(200);
      expect(second.output()).not.toContain("applied migrations");
      expect(second.output()).toContain(
        `"secretSource":"development secret from ${path.join(dir, ".authd", "secret")}"`,
      );
    } finally {
      expect(await second.stop()).toBe(0);
    }
    const after = await runAuthd(["migrate", "status", "--json"], { cwd: dir, timeoutMs: 90_000 });
    expect(JSON.parse(after.stdout).migrations).toEqual(applied.migrations);
  });

  it("refuses a second process on the same data directory, exit 75", async () => {
    const server = await startServe([], { cwd: dir, timeoutMs: 90_000 });
    try {
      const second = await runAuthd(["serve", "--port", "0"], { cwd: dir, timeoutMs: 90_000 });
      expect(second.code).toBe(75);
      expect(second.stderr).toContain("is in use by process");
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});
