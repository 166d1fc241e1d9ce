/**
 * `authd seed <file|->` and `authd db seed <file|->`:
 * read the file, validate all of it, show progress, print the report.
 */
import { readFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import path from "node:path";
import { type Command, InvalidArgumentError, Option } from "commander";
import { type LoadedConfig, readCliEnvironment, readEnvironment } from "../../server/config.js";
import type { Sql } from "../../server/db/connection.js";
import {
  applySeed,
  applySeedContinuing,
  countReport,
  IF_EXISTS,
  type IfExists,
  type PreparedSeed,
  parseSeedText,
  SEED_KINDS,
  type SeedFailure,
  type SeedProgress,
  type SeedReport,
  validateSeed,
} from "../../server/seed/seed.js";
import { EXIT, UsageError } from "../exit-codes.js";
import { emit, formatTable, type GlobalOptions, note } from "../output.js";
import { withDatabase } from "../with-database.js";

/** Off a TTY, one progress line per this many items (on stderr, as all progress). */
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
export function progressReporter(stream: NodeJS.WriteStream = process.stderr) {
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
      drawn = false;
    },
  };
}

/** A seed file (or stdin), parsed but not yet validated. */
export interface SeedSource {
  raw: unknown;
  /** Where `{file: ...}` passwords are read from. */
  baseDir: string;
}

export async function readSeedSource(file: string, loaded: LoadedConfig): Promise<SeedSource> {
  if (file === "-") return { raw: parseSeedText(await readStdin(), "stdin"), baseDir: loaded.cwd };
  let text: string;
  try {
    text = await readFile(path.resolve(loaded.cwd, file), "utf8");
  } catch (error) {
    const code = (error as { code?: string }).code ?? "unreadable";
    throw new UsageError(`cannot read seed file ${file} (${code})`);
  }
  return {
    raw: parseSeedText(text, file),
    baseDir: path.dirname(path.resolve(loaded.cwd, file)),
  };
}

/** `--password-file F`: its content without one trailing newline. */
async function readPasswordFile(file: string, loaded: LoadedConfig): Promise<string> {
  try {
    return (await readFile(path.resolve(loaded.cwd, file), "utf8")).replace(/\r?\n$/, "");
  } catch (error) {
    const code = (error as { code?: string }).code ?? "unreadable";
    throw new UsageError(`cannot read --password-file ${file} (${code})`);
  }
}

/**
 * argon2's async hash runs on libuv's thread pool, which the authd executable sizes to
 * the core count (bin/authd.cts) unless UV_THREADPOOL_SIZE is set (libuv reads it once,
 * at its first use: too late to change here). When an operator set fewer threads than
 * there are cores, the pool, not hashPassword, caps the parallelism: say so.
 */
function warnAboutThreadPool(seed: PreparedSeed): void {
  if (!seed.users.some((user) => user.secret && "plain" in user.secret)) return;
  const cores = availableParallelism();
  const pool = readCliEnvironment().threadPoolSize;
  if (cores > pool) {
    note(
      `Hashing uses ${pool} threads of ${cores} cores: run with UV_THREADPOOL_SIZE=${cores} to use them all.`,
    );
  }
}

export interface SeedRunOptions {
  ifExists: IfExists;
  continueOnError: boolean;
  sharePasswordHashes: boolean;
  defaultPassword?: string;
  dryRun: boolean;
}

export type SeedOutput = SeedReport & { failed?: SeedFailure[] };

/** Validates the whole seed against `sql`, then applies it; answers the output document. */
export async function runSeed(
  sql: Sql,
  loaded: LoadedConfig,
  source: SeedSource,
  options: SeedRunOptions,
): Promise<SeedOutput> {
  const seed = await validateSeed(source.raw, {
    sql,
    config: loaded.config,
    env: readEnvironment(loaded.cwd),
    baseDir: source.baseDir,
    defaultPassword: options.defaultPassword,
  });
  if (!options.dryRun) warnAboutThreadPool(seed);
  const progress = progressReporter();
  try {
    const applyOptions = {
      ifExists: options.ifExists,
      dryRun: options.dryRun,
      sharePasswordHashes: options.sharePasswordHashes,
      onProgress: progress.update,
    };
    if (!options.continueOnError) return await applySeed(sql, seed, loaded.config, applyOptions);
    const { report, failed } = await applySeedContinuing(sql, seed, loaded.config, applyOptions);
    return { ...report, failed };
  } finally {
    progress.finish();
  }
}

