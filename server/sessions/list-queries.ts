/**
 * Sessions across the platform, a page at a time (`authd session list`), optionally
 * one user's, only unexpired ones, or only those whose active organization is a given
 * one. Pages are keyed by (created_at, id), so rows created or deleted
 * between two pages neither repeat nor shift the rest. The cursor is opaque to callers.
 */
import { columns } from "../db/columns.js";
import type { Queryable } from "../db/connection.js";
import { keysetInstant, keysetTime } from "../db/keyset.js";
import { AuthError } from "../errors.js";
import { SESSION_COLUMNS, type SessionRow } from "./queries.js";

export interface SessionListQuery {
  userId?: string;
  /** Only sessions that have not expired. */
  activeOnly?: boolean;
  /** Only sessions whose active organization is this one. */
  organizationId?: string;
  limit: number;
  /** The `nextCursor` of the previous page. */
  cursor?: string;
}

/** A session with its user's email, which is how an operator recognizes it. */
export type ListedSession = SessionRow & { userEmail: string };

export interface SessionPage {
  sessions: ListedSession[];
  /** Null on the last page. */
  nextCursor: string | null;
}

interface CursorKey {
  /** created_at with microseconds, ISO-8601 UTC (a JS Date would lose them). */
  createdAt: string;
  id: string;
}

const ISO_MICROSECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

function encodeCursor(key: CursorKey): string {
  return Buffer.from(JSON.stringify([key.createdAt, key.id])).toString("base64url");
}

function decodeCursor(cursor: string): CursorKey {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (
      Array.isArray(parsed) &&
      parsed.length === 2 &&
      typeof parsed[0] === "string" &&
      ISO_MICROSECONDS.test(parsed[0]) &&
      typeof parsed[1] === "string"
    ) {
      return { createdAt: parsed[0], id: parsed[1] };
    }
  } catch {
    // refused below
  }
  throw new AuthError("VALIDATION_ERROR", {
    message: "Invalid cursor: pass the nextCursor of the previous page",
  });
}

export async function listSessionsPage(
  sql: Queryable,
  query: SessionListQuery,
): Promise<SessionPage> {
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  const rows = await sql<(ListedSession & { sortKey: string })[]>`
    select ${columns(sql, SESSION_COLUMNS, "s")}, u.email as user_email,
           ${keysetTime(sql, "s.created_at")} as sort_key
    from session s
    join "user" u on u.id = s.user_id
    where true
      ${query.userId === undefined ? sql`` : sql`and s.user_id = ${query.userId}`}
      ${query.activeOnly ? sql`and s.expires_at > now()` : sql``}
      ${
        query.organizationId === undefined
          ? sql``
          : sql`and s.active_organization_id = ${query.organizationId}`
      }
      ${
        after === undefined
          ? sql``
          : sql`and (s.created_at, s.id) < (${keysetInstant(sql, after.createdAt)}, ${after.id})`
      }
    order by s.created_at desc, s.id desc
    limit ${query.limit + 1}`;
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const sessions = page.map(({ sortKey: _sortKey, ...session }) => session);
  return {
    sessions,
    nextCursor:
      rows.length > query.limit && last
        ? encodeCursor({ createdAt: last.sortKey, id: last.id })
        : null,
  };
}
