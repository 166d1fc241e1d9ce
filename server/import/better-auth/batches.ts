/**
 * Writing one authd table from one model's pages: each page is prepared by the table's
 * writer, the rows authd already holds (by id) are left as they are, the rest inserted,
 * one transaction per page with one audit event for a page that wrote anything.
 */
import { recordAuditEvent } from "../../audit/audit.js";
import type { TransactionSql } from "../../db/connection.js";
import { transaction } from "../../db/transaction.js";
import type { TableCounts, TargetTable } from "./report.js";
import { presentIds, type Run } from "./run.js";
import type { SourceModel, SourceRow } from "./source.js";

/** A page of source rows made ready to write, and what was left out and why. */
export interface Prepared<T> {
  rows: T[];
  /** Rows of the page that cannot be written (repeats, missing parents, expired). */
  skipped: number;
  /** Source rows of another model that the page does not stand for (derived rows). */
  ignored?: number;
  /** Warnings about rows, kept only for those that are written. */
  notes: Array<{ id: string; message: string; example?: string }>;
}

/** How one authd table is written from one model's pages. */
export interface TableWriter<T extends { id: string }> {
  table: TargetTable;
  model: SourceModel;
  prepare(tx: TransactionSql, page: SourceRow[]): Promise<Prepared<T>>;
  present(tx: TransactionSql, ids: string[]): Promise<Array<{ id: string }>>;
  insert(tx: TransactionSql, rows: T[]): Promise<string[]>;
  /** Rows derived from another model's (members' own team): the source count grows as read. */
  derived?: boolean;
}

/** Writes one model's pages into one table, a transaction per page. */
export async function copy<T extends { id: string }>(
  run: Run,
  writer: TableWriter<T>,
): Promise<void> {
  const counts = run.counts.get(writer.table) as TableCounts;
  const { sql } = run.deps;
  let done = 0;
  for await (const page of run.snapshot.pages(writer.model, run.options.batchSize)) {
    let outcome: { prepared: Prepared<T>; inserted: string[]; unchanged: number };
    try {
      outcome = await transaction(sql, async (tx) => {
        const prepared = await writer.prepare(tx, page);
        const there = await presentIds(
          writer.present,
          tx,
          prepared.rows.map((row) => row.id),
        );
        const fresh = prepared.rows.filter((row) => !there.has(row.id));
        const inserted = await writer.insert(tx, fresh);
        if (inserted.length > 0) {
          await recordAuditEvent(tx, {
            action: "import.better_auth",
            actorType: "cli",
            targetType: writer.table,
            details: {
              source: run.label,
              table: writer.table,
              imported: inserted.length,
              unchanged: there.size,
              skipped: page.length - (prepared.ignored ?? 0) - inserted.length - there.size,
              firstId: page[0]?.id,
              lastId: page.at(-1)?.id,
            },
          });
        }
        return { prepared, inserted, unchanged: there.size };
      });
    } catch (error) {
      if (error instanceof Error) {
        error.message = `importing ${writer.table} rows ${page[0]?.id} to ${page.at(-1)?.id}: ${error.message} (the rows written before stay; run the same command again to finish: rows already imported are recognized by id)`;
      }
      throw error;
    }
    const considered = page.length - (outcome.prepared.ignored ?? 0);
    if (writer.derived) counts.source += considered;
    counts.imported += outcome.inserted.length;
    counts.unchanged += outcome.unchanged;
    counts.skipped += considered - outcome.inserted.length - outcome.unchanged;
    const written = new Set(outcome.inserted);
    for (const note of outcome.prepared.notes) {
      if (written.has(note.id))
        run.warnings.add(writer.table, note.message, note.example ?? note.id);
    }
    done += page.length;
    run.options.onProgress?.({
      step: "write",
      table: writer.table,
      done,
      total: writer.derived ? done : counts.source,
    });
  }
}
