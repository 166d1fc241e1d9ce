/**
 * Every SQL statement on the verification table. Identifiers that contain a secret
 * token are stored as `<purpose>:<sha256(token)>`, never the token itself.
 */
import { columns, columnsOf } from "../db/columns.js";
import type { Queryable } from "../db/connection.js";
import { deleteExpiredRows } from "../db/expired.js";

export interface VerificationRow {
  id: string;
  identifier: string;
  value: string;
  expiresAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

const VERIFICATION_COLUMNS = columnsOf<VerificationRow>()([
  "id",
  "identifier",
  "value",
  "expiresAt",
  "createdAt",
  "updatedAt",
]);

export async function insertVerification(
  sql: Queryable,
  row: { id: string; identifier: string; value: string; expiresAt: Date },
): Promise<void> {
  await sql`
    insert into verification (id, identifier, value, expires_at)
    values (${row.id}, ${row.identifier}, ${row.value}, ${row.expiresAt})`;
}

/** Deletes and answers the value under `identifier` (single use), expired or not. */
export async function consumeVerification(
  sql: Queryable,
  identifier: string,
): Promise<VerificationRow | undefined> {
  const [row] = await sql<VerificationRow[]>`
    delete from verification where identifier = ${identifier}
    returning ${columns(sql, VERIFICATION_COLUMNS)}`;
  return row;
}

export async function findVerification(
  sql: Queryable,
  identifier: string,
): Promise<VerificationRow | undefined> {
  const [row] = await sql<VerificationRow[]>`
    select ${columns(sql, VERIFICATION_COLUMNS)} from verification
    where identifier = ${identifier} order by created_at desc limit 1`;
  return row;
}

export async function deleteVerificationsByValue(
  sql: Queryable,
  identifierPrefix: string,
  value: string,
): Promise<void> {
  await sql`
    delete from verification
    where value = ${value} and identifier like ${`${identifierPrefix}%`}`;
}

/** Verification values that expired before `before` (tokens nobody can use any more). */
export async function deleteExpiredVerifications(
  sql: Queryable,
  before: Date = new Date(),
  dryRun = false,
  /** Delete at most this many (a batch of `authd db cleanup --batch-size`). */
  limit?: number,
): Promise<number> {
  return deleteExpiredRows(sql, sql`verification`, before, dryRun, limit);
}
