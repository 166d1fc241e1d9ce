/**
 * One database session per CLI command. Under `--dry-run` the whole command runs
 * inside a transaction that is rolled back at the end: every rule, limit and
 * constraint is checked by the real code path, the output shows what would change,
 * and nothing is written (every mutating command supports --dry-run).
 */
import type { LoadedConfig } from "../server/config.js";
import { type Database, openDatabase, type Sql } from "../server/db/connection.js";
import { migrationStatus } from "../server/db/migrations.js";
import { transaction } from "../server/db/transaction.js";
import { SchemaOutOfDateError } from "../server/serve.js";
import { loadCommandConfig } from "./command-config.js";
import { type GlobalOptions, note } from "./output.js";

export interface CommandDatabase {
  loaded: LoadedConfig;
  db: Database;
  /** True under --dry-run: side effects outside the database (mail) must be skipped. */
  dryRun: boolean;
}

/** The configured database, open while `work` runs and closed after it, whatever happens. */
export async function withOpenDatabase<T>(
  globals: GlobalOptions,
  work: (db: Database, loaded: LoadedConfig) => Promise<T>,
): Promise<T> {
  const loaded = await loadCommandConfig(globals);
  const db = await openDatabase(loaded, { max: 2 });
  try {
    return await work(db, loaded);
  } catch (error) {
    throw await schemaBehind(db, error);
  } finally {
    await db.close();
  }
}

/** PostgreSQL's undefined_table and undefined_column. */
const MISSING_SCHEMA = new Set(["42P01", "42703"]);

/**
 * A table or column that is not there, on a database with pending migrations, is a
 * schema behind this authd (exit 10, "run `authd migrate`"), not an unexpected error.
 */
async function schemaBehind(db: Database, error: unknown): Promise<unknown> {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string" || !MISSING_SCHEMA.has(code)) return error;
  const status = await migrationStatus(db.sql).catch(() => undefined);
  return status && status.pending.length > 0 ? new SchemaOutOfDateError(status.pending) : error;
}

export function withDatabase<T>(
  globals: GlobalOptions,
  work: (context: CommandDatabase) => Promise<T>,
): Promise<T> {
  return withOpenDatabase(globals, async (db, loaded) => {
    if (!globals.dryRun) return work({ loaded, db, dryRun: false });
    const result = await transaction(
      db.sql,
      // A reserved connection has most of the pool's API, and units the command runs
      // inside become savepoints, so domain code runs unchanged.
      (tx) => work({ loaded, db: { ...db, sql: tx as unknown as Sql }, dryRun: true }),
      // Not retried: a command prints as it goes.
      { rollBack: true, retries: 0 },
    );
    note("Dry run: nothing was written.");
    return result;
  });
}
