/** `authd migrate [up|down|status|create|baseline]`: the schema, through node-pg-migrate. */
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { type Command, InvalidArgumentError } from "commander";
import type { Database } from "../../server/db/connection.js";
import {
  appliedAfter,
  listMigrationFiles,
  type MigrationStatus,
  migrationNumber,
  migrationStatus,
  migrationsDirectory,
  pendingUpTo,
  resolveMigrationId,
  runMigrations,
} from "../../server/db/migrations.js";
import { loadCommandConfig } from "../command-config.js";
import { EXIT, FileExistsError, UsageError } from "../exit-codes.js";
import { emit, formatTable, type GlobalOptions, note } from "../output.js";
import { withOpenDatabase } from "../with-database.js";
import { confirmModerate, parseCount } from "./shared.js";

// withOpenDatabase, not withDatabase: node-pg-migrate opens its own connection (db.url),
// so a rolled-back transaction could not contain it. Dry runs here write nothing by
// themselves: they read the status, or let node-pg-migrate skip every statement.

interface UpFlags {
  count?: number;
  to?: string;
  /** Milliseconds to wait for the migration lock (default 0: fail at once, exit 75). */
  lockWait?: number;
  dryRun?: boolean;
}

/** `--lock-wait`: `30s`, `2m`, `500ms`, `0` or plain seconds, as milliseconds. */
export function parseLockWait(value: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h)?$/.exec(value.trim());
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  const ms = match ? Math.round(Number(match[1]) * (units[match[2] ?? "s"] ?? 1000)) : Number.NaN;
  if (!Number.isSafeInteger(ms) || ms < 0) {
    throw new InvalidArgumentError("expected a duration like 30s, 2m or 500ms (0: do not wait)");
  }
  return ms;
}

