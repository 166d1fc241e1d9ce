/**
 * `authd db reset` and `authd db export` (the `db` subtree). `db seed` and
 * `db cleanup` live in seed.ts and cleanup.ts; registerSeed adds these to its `db` group.
 */
import { type Command, InvalidArgumentError } from "commander";
import { stringify as stringifyYaml } from "yaml";
import { openDatabase } from "../../server/db/connection.js";
import {
  type ExportEntity,
  type ExportSection,
  exportSeed,
  parseSections,
  SeedDocumentBuilder,
} from "../../server/seed/export.js";
import {
  databaseNameOf,
  planReset,
  type ResetResult,
  resetDatabase,
} from "../../server/seed/reset.js";
import { countReport, SEED_KINDS } from "../../server/seed/seed.js";
import { loadCommandConfig } from "../command-config.js";
import { EXIT, ExitError, UsageError } from "../exit-codes.js";
import { emit, formatTable, type GlobalOptions, note, outputFormat } from "../output.js";
import { readSeedSource, runSeed, type SeedOutput } from "./seed.js";
import { matchConfirm, requireConfirm } from "./shared.js";

interface ResetFlags {
  confirm?: string;
  seed?: string;
  dryRun?: boolean;
}

async function resetAction(flags: ResetFlags, command: Command): Promise<void> {
  const globals = command.optsWithGlobals<GlobalOptions>();
  const dryRun = flags.dryRun === true;
  const loaded = await loadCommandConfig(globals);
  if (loaded.production) {
    throw new UsageError(
      "db reset is refused under the production profile (NODE_ENV=production or --profile production): it drops every authd table",
    );
  }
  const name = databaseNameOf(loaded);
  requireConfirm(
    flags.confirm,
    dryRun,
    `db reset drops every authd table and its rows: pass --confirm=${name} (the database name; --yes is not enough), or --dry-run to see what would be dropped`,
  );
  matchConfirm(
    flags.confirm,
    name,
    `--confirm=${flags.confirm} does not match the database name (${name}); nothing was dropped`,
  );
  // Parse the seed file before anything is dropped: a typo must not leave an empty database.
  const source = flags.seed === undefined ? undefined : await readSeedSource(flags.seed, loaded);

  const db = await openDatabase(loaded, { max: 2 });
  try {
    const plan = await planReset(db);
    if (plan.unknown.length > 0) {
      throw new ExitError(
        `the database has migrations this version of authd does not know (${plan.unknown.join(", ")}): their Down sections are not here, so db reset cannot revert them`,
        EXIT.migrationDrift,
        "MIGRATION_DRIFT",
      );
    }
    if (source) {
      // Checked against the database as it is now, and again after the reset.
      await runSeed(db.sql, loaded, source, {
        ifExists: "skip",
        continueOnError: false,
        sharePasswordHashes: false,
        dryRun: true,
      });
    }
    const document: {
      database: string;
      dryRun: boolean;
      dropped: Array<{ name: string; rows: number }>;
      reverted: string[];
      migrated: string[];
      seed?: SeedOutput;
    } = {
      database: name,
      dryRun,
      dropped: plan.tables,
      reverted: plan.revert,
      migrated: [],
    };
    if (!dryRun) {
      const result: ResetResult = await resetDatabase(db, plan);
      document.reverted = result.reverted;
      document.migrated = result.migrated;
      if (source) {
        document.seed = await runSeed(db.sql, loaded, source, {
          ifExists: "skip",
          continueOnError: false,
          sharePasswordHashes: false,
          dryRun: false,
        });
      }
    }
    emit(document, globals, {
      human() {
        const verb = dryRun ? "Would drop" : "Dropped";
        process.stdout.write(
          `${verb} ${plan.tables.length} table(s) of ${db.label}:\n${formatTable(
            ["TABLE", "ROWS"],
            plan.tables.map((table) => [table.name, String(table.rows)]),
          )}\n`,
        );
        if (dryRun) {
          process.stdout.write(
            `Would revert ${plan.revert.length} migration(s), then migrate up${source ? " and seed" : ""}.\n`,
          );
          return;
        }
        process.stdout.write(`Migrated: ${document.migrated.join(", ") || "(none)"}\n`);
        if (document.seed) {
          const counts = countReport(document.seed);
          process.stdout.write(
            `Seeded: ${SEED_KINDS.map((kind) => `${counts[kind].created} ${kind}`).join(", ")}\n`,
          );
        }
      },
    });
    if (dryRun) note("Dry run: nothing was dropped.");
  } finally {
    await db.close();
  }
}

interface ExportFlags {
  only?: Set<ExportSection>;
}

async function exportAction(flags: ExportFlags, command: Command): Promise<void> {
  const globals = command.optsWithGlobals<GlobalOptions>();
  const format = outputFormat(globals);
  if (format === "csv" || format === "env") {
    throw new UsageError(`db export writes yaml (default), json or jsonl, not ${format}`);
  }
  if (globals.quiet || globals.fields) {
    throw new UsageError("db export prints the whole document: -q and --fields do not apply");
  }
  const loaded = await loadCommandConfig(globals);
  const db = await openDatabase(loaded, { max: 2 });
  try {
    const options = { config: loaded.config, only: flags.only, warn: note };
    if (format === "jsonl") {
      // One line per entity, written as it is read: big databases stream.
      await exportSeed(db.sql, options, async (entity: ExportEntity) => {
        if (!process.stdout.write(`${JSON.stringify(entity)}\n`)) {
          await new Promise<void>((resolve) => process.stdout.once("drain", resolve));
        }
      });
      return;
    }
    const builder = new SeedDocumentBuilder();
    await exportSeed(db.sql, options, async (entity) => builder.add(entity));
    emit(builder.document, globals, {
      human: () => process.stdout.write(stringifyYaml(builder.document)),
    });
  } finally {
    await db.close();
  }
}

function parseOnly(value: string): Set<ExportSection> {
  const parsed = parseSections(value);
  if (typeof parsed === "string") throw new InvalidArgumentError(parsed);
  return parsed;
}

export function registerDbCommands(db: Command): void {
  db.command("reset")
    .description(
      "drop authd's tables (and the migrations table), migrate again, optionally seed; dev and CI only",
    )
    .option(
      "--confirm <database-name>",
      'the database name from the URL ("embedded" for the embedded database): required, even with --yes',
    )
    .option("--seed <file>", "seed this file into the fresh database (validated first)")
    .action(resetAction);

  db.command("export")
    .description(
      "print the database content as a seed document (YAML by default, -o json, -o jsonl) that `db seed` reads back",
    )
    .option(
      "--only <sections>",
      "comma-separated: users, orgs, members, teams, invitations (default: all)",
      parseOnly,
    )
    .action(exportAction);
}
