/** `authd migrate [up|down|status|create|baseline]`: the schema, through node-pg-migrate. */
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Command } from "commander";
import { loadConfig } from "../../server/config.js";
import { type Database, openDatabase } from "../../server/db/connection.js";
import {
  listMigrationFiles,
  migrationStatus,
  migrationsDirectory,
  runMigrations,
} from "../../server/db/migrations.js";
import { EXIT, FileExistsError, UsageError } from "../exit-codes.js";
import { emit, formatTable, type GlobalOptions, note } from "../output.js";
import { confirmModerate, parseCount } from "./shared.js";

/**
 * Not bin/with-database.ts: node-pg-migrate opens its own connection (db.url), so a
 * rolled-back transaction could not contain it. Dry runs here write nothing by
 * themselves: they read the status, or let node-pg-migrate skip every statement.
 */
async function withDatabase<T>(
  globals: GlobalOptions,
  work: (db: Database) => Promise<T>,
): Promise<T> {
  const loaded = await loadConfig({ configPath: globals.config });
  const db = await openDatabase(loaded, { max: 2 });
  try {
    return await work(db);
  } finally {
    await db.close();
  }
}

interface UpFlags {
  count?: number;
  dryRun?: boolean;
}

/** Prints the names that ran (or would run) under a one-line summary. */
function printRun(verb: string, names: string[], label: string): void {
  process.stdout.write(`${verb} ${names.length} migration(s) on ${label}:\n`);
  for (const name of names) process.stdout.write(`  ${name}\n`);
}

/**
 * A dry run on a database that records no migration yet (perhaps without the
 * migrations table, which node-pg-migrate would create even in a dry run): the
 * pending files are what would run, so nothing needs to touch the database.
 */
async function dryRunMigrations(
  db: Database,
  direction: "up" | "down",
  count: number | undefined,
): Promise<string[]> {
  const status = await migrationStatus(db.sql);
  if (status.applied.length === 0) {
    return direction === "up" ? status.pending.slice(0, count ?? status.pending.length) : [];
  }
  // node-pg-migrate checks the order and the files as for real, and skips every statement.
  return runMigrations(db, { direction, count, dryRun: true, log: note });
}

async function migrateUp(flags: UpFlags, command: Command): Promise<void> {
  const globals = command.optsWithGlobals<GlobalOptions>();
  const dryRun = flags.dryRun === true;
  await withDatabase(globals, async (db) => {
    const ran = dryRun
      ? await dryRunMigrations(db, "up", flags.count)
      : await runMigrations(db, { direction: "up", count: flags.count });
    emit({ direction: "up", dryRun, migrations: ran }, globals, {
      quietField: "migrations",
      human: () => {
        if (ran.length === 0) process.stdout.write(`Schema is up to date (${db.label}).\n`);
        else printRun(dryRun ? "Would apply" : "Applied", ran, db.label);
      },
    });
    if (dryRun) note("Dry run: nothing was applied.");
  });
}

const MIGRATION_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

function migrationTemplate(name: string, number: string): string {
  return `-- authd migration ${number}: ${name}
-- Created ${new Date().toISOString()} by \`authd migrate create\`.
-- node-pg-migrate runs the Up section in a transaction; Down must undo it exactly.

-- Up Migration


-- Down Migration

`;
}

