import { spawn } from "node:child_process";
import { cp, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listMigrationFiles, MIGRATION_LOCK_ID } from "../../server/db/migrations.js";
import {
  AUTHD_BIN,
  baseEnv,
  type CliResult,
  ROOT,
  runAuthd,
  runProcess,
  scratchDirectory,
} from "../helpers/cli.js";
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

/** The exit-75 run that waited `1500 ms`: the note first, the JSON error last. */
function expectGaveUp(result: CliResult, elapsed: number): void {
  expect(result.code, result.stderr).toBe(75);
  expect(elapsed).toBeGreaterThanOrEqual(1500);
  expect(result.stdout).toBe("");
  const lines = result.stderr.trim().split("\n");
  expect(lines[0]).toBe(
    "Another process holds the migration lock; waiting up to 1500 ms (--lock-wait)…",
  );
  expect(JSON.parse(lines.at(-1) ?? "").error).toEqual({
    code: "MIGRATION_LOCKED",
    message:
      "another authd process is still running migrations (advisory lock held) after waiting 1500 ms; try again later",
  });
}

/** The migrations a database records as applied, in order. */
async function appliedIn(url: string): Promise<string[]> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql<{ name: string }[]>`
      select name from authd_migrations order by run_on, id`;
    return rows.map((row) => row.name);
  } finally {
    await sql.end();
  }
}

/**
 * Runs `args` while the migration lock is held, and releases the lock once the command
 * says it is waiting for it: on a loaded machine the command can take seconds to start,
 * and a release on a timer could come before it ever met the lock.
 */
