/**
 * One Better Auth row as authd stores it: values read loosely (a boolean may come as
 * 0/1, a date as text), defaults where Better Auth allows nulls that authd does not, and
 * what authd must not store as it is (metadata that is not a JSON object) reported.
 */
import type { SourceRow } from "./source.js";

export function text(row: SourceRow, field: string): string | null {
  const value = row[field];
  if (value === null || value === undefined) return null;
  return typeof value === "string" ? value : String(value);
}

export function flag(row: SourceRow, field: string): boolean | null {
  const value = row[field];
  if (value === null || value === undefined) return null;
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return value !== 0;
  return ["true", "t", "1", "yes"].includes(String(value).toLowerCase());
}

export function date(row: SourceRow, field: string): Date | null {
  const value = row[field];
  if (value === null || value === undefined) return null;
  const parsed = value instanceof Date ? value : new Date(String(value));
  return Number.isNaN(parsed.getTime()) ? null : parsed;
}

/** The row's position among the rows sharing its unique key (1: the first). */
export function rank(row: SourceRow): number {
  return typeof row.rank === "number" ? row.rank : 1;
}

/**
 * Organization metadata: Better Auth keeps it as JSON text. Answers the object, or the
 * reason it cannot be kept (then the organization is imported without it).
 */
export function metadataOf(
  row: SourceRow,
): { metadata: Record<string, unknown> | null } | { problem: string } {
  const value = row.metadata;
  if (value === null || value === undefined || value === "") return { metadata: null };
  let parsed: unknown = value;
  if (typeof value === "string") {
    try {
      parsed = JSON.parse(value);
    } catch {
      return { problem: "metadata is not valid JSON" };
    }
  }
  if (parsed === null) return { metadata: null };
  if (typeof parsed !== "object" || Array.isArray(parsed)) {
    return { problem: "metadata is not a JSON object" };
  }
  return { metadata: parsed as Record<string, unknown> };
}
