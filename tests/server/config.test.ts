import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  ConfigError,
  ensureSecret,
  loadConfig,
  readEnvironment,
  redactConfig,
  suggestKey,
} from "../../server/config.js";

const CONFIG_MODULE = path.resolve(import.meta.dirname, "../../server/define-config.ts");

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "authd-config-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function problemsOf(promise: Promise<unknown>): Promise<string[]> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

describe("defaults", () => {
  it("runs with no file and no environment", async () => {
    const loaded = await loadConfig({ cwd: dir, env: {} });
    expect(loaded.file).toBeNull();
    expect(loaded.production).toBe(false);
    const { config } = loaded;
    expect(config.basePath).toBe("/api/auth");
    expect(config.server).toMatchObject({
      host: "0.0.0.0",
      port: 3000,
      bodyLimit: 65536,
      shutdownTimeout: 30,
      drainDelay: 5,
      headersTimeout: 20,
      requestTimeout: 30,
    });
    expect(config.emailAndPassword).toMatchObject({
      enabled: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      resetPasswordTokenExpiresIn: 3600,
    });
    expect(config.emailVerification.expiresIn).toBe(3600);
    expect(config.user.deleteUser).toMatchObject({
      requireEmailConfirmation: true,
      expiresIn: 86400,
    });
    expect(config.organization).toMatchObject({
      creatorRole: "owner",
      membershipLimit: 100,
      invitationExpiresIn: 172800,
    });
    expect(config.admin).toMatchObject({ defaultRole: "user", adminRoles: ["admin"] });
    expect(config.database.url).toBeUndefined();
    expect(config.secret).toBeUndefined();
  });
});

describe("discovery", () => {
  it("finds authd.config.json in the working directory", async () => {
    await writeFile(path.join(dir, "authd.config.json"), JSON.stringify({ basePath: "/auth" }));
    const loaded = await loadConfig({ cwd: dir, env: {} });
    expect(loaded.file).toBe(path.join(dir, "authd.config.json"));
    expect(loaded.config.basePath).toBe("/auth");
  });

  it("prefers the TS file over JSON, in the documented order", async () => {
    await writeFile(path.join(dir, "authd.config.json"), JSON.stringify({ basePath: "/json" }));
    await writeFile(
      path.join(dir, "authd.config.ts"),
      `import { defineConfig } from ${JSON.stringify(CONFIG_MODULE)};
const limit: number = 3;
export default defineConfig({ basePath: "/ts", organization: { organizationLimit: limit } });
`,
    );
    const loaded = await loadConfig({ cwd: dir, env: {} });
    expect(path.basename(loaded.file ?? "")).toBe("authd.config.ts");
    expect(loaded.config.basePath).toBe("/ts");
    expect(loaded.config.organization.organizationLimit).toBe(3);
  });

  it("keeps functions from a TS config (organization limit, hooks)", async () => {
    await writeFile(
      path.join(dir, "authd.config.mts"),
      `export default {
  organization: {
    organizationLimit: (user: { id: string }) => user.id === "vip",
    hooks: { beforeCreateOrganization: async () => undefined },
  },
};
`,
    );
    const { config } = await loadConfig({ cwd: dir, env: {} });
    expect(typeof config.organization.organizationLimit).toBe("function");
    expect(typeof config.organization.hooks?.beforeCreateOrganization).toBe("function");
  });

  it("uses $AUTHD_CONFIG over discovery, and --config over both", async () => {
    await writeFile(path.join(dir, "authd.config.json"), JSON.stringify({ basePath: "/found" }));
    await writeFile(path.join(dir, "env.json"), JSON.stringify({ basePath: "/env" }));
    await writeFile(path.join(dir, "flag.json"), JSON.stringify({ basePath: "/flag" }));
    const viaEnv = await loadConfig({ cwd: dir, env: { AUTHD_CONFIG: "env.json" } });
    expect(viaEnv.config.basePath).toBe("/env");
    const viaFlag = await loadConfig({
      cwd: dir,
      env: { AUTHD_CONFIG: "env.json" },
      configPath: "flag.json",
    });
    expect(viaFlag.config.basePath).toBe("/flag");
  });

  it("names a missing explicit file", async () => {
    const problems = await problemsOf(loadConfig({ cwd: dir, env: {}, configPath: "nope.json" }));
    expect(problems).toEqual(["nope.json: config file not found"]);
  });

  it("names the file on a JSON syntax error", async () => {
    await writeFile(path.join(dir, "authd.config.json"), '{"basePath": ');
    const problems = await problemsOf(loadConfig({ cwd: dir, env: {} }));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^authd\.config\.json: invalid JSON \(/);
  });

  it('loads `import { defineConfig } from "authd"` with no authd installed beside the file', async () => {
    // A global install or the checkout's own bin: no node_modules/authd near the config.
    for (const [name, body] of [
      ["authd.config.ts", 'export default defineConfig({ basePath: "/ts" as const });'],
      ["authd.config.mts", 'export default defineConfig({ basePath: "/mts" });'],
      ["authd.config.mjs", 'export default defineConfig({ basePath: "/mjs" });'],
      ["authd.config.js", 'export default defineConfig({ basePath: "/js" });'],
    ] as const) {
      const folder = await mkdtemp(path.join(tmpdir(), "authd-config-alias-"));
      await writeFile(path.join(folder, name), `import { defineConfig } from "authd";\n${body}\n`);
      // An ES module either way: a .js file needs its package to say so.
      await writeFile(path.join(folder, "package.json"), '{"type": "module"}');
      const { config, file } = await loadConfig({ cwd: folder, env: {} });
      expect(file).toBe(path.join(folder, name));
      expect(config.basePath).toBe(`/${name.split(".").pop()}`);
      await rm(folder, { recursive: true, force: true });
    }
  });

  it("requires a default export from a JS config", async () => {
    await writeFile(path.join(dir, "authd.config.mjs"), "export const config = {};\n");
    const problems = await problemsOf(loadConfig({ cwd: dir, env: {} }));
    expect(problems[0]).toMatch(/^authd\.config\.mjs: expected a default export/);
  });
});

