/** `authd config validate|show|schema` as operators run them: the built binary in a scratch directory. */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAuthd } from "../helpers/cli.js";

const SECRET = "config-test-secret-0123456789-abcdefghijkl";

interface Setting {
  key: string;
  value: unknown;
  source: string;
  variable?: string;
}

let dir: string;

async function scratch(name: string, files: Record<string, string>): Promise<string> {
  const cwd = path.join(dir, name);
  await mkdir(cwd, { recursive: true });
  for (const [file, text] of Object.entries(files)) await writeFile(path.join(cwd, file), text);
  return cwd;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "authd-config-"));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("authd config validate", () => {
  it("answers valid with exit 0 for a good file", async () => {
    const cwd = await scratch("good", {
      "authd.config.json": JSON.stringify({ server: { port: 4000 } }),
    });
    const result = await runAuthd(["config", "validate"], { cwd });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^valid/);

    const json = await runAuthd(["config", "validate", "--json"], { cwd });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({
      valid: true,
      file: path.join(cwd, "authd.config.json"),
      problems: [],
    });
  });

  it("lists every problem of the file and the environment and exits 78", async () => {
    const cwd = await scratch("bad", {
      "authd.config.json": JSON.stringify({ server: { prot: 4000 }, basePath: "nope" }),
    });
    const result = await runAuthd(["config", "validate", "--json"], {
      cwd,
      env: { AUTHD_BASE_URL: "ftp://example.test" },
    });
    expect(result.code).toBe(78);
    const document = JSON.parse(result.stdout) as { valid: boolean; problems: string[] };
    expect(document.valid).toBe(false);
    expect(document.problems).toHaveLength(3);
    expect(document.problems.join("\n")).toContain(
      'server.prot: unknown key (did you mean "port"?)',
    );
    expect(document.problems.join("\n")).toContain("basePath");
    expect(document.problems.join("\n")).toContain("AUTHD_BASE_URL");

    const human = await runAuthd(["config", "validate"], { cwd });
    expect(human.code).toBe(78);
    expect(human.stdout).toBe("");
    expect(human.stderr).toContain("server.prot");
    expect(human.stderr).toContain("2 problems");
  });

  it("reports a social provider with no source of endpoints, as serve would refuse it", async () => {
    const credentials = { clientId: "id", clientSecret: "a-client-secret" };
    const cwd = await scratch("social", {
      "authd.config.json": JSON.stringify({
        socialProviders: {
          corp: { ...credentials, issuer: "https://id.corp.example" },
          mystery: credentials,
        },
      }),
    });
    const result = await runAuthd(["config", "validate", "--json"], { cwd });
    expect(result.code).toBe(78);
    expect(JSON.parse(result.stdout).problems).toEqual([
      'authd.config.json: socialProviders.mystery: "mystery" is not a built-in provider: expected an issuer (OpenID Connect discovery) or authorizationEndpoint, tokenEndpoint and userInfoEndpoint',
    ]);
  });

  it("reports a missing --config file as a problem", async () => {
    const result = await runAuthd(["config", "validate", "--json", "--config", "missing.json"], {
      cwd: dir,
    });
    expect(result.code).toBe(78);
    expect(JSON.parse(result.stdout).problems[0]).toContain("config file not found");
  });
});

