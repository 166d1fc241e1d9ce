/**
 * list-users and the CLI's `authd user list`: search, filters, sorting, offset paging
 * and keyset paging with an opaque cursor.
 */
import { z } from "zod";
import type { Actor } from "../actor.js";
import { AuthError } from "../errors.js";
import type { UserRow } from "../users/queries.js";
import { authorize } from "./access.js";
import type { AdminDeps } from "./admin.js";
import {
  escapeLike,
  searchUsers,
  searchUsersKeyset,
  USER_COLUMNS,
  type UserColumn,
  type UserKeyset,
} from "./queries.js";

export const listUsersQuery = z.object({
  searchValue: z.string().max(320).optional(),
  searchField: z.enum(["email", "name"]).default("email"),
  searchOperator: z.enum(["contains", "starts_with", "ends_with"]).default("contains"),
  /** A shell glob on the email (`*@spam.example`); the CLI's `--email`. */
  emailGlob: z.string().max(320).optional(),
  /** Only banned (true) or unbanned (false) users; the CLI's `--banned`. */
  banned: z.boolean().optional(),
  limit: z.coerce.number().int().min(0).max(1000).optional(),
  offset: z.coerce.number().int().min(0).optional(),
  sortBy: z.enum(Object.keys(USER_COLUMNS) as [UserColumn, ...UserColumn[]]).optional(),
  sortDirection: z.enum(["asc", "desc"]).default("asc"),
  filterField: z.enum(Object.keys(USER_COLUMNS) as [UserColumn, ...UserColumn[]]).default("email"),
  filterValue: z.union([z.string().max(320), z.boolean(), z.number()]).optional(),
  filterOperator: z.enum(["eq", "ne", "lt", "lte", "gt", "gte", "contains"]).default("eq"),
});
export type ListUsersQuery = z.input<typeof listUsersQuery>;

export interface UserList {
  users: UserRow[];
  total: number;
  limit?: number;
  offset?: number;
}

/** Without a limit at most this many rows come back (as in Better Auth). */
export const DEFAULT_LIST_LIMIT = 100;

function globToLike(glob: string): string {
  return escapeLike(glob).replace(/\*/g, "%").replace(/\?/g, "_");
}

/** The search, filter and ban conditions of a list-users query, ready for the SQL. */
function userConditions(query: z.output<typeof listUsersQuery>) {
  let search: { field: "email" | "name"; pattern: string } | undefined;
  if (query.emailGlob !== undefined) {
    search = { field: "email", pattern: globToLike(query.emailGlob.toLowerCase()) };
  } else if (query.searchValue) {
    const value = escapeLike(query.searchValue);
    const pattern =
      query.searchOperator === "starts_with"
        ? `${value}%`
        : query.searchOperator === "ends_with"
          ? `%${value}`
          : `%${value}%`;
    search = { field: query.searchField, pattern };
  }
  const filter =
    query.filterValue === undefined
      ? undefined
      : {
          field: query.filterField,
          operator: query.filterOperator,
          value: filterValueOf(query.filterField, query.filterOperator, query.filterValue),
        };
  return { search, filter, banned: query.banned };
}

const DATE_COLUMNS: ReadonlySet<UserColumn> = new Set(["createdAt", "updatedAt"]);

/**
 * The value a filter compares with: an instant for the date columns (a date compared as
 * text would put `2026-11-27 02:21:24+00` before `2026-11-27T02:20:00Z`), the text of it
 * for the others; `contains` always looks into the text.
 */
function filterValueOf(
  field: UserColumn,
  operator: z.output<typeof listUsersQuery>["filterOperator"],
  value: string | boolean | number,
): string | boolean | Date {
  const text = typeof value === "number" ? String(value) : value;
  if (!DATE_COLUMNS.has(field) || operator === "contains") return text;
  const instant = typeof text === "string" ? new Date(text) : undefined;
  if (instant === undefined || Number.isNaN(instant.getTime())) {
    throw new AuthError("VALIDATION_ERROR", {
      message: `filterValue must be a date to compare with ${field}`,
      details: [{ path: "filterValue", message: "not a date, e.g. 2026-01-31T12:00:00Z" }],
    });
  }
  return instant;
}

