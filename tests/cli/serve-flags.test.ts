/**
 * `authd serve` flags: --migrations check|apply|ignore,
 * --management-port, --base-path, --trust-proxy, --shutdown-timeout, --drain-delay.
 */
import { spawn } from "node:child_process";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTHD_BIN, baseEnv, runAuthd, scratchDirectory, startServe } from "../helpers/cli.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";

const SECRET = "serve-flags-secret-0123456789-0123456789";
let unmigrated: TestDatabase;
let migrated: TestDatabase;

beforeAll(async () => {
  [unmigrated, migrated] = await Promise.all([createTestDatabase(), createTestDatabase()]);
  const result = await runAuthd(["migrate"], {
    env: { DATABASE_URL: migrated.url, AUTHD_SECRET: SECRET },
  });
  expect(result.code, result.stderr).toBe(0);
});
afterAll(async () => {
  await unmigrated?.drop();
  await migrated?.drop();
});

function listeningLine(output: string): Record<string, unknown> {
  const line = output.split("\n").find((text) => text.includes('"msg":"authd listening"'));
  return JSON.parse(line ?? "{}");
}

describe("serve --migrations", () => {
  it("ignore starts with pending migrations and stays unready until they are applied", async () => {
    const env = { DATABASE_URL: unmigrated.url, AUTHD_SECRET: SECRET };
    const server = await startServe(["--migrations", "ignore"], { env });
    try {
      expect(server.output()).toContain("starting with pending migrations");
      const before = await fetch(`${server.url}/readyz`);
      expect(before.status).toBe(503);
      expect(await before.json()).toEqual({ status: "migrations pending" });
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      const applied = await runAuthd(["migrate"], { env });
      expect(applied.code, applied.stderr).toBe(0);
      const after = await fetch(`${server.url}/readyz`);
      expect(after.status).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it("check refuses pending migrations (exit 10); --migrate contradicting it is a usage error", async () => {
    const fresh = await createTestDatabase();
    try {
      const env = { DATABASE_URL: fresh.url, AUTHD_SECRET: SECRET };
      const checked = await runAuthd(["serve", "--port", "0", "--migrations", "check"], { env });
      expect(checked.code).toBe(10);
      expect(checked.stderr).toContain("authd migrate");
      const both = await runAuthd(["serve", "--migrate", "--migrations", "ignore"], { env });
      expect(both.code).toBe(2);
      const bad = await runAuthd(["serve", "--migrations", "later"], { env });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain("check, apply, ignore");
    } finally {
      await fresh.drop();
    }
  });
});

describe("serve --management-port and --base-path", () => {
  it("serves the probes on the management port and the API under the base path", async () => {
    const server = await startServe(["--management-port", "0", "--base-path", "/auth"], {
      env: { DATABASE_URL: migrated.url, AUTHD_SECRET: SECRET },
    });
    try {
      const line = listeningLine(server.output());
      expect(line.url).toBe(`${server.url}/auth`);
      const management = line.managementUrl as string;
      expect(management).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(management).not.toBe(server.url);
      expect((await fetch(`${management}/healthz`)).status).toBe(200);
      const ready = await fetch(`${management}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: "ready" });
      // The management port carries nothing but the probes.
      expect((await fetch(`${management}/auth/ok`)).status).toBe(404);
      expect((await fetch(`${server.url}/auth/ok`)).status).toBe(200);
      expect((await fetch(`${server.url}/api/auth/ok`)).status).toBe(404);
      // Bytes that are not HTTP get the API port's catalogue answer here too.
      const { hostname, port } = new URL(management);
      const answer = await new Promise<string>((resolve) => {
        const socket = connect(Number(port), hostname, () => socket.write("NOT HTTP\r\n\r\n"));
        let text = "";
        socket.on("data", (chunk: Buffer) => {
          text += chunk.toString();
        });
        socket.on("close", () => resolve(text));
        socket.on("error", () => resolve(text));
      });
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
      expect(answer).toContain('"code":"BAD_REQUEST"');
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it("accepts --trust-proxy and --shutdown-timeout, and refuses malformed values (exit 2)", async () => {
    const env = { DATABASE_URL: migrated.url, AUTHD_SECRET: SECRET };
    const server = await startServe(
      ["--trust-proxy", "10.0.0.0/8,127.0.0.1", "--shutdown-timeout", "5s"],
      { env },
    );
    expect((await fetch(`${server.url}/api/auth/ok`)).status).toBe(200);
    expect(await server.stop()).toBe(0);
    for (const args of [
      ["--trust-proxy", "everyone"],
      ["--shutdown-timeout", "soon"],
      ["--drain-delay", "soon"],
      ["--drain-delay", "-1s"],
      ["--base-path", "no-slash"],
      ["--management-port", "70000"],
    ]) {
      const result = await runAuthd(["serve", "--port", "0", ...args], { env });
      expect(result.code, `${args.join(" ")}: ${result.stderr}`).not.toBe(0);
      expect([2, 78]).toContain(result.code);
    }
  });
});

describe("serve --drain-delay", () => {
  it("refuses a drain delay the shutdown timeout cannot hold (exit 78), naming both", async () => {
    const env = { DATABASE_URL: migrated.url, AUTHD_SECRET: SECRET };
    const result = await runAuthd(
      ["serve", "--port", "0", "--drain-delay", "10s", "--shutdown-timeout", "10s"],
      { env },
    );
    expect(result.code).toBe(78);
    expect(result.stderr).toContain(
      "server.drainDelay: expected less than server.shutdownTimeout (10), got 10",
    );
  });

  it("with no drain delay, stops accepting as soon as the signal arrives", async () => {
    const server = await startServe(["--drain-delay", "0"], {
      env: { DATABASE_URL: migrated.url, AUTHD_SECRET: SECRET },
    });
    expect((await fetch(`${server.url}/api/auth/ok`)).status).toBe(200);
    const started = Date.now();
    expect(await server.stop()).toBe(0);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(server.output()).not.toContain('"msg":"draining');
    expect(server.output()).toContain('"msg":"listener closed');
  });
});

describe("serve in the production profile", () => {
  it("refuses unsafe settings (exit 78, each named) and starts once they are safe", async () => {
    const base = { DATABASE_URL: migrated.url, AUTHD_SECRET: SECRET, AUTHD_PROFILE: "production" };
    const refused = await runAuthd(["serve", "--port", "0"], {
      env: { ...base, AUTHD_BASE_URL: "http://auth.example.com" },
    });
    expect(refused.code).toBe(78);
    expect(refused.stderr).toContain("refusing to serve in production");
    expect(refused.stderr).toContain("baseURL: http://auth.example.com is not https");
    const noBase = await runAuthd(["serve", "--port", "0", "--profile", "production"], {
      env: { DATABASE_URL: migrated.url, AUTHD_SECRET: SECRET },
    });
    expect(noBase.code).toBe(78);
    expect(noBase.stderr).toContain("baseURL: not set");
    const server = await startServe([], {
      env: { ...base, AUTHD_BASE_URL: "https://auth.example.com" },
    });
    try {
      expect((await fetch(`${server.url}/api/auth/ok`)).status).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});

describe("serve --log-format and -v", () => {
  it("pretty: an orienting block once, then one compact line per request; -v sets the debug level", async () => {
    const child = spawn(
      process.execPath,
      [AUTHD_BIN, "serve", "--port", "0", "--host", "127.0.0.1", "--log-format", "pretty"],
      {
        cwd: scratchDirectory(),
        env: baseEnv({ DATABASE_URL: migrated.url, AUTHD_SECRET: SECRET, LOG_LEVEL: "info" }),
      },
    );
    let output = "";
    const exited = new Promise<number | null>((done) => child.on("close", done));
    const waitFor = (pattern: RegExp) =>
      new Promise<RegExpExecArray>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${pattern}:\n${output}`)), 30_000);
        const check = () => {
          const match = pattern.exec(output);
          if (match) {
            clearTimeout(timer);
            child.stdout.off("data", onData);
            resolve(match);
          }
        };
        const onData = (chunk: Buffer) => {
          output += chunk.toString();
          check();
        };
        child.stdout.on("data", onData);
        check();
      });
    try {
      const [, url] = await waitFor(
        /authd listening on (http:\/\/localhost:\d+\/api\/auth)\n(?:.*\n){5}/,
      );
      const block = output.slice(output.indexOf("authd listening on"));
      expect(block).toMatch(/\n {2}data {4}PostgreSQL at 127\.0\.0\.1:\d+\/authd_test_\w+\n/);
      expect(block).toContain("\n  config  none found: every key has its default\n");
      expect(block).toContain("\n  secret  configured\n");
      expect(block).toMatch(
        /\n {2}mail {4}not sent: written to \.authd\/outbox\/ \(set SMTP_URL to send\)\n/,
      );
      expect(block).toMatch(/\n {2}next {4}curl http:\/\/localhost:\d+\/api\/auth\/ok/);
      expect(block).toMatch(/\nSign up at http:\/\/localhost:\d+\/sign-up\n/);
      expect(output.match(/authd listening/g)).toHaveLength(1);

      const answer = await fetch(`${url?.replace("localhost", "127.0.0.1")}/ok?token=secret-value`);
      expect(answer.status).toBe(200);
      const [line] = await waitFor(/^.*GET \/api\/auth\/ok.*$/m);
      expect(line).toMatch(
        /^\d\d:\d\d:\d\d\.\d{3} INFO {2}GET \/api\/auth\/ok\?token=%5Bredacted%5D 200 \d+\.\d ms reqId=\S+$/,
      );
      // One line per request: Fastify's two entries with every field are left to JSON logs.
      expect(output).not.toContain("incoming request");
      expect(output).not.toContain("request completed");
    } finally {
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    }

    const shown = await runAuthd(["-v", "config", "show", "--json"], {
      env: { DATABASE_URL: migrated.url, AUTHD_SECRET: SECRET },
    });
    const level = JSON.parse(shown.stdout).settings.find(
      (setting: { key: string }) => setting.key === "log.level",
    );
    expect(level).toMatchObject({ value: "debug" });
    const bad = await runAuthd(["serve", "--log-format", "xml"], {
      env: { DATABASE_URL: migrated.url },
    });
    expect(bad.code).toBe(2);
  });
});
