/**
 * Column lists for `select` and `returning`, written as the row type's keys: a list that
 * misses or misnames a key does not compile, and a column added to a table never reaches
 * a row type by surprise. Rows come back camelCased by the connection's transform
 * (server/db/connection.ts); the list's SQL uses the columns' snake_case names.
 */
import type postgres from "postgres";
import { fixedFragmentsOf } from "./clients.js";
import type { Queryable } from "./connection.js";

export type Fragment = postgres.Fragment;

type Missing<Row, List extends readonly string[]> = Exclude<keyof Row & string, List[number]>;

/** A table's columns as a row type names them, with their SQL text written once. */
export interface ColumnList {
  readonly names: readonly string[];
  /** The snake_case column names, in the order of `names`. */
  readonly columns: readonly string[];
  /** `"id", "user_id", …`: the unqualified select list. */
  readonly text: string;
}

const PLAIN_NAME = /^[a-z_][a-z0-9_]*$/;

/** The same camelCase to snake_case rule as the connection's column transform. */
function snakeCase(name: string): string {
  return name.replace(/([A-Z])/g, "_$1").toLowerCase();
}

/** Every key of Row, once each (checked when compiled): `columnsOf<UserRow>()([…])`. */
export function columnsOf<Row>() {
  return <const List extends readonly (keyof Row & string)[]>(
    list: List & ([Missing<Row, List>] extends [never] ? unknown : { missing: Missing<Row, List> }),
  ): ColumnList => {
    const names = list as readonly string[];
    const columns = names.map(snakeCase);
    for (const column of columns) {
      if (!PLAIN_NAME.test(column)) throw new Error(`not a plain column name: ${column}`);
    }
    return { names, columns, text: columns.map((column) => `"${column}"`).join(", ") };
  };
}

/**
 * The columns as a select list, each qualified by `alias` when given (`"m"."created_at"`).
 *
 * This and quotedName below (the table readers' names) are the only SQL text authd hands
 * postgres.js: text made only from the row types' own column names, the tables' names
 * (each checked to be a plain lower-case identifier) and aliases written in the
 * statements, never from input. Passing the names as identifiers instead makes
 * postgres.js convert and quote every name again each time a statement runs, which was
 * the largest cost of composing the busiest statements.
 */
export function columns(sql: Queryable, list: ColumnList, alias?: string): Fragment {
  // "*" for no alias: not a plain name, so no alias can take its place.
  return fixedFragment(sql, list, alias ?? "*", () => {
    if (alias === undefined) return sql.unsafe(list.text);
    if (!PLAIN_NAME.test(alias)) throw new Error(`not a plain alias: ${alias}`);
    return sql.unsafe(list.columns.map((column) => `"${alias}"."${column}"`).join(", "));
  });
}

/**
 * A fragment that carries no value, built the first time a pool asks for it (`build`)
 * and then reused by every statement of the pool and its transactions, known by what it
 * was built from (`from`: a column list, a module's steps) and a name. Building a
 * fragment is costly on Node 20 and postgres.js walks it on every statement anyway
 * (docs/architecture.md, "Fragments are built once"). Outside a pool (one client, as some
 * tests and scripts use) it is built each time.
 */
export function fixedFragment(
  sql: Queryable,
  from: object,
  name: string,
  build: () => Fragment,
): Fragment {
  const fixed = fixedFragmentsOf(sql);
  if (!fixed) return build();
  let named = fixed.get(from);
  if (!named) {
    named = new Map();
    fixed.set(from, named);
  }
  let fragment = named.get(name);
  if (!fragment) {
    fragment = build();
    named.set(name, fragment);
  }
  return fragment;
}

/**
 * Fixed SQL text without values (a quoted table or column name, or nothing) as a
 * fragment, one per pool for each text: the text alone says what the fragment is.
 */
export function fixedText(sql: Queryable, text: string): Fragment {
  return fixedFragment(sql, fixedText, text, () => sql.unsafe(text));
}

/** A table or column name as SQL text: checked plain, then quoted (`"user"` is a keyword). */
export function quotedName(name: string): string {
  if (!PLAIN_NAME.test(name)) throw new Error(`not a plain name: ${name}`);
  return `"${name}"`;
}

/**
 * The values of a multi-row INSERT of `rows` into the list's columns (every row holds
 * each of them): `insert into t ${insertValues(sql, rows, LIST)}`.
 */
export function insertValues(
  sql: Queryable,
  rows: readonly Record<string, unknown>[],
  list: ColumnList,
): Fragment {
  // The list was checked against the row type where it was made; postgres.js types the
  // rows as serializable objects and the names as their keys.
  const values = rows as unknown as Record<string, string | null>[];
  return sql(values, ...list.names) as unknown as Fragment;
}
