/**
 * `authd db reset` (dev and CI only): reverts every applied migration through its Down
 * section, drops the migrations table, and migrates up again, leaving an empty database
 * with the current schema. Tables that are not authd's are left alone. The CLI checks
 * the guards (production profile, --confirm=<database name>) before calling this.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { LoadedConfig } from "../config.js";
import type { Database, Queryable } from "../db/connection.js";
import {
  listMigrationFiles,
  MIGRATIONS_TABLE,
  migrationStatus,
  migrationsDirectory,
  runMigrations,
} from "../db/migrations.js";

/** What `--confirm` must say: the URL's database name, or `embedded` for PGlite. */
export function databaseNameOf(loaded: LoadedConfig): string {
  const url = loaded.config.database.url;
  if (!url) return "embedded";
  try {
    const parsed = new URL(url);
    const name = decodeURIComponent(parsed.pathname.replace(/^\//, ""));
    // libpq's default: the database named after the user.
    return name || decodeURIComponent(parsed.username) || "postgres";
  } catch {
    return "";
  }
}

/** The tables the migrations' Up sections create, in file order. */
export async function migrationTables(): Promise<string[]> {
  const tables: string[] = [];
  const dir = migrationsDirectory();
  for (const name of await listMigrationFiles(dir)) {
    const text = await readFile(path.join(dir, `${name}.sql`), "utf8");
    const up = text.split(/^--\s*Down Migration/im)[0] ?? "";
    for (const match of up.matchAll(/create\s+table\s+(?:if\s+not\s+exists\s+)?"?([\w$]+)"?/gi)) {
      const table = match[1];
      if (table && !tables.includes(table)) tables.push(table);
    }
  }
  return tables;
}

export interface TableCount {
  name: string;
  rows: number;
}

/** The authd tables present now (and the migrations table), with their row counts. */
export async function presentTables(sql: Queryable): Promise<TableCount[]> {
  const counts: TableCount[] = [];
  for (const name of [...(await migrationTables()), MIGRATIONS_TABLE]) {
    const [found] = await sql<{ table: string | null }[]>`
      select to_regclass(${`"${name}"`})::text as table`;
    if (!found?.table) continue;
    const [row] = await sql<{ count: number }[]>`select count(*)::int as count from ${sql(name)}`;
    counts.push({ name, rows: row?.count ?? 0 });
  }
  return counts;
}

export interface ResetPlan {
  /** Applied migrations, reverted newest first. */
  revert: string[];
  /** Migrations recorded in the database that this version of authd does not have. */
  unknown: string[];
  tables: TableCount[];
}

export async function planReset(db: Database): Promise<ResetPlan> {
  const status = await migrationStatus(db.sql);
  return {
    revert: status.applied.map((row) => row.name).reverse(),
    unknown: status.unknown,
    tables: await presentTables(db.sql),
  };
}

export interface ResetResult {
  reverted: string[];
  migrated: string[];
}

/** Reverts everything, drops the migrations table, migrates up. */
export async function resetDatabase(
  db: Database,
  plan: ResetPlan,
  log?: (message: string) => void,
): Promise<ResetResult> {
  const reverted =
    plan.revert.length === 0
      ? []
      : await runMigrations(db, {
          direction: "down",
          count: Number.POSITIVE_INFINITY,
          log,
        });
  await db.sql`drop table if exists ${db.sql(MIGRATIONS_TABLE)}`;
  const left = (await presentTables(db.sql)).map((table) => table.name);
  if (left.length > 0) {
    throw new Error(
      `the migrations' Down sections left ${left.join(", ")} behind; drop them by hand, then run \`authd migrate\``,
    );
  }
  const migrated = await runMigrations(db, { direction: "up", log });
  return { reverted, migrated };
}
