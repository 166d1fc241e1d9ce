/**
 * `authd import better-auth`: a whole Better Auth database into authd. No Fastify and no
 * terminal here: the CLI opens both databases, reports progress and prints.
 *
 * Every row keeps its Better Auth id, so references from the application's own tables
 * stay valid, and a second run recognizes what the first one wrote: a row whose id is
 * already in authd is left as it is. That makes the import idempotent and resumable: run
 * it again after an interruption and it writes what is missing.
 *
 * First every conflict is looked for (an email, a slug or a provider identity that authd
 * already holds for another row, or that the source repeats; an id that authd holds for
 * another row); with `onConflict: "fail"` any conflict means nothing is written, with
 * "skip" the conflicting rows are left out. Then the models are written in dependency order
 * (users, accounts, organizations, teams, members, team members, invitations, sessions),
 * one transaction per batch of rows with one audit event per batch that wrote anything.
 * A row whose user, organization or team did not make it (a conflict skipped, a dangling
 * reference in the source) is skipped; a reference that may be empty is emptied instead.
 *
 * The parts: conflicts.ts looks for conflicts, writers.ts makes each table's rows,
 * batches.ts writes them page by page, report.ts is what the run answers, run.ts what
 * its steps share.
 */
import { copy } from "./batches.js";
import { findConflicts } from "./conflicts.js";
import {
  type BetterAuthImportReport,
  createWarnings,
  type ImportConflict,
  SOURCE_OF,
  TARGET_TABLES,
  type TableCounts,
  type TargetTable,
} from "./report.js";
import type { BetterAuthImportDeps, BetterAuthImportOptions, Run } from "./run.js";
import type { BetterAuthSource } from "./source.js";
import {
  accountWriter,
  invitationWriter,
  memberWriter,
  organizationWriter,
  sessionWriter,
  teamMemberWriter,
  teamWriter,
  userWriter,
} from "./writers.js";

export type {
  BetterAuthImportReport,
  ImportConflict,
  ImportProgress,
  ImportWarning,
  OnConflict,
  TableCounts,
  TargetTable,
} from "./report.js";
export type { BetterAuthImportDeps, BetterAuthImportOptions } from "./run.js";

/** Imports the source into authd (see the module comment); answers what it did. */
export async function importBetterAuth(
  deps: BetterAuthImportDeps,
  source: BetterAuthSource,
  options: BetterAuthImportOptions,
): Promise<BetterAuthImportReport> {
  return source.snapshot(async (snapshot) => {
    const counts = new Map<TargetTable, TableCounts>();
    for (const table of TARGET_TABLES) {
      counts.set(table, {
        table,
        source: await snapshot.count(SOURCE_OF[table]),
        imported: 0,
        unchanged: 0,
        skipped: 0,
      });
    }
    const run: Run = {
      deps,
      options,
      snapshot,
      label: source.label,
      counts,
      warnings: createWarnings(),
      now: new Date(),
      excluded: { user: new Set(), account: new Set(), organization: new Set() },
    };
    const report = (refused: boolean, conflicts: ImportConflict[]): BetterAuthImportReport => ({
      source: {
        database: source.label,
        schema: source.layout.schema,
        naming: source.layout.naming,
      },
      dryRun: options.dryRun,
      sessions: options.sessions,
      onConflict: options.onConflict,
      refused,
      items: [...counts.values()],
      conflicts,
      warnings: run.warnings.list(),
    });

    const conflicts = await findConflicts(run);
    if (conflicts.length > 0 && options.onConflict === "fail") return report(true, conflicts);
    // The check's counts of rows already there are the writing's to make.
    for (const entry of counts.values()) entry.unchanged = 0;

    await copy(run, userWriter(run));
    await copy(run, accountWriter(run));
    if (snapshot.has("organization")) {
      await copy(run, organizationWriter(run));
      await copy(run, teamWriter(run));
      await copy(run, memberWriter(run));
      await copy(run, teamMemberWriter(run, false));
      if (snapshot.layout.tables.member?.columns.has("teamId")) {
        await copy(run, teamMemberWriter(run, true));
      }
      await copy(run, invitationWriter(run));
    } else {
      for (const table of ["team", "member", "team_member", "invitation"] as const) {
        const entry = counts.get(table) as TableCounts;
        entry.skipped = entry.source;
      }
    }
    if (options.sessions) {
      await copy(run, sessionWriter(run));
    } else {
      const entry = counts.get("session") as TableCounts;
      entry.skipped = entry.source;
    }
    return report(false, conflicts);
  });
}
