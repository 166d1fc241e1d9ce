import postgres from "postgres";
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

async function query<T extends object>(run: (sql: postgres.Sql) => Promise<T[]>): Promise<T[]> {
  const sql = postgres(testDatabase.url, { max: 1, onnotice: () => {} });
  try {
    return await run(sql);
  } finally {
    await sql.end();
  }
}

/** The tables of the public schema, sorted. */
async function tables(): Promise<string[]> {
  const rows = await query(
    (sql) => sql<{ name: string }[]>`
    select table_name as name from information_schema.tables
    where table_schema = 'public' order by table_name`,
  );
  return rows.map((row) => row.name);
}

/** The migrations the database records as applied, in order. */
async function appliedNames(): Promise<string[]> {
  const rows = await query(
    (sql) => sql<{ name: string }[]>`
    select name from authd_migrations order by run_on, id`,
  );
  return rows.map((row) => row.name);
}

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
    // Not even node-pg-migrate's bookkeeping table is created.
    expect(await tables()).toEqual([]);
    const counted = await runAuthd(["migrate", "--dry-run", "--count", "1"], { env });
    expect(counted.code, counted.stderr).toBe(0);
    expect(counted.stdout).toBe(
      `Would apply 1 migration(s) on 127.0.0.1:5432/${testDatabase.name}:\n  ${files[0]}\n`,
    );
    expect(counted.stderr).toContain("Dry run: nothing was applied.");
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

  it("down --dry-run shows what would be reverted, reverts nothing, needs no --yes", async () => {
    const applied = await appliedNames();
    expect(applied).toEqual(files);
    const result = await runAuthd(["migrate", "down", "--dry-run", "--count", "2", "--json"], {
      env,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      direction: "down",
      dryRun: true,
      migrations: files.slice(-2).reverse(),
    });
    expect(result.stderr).toContain("Dry run: nothing was reverted.");
    const human = await runAuthd(["migrate", "down", "--dry-run"], { env });
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toBe(
      `Would revert 1 migration(s) on 127.0.0.1:5432/${testDatabase.name}:\n  ${files.at(-1)}\n`,
    );
    expect(await appliedNames()).toEqual(applied);
    expect(await tables()).toContain("user");
  });

  it("down is refused in production without --force-production", async () => {
    const result = await runAuthd(["migrate", "down", "--yes"], {
      env: { ...env, NODE_ENV: "production" },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--force-production");
  });

  it("down is refused under --profile production or AUTHD_PROFILE=production", async () => {
    const before = await appliedNames();
    for (const [args, extra] of [
      [["--profile", "production"], {}],
      [[], { AUTHD_PROFILE: "production" }],
      [["--dry-run", "--profile", "production"], {}],
    ] as const) {
      const result = await runAuthd(["migrate", "down", "--yes", "--json", ...args], {
        env: { ...env, ...extra },
      });
      expect(result.code, JSON.stringify([args, extra])).toBe(2);
      expect(result.stdout).toBe("");
      expect(JSON.parse(result.stderr).error).toEqual({
        code: "USAGE_ERROR",
        message:
          "refusing to revert migrations in the production profile (NODE_ENV=production or --profile production) without --force-production",
      });
    }
    expect(await appliedNames()).toEqual(before);
    // --force-production lets it through (a dry run here, so nothing is lost).
    const forced = await runAuthd(
      ["migrate", "down", "--dry-run", "--force-production", "--profile", "production", "--json"],
      { env },
    );
    expect(forced.code, forced.stderr).toBe(0);
    expect(JSON.parse(forced.stdout).migrations).toEqual([files.at(-1)]);
    // The dev profile changes nothing: down still asks for --yes.
    const dev = await runAuthd(["migrate", "down", "--profile", "dev"], { env });
    expect(dev.code).toBe(2);
    expect(dev.stderr).toContain("--yes");
    expect(await appliedNames()).toEqual(before);
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