describe("validation messages", () => {
  it("names the file, the key path and what was expected", async () => {
    await writeFile(
      path.join(dir, "authd.config.json"),
      JSON.stringify({ emailAndPassword: { minPasswordLength: 0 } }),
    );
    const problems = await problemsOf(loadConfig({ cwd: dir, env: {} }));
    expect(problems).toEqual([
      "authd.config.json: emailAndPassword.minPasswordLength: expected a number >= 1",
    ]);
  });

  it("reports every problem at once, with types", async () => {
    await writeFile(
      path.join(dir, "authd.config.json"),
      JSON.stringify({ server: { port: "eighty" }, trustedOrigins: "http://a", baseURL: "nope" }),
    );
    const problems = await problemsOf(loadConfig({ cwd: dir, env: {} }));
    expect(problems).toEqual(
      expect.arrayContaining([
        "authd.config.json: server.port: expected a number, got a string",
        "authd.config.json: trustedOrigins: expected an array, got a string",
        "authd.config.json: baseURL: expected an http(s) URL",
      ]),
    );
    expect(problems).toHaveLength(3);
  });

  it("rejects unknown keys with a did-you-mean hint, nested too", async () => {
    await writeFile(
      path.join(dir, "authd.config.json"),
      JSON.stringify({ emailAndPasword: {}, session: { expiresInn: 10 }, zzz: 1 }),
    );
    const problems = await problemsOf(loadConfig({ cwd: dir, env: {} }));
    expect(problems).toEqual(
      expect.arrayContaining([
        'authd.config.json: emailAndPasword: unknown key (did you mean "emailAndPassword"?)',
        'authd.config.json: session.expiresInn: unknown key (did you mean "expiresIn"?)',
        "authd.config.json: zzz: unknown key",
      ]),
    );
  });

  it("checks min <= max password length", async () => {
    await writeFile(
      path.join(dir, "authd.config.json"),
      JSON.stringify({ emailAndPassword: { minPasswordLength: 20, maxPasswordLength: 10 } }),
    );
    const problems = await problemsOf(loadConfig({ cwd: dir, env: {} }));
    expect(problems).toEqual([
      "authd.config.json: emailAndPassword.minPasswordLength: expected minPasswordLength <= maxPasswordLength",
    ]);
  });

  it("keeps the drain delay below the shutdown timeout it is spent within", async () => {
    await writeFile(
      path.join(dir, "authd.config.json"),
      JSON.stringify({ server: { shutdownTimeout: 5 } }),
    );
    expect(await problemsOf(loadConfig({ cwd: dir, env: {} }))).toEqual([
      "authd.config.json: server.drainDelay: expected less than server.shutdownTimeout (5), got 5: the drain delay is spent within the shutdown timeout (lower drainDelay, default 5, or raise shutdownTimeout)",
    ]);
    const none = await loadConfig({
      cwd: dir,
      env: {},
      overrides: { server: { drainDelay: 0 } },
    });
    expect(none.config.server).toMatchObject({ shutdownTimeout: 5, drainDelay: 0 });
    expect(
      await problemsOf(
        loadConfig({ cwd: dir, env: {}, overrides: { server: { drainDelay: -1 } } }),
      ),
    ).toEqual(["authd.config.json: server.drainDelay: expected a number >= 0"]);
  });

  it("keeps the headers timeout within the request timeout", async () => {
    await writeFile(
      path.join(dir, "authd.config.json"),
      JSON.stringify({ server: { headersTimeout: 40 } }),
    );
    expect(await problemsOf(loadConfig({ cwd: dir, env: {} }))).toEqual([
      "authd.config.json: server.headersTimeout: expected at most server.requestTimeout (30), got 40: the headers are part of the request",
    ]);
    const raised = await loadConfig({
      cwd: dir,
      env: {},
      overrides: { server: { requestTimeout: 60 } },
    });
    expect(raised.config.server).toMatchObject({ headersTimeout: 40, requestTimeout: 60 });
    expect(
      await problemsOf(
        loadConfig({ cwd: dir, env: {}, overrides: { server: { requestTimeout: 0 } } }),
      ),
    ).toContain("authd.config.json: server.requestTimeout: expected a number >= 1");
  });

  it("does not print secret values in problems", async () => {
    await writeFile(
      path.join(dir, "authd.config.json"),
      JSON.stringify({ secret: "short-secret" }),
    );
    const problems = await problemsOf(loadConfig({ cwd: dir, env: {} }));
    expect(problems).toEqual(["authd.config.json: secret: expected at least 32 characters"]);
    expect(problems.join("\n")).not.toContain("short-secret");
  });

  it("suggests only close names", () => {
    expect(suggestKey("basepath", ["basePath", "baseURL"])).toBe("basePath");
    expect(suggestKey("completely", ["basePath", "baseURL"])).toBeUndefined();
  });
});

