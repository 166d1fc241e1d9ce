/**
 * One run of the import: what it was given, the source's snapshot, the counts and
 * warnings it gathers, and the rows it must leave out; with the lookups its steps share.
 */
import type { AuthdConfig } from "../../config.js";
import type { Sql, TransactionSql } from "../../db/connection.js";
import type { TokenCipher } from "../../social/token-crypto.js";
import type {
  ImportConflict,
  ImportProgress,
  ImportWarnings,
  OnConflict,
  TableCounts,
  TargetTable,
} from "./report.js";
import { text } from "./rows.js";
import type { SourceRow, SourceSnapshot } from "./source.js";

export interface BetterAuthImportOptions {
  sessions: boolean;
  onConflict: OnConflict;
  /** Rows per transaction. */
  batchSize: number;
  /** Under --dry-run the caller rolls everything back; the report says "would". */
  dryRun: boolean;
  onProgress?: (progress: ImportProgress) => void;
}

export interface BetterAuthImportDeps {
  sql: Sql;
  config: AuthdConfig;
  /** Seals provider tokens as social sign-in stores them. */
  cipher: TokenCipher;
}

export interface Run {
  deps: BetterAuthImportDeps;
  options: BetterAuthImportOptions;
  snapshot: SourceSnapshot;
  label: string;
  counts: Map<TargetTable, TableCounts>;
  warnings: ImportWarnings;
  /** When the run started: sessions that expired before are not brought. */
  now: Date;
  /** Source ids of conflicting rows: never written, nor anything that refers to them. */
  excluded: Record<ImportConflict["table"], Set<string>>;
}

/** Of these ids, the ones `find` finds in authd, but for those `excluded` names. */
export async function presentIds(
  find: (tx: TransactionSql, ids: string[]) => Promise<Array<{ id: string }>>,
  tx: TransactionSql,
  ids: Array<string | null>,
  excluded: ReadonlySet<string> = new Set(),
): Promise<Set<string>> {
  const wanted = [...new Set(ids)].filter((id): id is string => id !== null && !excluded.has(id));
  return new Set((await find(tx, wanted)).map((row) => row.id));
}

export function normalizedEmail(row: SourceRow): string {
  return (text(row, "email") ?? "").trim().toLowerCase();
}

export function providerKey(row: SourceRow): string {
  return `${text(row, "providerId")}:${text(row, "accountId")}`;
}
