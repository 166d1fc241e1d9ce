/**
 * Readers of a table, declared once in that table's queries.ts: one row by a condition,
 * a count by a condition, and rows in bulk by a key column. The statements that shape or
 * write rows stay written out in full beside them. The table's name (and the key
 * column's) is a fragment built once per pool, like the column lists.
 */
import { type ColumnList, columns, type Fragment, fixedText, quotedName } from "./columns.js";
import type { Queryable } from "./connection.js";

/** The reader of one row of a table, as `rowReader` declares it. */
export type RowReader<Row> = (
  sql: Queryable,
  where: Fragment,
  lock?: Fragment,
) => Promise<Row | undefined>;

/**
 * The reader of one row of `table` by a condition: the first row of
 * `select <list> from <table> where <where> <lock>`, with a locking clause (`for update`,
 * `for share`) when given. Each table's queries.ts declares its own, once.
 */
export function rowReader<Row extends object>(table: string, list: ColumnList): RowReader<Row> {
  const from = quotedName(table);
  return async (sql, where, lock) => {
    const [row] = await sql<Row[]>`
      select ${columns(sql, list)} from ${fixedText(sql, from)}
      where ${where} ${lock ?? fixedText(sql, "")}`;
    return row;
  };
}

/** The number of rows of `table` that `where` finds, as `rowCounter` declares it. */
export type RowCounter = (sql: Queryable, where: Fragment) => Promise<number>;

/** The counter of the rows of `table` by a condition (`select count(*) … where <where>`). */
export function rowCounter(table: string): RowCounter {
  const from = quotedName(table);
  return async (sql, where) => {
    const [row] = await sql<{ count: number }[]>`
      select count(*)::int as count from ${fixedText(sql, from)} where ${where}`;
    return row?.count ?? 0;
  };
}

/**
 * The reader of the rows of `table` whose `key` column holds one of the values given (and
 * that meet `also`, when given): how the seed and the import read rows in bulk by their
 * natural keys. No values, no round trip.
 */
export function keysReader<Row extends object>(
  table: string,
  list: ColumnList,
  key: string,
  also?: (sql: Queryable) => Fragment,
): (sql: Queryable, values: string[]) => Promise<Row[]> {
  const from = quotedName(table);
  const column = quotedName(key);
  return async (sql, values) => {
    if (values.length === 0) return [];
    return sql<Row[]>`
      select ${columns(sql, list)} from ${fixedText(sql, from)}
      where ${fixedText(sql, column)} = any(${values}::text[])
      ${also ? sql`and ${also(sql)}` : fixedText(sql, "")}`;
  };
}
