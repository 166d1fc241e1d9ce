/**
 * `authd db cleanup`: deletes expired sessions and verification values (reference/cli.md,
 * after Kratos' `cleanup sql`). get-session removes the expired sessions it meets; this
 * removes the rest, e.g. from a nightly job.
 */
import type { Command } from "commander";
import { recordAuditEvent } from "../../server/audit/audit.js";
import { transaction } from "../../server/db/transaction.js";
import { deleteExpiredSessions } from "../../server/sessions/queries.js";
import { deleteExpiredVerifications } from "../../server/verification/queries.js";
import { emit, type GlobalOptions } from "../output.js";
import { withDatabase } from "../with-database.js";
import { parseDuration } from "./user.js";

interface CleanupFlags {
  olderThan: number;
  dryRun?: boolean;
}

/** A duration as `parseDuration` reads it, or zero. */
function parseAge(value: string): number {
  return /^0+\s*[smhdw]?$/.test(value.trim()) ? 0 : parseDuration(value);
}

export function registerCleanup(db: Command): void {
  db.command("cleanup")
    .description("delete expired sessions and verification values")
    .option(
      "--older-than <age>",
      "only what expired at least this long ago (30m, 12h, 7d)",
      parseAge,
      0,
    )
    .action(async (flags: CleanupFlags, command: Command) => {
      const globals = command.optsWithGlobals<GlobalOptions>();
      const before = new Date(Date.now() - flags.olderThan * 1000);
      const dryRun = flags.dryRun === true;
      await withDatabase(globals, async ({ db }) => {
        const counts = await transaction(db.sql, async (tx) => {
          const sessions = await deleteExpiredSessions(tx, before, dryRun);
          const verifications = await deleteExpiredVerifications(tx, before, dryRun);
          if (!dryRun) {
            await recordAuditEvent(tx, {
              action: "db.cleanup",
              actorType: "cli",
              details: { sessions, verifications, expiredBefore: before.toISOString() },
            });
          }
          return { sessions, verifications };
        });
        emit({ dryRun, expiredBefore: before.toISOString(), ...counts }, globals, {
          human() {
            const verb = dryRun ? "Would delete" : "Deleted";
            process.stdout.write(
              `${verb} ${counts.sessions} expired session(s) and ${counts.verifications} expired verification value(s).\n`,
            );
          },
        });
      });
    });
}