async function releasedWhileWaiting(
  lock: { release(): Promise<void> },
  args: string[],
  env: Record<string, string>,
) {
  let release: () => void = () => {};
  const waiting = new Promise<void>((resolve) => {
    release = resolve;
  });
  const running = runAuthd(args, {
    env,
    onStderr: (stderr) => {
      if (stderr.includes("waiting up to")) release();
    },
  });
  // Without the line (a regression), the lock goes after 20 s and the assertions say why.
  await Promise.race([waiting, new Promise((resolve) => setTimeout(resolve, 20_000))]);
  await lock.release();
  return running;
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

  it("an admin command on the unmigrated database exits 10 and says to migrate", async () => {
    const human = await runAuthd(["user", "list"], { env });
    expect(human.code).toBe(10);
    expect(human.stderr).toContain("Run `authd migrate`");
    expect(human.stderr).not.toContain("does not exist");
    const json = await runAuthd(["org", "list", "--json"], { env });
    expect(json.code).toBe(10);
    expect(JSON.parse(json.stderr).error.code).toBe("MIGRATIONS_PENDING");
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

  it("status names migrations only another authd knows, and does not send to `authd migrate`", async () => {
    await query(
      (sql) => sql`
      insert into authd_migrations (name, run_on) values ('9999_from-a-newer-authd', now())`,
    );
    try {
      const result = await runAuthd(["migrate", "status", "--exit-code"], { env });
      expect(result.code).toBe(11);
      expect(result.stdout).toContain("unknown  9999_from-a-newer-authd");
      expect(result.stderr).toContain("1 unknown: applied by another version of authd");
      expect(result.stderr).not.toContain("run `authd migrate`");
    } finally {
      await query(
        (sql) => sql`
        delete from authd_migrations where name = '9999_from-a-newer-authd'`,
      );
    }
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

/**
 * A copy of the built package whose migrations/ holds the real migrations plus two
 * extra ones, so that --to has several migrations to stop between. authd finds its
 * migrations next to its own files, so the copy runs them and the repository is untouched.
 */
async function packageWithExtraMigrations(): Promise<{
  root: string;
  names: string[];
  run(args: string[], env: Record<string, string>): Promise<CliResult>;
}> {
  const root = await mkdtemp(path.join(tmpdir(), "authd-migrate-to-"));
  await cp(path.dirname(path.dirname(AUTHD_BIN)), path.join(root, "dist"), { recursive: true });
  await cp(path.join(ROOT, "package.json"), path.join(root, "package.json"));
  await cp(path.join(ROOT, "migrations"), path.join(root, "migrations"), { recursive: true });
  await symlink(path.join(ROOT, "node_modules"), path.join(root, "node_modules"), "dir");
  const real = await listMigrationFiles();
  const next = real.length + 1;
  const extra = [
    [`${String(next).padStart(4, "0")}_add-widget`, "widget"],
    [`${String(next + 1).padStart(4, "0")}_add-gadget`, "gadget"],
  ] as const;
  for (const [name, table] of extra) {
    await writeFile(
      path.join(root, "migrations", `${name}.sql`),
      `-- Up Migration\ncreate table ${table} (id text primary key);\n\n-- Down Migration\ndrop table ${table};\n`,
    );
  }
  const bin = path.join(root, "dist", "bin", "authd.cjs");
  return {
    root,
    names: [...real, ...extra.map(([name]) => name)],
    run: (args, env) => runProcess(process.execPath, [bin, ...args], { cwd: root, env }),
  };
}

describe("authd migrate --to", () => {
  let database: TestDatabase;
  let pkg: Awaited<ReturnType<typeof packageWithExtraMigrations>>;
  let toEnv: Record<string, string>;

  beforeAll(async () => {
    [database, pkg] = await Promise.all([createTestDatabase(), packageWithExtraMigrations()]);
    toEnv = { DATABASE_URL: database.url };
  });

  afterAll(async () => {
    await database?.drop();
    if (pkg) await rm(pkg.root, { recursive: true, force: true });
  });

  const applied = () => appliedIn(database.url);

  it("up --to applies up to and including the id (name or number), and no further", async () => {
    const [first = "", widget = "", gadget = ""] = pkg.names.slice(-3);
    const widgetNumber = String(Number(widget.slice(0, 4)));
    // A dry run on an empty database says what --to would apply.
    const dry = await pkg.run(
      ["migrate", "up", "--to", widgetNumber, "--dry-run", "--json"],
      toEnv,
    );
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toEqual({
      direction: "up",
      dryRun: true,
      to: widget,
      migrations: pkg.names.slice(0, -1),
    });

    const up = await pkg.run(["migrate", "up", "--to", widgetNumber, "--json"], toEnv);
    expect(up.code, up.stderr).toBe(0);
    expect(JSON.parse(up.stdout)).toEqual({
      direction: "up",
      dryRun: false,
      to: widget,
      migrations: pkg.names.slice(0, -1),
    });
    expect(await applied()).toEqual(pkg.names.slice(0, -1));
    expect(first).toBe(files.at(-1));

    // Already there: nothing to do, exit 0.
    const again = await pkg.run(["migrate", "up", "--to", widget], toEnv);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe(
      `Nothing to apply: migrations up to ${widget} are already applied (127.0.0.1:5432/${database.name}).\n`,
    );
    const status = await pkg.run(["migrate", "status", "--exit-code", "--json"], toEnv);
    expect(status.code).toBe(10);
    expect(JSON.parse(status.stdout).migrations.at(-1)).toEqual({
      name: gadget,
      status: "pending",
      runOn: null,
    });
  });

  it("up --to: an unknown id, or --to with --count, is a usage error (exit 2) and applies nothing", async () => {
    const before = await applied();
    const unknown = await pkg.run(["migrate", "up", "--to", "0999", "--json"], toEnv);
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe("");
    expect(JSON.parse(unknown.stderr).error).toEqual({
      code: "USAGE_ERROR",
      message: `unknown migration "0999"; known: ${pkg.names.join(", ")}`,
    });
    const both = await pkg.run(["migrate", "up", "--to", "1", "--count", "1", "--json"], toEnv);
    expect(both.code).toBe(2);
    expect(JSON.parse(both.stderr).error).toEqual({
      code: "USAGE_ERROR",
      message: "--to and --count cannot be used together: give one of them",
    });
    expect(await applied()).toEqual(before);
  });

  it("down --to reverts every migration after the id and keeps the id applied", async () => {
    const up = await pkg.run(["migrate", "up", "--json"], toEnv);
    expect(up.code, up.stderr).toBe(0);
    expect(await applied()).toEqual(pkg.names);
    const keep = files.at(-1) ?? "";

    // No terminal and no --yes: refused after the check, nothing reverted.
    const refused = await pkg.run(["migrate", "down", "--to", keep], toEnv);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("--yes");
    expect(await applied()).toEqual(pkg.names);

    const dry = await pkg.run(["migrate", "down", "--to", keep, "--dry-run", "--json"], toEnv);
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toEqual({
      direction: "down",
      dryRun: true,
      to: keep,
      migrations: pkg.names.slice(-2).reverse(),
    });
    expect(await applied()).toEqual(pkg.names);

    const down = await pkg.run(["migrate", "down", "--to", keep, "--yes", "--json"], toEnv);
    expect(down.code, down.stderr).toBe(0);
    expect(JSON.parse(down.stdout)).toEqual({
      direction: "down",
      to: keep,
      migrations: pkg.names.slice(-2).reverse(),
    });
    expect(await applied()).toEqual(files);

    // Down to the last applied one: nothing to revert.
    const keepNumber = String(Number(keep.slice(0, 4)));
    const noop = await pkg.run(["migrate", "down", "--to", keepNumber, "--yes"], toEnv);
    expect(noop.code, noop.stderr).toBe(0);
    expect(noop.stdout).toBe(
      `Nothing to revert: ${keep} is the last applied migration on 127.0.0.1:5432/${database.name}.\n`,
    );
  });

  it("down --to: an id that is not applied or unknown exits 2; --to with --count exits 2", async () => {
    const before = await applied();
    const pendingName = pkg.names.at(-1) ?? "";
    const notApplied = await pkg.run(
      ["migrate", "down", "--to", pendingName, "--yes", "--json"],
      toEnv,
    );
    expect(notApplied.code).toBe(2);
    expect(JSON.parse(notApplied.stderr).error).toEqual({
      code: "USAGE_ERROR",
      message: `migration ${pendingName} is not applied, so there is nothing to revert down to; see \`authd migrate status\``,
    });
    const unknown = await pkg.run(["migrate", "down", "--to", "nope", "--yes"], toEnv);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown migration "nope"');
    const both = await pkg.run(["migrate", "down", "--to", "1", "--count", "2", "--yes"], toEnv);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("--to and --count cannot be used together");
    expect(await applied()).toEqual(before);
  });
});

/** Holds the migration advisory lock on its own connection until `release`. */
async function holdMigrationLock(url: string): Promise<{ release(): Promise<void> }> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const connection = await sql.reserve();
  await connection`select pg_advisory_lock(${MIGRATION_LOCK_ID})`;
  return {
    async release() {
      await connection`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`;
      connection.release();
      await sql.end();
    },
  };
}

describe("authd migrate up --lock-wait", () => {
  let database: TestDatabase;
  let lockEnv: Record<string, string>;

  beforeAll(async () => {
    database = await createTestDatabase();
    lockEnv = { DATABASE_URL: database.url };
  });

  afterAll(async () => {
    await database?.drop();
  });

  const holdLock = () => holdMigrationLock(database.url);

  it("without --lock-wait fails at once with exit 75 while the lock is held", async () => {
    const lock = await holdLock();
    try {
      const started = Date.now();
      const result = await runAuthd(["migrate", "up", "--json"], { env: lockEnv });
      expect(result.code, result.stderr).toBe(75);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(JSON.parse(result.stderr).error).toEqual({
        code: "MIGRATION_LOCKED",
        message:
          "another authd process is running migrations (advisory lock held); try again shortly",
      });
    } finally {
      await lock.release();
    }
  });

  it("--lock-wait gives up with exit 75 (MIGRATION_LOCKED) after waiting that long", async () => {
    const lock = await holdLock();
    try {
      const started = Date.now();
      const result = await runAuthd(["migrate", "up", "--lock-wait", "1500ms", "--json"], {
        env: lockEnv,
      });
      expectGaveUp(result, Date.now() - started);
      const status = await runAuthd(["migrate", "status", "--json"], { env: lockEnv });
      expect(JSON.parse(status.stdout).upToDate).toBe(false);
    } finally {
      await lock.release();
    }
  });

  it("--lock-wait applies the migrations once the lock is released in time", async () => {
    const lock = await holdLock();
    const result = await releasedWhileWaiting(
      lock,
      ["migrate", "up", "--lock-wait", "30s", "--json"],
      lockEnv,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      direction: "up",
      dryRun: false,
      migrations: files,
    });
    expect(result.stderr).toContain("waiting up to 30 s (--lock-wait)");
  });

  it("rejects a bad --lock-wait as a usage error", async () => {
    const result = await runAuthd(["migrate", "up", "--lock-wait", "soon"], { env: lockEnv });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("expected a duration like 30s, 2m or 500ms");
  });
});

/**
 * Starts authd and answers `waiting`, which resolves once `text` appears on its stderr
 * (the moment to act while it waits for the lock), and `done`, the whole run.
 */
function startAuthdUntil(
  args: string[],
  env: Record<string, string>,
  text: string,
): { waiting: Promise<void>; done: Promise<CliResult> } {
  const child = spawn(process.execPath, [AUTHD_BIN, ...args], {
    cwd: scratchDirectory(),
    env: baseEnv(env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  let reached: () => void = () => {};
  const waiting = new Promise<void>((resolve) => {
    reached = resolve;
  });
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
    if (stderr.includes(text)) reached();
  });
  const done = new Promise<CliResult>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`authd ${args.join(" ")} timed out\nstderr: ${stderr}`));
    }, 60_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
  // A run that ends without ever waiting settles `waiting` too; `done` tells what happened.
  void done.then(reached, reached);
  return { waiting, done };
}

describe("authd migrate down and baseline --lock-wait", () => {
  let database: TestDatabase;
  let lockEnv: Record<string, string>;

  beforeAll(async () => {
    database = await createTestDatabase();
    lockEnv = { DATABASE_URL: database.url };
    const migrated = await runAuthd(["migrate"], { env: lockEnv });
    expect(migrated.code, migrated.stderr).toBe(0);
  });

  afterAll(async () => {
    await database?.drop();
  });

  const holdLock = () => holdMigrationLock(database.url);

  const applied = () => appliedIn(database.url);

  it("down --lock-wait gives up with exit 75 (MIGRATION_LOCKED) and reverts nothing", async () => {
    const lock = await holdLock();
    try {
      for (const extra of [[], ["--to", files[0] ?? ""]]) {
        const started = Date.now();
        const result = await runAuthd(
          ["migrate", "down", "--yes", "--lock-wait", "1500ms", "--json", ...extra],
          { env: lockEnv },
        );
        expectGaveUp(result, Date.now() - started);
      }
      // Without --lock-wait it still fails at once.
      const started = Date.now();
      const now = await runAuthd(["migrate", "down", "--yes", "--json"], { env: lockEnv });
      expect(now.code, now.stderr).toBe(75);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(now.stderr).not.toContain("--lock-wait");
    } finally {
      await lock.release();
    }
    expect(await applied()).toEqual(files);
  });

  it("a dry run waits for the lock the same way, and says so", async () => {
    const lock = await holdLock();
    try {
      for (const args of [
        ["migrate", "down", "--dry-run"],
        ["migrate", "up", "--dry-run"],
      ]) {
        const started = Date.now();
        const result = await runAuthd([...args, "--lock-wait", "1500ms", "--json"], {
          env: lockEnv,
        });
        expectGaveUp(result, Date.now() - started);
      }
    } finally {
      await lock.release();
    }
    expect(await applied()).toEqual(files);
  });

  it("down --lock-wait reverts once the lock is released in time", async () => {
    const lock = await holdLock();
    const result = await releasedWhileWaiting(
      lock,
      ["migrate", "down", "--yes", "--lock-wait", "30s", "--json"],
      lockEnv,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ direction: "down", migrations: [files.at(-1)] });
    expect(result.stderr).toContain(
      "Another process holds the migration lock; waiting up to 30 s (--lock-wait)…",
    );
    expect(await applied()).toEqual(files.slice(0, -1));
  });

  it("baseline --lock-wait gives up with exit 75 (MIGRATION_LOCKED) and records nothing", async () => {
    const last = files.at(-1) ?? "";
    const lock = await holdLock();
    try {
      const started = Date.now();
      const result = await runAuthd(
        ["migrate", "baseline", "--mark-applied", last, "--yes", "--lock-wait", "1500ms", "--json"],
        { env: lockEnv },
      );
      expectGaveUp(result, Date.now() - started);
    } finally {
      await lock.release();
    }
    expect(await applied()).toEqual(files.slice(0, -1));
  });

  it("baseline --lock-wait records once the lock is released in time", async () => {
    const last = files.at(-1) ?? "";
    const lock = await holdLock();
    const result = await releasedWhileWaiting(
      lock,
      ["migrate", "baseline", "--mark-applied", last, "--yes", "--lock-wait", "30s", "--json"],
      lockEnv,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ baseline: last, markedApplied: [last] });
    expect(result.stderr).toContain("waiting up to 30 s (--lock-wait)");
    expect(await applied()).toEqual(files);
  });

  it("a baseline that waited marks nothing past its id, whatever ran meanwhile", async () => {
    expect(files.length).toBeGreaterThanOrEqual(3);
    const [first = "", second = ""] = files;
    const sql = postgres(database.url, { max: 1, onnotice: () => {} });
    try {
      // Recorded as nothing applied: the baseline plans to mark the first two.
      await sql`delete from authd_migrations`;
      const lock = await holdLock();
      const run = startAuthdUntil(
        ["migrate", "baseline", "--mark-applied", second, "--yes", "--lock-wait", "30s", "--json"],
        lockEnv,
        "(--lock-wait)",
      );
      await run.waiting;
      // Meanwhile the lock holder applies the first migration.
      await sql`insert into authd_migrations (name, run_on) values (${first}, now())`;
      await lock.release();
      const result = await run.done;
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual({ baseline: second, markedApplied: [second] });
      expect(await applied()).toEqual([first, second]);
    } finally {
      await sql.end();
    }
  });

  it("rejects a bad --lock-wait on down and baseline as a usage error", async () => {
    for (const args of [
      ["migrate", "down", "--yes"],
      ["migrate", "baseline", "--mark-applied", files[0] ?? "", "--yes"],
    ]) {
      const result = await runAuthd([...args, "--lock-wait", "soon"], { env: lockEnv });
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr).toContain("expected a duration like 30s, 2m or 500ms");
    }
  });
});
