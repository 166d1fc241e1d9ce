/**
 * `authd db cleanup`: deletes expired sessions and verification values (reference/cli.md,
 * after Kratos' `cleanup sql`). get-session removes the expired sessions it meets; this
 * removes the rest, e.g. from a nightly job.
 */
import type { Command } from "commander";
import { recordAuditEvent } from "../../server/audit/audit.js";
import { loadConfig } from "../../server/config.js";
import { openDatabase } from "../../server/db/connection.js";
import { transaction } from "../../server/db/transaction.js";
import { deleteExpiredSessions } from "../../server/sessions/queries.js";
import { deleteExpiredVerifications } from "../../server/verification/queries.js";
import { type GlobalOptions, printJson, wantsJson } from "../output.js";
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
      const loaded = await loadConfig({ configPath: globals.config });
      const database = await openDatabase(loaded, { max: 2 });
      try {
        const dryRun = flags.dryRun === true;
        const counts = await transaction(database.sql, async (tx) => {
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
        if (wantsJson(globals)) {
          printJson({ dryRun, expiredBefore: before.toISOString(), ...counts });
        } else {
          const verb = dryRun ? "Would delete" : "Deleted";
          process.stdout.write(
            `${verb} ${counts.sessions} expired session(s) and ${counts.verifications} expired verification value(s).\n`,
          );
        }
      } finally {
        await database.close();
      }
    });
}
