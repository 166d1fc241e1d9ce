/**
 * `authd import better-auth --from <url>`: a whole Better Auth database into authd's.
 * The rules (what is brought, conflicts, batches, audit) live in server/import/better-auth/;
 * this module opens the source, shows progress on stderr and prints the report.
 */
import { type Command, Option } from "commander";
import {
  ensureSecret,
  POSTGRES_URL,
  secretList,
  unparseableUrlProblem,
} from "../../server/config.js";
import {
  type BetterAuthImportReport,
  type ImportProgress,
  importBetterAuth,
  type OnConflict,
} from "../../server/import/better-auth/import.js";
import { openBetterAuthSource } from "../../server/import/better-auth/source.js";
import {
  type BetterAuthVerifyReport,
  verifyBetterAuthImport,
} from "../../server/import/better-auth/verify.js";
import { createTokenCipher } from "../../server/social/token-crypto.js";
import { EXIT, ExitError, UsageError } from "../exit-codes.js";
import { emit, formatTable, type GlobalOptions, note } from "../output.js";
import { withDatabase } from "../with-database.js";
import { wholeNumberUpTo } from "./user-flags.js";

interface BetterAuthFlags {
  from: string;
  schema: string;
  sessions?: boolean;
  onConflict: OnConflict;
  batchSize: number;
  verify?: boolean;
}

/** Rows per statement stay well under PostgreSQL's 65,535 parameters (13 columns at most). */
const parseBatchSize = wholeNumberUpTo(4000);

const STEP_LABELS: Record<ImportProgress["step"], string> = {
  check: "checking",
  write: "importing",
};

/** A line redrawn in place on a terminal; one line per batch off it (CI logs). */
function progressReporter(globals: GlobalOptions, stream: NodeJS.WriteStream = process.stderr) {
  const tty = stream.isTTY === true;
  let drawn = false;
  return {
    update({ step, table, done, total }: ImportProgress) {
      if (globals.quiet) return;
      const label = `${STEP_LABELS[step]} ${table}`;
      if (tty) {
        const width = 30;
        const filled = total === 0 ? width : Math.min(width, Math.round((done / total) * width));
        stream.write(
          `\r\x1b[2K${label} [${"#".repeat(filled)}${".".repeat(width - filled)}] ${done}/${total}`,
        );
        drawn = true;
        // Each table's last line stays: the screen ends with a line per table.
        if (done >= total) {
          stream.write("\n");
          drawn = false;
        }
      } else {
        stream.write(`${label}: ${done}/${total}\n`);
      }
    },
    finish() {
      if (drawn) stream.write("\n");
      drawn = false;
    },
  };
}

function printImportReport(report: BetterAuthImportReport, globals: GlobalOptions): void {
  const would = report.dryRun && !report.refused;
  emit(report, globals, {
    quietField: "table",
    columns: ["table", "source", "imported", "unchanged", "skipped"],
    human() {
      const { source } = report;
      const from = `${source.database}, schema ${source.schema} (${source.naming} columns)`;
      const out: string[] = [
        report.refused
          ? `Nothing ${report.dryRun ? "would be" : "was"} imported from ${from}: conflicts.`
          : `${would ? "Would import" : "Imported"} from ${from}:`,
        formatTable(
          ["TABLE", "SOURCE", would ? "TO IMPORT" : "IMPORTED", "UNCHANGED", "SKIPPED"],
          report.items.map((item) => [
            item.table,
            String(item.source),
            String(item.imported),
            String(item.unchanged),
            String(item.skipped),
          ]),
        ),
      ];
      if (report.conflicts.length > 0) {
        out.push(
          "",
          `Conflicts (${report.conflicts.length}):`,
          formatTable(
            ["TABLE", "KEY", "SOURCE ID", "AUTHD ID", "REASON"],
            report.conflicts.map((conflict) => [
              conflict.table,
              conflict.key,
              conflict.sourceId,
              conflict.authdId ?? "-",
              conflict.reason,
            ]),
          ),
        );
      }
      if (report.warnings.length > 0) {
        out.push(
          "",
          "Warnings:",
          ...report.warnings.map(
            (warning) =>
              `  ${warning.table}: ${warning.message} (${warning.count}; e.g. ${warning.examples.join(", ")})`,
          ),
        );
      }
      process.stdout.write(`${out.join("\n")}\n`);
    },
  });
  if (
    !report.sessions &&
    (report.items.find((item) => item.table === "session")?.source ?? 0) > 0
  ) {
    note("Sessions were not brought: users sign in again (--sessions brings the live ones).");
  }
}

