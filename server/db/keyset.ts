/**
 * Keyset paging on a creation time: a row's position is its timestamp written out to
 * the microsecond, and reading a position back must keep every digit, or rows created
 * within one millisecond repeat on every page or are skipped.
 */
import type { Fragment } from "./columns.js";
import type { Queryable } from "./connection.js";

/** The timestamp column `column` as a position's text: UTC, to the microsecond. */
export function keysetTime(sql: Queryable, column: string): Fragment {
  return sql`to_char(${sql(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

/**
 * A position's text as an instant. It goes in as text and is cast in SQL: a parameter
 * PostgreSQL types as timestamptz is sent by postgres.js as a JS Date, which keeps only
 * milliseconds.
 */
export function keysetInstant(sql: Queryable, position: string): Fragment {
  return sql`${position}::text::timestamptz`;
}
