/**
 * Schema migrations: node-pg-migrate runs the numbered SQL files of
 * `migrations/`, under its advisory lock, recording them in `authd_migrations`.
 * node-pg-migrate has no status command, so status is computed here.
 */
import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Database, Queryable } from "./connection.js";

export const MIGRATIONS_TABLE = "authd_migrations";

/**
 * The advisory lock key every migrating process takes (node-pg-migrate's own default,
 * passed explicitly so that it is documented here and the same for every caller).
 */
export const MIGRATION_LOCK_ID = 7241865325823964;

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

/** A full migration name, or its number (`0001`, `1`), as the CLI accepts it; else undefined. */
export function resolveMigrationId(files: string[], id: string): string | undefined {
  if (files.includes(id)) return id;
  if (/^\d+$/.test(id)) {
    return files.find((file) => {
      const match = /^(\d+)_/.exec(file);
      return match !== null && Number(match[1]) === Number(id);
    });
  }
  return undefined;
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

/**
 * The number a migration file starts with (`0003_x` -> 3), as node-pg-migrate reads it.
 * A 17-digit prefix is a date to node-pg-migrate, never an authd number.
 */
export function migrationNumber(name: string): number {
  const match = /^(\d+)_/.exec(name);
  if (!match?.[1] || match[1].length === 17) {
    throw new Error(`migration ${name}: expected a file name like 0001_name`);
  }
  return Number(match[1]);
}

/** The pending migrations up to and including `target` (a file name), in the order they run. */
export function pendingUpTo(status: MigrationStatus, files: string[], target: string): string[] {
  const last = files.indexOf(target);
  return status.pending.filter((name) => files.indexOf(name) <= last);
}

/**
 * The applied migrations recorded after `target`, most recent first (the order `down`
 * reverts them in); undefined when `target` is not applied.
 */
export function appliedAfter(status: MigrationStatus, target: string): string[] | undefined {
  const names = status.applied.map((row) => row.name);
  const index = names.indexOf(target);
  if (index === -1) return undefined;
  return names.slice(index + 1).reverse();
}

/** Another process holds the migration lock: safe to retry (CLI exit 75). */
export class MigrationLockedError extends Error {
  /** How long this process waited for the lock before giving up, in milliseconds. */
  readonly waitedMs: number;
  constructor(waitedMs = 0) {
    super(
      waitedMs > 0
        ? `another authd process is still running migrations (advisory lock held) after waiting ${formatWait(waitedMs)}; try again later`
        : "another authd process is running migrations (advisory lock held); try again shortly",
    );
    this.name = "MigrationLockedError";
    this.waitedMs = waitedMs;
  }
}

function formatWait(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** Between two attempts at the lock while waiting for it. */
const LOCK_RETRY_MS = 250;

export interface RunMigrationsOptions {
  direction: "up" | "down";
  /** How many to run; up defaults to all, down to one. */
  count?: number;
  /**
   * A migration name instead of a count: up applies the pending migrations up to and
   * including it, down reverts every applied migration after it. Decided under the
   * lock, so a process that waited for it never overshoots what another one applied.
   */
  to?: string;
  dryRun?: boolean;
  /** Record the migrations as run without running them (adopting an existing schema). */
  fake?: boolean;
  /** Wait for the lock (without limit) instead of failing when another process migrates. */
  waitForLock?: boolean;
  /**
   * Wait at most this long for the lock, retrying, then fail with MigrationLockedError.
   * Without it (and without waitForLock) a held lock fails at once.
   */
  lockWaitMs?: number;
  /** Called once when the lock is held by another process and this one starts waiting. */
  onLockWait?: () => void;
  log?: (message: string) => void;
}

/** Runs migrations and answers the names that ran, in order. */
export async function runMigrations(
  db: Pick<Database, "url">,
  options: RunMigrationsOptions,
): Promise<string[]> {
  const waitMs = options.waitForLock ? 0 : Math.max(0, options.lockWaitMs ?? 0);
  if (waitMs === 0) return runMigrationsOnce(db, options);
  const started = Date.now();
  let announced = false;
  for (;;) {
    try {
      return await runMigrationsOnce(db, options);
    } catch (error) {
      if (!(error instanceof MigrationLockedError)) throw error;
      const left = started + waitMs - Date.now();
      if (left <= 0) throw new MigrationLockedError(waitMs);
      if (!announced) {
        announced = true;
        options.onLockWait?.();
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(LOCK_RETRY_MS, left)));
    }
  }
}

async function runMigrationsOnce(
  db: Pick<Database, "url">,
  options: RunMigrationsOptions,
): Promise<string[]> {
  let count = options.count ?? (options.direction === "up" ? Number.POSITIVE_INFINITY : 1);
  if (options.to !== undefined) {
    // node-pg-migrate's "timestamp" mode compares each file's numeric prefix with count.
    const number = migrationNumber(options.to);
    count = options.direction === "up" ? number : number + 1;
  }
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
      timestamp: options.to !== undefined,
      checkOrder: true,
      singleTransaction: true,
      dryRun: options.dryRun ?? false,
      fake: options.fake ?? false,
      lockValue: MIGRATION_LOCK_ID,
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
