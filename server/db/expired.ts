/**
 * The cleanup of rows that carry an `expires_at`, the same for every table that has one.
 * Each table's queries.ts calls it with its own table: the statement stays the owner's.
 */
import type { Fragment } from "./columns.js";
import type { Queryable } from "./connection.js";

/**
 * The rows of `table` that expired before `before`: counted on a dry run, deleted
 * otherwise, at most `limit` of them when given (a batch of `authd db cleanup
 * --batch-size`). Answers how many.
 */
export async function deleteExpiredRows(
  sql: Queryable,
  table: Fragment,
  before: Date,
  dryRun: boolean,
  limit: number | undefined,
): Promise<number> {
  if (dryRun) {
    const [row] = await sql<{ count: number }[]>`
      select count(*)::int as count from ${table} where expires_at < ${before}`;
    return row?.count ?? 0;
  }
  const rows =
    limit === undefined
      ? await sql`delete from ${table} where expires_at < ${before}`
      : await sql`
          delete from ${table} where id in (
            select id from ${table} where expires_at < ${before} limit ${limit})`;
  return rows.count;
}