describe("environment overrides", () => {
  it("overrides the file, and flags override the environment", async () => {
    await writeFile(
      path.join(dir, "authd.config.json"),
      JSON.stringify({ server: { port: 4000, host: "127.0.0.1" }, mail: { from: "a@file.test" } }),
    );
    const loaded = await loadConfig({
      cwd: dir,
      env: {
        PORT: "5000",
        HOST: "::1",
        DATABASE_URL: "postgres://u@db:5432/x",
        AUTHD_SECRET: "s".repeat(40),
        AUTHD_BASE_URL: "https://auth.example.com",
        SMTP_URL: "smtp://mail:25",
        MAIL_FROM: "env@example.com",
        REDIS_URL: "redis://cache:6379",
        LOG_LEVEL: "debug",
      },
      overrides: { server: { port: 6000 } },
    });
    const { config } = loaded;
    expect(config.server.port).toBe(6000);
    expect(config.server.host).toBe("::1");
    expect(config.database.url).toBe("postgres://u@db:5432/x");
    expect(config.secret).toBe("s".repeat(40));
    expect(config.baseURL).toBe("https://auth.example.com");
    expect(config.mail).toMatchObject({ smtpUrl: "smtp://mail:25", from: "env@example.com" });
    expect(config.redis.url).toBe("redis://cache:6379");
    expect(config.log.level).toBe("debug");
    expect(loaded.envSources["database.url"]).toBe("DATABASE_URL");
  });

  it("names the variable when an environment value is invalid", async () => {
    const problems = await problemsOf(
      loadConfig({ cwd: dir, env: { PORT: "abc", LOG_LEVEL: "loud", DATABASE_URL: "mysql://x" } }),
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        "PORT: expected a number, got a string",
        'LOG_LEVEL: expected one of "fatal", "error", "warn", "info", "debug", "trace", "silent"',
        "DATABASE_URL: expected a postgres:// URL",
      ]),
    );
  });

  it("reads ./.env under the shell environment", async () => {
    await writeFile(path.join(dir, ".env"), "AUTHD_SECRET=from-dot-env-0123456789012345678901\n");
    const env = readEnvironment(dir);
    expect(env.AUTHD_SECRET).toBe(
      process.env.AUTHD_SECRET ?? "from-dot-env-0123456789012345678901",
    );
    const loaded = await loadConfig({ cwd: dir, env });
    expect(loaded.config.secret).toBe(env.AUTHD_SECRET);
  });

  it("NODE_ENV=production or AUTHD_PROFILE=production marks the profile", async () => {
    const loaded = await loadConfig({ cwd: dir, env: { NODE_ENV: "production" } });
    expect(loaded.production).toBe(true);
    expect((await loadConfig({ cwd: dir, env: { AUTHD_PROFILE: "production" } })).production).toBe(
      true,
    );
    expect((await loadConfig({ cwd: dir, env: { AUTHD_PROFILE: "test" } })).production).toBe(false);
  });

  it("AUTHD_DATABASE_URL wins over DATABASE_URL", async () => {
    const loaded = await loadConfig({
      cwd: dir,
      env: { DATABASE_URL: "postgres://a@one/x", AUTHD_DATABASE_URL: "postgres://b@two/y" },
    });
    expect(loaded.config.database.url).toBe("postgres://b@two/y");
    expect(loaded.envSources["database.url"]).toBe("AUTHD_DATABASE_URL");
  });

  it("reads secrets from <NAME>_FILE, the plain variable winning, and names an unreadable file", async () => {
    await writeFile(path.join(dir, "secret.txt"), `${"f".repeat(40)}\n`);
    await writeFile(path.join(dir, "db.txt"), "postgres://u:p@db/x\n");
    const loaded = await loadConfig({
      cwd: dir,
      env: {
        AUTHD_SECRET_FILE: "secret.txt",
        DATABASE_URL_FILE: path.join(dir, "db.txt"),
        SMTP_URL: "smtp://plain:25",
        SMTP_URL_FILE: "missing-but-unused.txt",
      },
    });
    expect(loaded.config.secret).toBe("f".repeat(40));
    expect(loaded.config.database.url).toBe("postgres://u:p@db/x");
    expect(loaded.config.mail.smtpUrl).toBe("smtp://plain:25");
    expect(loaded.envSources).toMatchObject({
      secret: "AUTHD_SECRET_FILE",
      "database.url": "DATABASE_URL_FILE",
      "mail.smtpUrl": "SMTP_URL",
    });
    expect(
      await problemsOf(loadConfig({ cwd: dir, env: { AUTHD_SECRET_FILE: "nope.txt" } })),
    ).toEqual(["AUTHD_SECRET_FILE: cannot read nope.txt (ENOENT)"]);
    await writeFile(path.join(dir, "short.txt"), "short\n");
    const short = await problemsOf(
      loadConfig({ cwd: dir, env: { AUTHD_SECRET_FILE: "short.txt" } }),
    );
    expect(short.join("\n")).toContain("AUTHD_SECRET_FILE");
    expect(short.join("\n")).not.toContain("short\n");
    // Only secrets take a file: PORT_FILE means nothing.
    const port = await loadConfig({ cwd: dir, env: { PORT_FILE: "secret.txt" } });
    expect(port.config.server.port).toBe(3000);
  });
});

