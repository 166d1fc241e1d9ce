import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listMigrationFiles } from "../../server/db/migrations.js";
import { runAuthd } from "../helpers/cli.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";

let testDatabase: TestDatabase;
let env: Record<string, string>;
let files: string[];

beforeAll(async () => {
  testDatabase = await createTestDatabase();
  env = { DATABASE_URL: testDatabase.url };
  files = await listMigrationFiles();
});

afterAll(async () => {
  await testDatabase?.drop();
});

describe("authd migrate", () => {
  it("status lists every migration as pending on an empty database", async () => {
    const result = await runAuthd(["migrate", "status", "--json"], { env });
    expect(result.code).toBe(0);
    const status = JSON.parse(result.stdout);
    expect(status.upToDate).toBe(false);
    expect(status.migrations).toEqual(
      files.map((name) => ({ name, status: "pending", runOn: null })),
    );
    expect(status.database).toBe(`127.0.0.1:5432/${testDatabase.name}`);
  });

  it("status --exit-code answers 10 while migrations are pending", async () => {
    const result = await runAuthd(["migrate", "status", "--exit-code"], { env });
    expect(result.code).toBe(10);
    expect(result.stdout).toMatch(/^STATUS\s+MIGRATION\s+RUN ON\n/);
    expect(result.stdout).toContain(`pending  ${files[0]}`);
  });

  it("--dry-run changes nothing", async () => {
    const result = await runAuthd(["migrate", "up", "--dry-run", "--json"], { env });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ direction: "up", dryRun: true, migrations: files });
    const status = JSON.parse((await runAuthd(["migrate", "status", "--json"], { env })).stdout);
    expect(status.upToDate).toBe(false);
  });

  it("`authd migrate` applies everything; a second run is a no-op", async () => {
    const first = await runAuthd(["migrate"], { env });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain(`Applied ${files.length} migration(s)`);
    const second = await runAuthd(["migrate", "--json"], { env });
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toEqual({ direction: "up", dryRun: false, migrations: [] });
    const status = await runAuthd(["migrate", "status", "--json", "--exit-code"], { env });
    expect(status.code).toBe(0);
    const parsed = JSON.parse(status.stdout);
    expect(parsed.upToDate).toBe(true);
    expect(parsed.migrations.map((row: { status: string }) => row.status)).toEqual(
      files.map(() => "applied"),
    );
    for (const row of parsed.migrations) expect(Date.parse(row.runOn)).not.toBeNaN();
  });

  it("down needs --yes when not on a terminal, and changes nothing without it", async () => {
    const refused = await runAuthd(["migrate", "down"], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("--yes");
    const status = JSON.parse((await runAuthd(["migrate", "status", "--json"], { env })).stdout);
    expect(status.upToDate).toBe(true);
  });

  it("down --yes reverts, and up restores", async () => {
    const down = await runAuthd(
      ["migrate", "down", "--yes", "--count", String(files.length), "--json"],
      {
        env,
      },
    );
    expect(down.code, down.stderr).toBe(0);
    expect(JSON.parse(down.stdout)).toEqual({
      direction: "down",
      migrations: [...files].reverse(),
    });
    const up = await runAuthd(["migrate", "up", "--json"], { env });
    expect(JSON.parse(up.stdout).migrations).toEqual(files);
  });

  it("down is refused in production without --force-production", async () => {
    const result = await runAuthd(["migrate", "down", "--yes"], {
      env: { ...env, NODE_ENV: "production" },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--force-production");
  });

  it("rejects a bad --count as a usage error", async () => {
    const result = await runAuthd(["migrate", "up", "--count", "zero"], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("expected a whole number >= 1");
  });

  it("prints errors as JSON on stderr with --json", async () => {
    const result = await runAuthd(["migrate", "status", "--json"], {
      env: { DATABASE_URL: "postgres://postgres@127.0.0.1:1/none" },
    });
    expect(result.code).toBe(69);
    expect(result.stdout).toBe("");
    expect(JSON.parse(result.stderr)).toEqual({
      error: {
        code: "DATABASE_UNAVAILABLE",
        message:
          "cannot reach PostgreSQL at 127.0.0.1:1/none: connection refused (is the server running?)",
      },
    });
  });
});
