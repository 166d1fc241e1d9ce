/**
 * `authd seed <file|->` and `authd db seed <file|->` (reference/cli.md "Seed file"):
 * read the file, validate all of it, show progress, print the report.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { type Command, InvalidArgumentError } from "commander";
import { loadConfig, readEnvironment } from "../../server/config.js";
import { openDatabase } from "../../server/db/connection.js";
import {
  applySeed,
  countReport,
  IF_EXISTS,
  type IfExists,
  parseSeedText,
  SEED_KINDS,
  type SeedProgress,
  validateSeed,
} from "../../server/seed/seed.js";
import { UsageError } from "../exit-codes.js";
import { formatTable, type GlobalOptions, note, printJson, wantsJson } from "../output.js";
import { registerCleanup } from "./cleanup.js";

/** Off a TTY, one progress line per this many items (reference/cli.md output contract). */
const PROGRESS_EVERY = 1000;

const PHASE_LABELS: Record<SeedProgress["phase"], string> = {
  hash: "hashing passwords",
  verify: "checking passwords",
  write: "writing rows",
};

function parseIfExists(value: string): IfExists {
  if (!(IF_EXISTS as readonly string[]).includes(value)) {
    throw new InvalidArgumentError(`expected one of ${IF_EXISTS.join(", ")}`);
  }
  return value as IfExists;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** A redrawn line on a TTY; one line every PROGRESS_EVERY items (and at the end) off it. */
function progressReporter(stream: NodeJS.WriteStream = process.stderr) {
  const tty = stream.isTTY === true;
  let drawn = false;
  return {
    update({ phase, done, total }: SeedProgress) {
      const label = PHASE_LABELS[phase];
      if (tty) {
        const width = 30;
        const filled = total === 0 ? width : Math.round((done / total) * width);
        stream.write(
          `\r${label} [${"#".repeat(filled)}${".".repeat(width - filled)}] ${done}/${total}`,
        );
        drawn = true;
        if (done === total) {
          stream.write("\n");
          drawn = false;
        }
      } else if (done % PROGRESS_EVERY === 0 || done === total) {
        stream.write(`${label}: ${done}/${total}\n`);
      }
    },
    finish() {
      if (drawn) stream.write("\n");
    },
  };
}

interface SeedFlags {
  ifExists: IfExists;
  dryRun?: boolean;
}

async function seedAction(file: string, flags: SeedFlags, command: Command): Promise<void> {
  const globals = command.optsWithGlobals<GlobalOptions>();
  const loaded = await loadConfig({ configPath: globals.config });
  let text: string;
  let baseDir = loaded.cwd;
  if (file === "-") text = await readStdin();
  else {
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      const code = (error as { code?: string }).code ?? "unreadable";
      throw new UsageError(`cannot read seed file ${file} (${code})`);
    }
    baseDir = path.dirname(path.resolve(loaded.cwd, file));
  }
  const raw = parseSeedText(text, file === "-" ? "stdin" : file);

  const db = await openDatabase(loaded, { max: 2 });
  const progress = progressReporter();
  try {
    const seed = await validateSeed(raw, {
      sql: db.sql,
      config: loaded.config,
      env: readEnvironment(loaded.cwd),
      baseDir,
    });
    const report = await applySeed(db.sql, seed, loaded.config, {
      ifExists: flags.ifExists,
      dryRun: flags.dryRun,
      onProgress: progress.update,
    });
    progress.finish();
    if (wantsJson(globals)) {
      printJson(report);
      return;
    }
    const counts = countReport(report);
    process.stdout.write(
      `${formatTable(
        ["KIND", "CREATED", "UPDATED", "UNCHANGED"],
        SEED_KINDS.map((kind) => [
          kind,
          String(counts[kind].created),
          String(counts[kind].updated),
          String(counts[kind].unchanged),
        ]),
      )}\n`,
    );
    note(
      flags.dryRun
        ? `Dry run: nothing was written to ${db.label}.`
        : `Seeded ${db.label} in one transaction.`,
    );
  } finally {
    progress.finish();
    await db.close();
  }
}

function addSeedCommand(parent: Command, name: string): void {
  parent
    .command(name)
    .description(
      "create users, accounts, organizations, teams and invitations from a JSON seed file",
    )
    .argument("<file>", "seed file (JSON), or - for stdin")
    .option(
      "--if-exists <mode>",
      "for rows that already exist: skip (leave unchanged), update, or fail (exit 4)",
      parseIfExists,
      "skip",
    )
    .action(seedAction);
}

export function registerSeed(program: Command): void {
  addSeedCommand(program, "seed");
  const db = program.command("db").description("database content: seed, cleanup");
  addSeedCommand(db, "seed");
  registerCleanup(db);
}
