/**
 * The SQL only the platform admin needs: searching and counting users, writing the
 * admin-only user fields (role, ban, email), and every session of a user, expired ones
 * included. Plain user and session statements stay in users/ and sessions/.
 */
import { columns } from "../db/columns.js";
import type { Queryable } from "../db/connection.js";
import { keysetInstant, keysetTime } from "../db/keyset.js";
import type { UserRow } from "../users/queries.js";
import { USER_ROW_COLUMNS } from "../users/users.js";

/** Columns list-users may sort and filter by (identifiers are never taken from input). */
export const USER_COLUMNS = {
  id: "id",
  email: "email",
  name: "name",
  role: "role",
  banned: "banned",
  emailVerified: "email_verified",
  createdAt: "created_at",
  updatedAt: "updated_at",
} as const;
export type UserColumn = keyof typeof USER_COLUMNS;

export interface UserSearch {
  /** A LIKE pattern (already escaped) on `field`. */
  search?: { field: "email" | "name"; pattern: string };
  filter?: {
    field: UserColumn;
    operator: "eq" | "ne" | "lt" | "lte" | "gt" | "gte" | "contains";
    /** An instant for the date columns (createdAt, updatedAt), except with `contains`. */
    value: string | boolean | Date;
  };
  /** The CLI's `--banned`. */
  banned?: boolean;
  /** The CLI's `--verified` / `--no-verified`. */
  emailVerified?: boolean;
  /** The CLI's `--created-after`: created strictly after this instant. */
  createdAfter?: Date;
  sortBy: UserColumn;
  sortDirection: "asc" | "desc";
  limit: number;
  offset: number;
}

/**
 * Keyset position: rows after (createdAt, id) in ascending order. `createdAt` is the
 * database's text of the timestamp, microseconds included (a JS Date keeps only
 * milliseconds, which would repeat rows created within the same millisecond).
 */
export interface UserKeyset {
  createdAt: string;
  id: string;
}

/** A user row with the keyset position it sorts at. */
export type KeyedUserRow = UserRow & { keysetCreatedAt: string };

/** `%`, `_` and `\` taken literally inside a LIKE pattern. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** The WHERE conditions of a search (everything but order and page). */
type UserConditions = Pick<
  UserSearch,
  "search" | "filter" | "banned" | "emailVerified" | "createdAfter"
>;

function conditions(sql: Queryable, query: UserConditions) {
  const search = query.search
    ? sql`and ${sql(USER_COLUMNS[query.search.field])} ilike ${query.search.pattern}`
    : sql``;
  const bannedOnly = query.banned === undefined ? sql`` : sql`and banned = ${query.banned}`;
  const verified =
    query.emailVerified === undefined ? sql`` : sql`and email_verified = ${query.emailVerified}`;
  const created =
    query.createdAfter === undefined ? sql`` : sql`and created_at > ${query.createdAfter}`;
  const own = sql`${search} ${bannedOnly} ${verified} ${created}`;
  const filter = query.filter;
  if (!filter) return own;
  const column = sql(USER_COLUMNS[filter.field]);
  const value = filter.value;
  // An instant compares as one, to the millisecond an answer shows; anything else as
  // the column's text, as the value came.
  const left =
    value instanceof Date ? sql`date_trunc('milliseconds', ${column})` : sql`${column}::text`;
  const right = value instanceof Date ? value : String(value);
  const comparison =
    filter.operator === "contains"
      ? sql`and ${column}::text ilike ${`%${escapeLike(String(value))}%`}`
      : filter.operator === "eq"
        ? sql`and ${left} = ${right}`
        : filter.operator === "ne"
          ? sql`and ${left} is distinct from ${right}`
          : filter.operator === "lt"
            ? sql`and ${left} < ${right}`
            : filter.operator === "lte"
              ? sql`and ${left} <= ${right}`
              : filter.operator === "gt"
                ? sql`and ${left} > ${right}`
                : sql`and ${left} >= ${right}`;
  return sql`${own} ${comparison}`;
}

export async function searchUsers(
  sql: Queryable,
  query: UserSearch,
): Promise<{ users: UserRow[]; total: number }> {
  const where = conditions(sql, query);
  const direction = query.sortDirection === "desc" ? sql`desc` : sql`asc`;
  const users = await sql<UserRow[]>`
    select ${columns(sql, USER_ROW_COLUMNS)} from "user" where true ${where}
    order by ${sql(USER_COLUMNS[query.sortBy])} ${direction}, id ${direction}
    limit ${query.limit} offset ${query.offset}`;
  const [count] = await sql<{ total: number }[]>`
    select count(*)::int as total from "user" where true ${conditions(sql, query)}`;
  return { users, total: count?.total ?? 0 };
}

/**
 * One page in (createdAt, id) order after `after` (from the start without it): at most
 * `limit` rows, each with its keyset position; `total` counts every match (the position
 * aside). `offset` applies only when there is no `after`.
 */
export async function searchUsersKeyset(
  sql: Queryable,
  query: Omit<UserSearch, "sortBy" | "sortDirection">,
  after: UserKeyset | undefined,
): Promise<{ users: KeyedUserRow[]; total: number }> {
  const position = after
    ? sql`and (created_at, id) > (${keysetInstant(sql, after.createdAt)}, ${after.id})`
    : sql``;
  const users = await sql<KeyedUserRow[]>`
    select ${columns(sql, USER_ROW_COLUMNS)}, ${keysetTime(sql, "created_at")} as keyset_created_at
    from "user" where true ${conditions(sql, query)} ${position}
    order by created_at asc, id asc
    limit ${query.limit} offset ${after ? 0 : query.offset}`;
  const [count] = await sql<{ total: number }[]>`
    select count(*)::int as total from "user" where true ${conditions(sql, query)}`;
  return { users, total: count?.total ?? 0 };
}
