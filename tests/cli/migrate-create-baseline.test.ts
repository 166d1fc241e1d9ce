import { mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
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

describe("authd migrate create", () => {
  it("writes the next numbered file with Up and Down sections, and prints its path", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "authd-migrate-create-"));
    await writeFile(path.join(dir, "0007_existing.sql"), "-- Up Migration\n");
    const result = await runAuthd(["migrate", "create", "add-user-locale", "--dir", dir]);
    expect(result.code, result.stderr).toBe(0);
    const file = path.join(dir, "0008_add-user-locale.sql");
    expect(result.stdout).toBe(`${file}\n`);
    const text = await readFile(file, "utf8");
    expect(text).toMatch(/^-- authd migration 0008: add-user-locale\n/);
    expect(text).toContain("\n-- Up Migration\n");
    expect(text).toContain("\n-- Down Migration\n");
    expect(text.indexOf("-- Up Migration")).toBeLessThan(text.indexOf("-- Down Migration"));

    const json = await runAuthd(["migrate", "create", "second", "--dir", dir, "--json"]);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ file: path.join(dir, "0009_second.sql") });
  });

  it("--dry-run prints the path and the content and writes nothing", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "authd-migrate-create-"));
    await writeFile(path.join(dir, "0003_existing.sql"), "-- Up Migration\n");
    const json = await runAuthd([
      "migrate",
      "create",
      "add-locale",
      "--dir",
      dir,
      "--dry-run",
      "--json",
    ]);
    expect(json.code, json.stderr).toBe(0);
    const document = JSON.parse(json.stdout);
    expect(document).toEqual({
      file: path.join(dir, "0004_add-locale.sql"),
      dryRun: true,
      content: expect.stringMatching(/^-- authd migration 0004: add-locale\n/),
    });
    expect(document.content).toContain("\n-- Up Migration\n");
    expect(document.content).toContain("\n-- Down Migration\n");
    expect(json.stderr).toContain("Dry run: nothing was written.");

    const human = await runAuthd(["migrate", "create", "add-locale", "--dir", dir, "--dry-run"]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(
      new RegExp(`^==> ${path.join(dir, "0004_add-locale.sql")} <==\n-- authd migration 0004`),
    );
    expect(await readdir(dir)).toEqual(["0003_existing.sql"]);

    // A directory that does not exist is not created either; a twin is still refused.
    const missing = path.join(dir, "not-yet");
    const fresh = await runAuthd([
      "migrate",
      "create",
      "first",
      "--dir",
      missing,
      "--dry-run",
      "-q",
    ]);
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(fresh.stdout).toBe(`${path.join(missing, "0001_first.sql")}\n`);
    const twin = await runAuthd(["migrate", "create", "existing", "--dir", dir, "--dry-run"]);
    expect(twin.code).toBe(73);
    expect(await readdir(dir)).toEqual(["0003_existing.sql"]);
  });

  it("starts at 0001 in an empty directory", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "authd-migrate-create-"));
    const result = await runAuthd(["migrate", "create", "first", "--dir", dir, "--json"]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).file).toBe(path.join(dir, "0001_first.sql"));
  });

  it("rejects a name that is not kebab-case (exit 2) and writes nothing", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "authd-migrate-create-"));
    for (const name of ["Add_Locale", "add locale", "-x", "ünïcode"]) {
      const result = await runAuthd(["migrate", "create", "--dir", dir, "--", name]);
      expect(result.code, name).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toContain("kebab-case");
    }
    expect(await readdir(dir)).toEqual([]);
  });

  it("refuses to overwrite or duplicate an existing migration (exit 73)", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "authd-migrate-create-"));
    const existing = path.join(dir, "0002_taken.sql");
    await writeFile(existing, "original");
    const result = await runAuthd(["migrate", "create", "taken", "--dir", dir, "--json"]);
    expect(result.code).toBe(73);
    expect(result.stdout).toBe("");
    expect(JSON.parse(result.stderr).error.code).toBe("FILE_EXISTS");
    expect(await readFile(existing, "utf8")).toBe("original");
    expect(await readdir(dir)).toEqual(["0002_taken.sql"]);
  });

  it("never leaves files in the repository's migrations/", async () => {
    expect(await listMigrationFiles()).toEqual(files);
  });
});

describe("authd migrate baseline", () => {
  it("an unknown id is a usage error (exit 2)", async () => {
    const result = await runAuthd(["migrate", "baseline", "--mark-applied", "9999", "--yes"], {
      env,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown migration");
  });

  it("needs --yes when not on a terminal", async () => {
    const result = await runAuthd(["migrate", "baseline", "--mark-applied", files[0] ?? ""], {
      env,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--yes");
    const status = JSON.parse((await runAuthd(["migrate", "status", "--json"], { env })).stdout);
    expect(status.migrations.every((row: { status: string }) => row.status === "pending")).toBe(
      true,
    );
  });

  it("--dry-run says what would be marked applied, records nothing, needs no --yes", async () => {
    const last = files[files.length - 1] ?? "";
    const result = await runAuthd(
      ["migrate", "baseline", "--mark-applied", last, "--dry-run", "--json"],
      { env },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      baseline: last,
      dryRun: true,
      markedApplied: files,
    });
    expect(result.stderr).toContain("Dry run: nothing was recorded.");
    const human = await runAuthd(["migrate", "baseline", "--mark-applied", "1", "--dry-run"], {
      env,
    });
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toBe(
      `Would mark 1 migration(s) on 127.0.0.1:5432/${testDatabase.name} as applied (not run):\n  ${files[0]}\n`,
    );
    const status = JSON.parse((await runAuthd(["migrate", "status", "--json"], { env })).stdout);
    expect(status.migrations.every((row: { status: string }) => row.status === "pending")).toBe(
      true,
    );
  });

  it("records migrations up to the id as applied without running them", async () => {
    const last = files[files.length - 1] ?? "";
    const result = await runAuthd(
      ["migrate", "baseline", "--mark-applied", last, "--yes", "--json"],
      { env },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ baseline: last, markedApplied: files });

    const status = await runAuthd(["migrate", "status", "--json", "--exit-code"], { env });
    expect(status.code).toBe(0);
    const parsed = JSON.parse(status.stdout);
    expect(parsed.upToDate).toBe(true);
    expect(parsed.migrations.map((row: { name: string; status: string }) => row)).toEqual(
      files.map((name) => expect.objectContaining({ name, status: "applied" })),
    );

    const sql = postgres(testDatabase.url, { max: 1, onnotice: () => {} });
    try {
      const tables = await sql<{ name: string }[]>`
        select table_name as name from information_schema.tables
        where table_schema = 'public' order by table_name`;
      expect(tables.map((row) => row.name)).toEqual(["authd_migrations"]);
    } finally {
      await sql.end();
    }

    const again = await runAuthd(["migrate", "baseline", "--mark-applied", "1"], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain("already applied");
  });
});