function printVerifyReport(report: BetterAuthVerifyReport, globals: GlobalOptions): void {
  emit(report, globals, {
    quietField: "table",
    columns: ["table", "source", "inAuthd", "missing"],
    human() {
      const { passwords } = report;
      const out = [
        `Compared ${report.source.database}, schema ${report.source.schema}, with authd:`,
        formatTable(
          ["TABLE", "SOURCE", "IN AUTHD", "MISSING"],
          report.items.map((item) => [
            item.table,
            String(item.source),
            String(item.inAuthd),
            String(item.missing),
          ]),
        ),
        "",
        `Password hashes: ${passwords.checked} checked, ${passwords.verifiable} verifiable by authd.`,
      ];
      if (passwords.problems.length > 0) {
        out.push(
          formatTable(
            ["USER ID", "ACCOUNT ID", "PROBLEM"],
            passwords.problems.map((problem) => [
              problem.userId,
              problem.accountId,
              problem.problem,
            ]),
          ),
        );
      }
      process.stdout.write(`${out.join("\n")}\n`);
    },
  });
}

/**
 * A postgres:// URL the driver can read (a password's `#` or `/` must be percent-encoded).
 * Checked here rather than by commander, whose message would repeat the URL, password too.
 */
function checkSourceUrl(value: string): void {
  if (!URL.canParse(value) || !POSTGRES_URL.test(value)) {
    throw new UsageError(`--from: ${unparseableUrlProblem("a postgres:// URL")}`);
  }
}

function hasPassword(url: string): boolean {
  try {
    return new URL(url).password !== "";
  } catch {
    return false;
  }
}

async function betterAuthAction(flags: BetterAuthFlags, command: Command): Promise<void> {
  const globals = command.optsWithGlobals<GlobalOptions>();
  checkSourceUrl(flags.from);
  await withDatabase(globals, async ({ loaded, db, dryRun }) => {
    // A password in argv shows in `ps` and shell history (clig.dev); PGPASSWORD does not.
    if (loaded.production && hasPassword(flags.from)) {
      throw new UsageError(
        "--from with a password is refused in the production profile: give the password in PGPASSWORD",
      );
    }
    const source = await openBetterAuthSource(
      flags.from,
      flags.schema,
      loaded.config.database.connectTimeout,
    );
    const progress = progressReporter(globals);
    try {
      if (flags.verify) {
        const report = await verifyBetterAuthImport(db.sql, source, {
          sessions: flags.sessions === true,
          batchSize: flags.batchSize,
        });
        progress.finish();
        printVerifyReport(report, globals);
        if (!report.ok) {
          const missing = report.items.reduce((sum, item) => sum + item.missing, 0);
          throw new ExitError(
            `${missing} source row(s) missing from authd, ${report.passwords.problems.length} password hash(es) authd cannot verify`,
            EXIT.partial,
            "VERIFY_FAILED",
          );
        }
        return;
      }
      // Provider tokens are sealed under the server's secret, as social sign-in seals them.
      await ensureSecret(loaded);
      const report = await importBetterAuth(
        {
          sql: db.sql,
          config: loaded.config,
          cipher: createTokenCipher(secretList(loaded.config)),
        },
        source,
        {
          sessions: flags.sessions === true,
          onConflict: flags.onConflict,
          batchSize: flags.batchSize,
          dryRun,
          onProgress: progress.update,
        },
      );
      progress.finish();
      printImportReport(report, globals);
      if (report.refused) {
        throw new ExitError(
          `${report.conflicts.length} conflict(s) with what authd holds: nothing was imported (--on-conflict skip imports everything else)`,
          EXIT.conflict,
          "IMPORT_CONFLICT",
          report.conflicts,
        );
      }
    } finally {
      progress.finish();
      await source.close();
    }
  });
}

export function registerImport(program: Command): void {
  const group = program
    .command("import")
    .description("bring users, accounts, organizations and sessions from another auth system");
  group
    .command("better-auth")
    .description(
      "import a Better Auth PostgreSQL database (core, organization and admin plugin tables), keeping ids and password hashes; run again to resume",
    )
    .requiredOption(
      "--from <url>",
      "the Better Auth database, postgres://user@host/db (its password is better in PGPASSWORD)",
    )
    .option("--schema <name>", "the PostgreSQL schema of its tables", "public")
    .option("--sessions", "also bring live sessions (their tokens stored as digests)")
    .addOption(
      new Option(
        "--on-conflict <mode>",
        "an email, slug or provider identity authd holds for another row: fail (exit 4, nothing written) or skip that row and what depends on it",
      )
        .choices(["fail", "skip"])
        .default("fail"),
    )
    .option("--batch-size <n>", "rows per transaction (1-4000)", parseBatchSize, 1000)
    .option(
      "--verify",
      "write nothing: compare each table's rows with the source and check every imported password hash",
    )
    .action(betterAuthAction);
}
