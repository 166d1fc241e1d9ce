/** `authd migrate [up|down|status]`: the schema, through node-pg-migrate. */
import type { Command } from "commander";
import { loadConfig } from "../../server/config.js";
import { type Database, openDatabase } from "../../server/db/connection.js";
import { migrationStatus, runMigrations } from "../../server/db/migrations.js";
import { EXIT, UsageError } from "../exit-codes.js";
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

export function registerMigrate(program: Command): void {
  const migrate = program
    .command("migrate")
    .description("migrate the database schema (default: up)");

  migrate
    .command("up", { isDefault: true })
    .description("apply pending migrations (all, or --count N)")
    .option("--count <n>", "apply at most N migrations", parseCount)
    .option("--dry-run", "print the SQL without changing anything")
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
}
