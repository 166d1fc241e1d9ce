/**
 * What `authd import better-auth` answers: per authd table, the rows the source has and
 * what became of them, the conflicts found, and warnings about rows brought in a form
 * authd would not have written itself, gathered by kind.
 */
import type { ColumnNaming, SourceModel } from "./source.js";

/** authd's tables, in the order they are written. */
export const TARGET_TABLES = [
  "user",
  "account",
  "organization",
  "team",
  "member",
  "team_member",
  "invitation",
  "session",
] as const;
export type TargetTable = (typeof TARGET_TABLES)[number];

/** Where each authd table's rows come from. */
export const SOURCE_OF: Record<TargetTable, SourceModel> = {
  user: "user",
  account: "account",
  organization: "organization",
  team: "team",
  member: "member",
  team_member: "teamMember",
  invitation: "invitation",
  session: "session",
};

export type OnConflict = "fail" | "skip";

export interface TableCounts {
  table: TargetTable;
  /** Rows in the source. */
  source: number;
  /** Written by this run. */
  imported: number;
  /** Already in authd under the same id (an earlier run wrote them). */
  unchanged: number;
  /** Not written: a conflict, a row whose user or organization was not brought, an expired session. */
  skipped: number;
}

export interface ImportConflict {
  table: "user" | "organization" | "account";
  /** What collides: an email, a slug, or a provider identity as `<providerId>:<accountId>`. */
  key: string;
  sourceId: string;
  /** The authd row that holds the key; absent when the source itself repeats it. */
  authdId?: string;
  reason: string;
}

/** Something brought in a form authd would not have written, once per kind with examples. */
export interface ImportWarning {
  table: TargetTable;
  message: string;
  count: number;
  /** The first few source ids (or slugs) concerned. */
  examples: string[];
}

export interface BetterAuthImportReport {
  source: { database: string; schema: string; naming: ColumnNaming };
  dryRun: boolean;
  /** Whether live sessions were brought (`--sessions`). */
  sessions: boolean;
  onConflict: OnConflict;
  /** Conflicts were found under onConflict "fail": nothing was written. */
  refused: boolean;
  items: TableCounts[];
  conflicts: ImportConflict[];
  warnings: ImportWarning[];
}

export interface ImportProgress {
  /** `check`: looking for conflicts; `write`: writing rows. */
  step: "check" | "write";
  table: TargetTable;
  done: number;
  total: number;
}

const EXAMPLES = 5;

/** Warnings of one run, gathered by table and message. */
export function createWarnings() {
  const byKind = new Map<string, ImportWarning>();
  return {
    add(table: TargetTable, message: string, example: string) {
      const key = `${table}\u0000${message}`;
      const warning = byKind.get(key) ?? { table, message, count: 0, examples: [] };
      warning.count += 1;
      if (warning.examples.length < EXAMPLES) warning.examples.push(example);
      byKind.set(key, warning);
    },
    list: () => [...byKind.values()],
  };
}

export type ImportWarnings = ReturnType<typeof createWarnings>;