/** The report: JSON/YAML as it is, or a table of counts (and the failures) for people. */
export function printSeedOutput(output: SeedOutput, globals: GlobalOptions): void {
  emit(output, globals, {
    human() {
      const counts = countReport(output);
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
      if (output.failed && output.failed.length > 0) {
        process.stdout.write(
          `\n${formatTable(
            ["FAILED", "KEY", "CODE", "MESSAGE"],
            output.failed.map((failure) => [
              failure.path,
              failure.key,
              failure.code,
              failure.message,
            ]),
          )}\n`,
        );
      }
    },
  });
}

interface SeedFlags {
  ifExists: IfExists;
  atomic?: boolean;
  continueOnError?: boolean;
  passwordFile?: string;
  sharePasswordHashes?: boolean;
  dryRun?: boolean;
}

async function seedAction(file: string, flags: SeedFlags, command: Command): Promise<void> {
  const globals = command.optsWithGlobals<GlobalOptions>();
  const dryRun = flags.dryRun === true;
  const continueOnError = flags.continueOnError === true;
  await withDatabase(globals, async ({ loaded, db }) => {
    if (flags.sharePasswordHashes && loaded.production) {
      throw new UsageError(
        "--share-password-hashes is refused under the production profile: it gives users with the same password the same hash (test data only)",
      );
    }
    const source = await readSeedSource(file, loaded);
    const defaultPassword =
      flags.passwordFile === undefined
        ? undefined
        : await readPasswordFile(flags.passwordFile, loaded);
    const output = await runSeed(db.sql, loaded, source, {
      ifExists: flags.ifExists,
      continueOnError,
      sharePasswordHashes: flags.sharePasswordHashes === true,
      defaultPassword,
      dryRun,
    });
    printSeedOutput(output, globals);
    const failures = output.failed?.length ?? 0;
    if (failures > 0) {
      note(
        `${failures} item(s) failed${dryRun ? " (dry run)" : "; the others were written"} to ${db.label}.`,
      );
      process.exitCode = EXIT.partial;
    } else if (!dryRun) {
      note(
        continueOnError
          ? `Seeded ${db.label}, each item in its own transaction.`
          : `Seeded ${db.label} in one transaction.`,
      );
    }
  });
}

function addSeedCommand(parent: Command, name: string): void {
  parent
    .command(name)
    .description(
      "create users, accounts, organizations, teams and invitations from a JSON, YAML or JSONL seed file",
    )
    .argument("<file>", "seed file (.json, .yaml/.yml, .jsonl), or - for stdin")
    .option(
      "--if-exists <mode>",
      "for rows that already exist: skip (leave unchanged), update, or fail (exit 4)",
      parseIfExists,
      "skip",
    )
    .addOption(
      new Option("--atomic", "write the whole file in one transaction (default)").conflicts(
        "continueOnError",
      ),
    )
    .addOption(
      new Option(
        "--continue-on-error",
        "write each user and organization in its own transaction; list failures, exit 6 if any",
      ).conflicts("atomic"),
    )
    .option(
      "--password-file <file>",
      'the password of users whose "password" is true (one trailing newline dropped)',
    )
    .option(
      "--share-password-hashes",
      "TEST DATA ONLY: hash each distinct password once, so users with the same password share one hash (reveals who shares a password; refused in production)",
    )
    .action(seedAction);
}

/** `seed`, and the `db` group with its `seed`; answers the group for the other db commands. */
export function registerSeed(program: Command): Command {
  addSeedCommand(program, "seed");
  const db = program.command("db").description("database content: seed, export, reset, cleanup");
  addSeedCommand(db, "seed");
  return db;
}