describe("secret", () => {
  it("generates a development secret once and keeps it", async () => {
    const first = await loadConfig({ cwd: dir, env: {} });
    const { secret, source } = await ensureSecret(first);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const file = path.join(dir, ".authd", "secret");
    expect(source).toEqual({ kind: "generated", file });
    expect((await readFile(file, "utf8")).trim()).toBe(secret);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const second = await loadConfig({ cwd: dir, env: {} });
    expect(await ensureSecret(second)).toEqual({ secret, source: { kind: "stored", file } });
    const configured = await loadConfig({ cwd: dir, env: { AUTHD_SECRET: "c".repeat(40) } });
    expect(await ensureSecret(configured)).toEqual({
      secret: "c".repeat(40),
      source: { kind: "configured" },
    });
  });

  it("is required in production", async () => {
    const loaded = await loadConfig({ cwd: dir, env: { NODE_ENV: "production" } });
    const problems = await problemsOf(ensureSecret(loaded));
    expect(problems[0]).toMatch(/^AUTHD_SECRET: a secret is required when NODE_ENV=production/);
  });
});

describe("redaction", () => {
  it("hides secrets and passwords in URLs", async () => {
    const { config } = await loadConfig({
      cwd: dir,
      env: {
        AUTHD_SECRET: "x".repeat(40),
        DATABASE_URL: "postgres://app:hunter2@db:5432/authd",
        SMTP_URL: "smtp://mailer:mailpass@mail:587",
      },
    });
    config.socialProviders = {
      github: {
        clientId: "id",
        clientSecret: "gh-secret",
        disableSignUp: false,
        disableImplicitSignUp: false,
      },
    };
    const text = JSON.stringify(redactConfig(config));
    expect(text).not.toContain("x".repeat(40));
    expect(text).not.toContain("hunter2");
    expect(text).not.toContain("mailpass");
    expect(text).not.toContain("gh-secret");
    expect(text).toContain("postgres://app:***@db:5432/authd");
  });
});
