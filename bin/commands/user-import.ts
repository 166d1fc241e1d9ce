/**
 * `authd user import <file|->`: users with pre-hashed (or plain) passwords from jsonl,
 * json or csv. The rules (validation, batches, --if-exists, audit) live in
 * server/import/; this module reads the input, reports progress and prints.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { type Command, InvalidArgumentError, Option } from "commander";
import { HASH_FORMATS, type HashFormat } from "../../server/crypto/password.js";
import {
  type IfExists,
  type ImportProgress,
  ImportRejectedError,
  importUsers,
} from "../../server/import/import.js";
import { IMPORT_FORMATS, type ImportFormat, parseImportFile } from "../../server/import/parse.js";
import type { ImportFailure } from "../../server/import/validate.js";
import { EXIT, UsageError } from "../exit-codes.js";
import { emit, formatTable, type GlobalOptions, note, outputFormat } from "../output.js";
import { CLI_ACTOR, withAdmin } from "../with-admin.js";
import { readStdin, wholeNumberUpTo } from "./user-flags.js";

interface ImportFlags {
  format?: ImportFormat;
  hash?: HashFormat;
  ifExists: IfExists;
  batchSize: number;
  resumeFrom: number;
  continueOnError?: boolean;
}

const parseBatchSize = wholeNumberUpTo(10_000);

function parseResumeFrom(value: string): number {
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) {
    throw new InvalidArgumentError("expected a whole number >= 0 (records already imported)");
  }
  return Number(value);
}

const EXTENSIONS: Record<string, ImportFormat> = {
  ".jsonl": "jsonl",
  ".ndjson": "jsonl",
  ".json": "json",
  ".csv": "csv",
};

/** --format, else the file extension, else (stdin) the first character: `[` or `{`. */
function formatOf(file: string, text: string, given: ImportFormat | undefined): ImportFormat {
  if (given) return given;
  if (file !== "-") {
    const byExtension = EXTENSIONS[path.extname(file).toLowerCase()];
    if (byExtension) return byExtension;
    throw new UsageError(
      `cannot tell the format of ${file} from its extension (.jsonl, .json, .csv): give --format`,
    );
  }
  const first = text.trimStart()[0];
  if (first === "[") return "json";
  if (first === "{") return "jsonl";
  throw new UsageError("give --format jsonl, json or csv when reading stdin");
}

async function readInput(file: string): Promise<string> {
  if (file === "-") {
    if (process.stdin.isTTY) throw new UsageError("`-` reads the users from stdin: pipe them in");
    return readStdin();
  }
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
}

function where(failure: ImportFailure): string {
  return failure.line === undefined
    ? `record ${failure.record}`
    : `record ${failure.record} (line ${failure.line})`;
}

function failureTable(failures: ImportFailure[]): string {
  return formatTable(
    ["RECORD", "LINE", "EMAIL", "CODE", "MESSAGE"],
    failures.map((failure) => [
      String(failure.record),
      failure.line === undefined ? "-" : String(failure.line),
      failure.email ?? "-",
      failure.code,
      failure.message,
    ]),
  );
}

/** One line per batch off a TTY (CI logs); one line rewritten in place on a TTY. */
function progressReporter(globals: GlobalOptions): {
  report: (progress: ImportProgress) => void;
  end: () => void;
} {
  const live = process.stderr.isTTY === true;
  let shown = false;
  return {
    report(progress) {
      if (globals.quiet) return;
      const line = `batch ${progress.batch}/${progress.batches}: ${progress.done}/${progress.total} records written (through record ${progress.lastRecord})`;
      if (live) {
        process.stderr.write(`\r\x1b[2K${line}`);
        shown = true;
      } else {
        note(line);
      }
    },
    end() {
      if (shown) process.stderr.write("\n");
    },
  };
}

async function importCommand(file: string, flags: ImportFlags, command: Command): Promise<void> {
  const globals = command.optsWithGlobals<GlobalOptions>();
  const format = outputFormat(globals);
  const text = await readInput(file);
  const raws = parseImportFile(text, formatOf(file, text, flags.format));
  if (flags.resumeFrom > 0 && !globals.quiet) {
    note(`Skipping the first ${flags.resumeFrom} record(s) (--resume-from).`);
  }
  const progress = progressReporter(globals);
  const result = await withAdmin(globals, async (admin) => {
    try {
      return await importUsers(admin.deps, CLI_ACTOR, raws, {
        ifExists: flags.ifExists,
        hash: flags.hash,
        batchSize: flags.batchSize,
        resumeFrom: flags.resumeFrom,
        continueOnError: flags.continueOnError === true,
        dryRun: admin.dryRun,
        onBatch: progress.report,
      });
    } catch (error) {
      progress.end();
      // JSON output carries the list in error.details; a person needs it spelled out.
      if (error instanceof ImportRejectedError && format === "human") {
        for (const failure of error.failures) {
          note(`${where(failure)}: ${failure.code}: ${failure.message}`);
        }
      }
      throw error;
    }
  });
  progress.end();

  const { created, updated, skipped, failed, outcomes } = result;
  if (globals.quiet || format === "jsonl" || format === "csv") {
    // Per record: the id of each user written or skipped, or why it failed.
    emit({ items: outcomes }, globals, {
      columns: ["record", "status", "id", "email", "code", "message"],
    });
  } else {
    emit({ created, updated, skipped, failed }, globals, {
      human: () => {
        process.stdout.write(
          globals.dryRun
            ? `Would import ${result.records} record(s): ${created} to create, ${updated} to update, ${skipped} to skip, ${failed.length} failing.\n`
            : `Imported ${result.records} record(s): ${created} created, ${updated} updated, ${skipped} skipped, ${failed.length} failed.\n`,
        );
        if (failed.length > 0) process.stdout.write(`${failureTable(failed)}\n`);
      },
    });
  }
  if (failed.length > 0) {
    note(`${failed.length} record(s) failed (--continue-on-error); the others were imported.`);
    process.exitCode = EXIT.partial;
  }
}

export function registerUserImport(user: Command): void {
  user
    .command("import <file>")
    .description(
      "import users with password hashes (argon2id, bcrypt, scrypt) or plain passwords from jsonl, json or csv; '-' reads stdin",
    )
    .addOption(
      new Option("--format <format>", "input format (default: from the file extension)").choices(
        IMPORT_FORMATS,
      ),
    )
    .addOption(
      new Option("--hash <algorithm>", "every passwordHash must be of this kind").choices(
        HASH_FORMATS,
      ),
    )
    .addOption(
      new Option("--if-exists <mode>", "when an email exists: skip, update or fail")
        .choices(["skip", "update", "fail"])
        .default("fail"),
    )
    .option("--batch-size <n>", "records per transaction (1-10000)", parseBatchSize, 500)
    .option(
      "--resume-from <n>",
      "skip the first N records (imported by an earlier run)",
      parseResumeFrom,
      0,
    )
    .option(
      "--continue-on-error",
      "import the valid records and report the others (exit 6 when any failed)",
    )
    .action(importCommand);
}
