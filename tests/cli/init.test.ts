/**
 * `authd init` through the built binary: stdin is a pipe, so it never prompts and takes
 * the flags and defaults, as in CI.
 */
import {
  chmod,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rm,
  stat,
  writeFile,
} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseEnv } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError, loadConfig, validateConfig } from "../../server/config.js";
import { BUILT_IN_PROVIDERS } from "../../server/social/providers/index.js";
import { type CliResult, ROOT, runAuthd, runAuthdInTerminal } from "../helpers/cli.js";

const SECRET_LINE = /^AUTHD_SECRET=[A-Za-z0-9_-]{43}$/;

let dir: string;

beforeEach(async () => {
  // realpath: the binary reports paths from its own cwd, which is the resolved one.
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), "authd-init-")));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function init(args: string[] = [], env: Record<string, string> = {}): Promise<CliResult> {
  return runAuthd(["init", ...args], { cwd: dir, env });
}

function read(name: string): Promise<string> {
  return readFile(path.join(dir, name), "utf8");
}

/** The KEY=value lines of a .env, in order, without comments and blank lines. */
function assignments(envText: string): string[] {
  return envText.split("\n").filter((line) => line !== "" && !line.startsWith("#"));
}

async function mode(name: string): Promise<number> {
  return (await stat(path.join(dir, name))).mode & 0o777;
}

describe("authd init, defaults without a terminal", () => {
  it("writes authd.config.ts and a private .env holding only the secret", async () => {
    const result = await init();
    expect(result.stderr).toContain("Wrote authd.config.ts");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("Wrote .env");
    expect(result.stderr).toContain("\nNext steps:\n  npx authd serve\n");
    expect(result.stderr).not.toContain("migrate");
    // No .gitignore is created when there is none.
    expect((await readdir(dir)).sort()).toEqual([".env", "authd.config.ts"]);

    const envText = await read(".env");
    const lines = assignments(envText);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(SECRET_LINE);
    const secret = parseEnv(envText).AUTHD_SECRET ?? "";
    expect(secret).toHaveLength(43);
    expect(await mode(".env")).toBe(0o600);

    const config = await read("authd.config.ts");
    expect(config).not.toContain(secret);
    expect(config).not.toContain("{{");
    expect(config).toContain('import { defineConfig } from "authd";\n');
    expect(config).toContain("export default defineConfig({\n");
    expect(config).toContain('  baseURL: "http://localhost:3000",\n');
    expect(config).toContain("  emailAndPassword: { enabled: true },\n");
    expect(config).toContain("  socialProviders: {},\n");
    expect(config).toContain("  organization: { enabled: true },\n");
    expect(config).toContain('  mail: { from: "authd <no-reply@localhost>" },\n');
    expect(config).not.toMatch(/database:|DATABASE_URL=/);
  });

  it("refuses a second run with exit 73 and leaves both files byte-identical", async () => {
    expect((await init()).code).toBe(0);
    const before = [await read("authd.config.ts"), await read(".env")];

    const again = await init();
    expect(again.code).toBe(73);
    expect(again.stdout).toBe("");
    expect(again.stderr).toContain("authd.config.ts and .env already exist");
    expect(again.stderr).toContain("pass --force to overwrite");
    expect([await read("authd.config.ts"), await read(".env")]).toEqual(before);

    const asJson = await init(["--json", "--social", "github"]);
    expect(asJson.code).toBe(73);
    expect(asJson.stdout).toBe("");
    expect(JSON.parse(asJson.stderr)).toMatchObject({ error: { code: "FILE_EXISTS" } });
    expect([await read("authd.config.ts"), await read(".env")]).toEqual(before);
  });

  it("writes neither file when only one of them exists", async () => {
    await writeFile(path.join(dir, ".env"), "KEEP=me\n");
    const result = await init();
    expect(result.code).toBe(73);
    expect(result.stderr).toContain(".env already exists");
    expect(await readdir(dir)).toEqual([".env"]);
    expect(await read(".env")).toBe("KEEP=me\n");
  });

  it("with --force overwrites both, with a new secret and mode 0600", async () => {
    expect((await init()).code).toBe(0);
    const firstSecret = parseEnv(await read(".env")).AUTHD_SECRET;
    await chmod(path.join(dir, ".env"), 0o644);

    const result = await init(["--force", "--base-url", "https://auth.example.test"]);
    expect(result.code).toBe(0);
    const envText = await read(".env");
    expect(assignments(envText)[0]).toMatch(SECRET_LINE);
    expect(parseEnv(envText).AUTHD_SECRET).not.toBe(firstSecret);
    expect(await mode(".env")).toBe(0o600);
    expect(await read("authd.config.ts")).toContain('  baseURL: "https://auth.example.test",\n');
  });

  it("refuses a config file of another format, even with --force", async () => {
    await writeFile(path.join(dir, "authd.config.json"), "{}\n");
    const result = await init(["--force"]);
    expect(result.code).toBe(73);
    expect(result.stderr).toContain("authd.config.json already exists");
    expect(result.stderr).toContain("would compete with authd.config.ts");
    expect(await readdir(dir)).toEqual(["authd.config.json"]);
  });
});