/** list-users: search and filter combine with AND; `total` counts every match. */
export async function listUsers(
  deps: AdminDeps,
  actor: Actor,
  input: ListUsersQuery,
): Promise<UserList> {
  authorize(deps, actor, { user: ["list"] }, "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS");
  const query = listUsersQuery.parse(input);
  const { users, total } = await searchUsers(deps.sql, {
    ...userConditions(query),
    sortBy: query.sortBy ?? "createdAt",
    sortDirection: query.sortDirection,
    limit: query.limit || DEFAULT_LIST_LIMIT,
    offset: query.offset ?? 0,
  });
  return {
    users,
    total,
    ...(query.limit ? { limit: query.limit } : {}),
    ...(query.offset ? { offset: query.offset } : {}),
  };
}

/** Filters only the CLI offers (`authd user list`), beside those of list-users. */
export interface UserPageOptions {
  emailVerified?: boolean;
  /** Created strictly after this instant. */
  createdAfter?: Date;
  /** From a previous page's `nextCursor`: continue after its last user. */
  cursor?: string;
}

export interface UserPage {
  users: UserRow[];
  total: number;
  limit: number;
  offset: number;
  /** Where the next page starts; null on the last page. */
  nextCursor: string | null;
}

/** An opaque cursor: base64url of the JSON `[createdAt, id]` of the last user shown. */
export function encodeUserCursor(position: UserKeyset): string {
  return Buffer.from(JSON.stringify([position.createdAt, position.id])).toString("base64url");
}

const CURSOR_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;

export function decodeUserCursor(cursor: string): UserKeyset {
  let position: unknown;
  try {
    if (!/^[A-Za-z0-9_-]{1,1024}$/.test(cursor)) throw new Error("not base64url");
    position = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    position = undefined;
  }
  if (
    !Array.isArray(position) ||
    position.length !== 2 ||
    typeof position[0] !== "string" ||
    typeof position[1] !== "string" ||
    !CURSOR_TIMESTAMP.test(position[0]) ||
    Number.isNaN(Date.parse(position[0]))
  ) {
    throw new AuthError("VALIDATION_ERROR", {
      message: "Invalid cursor: pass a nextCursor value from a previous page",
      details: [{ path: "cursor", message: "not a cursor this server issued" }],
    });
  }
  return { createdAt: position[0], id: position[1] };
}

/**
 * One page of users in creation order (oldest first) with keyset paging: the same
 * filters as list-users plus the CLI's own. `nextCursor` continues exactly after the
 * last user shown, however the table changes between pages; it is null on the last page.
 */
export async function listUsersPage(
  deps: AdminDeps,
  actor: Actor,
  input: ListUsersQuery,
  options: UserPageOptions = {},
): Promise<UserPage> {
  authorize(deps, actor, { user: ["list"] }, "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS");
  const query = listUsersQuery.parse(input);
  const after = options.cursor === undefined ? undefined : decodeUserCursor(options.cursor);
  const limit = query.limit || DEFAULT_LIST_LIMIT;
  const offset = after ? 0 : (query.offset ?? 0);
  // One row more than the page tells whether another page follows.
  const { users: rows, total } = await searchUsersKeyset(
    deps.sql,
    {
      ...userConditions(query),
      emailVerified: options.emailVerified,
      createdAfter: options.createdAfter,
      limit: limit + 1,
      offset,
    },
    after,
  );
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const nextCursor =
    rows.length > limit && last
      ? encodeUserCursor({ createdAt: last.keysetCreatedAt, id: last.id })
      : null;
  const users = page.map(({ keysetCreatedAt: _position, ...user }) => user);
  return { users, total, limit, offset, nextCursor };
}