/** Writes NNNN_<name>.sql (the next number) into dir; never overwrites. */
async function migrateCreate(
  name: string,
  flags: { dir?: string; dryRun?: boolean },
  command: Command,
): Promise<void> {
  const globals = command.optsWithGlobals<GlobalOptions>();
  const dryRun = flags.dryRun === true;
  if (!MIGRATION_NAME.test(name)) {
    throw new UsageError(
      `invalid migration name "${name}": use kebab-case letters, digits and dashes (e.g. add-user-locale)`,
    );
  }
  const dir = path.resolve(flags.dir ?? migrationsDirectory());
  // A dry run creates no directory either: a missing one simply holds no migrations.
  if (!dryRun) await mkdir(dir, { recursive: true });
  const existing = existsSync(dir) ? await listMigrationFiles(dir) : [];
  const highest = existing.reduce((max, file) => {
    const match = /^(\d+)_/.exec(file);
    return match ? Math.max(max, Number(match[1])) : max;
  }, 0);
  const twin = existing.find((file) => file.replace(/^\d+_/, "") === name);
  if (twin) {
    throw new FileExistsError(
      `${path.join(dir, `${twin}.sql`)} already exists; not overwriting it`,
    );
  }
  const number = String(highest + 1).padStart(4, "0");
  const file = path.join(dir, `${number}_${name}.sql`);
  const content = migrationTemplate(name, number);
  if (dryRun) {
    emit({ file, dryRun: true, content }, globals, {
      quietField: "file",
      human: () => process.stdout.write(`==> ${file} <==\n${content}`),
    });
    note("Dry run: nothing was written.");
    return;
  }
  try {
    await writeFile(file, content, { flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") {
      throw new FileExistsError(`${file} already exists; not overwriting it`);
    }
    throw error;
  }
  emit({ file }, globals, {
    quietField: "file",
    human: () => {
      process.stdout.write(`${file}\n`);
      note("Fill in the Up and Down sections, then run `authd migrate`.");
    },
  });
}

/** Accepts a full migration name or its number prefix (`0001`, `1`). */
function findMigration(files: string[], id: string): string | undefined {
  if (files.includes(id)) return id;
  if (/^\d+$/.test(id)) {
    return files.find((file) => {
      const match = /^(\d+)_/.exec(file);
      return match !== null && Number(match[1]) === Number(id);
    });
  }
  return undefined;
}

async function migrateBaseline(
  flags: { markApplied: string; dryRun?: boolean },
  command: Command,
): Promise<void> {
  const globals = command.optsWithGlobals<GlobalOptions>();
  const dryRun = flags.dryRun === true;
  const files = await listMigrationFiles();
  const target = findMigration(files, flags.markApplied);
  if (!target) {
    throw new UsageError(
      `unknown migration "${flags.markApplied}"; known: ${files.join(", ") || "(none)"}`,
    );
  }
  const upTo = files.slice(0, files.indexOf(target) + 1);
  await withDatabase(globals, async (db) => {
    const status = await migrationStatus(db.sql);
    const toMark = upTo.filter((name) => status.pending.includes(name));
    if (toMark.length > 0 && !dryRun) {
      const confirmed = await confirmModerate(
        `Record ${toMark.length} migration(s) up to ${target} as applied on ${db.label} without running them?`,
        globals,
      );
      if (!confirmed) {
        note("Nothing recorded.");
        return;
      }
    }
    // node-pg-migrate records fake runs even in its dry-run mode: a dry run stops here.
    const marked =
      toMark.length === 0 || dryRun
        ? toMark
        : await runMigrations(db, { direction: "up", count: toMark.length, fake: true });
    emit(
      dryRun
        ? { baseline: target, dryRun, markedApplied: marked }
        : { baseline: target, markedApplied: marked },
      globals,
      {
        quietField: "markedApplied",
        human: () => {
          if (marked.length === 0) {
            process.stdout.write(
              `Nothing to do: migrations up to ${target} are already applied.\n`,
            );
          } else {
            printRun(dryRun ? "Would mark" : "Marked", marked, `${db.label} as applied (not run)`);
          }
        },
      },
    );
    if (dryRun) note("Dry run: nothing was recorded.");
  });
}

/**
 * `migrate down`: the production profile (NODE_ENV=production, --profile production or
 * AUTHD_PROFILE=production) refuses it without --force-production, dry run or not.
 */
async function migrateDown(
  flags: { count: number; forceProduction?: boolean; dryRun?: boolean },
  command: Command,
): Promise<void> {
  const globals = command.optsWithGlobals<GlobalOptions>();
  const dryRun = flags.dryRun === true;
  // Refused before anything else: no prompt, no connection.
  const { production } = await loadConfig({ configPath: globals.config });
  if (production && !flags.forceProduction) {
    throw new UsageError(
      "refusing to revert migrations in the production profile (NODE_ENV=production or --profile production) without --force-production",
    );
  }
  if (!dryRun) {
    const confirmed = await confirmModerate(
      `Revert ${flags.count} migration(s)? Data in the dropped tables is lost.`,
      globals,
    );
    if (!confirmed) {
      note("Nothing reverted.");
      process.exitCode = EXIT.ok;
      return;
    }
  }
  await withDatabase(globals, async (db) => {
    const reverted = dryRun
      ? await dryRunMigrations(db, "down", flags.count)
      : await runMigrations(db, { direction: "down", count: flags.count });
    emit(
      dryRun
        ? { direction: "down", dryRun, migrations: reverted }
        : { direction: "down", migrations: reverted },
      globals,
      {
        quietField: "migrations",
        human: () => {
          if (reverted.length === 0) {
            process.stdout.write(`Nothing to revert: no migration is applied on ${db.label}.\n`);
          } else {
            printRun(dryRun ? "Would revert" : "Reverted", reverted, db.label);
          }
        },
      },
    );
    if (dryRun) note("Dry run: nothing was reverted.");
  });
}

export function registerMigrate(program: Command): void {
  const migrate = program
    .command("migrate")
    .description("migrate the database schema (default: up)");

  migrate
    .command("up", { isDefault: true })
    .description("apply pending migrations (all, or --count N)")
    .option("--count <n>", "apply at most N migrations", parseCount)
    .action(migrateUp);

  migrate
    .command("down")
    .description("revert the most recent migration (or --count N)")
    .option("--count <n>", "revert N migrations", parseCount, 1)
    .option(
      "--force-production",
      "allow reverting in the production profile (NODE_ENV=production, --profile production)",
    )
    .action(migrateDown);

  migrate
    .command("status")
    .description("list applied and pending migrations")
    .option("--exit-code", "exit 10 when migrations are pending, 11 on unknown ones")
    .action(async (flags: { exitCode?: boolean }, command: Command) => {
      const globals = command.optsWithGlobals<GlobalOptions>();
      await withDatabase(globals, async (db) => {
        const status = await migrationStatus(db.sql);
        const migrations = [
          ...status.applied.map((row) => ({
            name: row.name,
            status: status.unknown.includes(row.name) ? "unknown" : "applied",
            runOn: row.runOn.toISOString(),
          })),
          ...status.pending.map((name) => ({ name, status: "pending", runOn: null })),
        ];
        const upToDate = status.pending.length === 0 && status.unknown.length === 0;
        emit({ database: db.label, upToDate, migrations }, globals, {
          listField: "migrations",
          columns: ["name", "status", "runOn"],
          quietField: "name",
          human: () => {
            process.stdout.write(
              `${formatTable(
                ["STATUS", "MIGRATION", "RUN ON"],
                migrations.map((row) => [row.status, row.name, row.runOn ?? "-"]),
              )}\n`,
            );
            note(
              upToDate
                ? "Schema is up to date."
                : `${status.pending.length} pending; run \`authd migrate\`.`,
            );
          },
        });
        if (flags.exitCode) {
          if (status.unknown.length > 0) process.exitCode = EXIT.migrationDrift;
          else if (status.pending.length > 0) process.exitCode = EXIT.migrationsPending;
        }
      });
    });

  migrate
    .command("create <name>")
    .description("write the next numbered SQL migration file (kebab-case name)")
    .option("--dir <path>", "directory to write into (default: authd's migrations/)")
    .action(migrateCreate);

  migrate
    .command("baseline")
    .description("record migrations up to <id> as applied without running them (existing schema)")
    .requiredOption(
      "--mark-applied <id>",
      "last migration already in the database (name or number)",
    )
    .action(migrateBaseline);
}
