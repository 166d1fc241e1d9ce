/**
 * Global flags that reach configuration:
 * --database-url and $AUTHD_DATABASE_URL over $DATABASE_URL, refused in production.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAuthd } from "../helpers/cli.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";

let testDatabase: TestDatabase;
// Nothing listens there: a command that used it would exit 69.
const UNREACHABLE = "postgres://postgres@127.0.0.1:9/nowhere";

beforeAll(async () => {
  testDatabase = await createTestDatabase();
});
afterAll(async () => {
  await testDatabase?.drop();
});

describe("--database-url and AUTHD_DATABASE_URL", () => {
  it("the flag wins over DATABASE_URL", async () => {
    const result = await runAuthd(
      ["migrate", "status", "--json", "--database-url", testDatabase.url],
      { env: { DATABASE_URL: UNREACHABLE } },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).migrations.length).toBeGreaterThan(0);
  });

  it("AUTHD_DATABASE_URL wins over DATABASE_URL, and the flag over both", async () => {
    const fromEnv = await runAuthd(["migrate", "status", "--json"], {
      env: { DATABASE_URL: UNREACHABLE, AUTHD_DATABASE_URL: testDatabase.url },
    });
    expect(fromEnv.code, fromEnv.stderr).toBe(0);
    const flagWins = await runAuthd(["migrate", "status", "--database-url", UNREACHABLE], {
      env: { AUTHD_DATABASE_URL: testDatabase.url },
    });
    expect(flagWins.code).toBe(69);
    expect(flagWins.stderr).toContain("127.0.0.1:9/nowhere");
  });

  it("is reported as the flag, not as a variable the user did not set", async () => {
    const shown = await runAuthd(
      ["config", "show", "--json", "--verbose", "--database-url", "postgres://u:pw@db.test/app"],
      { env: { DATABASE_URL: UNREACHABLE } },
    );
    expect(shown.code, shown.stderr).toBe(0);
    const settings = JSON.parse(shown.stdout).settings as { key: string; source: string }[];
    const sourceOf = (key: string) => settings.find((setting) => setting.key === key);
    expect(sourceOf("database.url")).toMatchObject({ source: "flag" });
    expect(sourceOf("database.url")).not.toHaveProperty("variable");
    expect(sourceOf("log.level")).toMatchObject({ value: "debug", source: "flag" });
    expect(shown.stdout).not.toContain(":pw@");

    const refused = await runAuthd([
      "migrate",
      "status",
      "--json",
      "--database-url",
      "mysql://u@h/db",
    ]);
    expect(refused.code).toBe(78);
    expect(JSON.parse(refused.stderr).error.message).toBe(
      "--database-url: database.url: expected a postgres:// URL",
    );
  });

  it("is refused in the production profile, where a URL in argv would leak", async () => {
    for (const extra of [
      { args: ["--profile", "production"], env: {} },
      { args: [], env: { AUTHD_PROFILE: "production" } },
      { args: [], env: { NODE_ENV: "production" } },
    ]) {
      const result = await runAuthd(
        ["migrate", "status", "--json", "--database-url", testDatabase.url, ...extra.args],
        { env: extra.env },
      );
      expect(result.code).toBe(2);
      expect(JSON.parse(result.stderr).error.code).toBe("USAGE_ERROR");
      expect(result.stderr).not.toContain(testDatabase.url);
    }
  });

  it("is refused when the production profile comes from ./.env", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "authd-profile-"));
    try {
      await writeFile(path.join(dir, ".env"), "AUTHD_PROFILE=production\n");
      const result = await runAuthd(
        ["migrate", "status", "--json", "--database-url", testDatabase.url],
        { cwd: dir },
      );
      expect(result.code).toBe(2);
      expect(JSON.parse(result.stderr).error.message).toContain(
        "refused in the production profile",
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("--profile and AUTHD_PROFILE", () => {
  it("a bad $AUTHD_PROFILE is a usage error (exit 2) naming the variable and the allowed values", async () => {
    for (const value of ["prod", "Production", "staging"]) {
      // The database is unreachable: a command that went on would exit 69, not 2.
      const human = await runAuthd(["migrate", "status"], {
        env: { AUTHD_PROFILE: value, DATABASE_URL: UNREACHABLE },
      });
      expect(human.code, human.stderr).toBe(2);
      expect(human.stdout).toBe("");
      expect(human.stderr).toBe(
        `authd: AUTHD_PROFILE: invalid value "${value}"; allowed values are dev, test, production\n`,
      );
      const json = await runAuthd(["migrate", "status", "--json"], {
        env: { AUTHD_PROFILE: value, DATABASE_URL: UNREACHABLE },
      });
      expect(json.code).toBe(2);
      expect(JSON.parse(json.stderr).error).toEqual({
        code: "USAGE_ERROR",
        message: `AUTHD_PROFILE: invalid value "${value}"; allowed values are dev, test, production`,
      });
    }
  });

  it("is refused before anything runs, as a bad --profile is", async () => {
    // Even a command that needs no database, and even with --database-url, which a
    // misspelt production profile would otherwise let through.
    const version = await runAuthd(["version"], { env: { AUTHD_PROFILE: "prod" } });
    expect(version.code).toBe(2);
    expect(version.stdout).toBe("");
    const withUrl = await runAuthd(
      ["migrate", "status", "--json", "--database-url", testDatabase.url],
      { env: { AUTHD_PROFILE: "prod" } },
    );
    expect(withUrl.code).toBe(2);
    expect(withUrl.stdout).toBe("");
    expect(JSON.parse(withUrl.stderr).error.message).toContain("AUTHD_PROFILE");
    const flag = await runAuthd(["version", "--profile", "prod"]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain("Allowed choices are dev, test, production");
  });

  it("reads AUTHD_PROFILE from ./.env too, as the configuration does", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "authd-profile-"));
    try {
      await writeFile(path.join(dir, ".env"), "AUTHD_PROFILE=prod\n");
      const fromFile = await runAuthd(["version"], { cwd: dir });
      expect(fromFile.code).toBe(2);
      expect(fromFile.stderr).toBe(
        'authd: AUTHD_PROFILE: invalid value "prod"; allowed values are dev, test, production\n',
      );
      // The shell's variable wins over the file's.
      const shellWins = await runAuthd(["version"], { cwd: dir, env: { AUTHD_PROFILE: "dev" } });
      expect(shellWins.code, shellWins.stderr).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("accepts every allowed value, an empty one, and lets a good --profile win over a bad variable", async () => {
    for (const value of ["dev", "test", "production", ""]) {
      const result = await runAuthd(["migrate", "status", "--json"], {
        env: { AUTHD_PROFILE: value, DATABASE_URL: testDatabase.url },
      });
      expect(result.code, `${value}: ${result.stderr}`).toBe(0);
    }
    const flagWins = await runAuthd(["migrate", "status", "--json", "--profile", "test"], {
      env: { AUTHD_PROFILE: "prod", DATABASE_URL: testDatabase.url },
    });
    expect(flagWins.code, flagWins.stderr).toBe(0);
  });
});