function describeWait(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** `--lock-wait` for runMigrations: how long to wait, and the note once waiting starts. */
function lockWaitOptions(lockWait: number | undefined): {
  lockWaitMs: number;
  onLockWait: () => void;
} {
  const lockWaitMs = lockWait ?? 0;
  return {
    lockWaitMs,
    onLockWait: () =>
      note(
        `Another process holds the migration lock; waiting up to ${describeWait(lockWaitMs)} (--lock-wait)…`,
      ),
  };
}

/** The same `--lock-wait` option on every subcommand that takes the migration lock. */
function addLockWaitOption(command: Command): Command {
  return command.option(
    "--lock-wait <duration>",
    "wait this long (e.g. 30s) for another process's migration lock; default: fail at once (exit 75)",
    parseLockWait,
  );
}

/**
 * `--to <id>` or `--mark-applied <id>` (a name or a number) as a migration file name; an
 * unknown id, or one whose number another file shares, is a usage error.
 */
async function resolveTarget(id: string, flag = "--to"): Promise<string> {
  const files = await listMigrationFiles();
  const target = resolveMigrationId(files, id);
  if (!target) {
    throw new UsageError(`unknown migration "${id}"; known: ${files.join(", ") || "(none)"}`);
  }
  const number = migrationNumber(target);
  const twins = files.filter((file) => /^\d+_/.test(file) && migrationNumber(file) === number);
  if (twins.length > 1) {
    throw new UsageError(
      `migration number ${number} is not unique (${twins.join(", ")}); ${flag} needs a unique number`,
    );
  }
  return target;
}

function refuseToWithCount(flags: { to?: string; count?: number }): void {
  if (flags.to !== undefined && flags.count !== undefined) {
    throw new UsageError("--to and --count cannot be used together: give one of them");
  }
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
  selection: { count?: number; to?: string; lockWaitMs?: number; onLockWait?: () => void },
): Promise<string[]> {
  const status = await migrationStatus(db.sql);
  if (status.applied.length === 0) {
    if (direction === "down") return [];
    if (selection.to !== undefined) {
      return pendingUpTo(status, await listMigrationFiles(), selection.to);
    }
    return status.pending.slice(0, selection.count ?? status.pending.length);
  }
  // node-pg-migrate checks the order and the files as for real, and skips every statement.
  return runMigrations(db, { direction, ...selection, dryRun: true, log: dryRunLog });
}

/**
 * What node-pg-migrate tells of a dry run, less its warning after an attempt that found
 * the lock held: it then "releases" a lock it never took, once per --lock-wait retry.
 */
function dryRunLog(message: string): void {
  if (message !== "Failed to release migration lock") note(message);
}

async function migrateUp(flags: UpFlags, command: Command): Promise<void> {
  const globals = command.optsWithGlobals<GlobalOptions>();
  const dryRun = flags.dryRun === true;
  refuseToWithCount(flags);
  const target = flags.to === undefined ? undefined : await resolveTarget(flags.to);
  await withOpenDatabase(globals, async (db) => {
    const selection = { count: flags.count, to: target, ...lockWaitOptions(flags.lockWait) };
    const ran = dryRun
      ? await dryRunMigrations(db, "up", selection)
      : await runMigrations(db, { direction: "up", ...selection });
    emit({ direction: "up", dryRun, ...(target ? { to: target } : {}), migrations: ran }, globals, {
      quietField: "migrations",
      human: () => {
        if (ran.length > 0) printRun(dryRun ? "Would apply" : "Applied", ran, db.label);
        else if (target) {
          process.stdout.write(
            `Nothing to apply: migrations up to ${target} are already applied (${db.label}).\n`,
          );
        } else process.stdout.write(`Schema is up to date (${db.label}).\n`);
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

async function migrateBaseline(
  flags: { markApplied: string; lockWait?: number; dryRun?: boolean },
  command: Command,
): Promise<void> {
  const globals = command.optsWithGlobals<GlobalOptions>();
  const dryRun = flags.dryRun === true;
  const files = await listMigrationFiles();
  const target = await resolveTarget(flags.markApplied, "--mark-applied");
  const upTo = files.slice(0, files.indexOf(target) + 1);
  await withOpenDatabase(globals, async (db) => {
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
    // `to` (not a count) is decided under the lock: a baseline that waited for another
    // process's migrations marks only what is still pending up to the id, never past it.
    const marked =
      toMark.length === 0 || dryRun
        ? toMark
        : await runMigrations(db, {
            direction: "up",
            to: target,
            fake: true,
            ...lockWaitOptions(flags.lockWait),
          });
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

/** What `migrate down --to <target>` reverts, most recent first; exit 2 when it is not applied. */
function revertedAfter(status: MigrationStatus, target: string): string[] {
  const after = appliedAfter(status, target);
  if (after === undefined) {
    throw new UsageError(
      `migration ${target} is not applied, so there is nothing to revert down to; see \`authd migrate status\``,
    );
  }
  return after;
}

interface DownFlags {
  count?: number;
  to?: string;
  forceProduction?: boolean;
  /** Milliseconds to wait for the migration lock (default 0: fail at once, exit 75). */
  lockWait?: number;
  dryRun?: boolean;
}

/**
 * `migrate down`: the production profile (NODE_ENV=production, --profile production or
 * AUTHD_PROFILE=production) refuses it without --force-production, dry run or not.
 * `--to <id>` reverts every migration applied after <id>, which stays applied.
 */
async function migrateDown(flags: DownFlags, command: Command): Promise<void> {
  const globals = command.optsWithGlobals<GlobalOptions>();
  const dryRun = flags.dryRun === true;
  refuseToWithCount(flags);
  // Refused before anything else: no prompt, no connection.
  const { production } = await loadCommandConfig(globals);
  if (production && !flags.forceProduction) {
    throw new UsageError(
      "refusing to revert migrations in the production profile (NODE_ENV=production or --profile production) without --force-production",
    );
  }
  const target = flags.to === undefined ? undefined : await resolveTarget(flags.to);
  if (!dryRun && target === undefined) {
    const confirmed = await confirmModerate(
      `Revert ${flags.count ?? 1} migration(s)? Data in the dropped tables is lost.`,
      globals,
    );
    if (!confirmed) {
      note("Nothing reverted.");
      process.exitCode = EXIT.ok;
      return;
    }
  }
  await withOpenDatabase(globals, async (db) => {
    if (target !== undefined) {
      // The database says how many would go: checked (exit 2) and shown before the prompt.
      const planned = revertedAfter(await migrationStatus(db.sql), target);
      if (!dryRun && planned.length > 0) {
        const confirmed = await confirmModerate(
          `Revert ${planned.length} migration(s) applied after ${target} (${planned.join(", ")})? Data in the dropped tables is lost.`,
          globals,
        );
        if (!confirmed) {
          note("Nothing reverted.");
          process.exitCode = EXIT.ok;
          return;
        }
      }
    }
    const selection = {
      ...(target !== undefined ? { to: target } : { count: flags.count ?? 1 }),
      ...lockWaitOptions(flags.lockWait),
    };
    const reverted = dryRun
      ? await dryRunMigrations(db, "down", selection)
      : await runMigrations(db, { direction: "down", ...selection });
    const document = {
      direction: "down",
      ...(dryRun ? { dryRun } : {}),
      ...(target ? { to: target } : {}),
      migrations: reverted,
    };
    emit(document, globals, {
      quietField: "migrations",
      human: () => {
        if (reverted.length > 0) {
          printRun(dryRun ? "Would revert" : "Reverted", reverted, db.label);
        } else if (target) {
          process.stdout.write(
            `Nothing to revert: ${target} is the last applied migration on ${db.label}.\n`,
          );
        } else {
          process.stdout.write(`Nothing to revert: no migration is applied on ${db.label}.\n`);
        }
      },
    });
    if (dryRun) note("Dry run: nothing was reverted.");
  });
}

export function registerMigrate(program: Command): void {
  const migrate = program
    .command("migrate")
    .description("migrate the database schema (default: up)");

  addLockWaitOption(
    migrate
      .command("up", { isDefault: true })
      .description("apply pending migrations (all, --count N, or --to <id>)")
      .option("--count <n>", "apply at most N migrations", parseCount)
      .option("--to <id>", "apply up to and including this migration (name or number)"),
  ).action(migrateUp);

  addLockWaitOption(
    migrate
      .command("down")
      .description("revert the most recent migration (or --count N, or all after --to <id>)")
      .option("--count <n>", "revert the N most recent migrations (default 1)", parseCount)
      .option("--to <id>", "revert every migration applied after this one (name or number)")
      .option(
        "--force-production",
        "allow reverting in the production profile (NODE_ENV=production, --profile production)",
      ),
  ).action(migrateDown);

  migrate
    .command("status")
    .description("list applied and pending migrations")
    .option("--exit-code", "exit 10 when migrations are pending, 11 on unknown ones")
    .action(async (flags: { exitCode?: boolean }, command: Command) => {
      const globals = command.optsWithGlobals<GlobalOptions>();
      await withOpenDatabase(globals, async (db) => {
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
            if (upToDate) note("Schema is up to date.");
            // Unknown ones are the database's news, not this authd's: migrate cannot
            // apply or revert what it does not have.
            else if (status.unknown.length > 0) {
              note(
                `${status.unknown.length} unknown: applied by another version of authd (${status.unknown.join(", ")}); run the authd that has them, or one as new.`,
              );
            }
            if (status.pending.length > 0) {
              note(`${status.pending.length} pending; run \`authd migrate\`.`);
            }
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

  addLockWaitOption(
    migrate
      .command("baseline")
      .description("record migrations up to <id> as applied without running them (existing schema)")
      .requiredOption(
        "--mark-applied <id>",
        "last migration already in the database (name or number)",
      ),
  ).action(migrateBaseline);
}
