/**
 * Schema migrations (DESIGN §2): node-pg-migrate runs the numbered SQL files of
 * `migrations/`, under its advisory lock, recording them in `authd_migrations`.
 * node-pg-migrate has no status command, so status is computed here.
 */
import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Database, Queryable } from "./connection.js";

export const MIGRATIONS_TABLE = "authd_migrations";

/** The package root: where `migrations/` and `templates/` live, from source or dist. */
export function packageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(path.join(dir, "package.json")) && existsSync(path.join(dir, "migrations"))) {
      return dir;
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error("authd: cannot find the package's migrations directory");
    dir = parent;
  }
}

export function migrationsDirectory(): string {
  return path.join(packageRoot(), "migrations");
}

/** Migration names (file names without `.sql`) in the order they run. */
export async function listMigrationFiles(dir = migrationsDirectory()): Promise<string[]> {
  const files = await readdir(dir);
  return files
    .filter((file) => file.endsWith(".sql") && !file.startsWith("."))
    .map((file) => file.slice(0, -".sql".length))
    .sort();
}

export interface AppliedMigration {
  name: string;
  runOn: Date;
}

export interface MigrationStatus {
  applied: AppliedMigration[];
  pending: string[];
  /** Recorded in the database but absent from this version of authd (drift). */
  unknown: string[];
}

async function appliedMigrations(sql: Queryable): Promise<AppliedMigration[]> {
  const [exists] = await sql<{ table: string | null }[]>`
    select to_regclass(${`public.${MIGRATIONS_TABLE}`})::text as table`;
  if (!exists?.table) return [];
  return sql<AppliedMigration[]>`
    select name, run_on from ${sql(MIGRATIONS_TABLE)} order by run_on, id`;
}

export async function migrationStatus(sql: Queryable): Promise<MigrationStatus> {
  const [files, applied] = await Promise.all([listMigrationFiles(), appliedMigrations(sql)]);
  const appliedNames = new Set(applied.map((row) => row.name));
  const fileNames = new Set(files);
  return {
    applied,
    pending: files.filter((name) => !appliedNames.has(name)),
    unknown: applied.filter((row) => !fileNames.has(row.name)).map((row) => row.name),
  };
}

/** Another process holds the migration lock: safe to retry (CLI exit 75). */
export class MigrationLockedError extends Error {
  constructor() {
    super("another authd process is running migrations (advisory lock held); try again shortly");
    this.name = "MigrationLockedError";
  }
}

export interface RunMigrationsOptions {
  direction: "up" | "down";
  /** How many to run; up defaults to all, down to one. */
  count?: number;
  dryRun?: boolean;
  /** Record the migrations as run without running them (adopting an existing schema). */
  fake?: boolean;
  /** Wait for the lock instead of failing when another process migrates. */
  waitForLock?: boolean;
  log?: (message: string) => void;
}

/** Runs migrations and answers the names that ran, in order. */
export async function runMigrations(
  db: Pick<Database, "url">,
  options: RunMigrationsOptions,
): Promise<string[]> {
  const count = options.count ?? (options.direction === "up" ? Number.POSITIVE_INFINITY : 1);
  const quiet = (): void => {};
  // Loaded on demand: serving only needs the status, and the runner is heavy to import.
  const { runner } = await import("node-pg-migrate");
  try {
    const ran = await runner({
      databaseUrl: db.url,
      dir: migrationsDirectory(),
      migrationsTable: MIGRATIONS_TABLE,
      direction: options.direction,
      count,
      checkOrder: true,
      singleTransaction: true,
      dryRun: options.dryRun ?? false,
      fake: options.fake ?? false,
      advisoryLockMode: options.waitForLock ? "wait" : "fail",
      logger: {
        debug: quiet,
        info: options.log ?? quiet,
        warn: options.log ?? quiet,
        error: options.log ?? quiet,
      },
    });
    return ran.map((migration) => migration.name);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/another migration is already running/i.test(message)) {
      throw new MigrationLockedError();
    }
    throw error;
  }
}
