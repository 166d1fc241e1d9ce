/** `authd migrate [up|down|status|create|baseline]`: the schema, through node-pg-migrate. */
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
import { formatTable, type GlobalOptions, note, printJson, wantsJson } from "../output.js";
import { confirmModerate, parseCount } from "./shared.js";

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

async function migrateUp(flags: UpFlags, command: Command): Promise<void> {
  const globals = command.optsWithGlobals<GlobalOptions>();
  await withDatabase(globals, async (db) => {
    const ran = await runMigrations(db, {
      direction: "up",
      count: flags.count,
      dryRun: flags.dryRun,
      log: flags.dryRun ? note : undefined,
    });
    if (wantsJson(globals)) {
      printJson({ direction: "up", dryRun: flags.dryRun === true, migrations: ran });
    } else if (ran.length === 0) {
      process.stdout.write(`Schema is up to date (${db.label}).\n`);
    } else {
      const verb = flags.dryRun ? "Would apply" : "Applied";
      process.stdout.write(`${verb} ${ran.length} migration(s) on ${db.label}:\n`);
      for (const name of ran) process.stdout.write(`  ${name}\n`);
    }
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
  flags: { dir?: string },
  command: Command,
): Promise<void> {
  const globals = command.optsWithGlobals<GlobalOptions>();
  if (!MIGRATION_NAME.test(name)) {
    throw new UsageError(
      `invalid migration name "${name}": use kebab-case letters, digits and dashes (e.g. add-user-locale)`,
    );
  }
  const dir = path.resolve(flags.dir ?? migrationsDirectory());
  await mkdir(dir, { recursive: true });
  const existing = await listMigrationFiles(dir);
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
  try {
    await writeFile(file, migrationTemplate(name, number), { flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") {
      throw new FileExistsError(`${file} already exists; not overwriting it`);
    }
    throw error;
  }
  if (wantsJson(globals)) printJson({ file });
  else {
    process.stdout.write(`${file}\n`);
    note("Fill in the Up and Down sections, then run `authd migrate`.");
  }
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

async function migrateBaseline(flags: { markApplied: string }, command: Command): Promise<void> {
  const globals = command.optsWithGlobals<GlobalOptions>();
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
    if (toMark.length > 0) {
      const confirmed = await confirmModerate(
        `Record ${toMark.length} migration(s) up to ${target} as applied on ${db.label} without running them?`,
        globals,
      );
      if (!confirmed) {
        note("Nothing recorded.");
        return;
      }
    }
    const marked =
      toMark.length === 0
        ? []
        : await runMigrations(db, { direction: "up", count: toMark.length, fake: true });
    if (wantsJson(globals)) printJson({ baseline: target, markedApplied: marked });
    else if (marked.length === 0) {
      process.stdout.write(`Nothing to do: migrations up to ${target} are already applied.\n`);
    } else {
      process.stdout.write(
        `Marked ${marked.length} migration(s) as applied on ${db.label} (not run):\n`,
      );
      for (const name of marked) process.stdout.write(`  ${name}\n`);
    }
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
    .option("--force-production", "allow reverting when NODE_ENV=production")
    .action(async (flags: { count: number; forceProduction?: boolean }, command: Command) => {
      const globals = command.optsWithGlobals<GlobalOptions>();
      const loaded = await loadConfig({ configPath: globals.config });
      if (loaded.production && !flags.forceProduction) {
        throw new UsageError(
          "refusing to revert migrations when NODE_ENV=production without --force-production",
        );
      }
      const confirmed = await confirmModerate(
        `Revert ${flags.count} migration(s)? Data in the dropped tables is lost.`,
        globals,
      );
      if (!confirmed) {
        note("Nothing reverted.");
        process.exitCode = EXIT.ok;
        return;
      }
      await withDatabase(globals, async (db) => {
        const reverted = await runMigrations(db, { direction: "down", count: flags.count });
        if (wantsJson(globals)) printJson({ direction: "down", migrations: reverted });
        else {
          process.stdout.write(`Reverted ${reverted.length} migration(s) on ${db.label}:\n`);
          for (const name of reverted) process.stdout.write(`  ${name}\n`);
        }
      });
    });

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
        if (wantsJson(globals)) {
          printJson({ database: db.label, upToDate, migrations });
        } else {
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
        }
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