describe("authd config validate --strict", () => {
  const unsafe = {
    baseURL: "http://auth.example.test",
    trustedOrigins: [
      "https://app.example.test",
      "*",
      "https://admin.example.test/login",
      "https://*.example.test",
      "ftp://files.example.test",
    ],
    session: { cookieCache: { enabled: true, maxAge: 86400 } },
    cli: { allowSessionMint: true },
  };

  it("passes a production-grade configuration with exit 0 and no warnings", async () => {
    const cwd = await scratch("strict-good", {
      "authd.config.json": JSON.stringify({
        baseURL: "https://auth.example.test",
        trustedOrigins: ["https://app.example.test"],
        session: { cookieCache: { enabled: true, maxAge: 300 } },
      }),
    });
    const json = await runAuthd(["config", "validate", "--strict", "--json"], {
      cwd,
      env: { AUTHD_SECRET: SECRET },
    });
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({
      valid: true,
      file: path.join(cwd, "authd.config.json"),
      problems: [],
      warnings: [],
    });
    const human = await runAuthd(["config", "validate", "--strict"], {
      cwd,
      env: { AUTHD_SECRET: SECRET },
    });
    expect(human.code).toBe(0);
    expect(human.stdout).toBe(`valid under --strict (${path.join(cwd, "authd.config.json")})\n`);
    expect(human.stderr).toBe("");
  });

  it("fails unsafe settings with exit 78, each listed with its source and key", async () => {
    const cwd = await scratch("strict-bad", {
      "authd.config.json": JSON.stringify(unsafe),
    });
    const secretFile = path.join(cwd, ".authd", "secret");
    const result = await runAuthd(["config", "validate", "--strict", "--json"], { cwd });
    expect(result.code, result.stderr).toBe(78);
    expect(JSON.parse(result.stdout)).toEqual({
      valid: false,
      file: path.join(cwd, "authd.config.json"),
      problems: [
        "authd.config.json: baseURL: http://auth.example.test is not https: session cookies are not Secure and travel in clear text; use https://",
        'authd.config.json: trustedOrigins.1: "*": a wildcard for every origin is not supported (it matches nothing) and would be unsafe; list the origins, or patterns such as https://*.example.com',
        'authd.config.json: trustedOrigins.4: "ftp://files.example.test": ftp: is not http: or https:',
        `authd.config.json: secret: not configured: the development secret file ${secretFile} would be used (generated per machine); set AUTHD_SECRET (generate one with \`authd secret generate\`)`,
        "authd.config.json: session.cookieCache.maxAge: 86400 s: a revoked or banned session stays usable from the cookie cache that long; keep it at most 3600 s (default 300)",
        "authd.config.json: cli.allowSessionMint: true: `authd session create` can mint a session for any user; enable it only for tests",
      ],
      warnings: [
        'authd.config.json: trustedOrigins.2: "https://admin.example.test/login": only its origin https://admin.example.test counts; write just that',
        'authd.config.json: trustedOrigins.3: "https://*.example.test" trusts every host it matches: make sure nobody else controls such a host',
      ],
    });

    // The human form: warnings and problems on stderr, nothing on stdout.
    const human = await runAuthd(["config", "validate", "--strict"], { cwd });
    expect(human.code).toBe(78);
    expect(human.stdout).toBe("");
    const lines = human.stderr.trimEnd().split("\n");
    expect(lines.filter((line) => line.startsWith("warning: "))).toHaveLength(2);
    expect(lines).toContain(
      "authd.config.json: cli.allowSessionMint: true: `authd session create` can mint a session for any user; enable it only for tests",
    );
    expect(lines.at(-1)).toBe(
      `invalid under --strict: 6 problems in ${path.join(cwd, "authd.config.json")}`,
    );

    // Without --strict the same file is valid, and the document keeps its shape.
    const lenient = await runAuthd(["config", "validate", "--json"], { cwd });
    expect(lenient.code, lenient.stderr).toBe(0);
    expect(JSON.parse(lenient.stdout)).toEqual({
      valid: true,
      file: path.join(cwd, "authd.config.json"),
      problems: [],
    });
  });

  it("names the environment variable a value came from; a missing baseURL is a problem", async () => {
    const cwd = await scratch("strict-env", {});
    const fromEnv = await runAuthd(["config", "validate", "--strict", "--json"], {
      cwd,
      env: { AUTHD_BASE_URL: "http://auth.example.test", AUTHD_SECRET: SECRET },
    });
    expect(fromEnv.code).toBe(78);
    expect(JSON.parse(fromEnv.stdout)).toEqual({
      valid: false,
      file: null,
      problems: [
        "AUTHD_BASE_URL: http://auth.example.test is not https: session cookies are not Secure and travel in clear text; use https://",
      ],
      warnings: [],
    });

    const missing = await runAuthd(["config", "validate", "--strict", "--json"], {
      cwd,
      env: { AUTHD_SECRET: SECRET },
    });
    expect(missing.code).toBe(78);
    expect(JSON.parse(missing.stdout).problems).toEqual([
      "defaults: baseURL: not set: authd derives its URL from each request's Host header and cookies follow the request's protocol; set baseURL (AUTHD_BASE_URL) to the public https:// URL",
    ]);
  });

  it("refuses a ./.env line that is not NAME=value, without repeating it", async () => {
    const cwd = await scratch("env-lines", {
      ".env":
        "# settings\nPORT 4556\nexport AUTHD_BASE_URL=http://localhost:3000\nSMTP_URL: smtp://u:hunter2@h\n",
    });
    const result = await runAuthd(["config", "validate"], { cwd });
    expect(result.code).toBe(78);
    expect(result.stderr).toContain(".env: line 2, 4: expected NAME=value");
    expect(result.stderr).not.toContain("hunter2");

    const readable = await scratch("env-readable", {
      ".env":
        '# comment\n\nexport PORT=4556\nAUTHD_BASE_URL = "http://localhost:3000"\nNOTE="two\nlines"\n',
    });
    const shown = await runAuthd(["config", "show", "--json"], { cwd: readable });
    expect(shown.code, shown.stderr).toBe(0);
    const settings = JSON.parse(shown.stdout).settings as Setting[];
    expect(settings.find((setting) => setting.key === "server.port")).toMatchObject({
      value: 4556,
      variable: "PORT",
    });
  });

  it("blames a bad entry of a secret list on the variable that set it", async () => {
    const cwd = await scratch("secret-list", {
      "authd.config.json": JSON.stringify({ baseURL: "http://localhost:3000" }),
    });
    const result = await runAuthd(["config", "validate", "--json"], {
      cwd,
      env: { AUTHD_SECRET: `${SECRET},short` },
    });
    expect(result.code).toBe(78);
    expect(JSON.parse(result.stdout).problems).toEqual([
      "AUTHD_SECRET: secret.1: expected at least 32 characters",
    ]);
  });

  it("only warns about http on a local address", async () => {
    const cwd = await scratch("strict-local", {});
    for (const baseURL of ["http://localhost:3000", "http://127.0.0.1:3000", "http://[::1]:3000"]) {
      const result = await runAuthd(["config", "validate", "--strict", "--json"], {
        cwd,
        env: { AUTHD_BASE_URL: baseURL, AUTHD_SECRET: SECRET },
      });
      expect(result.code, baseURL).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual({
        valid: true,
        file: null,
        problems: [],
        warnings: [
          `AUTHD_BASE_URL: ${baseURL} is http on a local address: fine for development, use https:// in production`,
        ],
      });
    }
  });

  it("reports schema problems first: the strict checks need a valid configuration", async () => {
    const cwd = await scratch("strict-invalid", {
      "authd.config.json": JSON.stringify({ ...unsafe, server: { prot: 1 } }),
    });
    const result = await runAuthd(["config", "validate", "--strict", "--json"], { cwd });
    expect(result.code).toBe(78);
    expect(JSON.parse(result.stdout)).toEqual({
      valid: false,
      file: path.join(cwd, "authd.config.json"),
      problems: ['authd.config.json: server.prot: unknown key (did you mean "port"?)'],
      warnings: [],
    });
  });
});

