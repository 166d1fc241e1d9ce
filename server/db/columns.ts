/**
 * Column lists for `select` and `returning`, written as the row type's keys: postgres.js
 * turns camelCase names into the columns' snake_case ones (the camel transform,
 * server/db/connection.ts), so a list that misses or misnames a key does not compile and
 * a column added to a table never reaches a row type by surprise.
 */
import type postgres from "postgres";
import type { Queryable } from "./connection.js";

export type Fragment = postgres.Fragment;

type Missing<Row, List extends readonly string[]> = Exclude<keyof Row & string, List[number]>;

/** Every key of Row, once each (checked when compiled): `columnsOf<UserRow>()([…])`. */
export function columnsOf<Row>() {
  return <const List extends readonly (keyof Row & string)[]>(
    list: List & ([Missing<Row, List>] extends [never] ? unknown : { missing: Missing<Row, List> }),
  ): readonly (keyof Row & string)[] => list;
}

/**
 * The columns as a select list, each qualified by `alias` when given (`m.created_at`).
 * A fragment of its own, so postgres.js always writes a plain comma-separated list
 * whatever keyword precedes it in the statement.
 */
export function columns(sql: Queryable, list: readonly string[], alias?: string): Fragment {
  return sql`${sql(alias ? list.map((name) => `${alias}.${name}`) : list)}`;
}
