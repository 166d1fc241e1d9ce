/**
 * Global flags that reach configuration (reference/cli.md "Global flags"):
 * --database-url and $AUTHD_DATABASE_URL over $DATABASE_URL, refused in production.
 */
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
});