describe("authd init --format json", () => {
  it("writes a config that validates once the provider credentials are filled in", async () => {
    const result = await init([
      "--format",
      "json",
      "--social",
      "github",
      "--no-organizations",
      "--database-url",
      "postgres://u@h:5432/db",
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("empty clientId and clientSecret in authd.config.json");
    expect(result.stderr).toContain("  npx authd migrate\n  npx authd serve\n");
    expect((await readdir(dir)).sort()).toEqual([".env", "authd.config.json"]);

    const envText = await read(".env");
    const lines = assignments(envText);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(SECRET_LINE);
    expect(lines[1]).toBe("DATABASE_URL=postgres://u@h:5432/db");
    expect(await mode(".env")).toBe(0o600);

    const text = await read("authd.config.json");
    expect(text).not.toContain(parseEnv(envText).AUTHD_SECRET ?? "missing");
    const raw = JSON.parse(text) as {
      socialProviders: Record<string, { clientId: string; clientSecret: string }>;
    };
    // The database URL may hold a password: it stays in .env.
    expect(raw).toEqual({
      baseURL: "http://localhost:3000",
      emailAndPassword: { enabled: true },
      socialProviders: { github: { clientId: "", clientSecret: "" } },
      organization: { enabled: false },
      mail: { from: "authd <no-reply@localhost>" },
    });

    // As written, the empty credentials are reported...
    expect(() => validateConfig(raw, "authd.config.json")).toThrow(ConfigError);
    expect(() => validateConfig(raw, "authd.config.json")).toThrow(
      "socialProviders.github.clientId",
    );
    // ...and once filled in, the file is a valid configuration.
    raw.socialProviders.github = { clientId: "gh-client", clientSecret: "gh-secret" };
    const config = validateConfig(raw, "authd.config.json");
    expect(config.organization.enabled).toBe(false);
    expect(config.socialProviders.github).toEqual({
      clientId: "gh-client",
      clientSecret: "gh-secret",
      disableSignUp: false,
      disableImplicitSignUp: false,
    });
    expect(config.baseURL).toBe("http://localhost:3000");
    expect(config.secret).toBeUndefined();
  });

  it("JSON-encodes the values it inserts", async () => {
    const result = await init([
      "--format",
      "json",
      "--mail-from",
      'Acme "Auth" <no-reply@acme.test>',
      "--base-url",
      "https://auth.example.test/a?b=%22",
    ]);
    expect(result.code).toBe(0);
    const raw = JSON.parse(await read("authd.config.json")) as Record<string, unknown>;
    expect(raw.mail).toEqual({ from: 'Acme "Auth" <no-reply@acme.test>' });
    expect(raw.baseURL).toBe("https://auth.example.test/a?b=%22");
    expect(() => validateConfig(raw, "authd.config.json")).not.toThrow();
  });
});

describe("authd init, the TS config", () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
  });

  /** The generated file, importing defineConfig from this checkout instead of "authd". */
  async function loadGenerated() {
    const file = path.join(dir, "authd.config.ts");
    const text = await readFile(file, "utf8");
    const local = JSON.stringify(path.join(ROOT, "server/define-config.ts"));
    await writeFile(
      file,
      text.replace(
        'import { defineConfig } from "authd";',
        `import { defineConfig } from ${local};`,
      ),
    );
    // The template loads ./.env relative to the working directory, as authd does.
    const previous = process.cwd();
    process.chdir(dir);
    try {
      return await loadConfig({ cwd: dir, env: {} });
    } finally {
      process.chdir(previous);
    }
  }

  it("is loaded by loadConfig, taking the provider credentials from .env", async () => {
    const result = await init([
      "--social",
      "github,my-idp=https://idp.example.test",
      "--base-url",
      "https://auth.example.test",
      "--smtp-url",
      "smtp://localhost:1025",
      "--mail-from",
      "Acme <no-reply@acme.test>",
    ]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      "fill in the github, my-idp client id(s) and secret(s) in .env",
    );
    expect(result.stderr).not.toContain("npx authd migrate");

    const text = await read("authd.config.ts");
    expect(text).toContain("export default defineConfig({");
    expect(text).toContain(
      [
        "  socialProviders: {",
        "    github: {",
        '      clientId: process.env.GITHUB_CLIENT_ID ?? "",',
        '      clientSecret: process.env.GITHUB_CLIENT_SECRET ?? "",',
        "    },",
        '    "my-idp": {',
        '      clientId: process.env.MY_IDP_CLIENT_ID ?? "",',
        '      clientSecret: process.env.MY_IDP_CLIENT_SECRET ?? "",',
        '      issuer: "https://idp.example.test",',
        "    },",
        "  },",
      ].join("\n"),
    );
    const envText = await read(".env");
    expect(assignments(envText).slice(1)).toEqual([
      "SMTP_URL=smtp://localhost:1025",
      "GITHUB_CLIENT_ID=",
      "GITHUB_CLIENT_SECRET=",
      "MY_IDP_CLIENT_ID=",
      "MY_IDP_CLIENT_SECRET=",
    ]);

    // Left empty, the credentials make a clear configuration error.
    await expect(loadGenerated()).rejects.toThrow("socialProviders.github.clientId");
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];

    await writeFile(
      path.join(dir, ".env"),
      envText
        .replace("GITHUB_CLIENT_ID=\n", "GITHUB_CLIENT_ID=gh-id\n")
        .replace("GITHUB_CLIENT_SECRET=\n", "GITHUB_CLIENT_SECRET=gh-secret\n")
        .replace("MY_IDP_CLIENT_ID=\n", "MY_IDP_CLIENT_ID=idp-id\n")
        .replace("MY_IDP_CLIENT_SECRET=\n", "MY_IDP_CLIENT_SECRET=idp-secret\n"),
    );
    const loaded = await loadGenerated();
    expect(loaded.file).toBe(path.join(dir, "authd.config.ts"));
    expect(loaded.config.baseURL).toBe("https://auth.example.test");
    expect(loaded.config.socialProviders).toEqual({
      github: {
        clientId: "gh-id",
        clientSecret: "gh-secret",
        disableSignUp: false,
        disableImplicitSignUp: false,
      },
      "my-idp": {
        clientId: "idp-id",
        clientSecret: "idp-secret",
        issuer: "https://idp.example.test",
        disableSignUp: false,
        disableImplicitSignUp: false,
      },
    });
    expect(loaded.config.organization.enabled).toBe(true);
    expect(loaded.config.mail.from).toBe("Acme <no-reply@acme.test>");
    // The config file itself carries no secret: env was empty, so none was found.
    expect(loaded.config.secret).toBeUndefined();
  });
});

