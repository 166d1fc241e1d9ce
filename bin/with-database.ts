/**
 * One database session per CLI command. Under `--dry-run` the whole command runs
 * inside a transaction that is rolled back at the end: every rule, limit and
 * constraint is checked by the real code path, the output shows what would change,
 * and nothing is written (every mutating command supports --dry-run).
 */
import { type LoadedConfig, loadConfig } from "../server/config.js";
import { type Database, openDatabase, type Sql } from "../server/db/connection.js";
import { type GlobalOptions, note } from "./output.js";

export interface CommandDatabase {
  loaded: LoadedConfig;
  db: Database;
  /** True under --dry-run: side effects outside the database (mail) must be skipped. */
  dryRun: boolean;
}

class RollBack extends Error {}

/** The configured database, open while `work` runs and closed after it, whatever happens. */
export async function withOpenDatabase<T>(
  globals: GlobalOptions,
  work: (db: Database, loaded: LoadedConfig) => Promise<T>,
): Promise<T> {
  const loaded = await loadConfig({ configPath: globals.config });
  const db = await openDatabase(loaded, { max: 2 });
  try {
    return await work(db, loaded);
  } finally {
    await db.close();
  }
}

export function withDatabase<T>(
  globals: GlobalOptions,
  work: (context: CommandDatabase) => Promise<T>,
): Promise<T> {
  return withOpenDatabase(globals, async (db, loaded) => {
    if (!globals.dryRun) return work({ loaded, db, dryRun: false });
    let result: T | undefined;
    try {
      await db.sql.begin(async (tx) => {
        // postgres.js gives a transaction most of the pool's API; transaction() turns
        // nested units into savepoints, so domain code runs unchanged.
        const inside: Database = { ...db, sql: tx as unknown as Sql };
        result = await work({ loaded, db: inside, dryRun: true });
        throw new RollBack();
      });
    } catch (error) {
      if (!(error instanceof RollBack)) throw error;
    }
    note("Dry run: nothing was written.");
    return result as T;
  });
}