describe("authd config show", () => {
  let cwd: string;
  beforeAll(async () => {
    cwd = await scratch("show", {
      "authd.config.ts": `export default {
  secret: ${JSON.stringify(SECRET)},
  server: { port: 4000 },
  organization: { organizationLimit: (user: unknown) => 3 },
};
`,
    });
  });

  async function settings(args: string[] = [], env: Record<string, string> = {}) {
    const result = await runAuthd(["config", "show", "--json", ...args], { cwd, env });
    expect(result.code, result.stderr).toBe(0);
    const document = JSON.parse(result.stdout) as { file: string; settings: Setting[] };
    expect(document.file).toBe(path.join(cwd, "authd.config.ts"));
    return {
      byKey: new Map(document.settings.map((setting) => [setting.key, setting])),
      stderr: result.stderr,
      stdout: result.stdout,
    };
  }

  it("annotates each value with its source and redacts secrets", async () => {
    const { byKey, stdout, stderr } = await settings([], {
      PORT: "5000",
      DATABASE_URL: "postgres://authd:hunter2@db.example.test/authd",
    });
    expect(byKey.get("server.port")).toEqual({
      key: "server.port",
      value: 5000,
      source: "env",
      variable: "PORT",
    });
    expect(byKey.get("secret")).toMatchObject({ value: "***", source: "file" });
    expect(byKey.get("basePath")).toMatchObject({ value: "/api/auth", source: "default" });
    expect(byKey.get("organization.organizationLimit")).toMatchObject({
      value: "[function]",
      source: "file",
    });
    expect(byKey.get("database.url")?.value).toBe("postgres://authd:***@db.example.test/authd");
    expect(stdout).not.toContain(SECRET);
    expect(stdout).not.toContain("hunter2");
    expect(stderr).toBe("");
  });

  it("masks a password holding special characters and shows URLs as written", async () => {
    const { byKey, stdout } = await settings([], {
      DATABASE_URL: "postgres://authd:p%23ss@w0rd@db.example.test/authd?sslmode=require",
      SMTP_URL: "smtp://mailer:s3cr%2Ft@smtp.example.test:587",
      AUTHD_BASE_URL: "http://localhost:3000",
    });
    expect(byKey.get("database.url")?.value).toBe(
      "postgres://authd:***@db.example.test/authd?sslmode=require",
    );
    expect(byKey.get("mail.smtpUrl")?.value).toBe("smtp://mailer:***@smtp.example.test:587");
    // Not re-serialized: no trailing slash added to what the operator wrote.
    expect(byKey.get("baseURL")?.value).toBe("http://localhost:3000");
    for (const secret of ["p%23ss", "w0rd", "s3cr"]) expect(stdout).not.toContain(secret);
  });

  it("refuses a URL whose password breaks it, naming the variable, never printing it", async () => {
    for (const [variable, value] of [
      ["DATABASE_URL", "postgres://authd:pa#ss@db.example.test/authd"],
      ["SMTP_URL", "smtp://mailer:pa?ss@smtp.example.test"],
      ["REDIS_URL", "redis://:pa/ss@cache.example.test:6379"],
    ] as const) {
      for (const command of [
        ["config", "validate"],
        ["config", "show"],
        ["migrate", "status"],
      ]) {
        const result = await runAuthd(command, { cwd, env: { [variable]: value } });
        expect(result.code, `${variable} ${command.join(" ")}: ${result.stderr}`).toBe(78);
        expect(result.stderr).toContain(`${variable}: expected`);
        expect(result.stderr).toContain("percent-encode");
        expect(result.stdout + result.stderr).not.toMatch(/pa[#?/]ss/);
      }
    }
  });

  it("--reveal prints secrets with a warning on stderr", async () => {
    const { byKey, stderr } = await settings(["--reveal"]);
    expect(byKey.get("secret")?.value).toBe(SECRET);
    expect(byKey.get("organization.organizationLimit")?.value).toBe("[function]");
    expect(stderr).toMatch(/warning/i);
  });

  it("prints an aligned table for humans", async () => {
    const result = await runAuthd(["config", "show"], { cwd, env: { PORT: "5000" } });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^SETTING\s+VALUE\s+SOURCE/);
    expect(result.stdout).toMatch(/server\.port\s+5000\s+env \(PORT\)/);
    expect(result.stdout).toMatch(/secret\s+\*\*\*\s+file/);
  });

  it("exits 78 on an invalid configuration", async () => {
    const result = await runAuthd(["config", "show"], { cwd, env: { PORT: "not-a-port" } });
    expect(result.code).toBe(78);
  });
});

describe("authd config schema", () => {
  it("prints the JSON Schema of the config file", async () => {
    const result = await runAuthd(["config", "schema"], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    const schema = JSON.parse(result.stdout);
    expect(schema.$schema).toContain("json-schema.org");
    expect(schema.type).toBe("object");
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.server.properties.port).toMatchObject({
      type: "integer",
      maximum: 65535,
    });
    expect(schema.description).toMatch(/functions/);
    // Functions are accepted as anything, and say so.
    const hook =
      schema.properties.organization.properties.hooks.properties.beforeCreateOrganization;
    expect(hook.description).toMatch(/function/i);
  });
});