describe("authd init, social providers", () => {
  it("sets up built-in providers and OpenID Connect issuers, prints their callback URLs, and validates", async () => {
    const result = await init([
      "--social",
      "github,acme=https://id.acme.test",
      "--social",
      "gitlab=https://gitlab.example.test",
      "--base-url",
      "https://auth.example.test",
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(
      [
        "Register these callback URLs at the providers (they follow baseURL):",
        "  GitHub (github): https://auth.example.test/api/auth/callback/github",
        "  acme (OpenID Connect): https://auth.example.test/api/auth/callback/acme",
        "  GitLab (gitlab): https://auth.example.test/api/auth/callback/gitlab",
        "",
        "Next steps:",
        "  fill in the github, acme, gitlab client id(s) and secret(s) in .env",
      ].join("\n"),
    );
    const text = await read("authd.config.ts");
    expect(text).toContain(
      [
        "    acme: {",
        '      clientId: process.env.ACME_CLIENT_ID ?? "",',
        '      clientSecret: process.env.ACME_CLIENT_SECRET ?? "",',
        '      issuer: "https://id.acme.test",',
        "    },",
      ].join("\n"),
    );
    // A self-managed instance of a built-in provider keeps its issuer too.
    expect(text).toContain('      issuer: "https://gitlab.example.test",\n');

    // As written, only the empty credentials are wrong; filled in, the file is valid.
    const unfilled = await runAuthd(["config", "validate"], { cwd: dir });
    expect(unfilled.code).toBe(78);
    expect(unfilled.stderr).toContain("socialProviders.acme.clientId");
    expect(unfilled.stderr).not.toContain("is not a built-in provider");
    const envText = await read(".env");
    await writeFile(
      path.join(dir, ".env"),
      envText.replace(/^([A-Z]+_CLIENT_(?:ID|SECRET))=$/gm, "$1=value-of-$1"),
    );
    const filled = await runAuthd(["config", "validate", "--json"], { cwd: dir });
    expect(filled.code, filled.stderr).toBe(0);
    expect(JSON.parse(filled.stdout)).toMatchObject({ valid: true, problems: [] });
  });

  it("on a terminal, offers every built-in provider by name and asks for another issuer", async () => {
    const down = "\u001b[B";
    const up = "\u001b[A";
    const result = await runAuthdInTerminal(
      ["init"],
      [
        { waitFor: "Public base URL", keys: "\r" },
        { waitFor: "Database", keys: "\r" },
        // The list is ordered by name: GitHub is fifth; up from the top wraps to the last entry.
        { waitFor: "Social sign-in providers", keys: `${down.repeat(4)} ${up.repeat(5)} \r` },
        { waitFor: "Provider id", keys: "acme\r" },
        { waitFor: "Issuer URL of acme", keys: "https://id.acme.test\r" },
        { waitFor: "Add another OpenID Connect issuer?", keys: "\r" },
        { waitFor: "Enable organizations", keys: "\r" },
        { waitFor: "Email delivery", keys: "\r" },
      ],
      { cwd: dir },
    );
    expect(result.code, result.stdout).toBe(0);
    for (const { name } of Object.values(BUILT_IN_PROVIDERS).slice(0, 5)) {
      expect(result.stdout).toContain(name);
    }
    expect(result.stdout).toContain("Another OpenID Connect issuer");
    expect(result.stdout).toContain(
      "acme (OpenID Connect): http://localhost:3000/api/auth/callback/acme",
    );
    const text = await read("authd.config.ts");
    expect(text).toContain("    github: {\n");
    expect(text).toContain('      issuer: "https://id.acme.test",\n');
    expect(assignments(await read(".env")).slice(1)).toEqual([
      "GITHUB_CLIENT_ID=",
      "GITHUB_CLIENT_SECRET=",
      "ACME_CLIENT_ID=",
      "ACME_CLIENT_SECRET=",
    ]);
  });

  it("accepts every built-in provider; --json names the callback URL of each", async () => {
    const ids = Object.keys(BUILT_IN_PROVIDERS);
    expect(ids).toHaveLength(19);
    const result = await init(["--format", "json", "--json", "--social", ids.join(",")]);
    expect(result.code, result.stderr).toBe(0);
    const document = JSON.parse(result.stdout) as {
      socialProviders: string[];
      callbackURLs: Record<string, string>;
    };
    expect(document.socialProviders).toEqual(ids);
    expect(document.callbackURLs).toEqual(
      Object.fromEntries(ids.map((id) => [id, `http://localhost:3000/api/auth/callback/${id}`])),
    );
    const raw = JSON.parse(await read("authd.config.json")) as {
      socialProviders: Record<string, { clientId: string; clientSecret: string }>;
    };
    expect(Object.keys(raw.socialProviders)).toEqual(ids);
    for (const entry of Object.values(raw.socialProviders)) {
      expect(entry).toEqual({ clientId: "", clientSecret: "" });
      entry.clientId = "client-id";
      entry.clientSecret = "client-secret";
    }
    await writeFile(path.join(dir, "authd.config.json"), JSON.stringify(raw));
    const validated = await runAuthd(["config", "validate", "--strict"], { cwd: dir });
    // --strict warns about the http baseURL on localhost only; nothing about providers.
    expect(validated.code, validated.stderr).toBe(0);
    expect(validated.stdout).toContain("valid");
  });
});

describe("authd init, validation and output modes", () => {
  it.each([
    [["--base-url", "nope"], "--base-url: expected an http:// or https:// URL"],
    [["--base-url", "ftp://example.test"], "--base-url: expected an http:// or https:// URL"],
    [["--database-url", "mysql://u@h/db"], "--database-url: expected a postgres:// or"],
    [
      ["--database-url", "postgres://u:pa#ss@h/db"],
      "--database-url: expected a postgres:// URL that",
    ],
    [["--smtp-url", "smtp://u:pa/ss@mail.test"], "--smtp-url: expected an smtp:// URL that"],
    [["--smtp-url", "http://mail.test"], "--smtp-url: expected an smtp:// or smtps:// URL"],
    [["--social", "github,GitHub"], '--social: "GitHub" is not a provider id'],
    [
      ["--social", "my-app=https://a.example.test,my_app=https://b.example.test"],
      '--social: "my-app" and "my_app" would share',
    ],
    [["--social", "my-idp"], '--social: "my-idp" is not a built-in provider; for another'],
    [["--social", "acme=ftp://id.example.test"], "--social: acme: expected the issuer's http://"],
    [["--social", "acme="], "--social: acme: expected the issuer's http://"],
    [["--mail-from", "ab"], "--mail-from: expected a sender address"],
    [["--format", "yaml"], "argument 'yaml' is invalid"],
  ])("%j exits 2 and writes nothing", async (args, message) => {
    const result = await init(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(message);
    expect(await readdir(dir)).toEqual([]);
  });

  it("--dry-run prints the files and writes nothing", async () => {
    const result = await init(["--dry-run", "--social", "github"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("Dry run: nothing was written.");
    expect(await readdir(dir)).toEqual([]);
    expect(result.stdout).toContain(`==> ${path.join(dir, "authd.config.ts")} <==\n`);
    expect(result.stdout).toContain(`==> ${path.join(dir, ".env")} <==\n`);
    expect(result.stdout).toContain("export default defineConfig({");
    expect(result.stdout).toContain("\nAUTHD_SECRET=<generated when written>\n");
    expect(result.stdout).toContain("\nGITHUB_CLIENT_ID=\n");
  });

  it("a --dry-run before the command (global) works too; --json says dryRun and writes nothing", async () => {
    await writeFile(path.join(dir, ".gitignore"), "node_modules\n");
    const result = await runAuthd(["--dry-run", "--json", "init"], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      files: [path.join(dir, "authd.config.ts"), path.join(dir, ".env")],
      format: "ts",
      embeddedDatabase: true,
      socialProviders: [],
      callbackURLs: {},
      organizations: true,
      gitignoreAdded: [".env", ".authd/"],
      dryRun: true,
    });
    expect(result.stderr).toBe("Dry run: nothing was written.\n");
    expect(await readdir(dir)).toEqual([".gitignore"]);
    expect(await read(".gitignore")).toBe("node_modules\n");
  });

  it("--json prints one JSON document on stdout and nothing else", async () => {
    const result = await init(["--json", "--database-url", "postgres://u@h:5432/db"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toEqual({
      files: [path.join(dir, "authd.config.ts"), path.join(dir, ".env")],
      format: "ts",
      embeddedDatabase: false,
      socialProviders: [],
      callbackURLs: {},
      organizations: true,
      gitignoreAdded: [],
      dryRun: false,
    });
    expect((await readdir(dir)).sort()).toEqual([".env", "authd.config.ts"]);
  });

  it("appends .env and .authd/ to an existing .gitignore", async () => {
    await writeFile(path.join(dir, ".gitignore"), "node_modules");
    const result = await init();
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("Added .env and .authd/ to .gitignore");
    expect(await read(".gitignore")).toBe("node_modules\n.env\n.authd/\n");
  });

  it("leaves a .gitignore that lists both alone", async () => {
    const listed = "/.env\n.authd\n";
    await writeFile(path.join(dir, ".gitignore"), listed);
    const result = await init(["--json"]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ gitignoreAdded: [] });
    expect(await read(".gitignore")).toBe(listed);
  });

  it("--dir creates the directory and points the next steps at it", async () => {
    const result = await init(["--dir", "deploy/auth"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("\nNext steps:\n  cd deploy/auth\n  npx authd serve\n");
    expect((await readdir(path.join(dir, "deploy/auth"))).sort()).toEqual([
      ".env",
      "authd.config.ts",
    ]);
    await mkdir(path.join(dir, "file-parent"));
    await writeFile(path.join(dir, "file-parent/x"), "");
    const notADirectory = await init(["--dir", "file-parent/x"]);
    expect(notADirectory.code).toBe(2);
    expect(notADirectory.stderr).toContain("--dir:");
  });
});
