/**
 * SQL fragments for answers that PostgreSQL builds as JSON text, sent as they are
 * (get-full-organization, list organizations): the wire format must match what
 * JSON.stringify makes of the same rows in Node.
 */
import type { Fragment } from "./columns.js";
import type { Queryable } from "./connection.js";

/** JavaScript's Date#toISOString, in SQL (milliseconds, UTC, `Z`), of a column fragment. */
export const isoTimestamp = (sql: Queryable, column: Fragment): Fragment =>
  sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** organizationResponse (server/organization/organization.ts) as a json_build_object of `o`. */
export const organizationJson = (sql: Queryable): Fragment =>
  sql`json_build_object('id', o.id, 'name', o.name, 'slug', o.slug,
    'logo', o.logo, 'metadata', o.metadata,
    'createdAt', ${isoTimestamp(sql, sql`o.created_at`)})`;

/**
 * PostgreSQL's JSON text spaced the way PostgreSQL writes it (`{"id" : …}`, jsonb's
 * `{"a": 1}`), made into what JSON.stringify writes, so every endpoint answers the
 * same compact JSON. Built answers are kept and served many times: this runs once per
 * build, not per request.
 */
export function compactJson(text: string): string {
  return JSON.stringify(JSON.parse(text));
}
