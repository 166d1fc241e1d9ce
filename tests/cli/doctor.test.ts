/**
 * `authd doctor` as operators run it: the built binary against real PostgreSQL
 * databases (one migrated, one not) and a real SMTP server.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { listMigrationFiles } from "../../server/db/migrations.js";
import { type CliResult, runAuthd } from "../helpers/cli.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";

interface Check {
  name: string;
  status: "ok" | "warn" | "fail";
  detail: string;
}

interface DoctorDocument {
  config: Record<string, unknown> | null;
  checks: Check[];
  ok: boolean;
}

const SECRET = "doctor-test-secret-0123456789-abcdefghij";

let migrated: TestDatabase;
let unmigrated: TestDatabase;
/** The migrated database's URL with a password (trust auth ignores it). */
let migratedUrl: string;
let migratedPassword: string;
let smtp: SMTPServer;
let smtpPort: number;
let smtpConnections = 0;
let migrationCount: number;
let cwd: string;

function withPassword(url: string): { url: string; password: string } {
  const parsed = new URL(url);
  if (!parsed.password) parsed.password = "hunter2";
  return { url: parsed.toString(), password: decodeURIComponent(parsed.password) };
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== "object" || !address) throw new Error("no port");
  return address.port;
}

beforeAll(async () => {
  [migrated, unmigrated] = await Promise.all([createTestDatabase(), createTestDatabase()]);
  ({ url: migratedUrl, password: migratedPassword } = withPassword(migrated.url));
  const migrate = await runAuthd(["migrate"], { env: { DATABASE_URL: migrated.url } });
  expect(migrate.code, migrate.stderr).toBe(0);
  migrationCount = (await listMigrationFiles()).length;

  // An SMTP sink: verify() only needs the greeting and EHLO.
  smtp = new SMTPServer({
    authOptional: true,
    hideSTARTTLS: true,
    logger: false,
    onConnect(_session, callback) {
      smtpConnections += 1;
      callback();
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", () => resolve()));
  const address = smtp.server.address();
  if (typeof address !== "object" || !address) throw new Error("SMTP sink has no port");
  smtpPort = address.port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
  await Promise.all([migrated?.drop(), unmigrated?.drop()]);
});

beforeEach(async () => {
  cwd = await mkdtemp(path.join(tmpdir(), "authd-doctor-"));
  return () => rm(cwd, { recursive: true, force: true });
});

function doctor(args: string[], env: Record<string, string>): Promise<CliResult> {
  return runAuthd(["doctor", ...args], { cwd, env });
}

function parse(result: CliResult): DoctorDocument {
  return JSON.parse(result.stdout) as DoctorDocument;
}

function statuses(document: DoctorDocument): Record<string, string> {
  return Object.fromEntries(document.checks.map((check) => [check.name, check.status]));
}

function check(document: DoctorDocument, name: string): Check | undefined {
  return document.checks.find((item) => item.name === name);
}

describe("authd doctor", () => {
  it("passes against a migrated database and a reachable SMTP server, revealing no secret", async () => {
    const connectionsBefore = smtpConnections;
    const result = await doctor(["--json"], {
      DATABASE_URL: migratedUrl,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      AUTHD_SECRET: SECRET,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe("");
    const document = parse(result);
    expect(document.ok).toBe(true);
    expect(document.checks.map((item) => item.name)).toEqual([
      "node",
      "config",
      "secret",
      "database",
      "schema",
      "clock",
      "mail",
      "baseURL",
      "origins",
      "cookies",
      "social",
    ]);
    expect(statuses(document)).toEqual({
      node: "ok",
      config: "ok",
      secret: "ok",
      database: "ok",
      schema: "ok",
      clock: "ok",
      mail: "ok",
      baseURL: "warn",
      origins: "ok",
      cookies: "warn",
      social: "ok",
    });
    expect(check(document, "node")?.detail).toBe(`v${process.versions.node} (>= 20.19)`);
    expect(check(document, "secret")?.detail).toBe("configured (AUTHD_SECRET)");
    expect(check(document, "database")?.detail).toMatch(
      new RegExp(`^127\\.0\\.0\\.1:5432/${migrated.name}: PostgreSQL \\S.*, latency \\d+ ms$`),
    );
    expect(check(document, "schema")?.detail).toBe(
      `up to date (${migrationCount} migrations applied)`,
    );
    expect(check(document, "mail")?.detail).toMatch(
      new RegExp(`^smtp://127\\.0\\.0\\.1:${smtpPort}: verified in \\d+ ms$`),
    );
    expect(smtpConnections).toBeGreaterThan(connectionsBefore);
    expect(check(document, "baseURL")?.detail).toBe(
      "derived from each request; set baseURL / AUTHD_BASE_URL in production",
    );
    expect(check(document, "clock")?.detail).toMatch(
      /^database clock within \d+\.\d s of this host's \(round trip \d+ ms\)$/,
    );
    expect(check(document, "origins")?.detail).toBe(
      "no trusted origins: only authd's own origin may send cookie-carrying requests",
    );
    expect(check(document, "cookies")?.detail).toBe(
      "never Secure (authd.session_token): without baseURL cookies follow each request's protocol, and authd serves plain http; set baseURL to the public https:// URL (or server.trustProxy behind a TLS proxy)",
    );
    expect(check(document, "social")?.detail).toBe("no social providers configured");

    const config = document.config as { secret: string; database: { url: string } };
    expect(config.secret).toBe("***");
    expect(config.database.url).toBe(migratedUrl.replace(`:${migratedPassword}@`, ":***@"));
    for (const output of [result.stdout, result.stderr]) {
      expect(output).not.toContain(migratedPassword);
      expect(output).not.toContain(SECRET);
    }
  });

  it("prints the redacted configuration and one aligned line per check", async () => {
    const result = await doctor([], {
      DATABASE_URL: migratedUrl,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      AUTHD_SECRET: SECRET,
      AUTHD_BASE_URL: "https://auth.example.test",
      NO_COLOR: "1",
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Configuration: no config file \(defaults\)$/m);
    expect(result.stdout).toMatch(/^secret +\*\*\* +AUTHD_SECRET$/m);
    expect(result.stdout).toMatch(
      /^database\.url +postgres:\/\/\S+:\*\*\*@127\.0\.0\.1:5432\/\S+ +DATABASE_URL$/m,
    );
    expect(result.stdout).not.toContain(migratedPassword);
    expect(result.stdout).not.toContain(SECRET);

    const lines = result.stdout.trimEnd().split("\n");
    const checkLines = lines.slice(lines.indexOf("STATUS  CHECK     DETAIL") + 1);
    expect(checkLines.map((line) => line.split(/ {2,}/).slice(0, 2))).toEqual([
      ["ok", "node"],
      ["ok", "config"],
      ["ok", "secret"],
      ["ok", "database"],
      ["ok", "schema"],
      ["ok", "clock"],
      ["ok", "mail"],
      ["ok", "baseURL"],
      ["ok", "origins"],
      ["ok", "cookies"],
      ["ok", "social"],
    ]);
    // Aligned: every detail starts in the column of the DETAIL header.
    for (const line of checkLines) expect(line.slice(0, 18)).toMatch(/^\S+ +\S+ +$/);
    expect(checkLines).toContain("ok      baseURL   https://auth.example.test");
    expect(checkLines).toContain(
      "ok      cookies   Secure (__Secure-authd.session_token): baseURL is https",
    );
    expect(result.stderr).toBe("All checks passed.\n");
  });

  it("fails the schema check with exit 10 on an unmigrated database", async () => {
    const result = await doctor(["--json"], {
      DATABASE_URL: unmigrated.url,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      AUTHD_SECRET: SECRET,
    });
    expect(result.code, result.stderr).toBe(10);
    const document = parse(result);
    expect(document.ok).toBe(false);
    expect(statuses(document)).toEqual({
      node: "ok",
      config: "ok",
      secret: "ok",
      database: "ok",
      schema: "fail",
      clock: "ok",
      mail: "ok",
      baseURL: "warn",
      origins: "ok",
      cookies: "warn",
      social: "ok",
    });
    expect(check(document, "schema")?.detail).toBe(
      `${migrationCount} pending: run \`authd migrate\``,
    );

    const human = await doctor([], { DATABASE_URL: unmigrated.url, AUTHD_SECRET: SECRET });
    expect(human.code).toBe(10);
    expect(human.stdout).toMatch(
      new RegExp(`^fail +schema +${migrationCount} pending: run \`authd migrate\`$`, "m"),
    );
    expect(human.stderr.trimEnd().split("\n").at(-1)).toBe("authd: 1 check failed: schema");
  });

  it("exits 69 naming host:port when the database is unreachable, without the password", async () => {
    const result = await doctor(["--json"], {
      DATABASE_URL: "postgres://postgres:pw@127.0.0.1:1/x",
      AUTHD_SECRET: SECRET,
    });
    expect(result.code, result.stderr).toBe(69);
    const document = parse(result);
    expect(statuses(document)).toEqual({
      node: "ok",
      config: "ok",
      secret: "ok",
      database: "fail",
      mail: "ok",
      baseURL: "warn",
      origins: "ok",
      cookies: "warn",
      social: "ok",
    });
    expect(check(document, "database")?.detail).toBe(
      "cannot reach PostgreSQL at 127.0.0.1:1/x: connection refused (is the server running?)",
    );
    expect((document.config as { database: { url: string } }).database.url).toBe(
      "postgres://postgres:***@127.0.0.1:1/x",
    );
    expect(JSON.parse(result.stderr)).toEqual({
      error: { code: "CHECK_FAILED", message: "1 check failed: database" },
    });

    const human = await doctor([], {
      DATABASE_URL: "postgres://postgres:pw@127.0.0.1:1/x",
      AUTHD_SECRET: SECRET,
    });
    expect(human.code).toBe(69);
    expect(human.stdout).toContain("127.0.0.1:1");
    expect(human.stderr).toContain("Skipped: schema, clock");
    expect(human.stderr.trimEnd().split("\n").at(-1)).toBe("authd: 1 check failed: database");
    for (const output of [result.stdout, result.stderr, human.stdout, human.stderr]) {
      expect(output).not.toContain(":pw@");
      expect(output).not.toMatch(/\bpw\b/);
    }
  });

  it("never hangs on a port that accepts connections but does not speak PostgreSQL", async () => {
    await writeFile(
      path.join(cwd, "authd.config.json"),
      JSON.stringify({ database: { connectTimeout: 1 } }),
    );
    // One server hangs up at once (postgres.js would reconnect forever), one says nothing.
    const sockets = new Set<Socket>();
    const hangsUp = createServer((socket) => {
      socket.on("error", () => {});
      sockets.add(socket);
      socket.end("HTTP/1.1 400 Bad Request\r\n\r\n");
    });
    const silent = createServer((socket) => {
      socket.on("error", () => {});
      sockets.add(socket);
    });
    const ports: number[] = [];
    for (const server of [hangsUp, silent]) {
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
      const address = server.address();
      if (typeof address !== "object" || !address) throw new Error("no port");
      ports.push(address.port);
    }
    try {
      const [hangsUpPort, silentPort] = ports;
      const closing = await doctor(["--json"], {
        DATABASE_URL: `postgres://postgres:pw@127.0.0.1:${hangsUpPort}/x`,
        AUTHD_SECRET: SECRET,
      });
      expect(closing.code, closing.stderr).toBe(69);
      expect(check(parse(closing), "database")).toEqual({
        name: "database",
        status: "fail",
        detail: `cannot connect to PostgreSQL at 127.0.0.1:${hangsUpPort}/x: the server there does not speak PostgreSQL`,
      });

      const quiet = await doctor(["--json"], {
        DATABASE_URL: `postgres://postgres:pw@127.0.0.1:${silentPort}/x`,
        AUTHD_SECRET: SECRET,
      });
      expect(quiet.code, quiet.stderr).toBe(69);
      expect(check(parse(quiet), "database")).toEqual({
        name: "database",
        status: "fail",
        detail: `cannot reach PostgreSQL at 127.0.0.1:${silentPort}/x: connection timed out`,
      });
    } finally {
      for (const socket of sockets) socket.destroy();
      await Promise.all(
        [hangsUp, silent].map(
          (server) => new Promise<void>((resolve) => server.close(() => resolve())),
        ),
      );
    }
  });

  it("exits 78 on an invalid config file and skips the checks that need it", async () => {
    await writeFile(
      path.join(cwd, "authd.config.json"),
      JSON.stringify({ emailAndPassword: { minPasswordLength: 0 } }),
    );
    const env = { DATABASE_URL: migratedUrl, AUTHD_SECRET: SECRET };
    const result = await doctor(["--json"], env);
    expect(result.code, result.stderr).toBe(78);
    const document = parse(result);
    expect(document).toEqual({
      config: null,
      checks: [
        { name: "node", status: "ok", detail: `v${process.versions.node} (>= 20.19)` },
        {
          name: "config",
          status: "fail",
          detail: "authd.config.json: emailAndPassword.minPasswordLength: expected a number >= 1",
        },
      ],
      ok: false,
    });

    const human = await doctor([], env);
    expect(human.code).toBe(78);
    expect(human.stdout).toMatch(
      /^fail +config +authd\.config\.json: emailAndPassword\.minPasswordLength: expected a number >= 1$/m,
    );
    expect(human.stdout).not.toContain("Configuration:");
    expect(human.stderr).toContain(
      "Skipped: secret, database, schema, clock, mail, baseURL, origins, cookies, social",
    );
    expect(human.stderr.trimEnd().split("\n").at(-1)).toBe("authd: 1 check failed: config");
  });

  it("exits 69 with a failed mail check when the SMTP server cannot be reached", async () => {
    const port = await closedPort();
    const result = await doctor(["--json"], {
      DATABASE_URL: migratedUrl,
      SMTP_URL: `smtp://mailer:smtp-s3cret@127.0.0.1:${port}`,
      AUTHD_SECRET: SECRET,
    });
    expect(result.code, result.stderr).toBe(69);
    const document = parse(result);
    expect(statuses(document)).toEqual({
      node: "ok",
      config: "ok",
      secret: "ok",
      database: "ok",
      schema: "ok",
      clock: "ok",
      mail: "fail",
      baseURL: "warn",
      origins: "ok",
      cookies: "warn",
      social: "ok",
    });
    expect(check(document, "mail")?.detail).toBe(
      `cannot reach the SMTP server at smtp://127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}`,
    );
    expect(result.stdout).not.toContain("smtp-s3cret");
    expect(result.stderr).not.toContain("smtp-s3cret");
  });

  it("says how many secrets are configured while they rotate, revealing none", async () => {
    const older = "doctor-older-secret-0123456789-abcdefghij";
    const result = await doctor(["--json"], {
      DATABASE_URL: migratedUrl,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      AUTHD_SECRET: `${SECRET},${older}`,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(check(parse(result), "secret")).toEqual({
      name: "secret",
      status: "ok",
      detail:
        "configured (AUTHD_SECRET): 2 secrets, the newest signs and seals, 1 older one is still accepted",
    });
    for (const secret of [SECRET, older]) {
      expect(result.stdout).not.toContain(secret);
      expect(result.stderr).not.toContain(secret);
    }
  });

  it("fails the secret check in production without a secret, and only warns in development", async () => {
    const env = {
      DATABASE_URL: migratedUrl,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      AUTHD_BASE_URL: "http://auth.example.test",
    };
    const production = await doctor(["--json"], { ...env, NODE_ENV: "production" });
    // A missing secret and cookies that are not Secure are configuration errors: 78.
    expect(production.code, production.stderr).toBe(78);
    const document = parse(production);
    expect(statuses(document)).toEqual({
      node: "ok",
      config: "ok",
      secret: "fail",
      database: "ok",
      schema: "ok",
      clock: "ok",
      mail: "ok",
      baseURL: "warn",
      origins: "ok",
      cookies: "fail",
      social: "ok",
    });
    expect(check(document, "cookies")?.detail).toBe(
      "not Secure (authd.session_token): baseURL http://auth.example.test is http, so browsers send the session cookie in clear text; use https://",
    );
    expect(check(document, "secret")?.detail).toBe(
      "missing: AUTHD_SECRET is required when NODE_ENV=production (generate one with `authd secret generate`)",
    );
    expect(check(document, "baseURL")?.detail).toBe(
      "http://auth.example.test: cookies will not be Secure over http; use https:// in production",
    );

    const development = await doctor(["--json"], env);
    expect(development.code, development.stderr).toBe(0);
    const developmentDocument = parse(development);
    expect(check(developmentDocument, "secret")).toEqual({
      name: "secret",
      status: "warn",
      detail: `not configured: a development secret will be generated in ${path.join(cwd, ".authd", "secret")}`,
    });
    expect(check(developmentDocument, "baseURL")).toEqual({
      name: "baseURL",
      status: "ok",
      detail: "http://auth.example.test",
    });
    expect(check(developmentDocument, "cookies")?.status).toBe("warn");
  });

  it("only warns about pending migrations on the embedded database, which serve migrates", async () => {
    const result = await doctor(["--json"], { AUTHD_SECRET: SECRET });
    expect(result.code, result.stderr).toBe(0);
    const document = parse(result);
    expect(statuses(document)).toEqual({
      node: "ok",
      config: "ok",
      secret: "ok",
      database: "ok",
      schema: "warn",
      clock: "ok",
      mail: "ok",
      baseURL: "warn",
      origins: "ok",
      cookies: "warn",
      social: "ok",
    });
    expect(check(document, "database")?.detail).toMatch(
      /^embedded PGlite \(.+\/\.authd\/pgdata\): PostgreSQL \S+, latency \d+ ms$/,
    );
    expect(check(document, "schema")?.detail).toBe(
      `${migrationCount} pending: \`authd serve\` applies them to the embedded database`,
    );
    expect(check(document, "mail")?.detail).toBe(
      `outbox ${path.join(cwd, ".authd", "outbox")} is writable (no SMTP_URL: messages are saved as .eml files)`,
    );
  });

  it("checks each trusted origin and how cookies follow a trusted proxy", async () => {
    await writeFile(
      path.join(cwd, "authd.config.json"),
      JSON.stringify({
        trustedOrigins: ["https://app.example.test", "https://*.example.test"],
        server: { trustProxy: true },
      }),
    );
    const env = { DATABASE_URL: migratedUrl, AUTHD_SECRET: SECRET };
    const good = await doctor(["--json"], env);
    expect(good.code, good.stderr).toBe(0);
    const document = parse(good);
    expect(check(document, "origins")).toEqual({
      name: "origins",
      status: "ok",
      detail: "https://app.example.test, https://*.example.test (pattern)",
    });
    expect(check(document, "cookies")).toEqual({
      name: "cookies",
      status: "ok",
      detail:
        "per request: Secure (__Secure-authd.session_token) when the trusted proxy sends X-Forwarded-Proto: https (server.trustProxy)",
    });

    // `*` and a URL with a path are warnings; an entry that is no http(s) origin fails (78).
    await writeFile(
      path.join(cwd, "authd.config.json"),
      JSON.stringify({
        baseURL: "http://localhost:3000",
        trustedOrigins: ["*", "https://app.example.test/login", "app.example.test"],
      }),
    );
    const bad = await doctor(["--json"], env);
    expect(bad.code, bad.stderr).toBe(78);
    const badDocument = parse(bad);
    expect(check(badDocument, "origins")).toEqual({
      name: "origins",
      status: "fail",
      detail:
        '"app.example.test": not a URL: expected scheme://host[:port]; "*": a wildcard for every origin is not supported (it matches nothing) and would be unsafe; list the origins, or patterns such as https://*.example.com; "https://app.example.test/login": only its origin https://app.example.test counts; write just that',
    });
    expect(check(badDocument, "cookies")).toEqual({
      name: "cookies",
      status: "ok",
      detail:
        "not Secure (authd.session_token): baseURL http://localhost:3000 is http on a local address (development only)",
    });
    expect(JSON.parse(bad.stderr)).toEqual({
      error: { code: "CHECK_FAILED", message: "1 check failed: origins" },
    });

    await writeFile(path.join(cwd, "authd.config.json"), JSON.stringify({ trustedOrigins: ["*"] }));
    const wildcard = await doctor(["--json"], env);
    expect(wildcard.code, wildcard.stderr).toBe(0);
    expect(check(parse(wildcard), "origins")?.status).toBe("warn");
  });

  it("checks social provider credentials without printing them", async () => {
    const clientSecret = "gh-client-secret-0123456789";
    // doctor also probes each provider's endpoints: keep those probes on this host (a
    // port nothing listens on) so the test never reaches the real GitHub or Google.
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer();
      probe.listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const offline = {
      authorizationEndpoint: `http://127.0.0.1:${closed}/authorize`,
      tokenEndpoint: `http://127.0.0.1:${closed}/token`,
    };
    await writeFile(
      path.join(cwd, "authd.config.json"),
      JSON.stringify({
        socialProviders: {
          github: { clientId: "Iv1.abcdef", clientSecret, ...offline },
          // An unexpanded ${VARIABLE}, as someone might expect a JSON file to support.
          google: {
            clientId: ["$", "{GOOGLE_CLIENT_ID}"].join(""),
            clientSecret: "  ",
            ...offline,
          },
        },
      }),
    );
    const env = { DATABASE_URL: migratedUrl, AUTHD_SECRET: SECRET };
    const result = await doctor(["--json"], env);
    expect(result.code, result.stderr).toBe(78);
    expect(check(parse(result), "social")).toEqual({
      name: "social",
      status: "fail",
      detail:
        "google: clientId looks like a placeholder (config files are not expanded); set the real value, clientSecret is blank",
    });
    expect(result.stdout).not.toContain(clientSecret);

    await writeFile(
      path.join(cwd, "authd.config.json"),
      JSON.stringify({
        socialProviders: { github: { clientId: "Iv1.abcdef", clientSecret, ...offline } },
      }),
    );
    const good = await doctor(["--json"], env);
    expect(good.code, good.stderr).toBe(0);
    expect(check(parse(good), "social")).toEqual({
      name: "social",
      status: "ok",
      detail: "github: clientId and clientSecret set",
    });
    expect(good.stdout).not.toContain(clientSecret);

    // Empty credentials (as `authd init --social` leaves them) fail the schema: the
    // config check fails, and the social check says which provider lacks what.
    await writeFile(
      path.join(cwd, "authd.config.json"),
      JSON.stringify({
        socialProviders: {
          github: { clientId: "", clientSecret: "" },
          google: { clientId: "id.apps.example" },
        },
      }),
    );
    const missing = await doctor(["--json"], env);
    expect(missing.code, missing.stderr).toBe(78);
    const document = parse(missing);
    expect(document.checks.map((item) => [item.name, item.status])).toEqual([
      ["node", "ok"],
      ["config", "fail"],
      ["social", "fail"],
    ]);
    expect(check(document, "social")?.detail).toBe(
      "github: clientId and clientSecret missing; google: clientSecret missing",
    );
    const human = await doctor([], env);
    expect(human.code).toBe(78);
    expect(human.stderr).toContain(
      "Skipped: secret, database, schema, clock, mail, baseURL, origins, cookies (they need",
    );
  });

  it("warns about clock skew over 2 s and fails over 30 s (exit 1)", async () => {
    // Shifts this host's clock (Date.now) in the authd process only.
    const shifted = async (ms: number) => {
      const file = path.join(cwd, `clock-${ms}.mjs`);
      await writeFile(file, `const real = Date.now;\nDate.now = () => real() + ${ms};\n`);
      return doctor(["--json"], {
        DATABASE_URL: migratedUrl,
        AUTHD_SECRET: SECRET,
        AUTHD_BASE_URL: "https://auth.example.test",
        NODE_OPTIONS: `--import=${pathToFileURL(file).href}`,
      });
    };
    const warned = await shifted(-10_000);
    expect(warned.code, warned.stderr).toBe(0);
    const warning = check(parse(warned), "clock");
    expect(warning?.status).toBe("warn");
    expect(warning?.detail).toMatch(
      /^database clock (9\.\d|10\.\d) s ahead of this host's \(round trip \d+ ms\): expiry times written by authd and compared by the database disagree; sync both clocks \(NTP\)$/,
    );

    const failed = await shifted(45_000);
    expect(failed.code, failed.stderr).toBe(1);
    const failure = check(parse(failed), "clock");
    expect(failure?.status).toBe("fail");
    expect(failure?.detail).toMatch(/^database clock (44\.\d|45\.\d) s behind this host's /);
    expect(JSON.parse(failed.stderr)).toEqual({
      error: { code: "CHECK_FAILED", message: "1 check failed: clock" },
    });
  });
});
