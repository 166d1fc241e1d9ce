/**
 * `authd db cleanup`: deletes expired sessions and verification values (after Kratos'
 * `cleanup sql`). get-session removes the expired sessions it meets; this
 * removes the rest, e.g. from a nightly job.
 */
import type { Command } from "commander";
import { recordAuditEvent } from "../../server/audit/audit.js";
import type { TransactionSql } from "../../server/db/connection.js";
import { transaction } from "../../server/db/transaction.js";
import { deleteExpiredSessions } from "../../server/sessions/queries.js";
import { deleteExpiredVerifications } from "../../server/verification/queries.js";
import { emit, type GlobalOptions } from "../output.js";
import { withDatabase } from "../with-database.js";
import { parseDuration, wholeNumberUpTo } from "./user-flags.js";

interface CleanupFlags {
  olderThan: number;
  batchSize: number;
  dryRun?: boolean;
}

const parseBatchSize = wholeNumberUpTo(100_000);

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
    .option(
      "--batch-size <n>",
      "rows deleted per transaction, so a large cleanup never holds long locks",
      parseBatchSize,
      1000,
    )
    .action(async (flags: CleanupFlags, command: Command) => {
      const globals = command.optsWithGlobals<GlobalOptions>();
      const before = new Date(Date.now() - flags.olderThan * 1000);
      const dryRun = flags.dryRun === true;
      await withDatabase(globals, async ({ db }) => {
        const counts = { sessions: 0, verifications: 0 };
        if (dryRun) {
          counts.sessions = await deleteExpiredSessions(db.sql, before, true);
          counts.verifications = await deleteExpiredVerifications(db.sql, before, true);
        } else {
          // One transaction per batch: each commits what it deleted, and a rerun after
          // an interruption simply goes on.
          const drain = async (removeBatch: (tx: TransactionSql) => Promise<number>) => {
            let total = 0;
            for (;;) {
              const removed = await transaction(db.sql, removeBatch);
              total += removed;
              if (removed < flags.batchSize) return total;
            }
          };
          counts.sessions = await drain((tx) =>
            deleteExpiredSessions(tx, before, false, flags.batchSize),
          );
          counts.verifications = await drain((tx) =>
            deleteExpiredVerifications(tx, before, false, flags.batchSize),
          );
          await recordAuditEvent(db.sql, {
            action: "db.cleanup",
            actorType: "cli",
            details: { ...counts, expiredBefore: before.toISOString() },
          });
        }
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
