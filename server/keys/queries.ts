/** Every SQL statement on the jwks table: the keys that sign tokens for other services. */
import { columns, columnsOf } from "../db/columns.js";
import type { Queryable } from "../db/connection.js";

export interface KeyRow {
  /** The key id (`kid`) tokens name in their header. */
  id: string;
  /** The public JWK as JSON text. */
  publicKey: string;
  /** The private JWK, sealed under the server secret (server/crypto/seal.ts). */
  privateKey: string;
  createdAt: Date;
  /** Null while the key signs; the end of its grace period once retired. */
  expiresAt: Date | null;
}

const KEY_COLUMNS = columnsOf<KeyRow>()([
  "id",
  "publicKey",
  "privateKey",
  "createdAt",
  "expiresAt",
]);

/**
 * The advisory lock every key change takes, so two instances starting together (or a
 * rotation racing a start) create one signing key, not two. An arbitrary fixed number.
 */
const KEYS_LOCK = 7_316_402_118;

/** Takes the key lock until the end of the transaction `tx`. */
export async function lockKeys(tx: Queryable): Promise<void> {
  await tx`select pg_advisory_xact_lock(${KEYS_LOCK}::bigint)`;
}

/** Every key, newest first (the start-up check and `authd secret list`). */
export function listAllKeys(sql: Queryable): Promise<KeyRow[]> {
  return sql<KeyRow[]>`
    select ${columns(sql, KEY_COLUMNS)} from jwks order by created_at desc, id`;
}

/** Keys still published: the unretired ones and those within their grace, newest first. */
export function listLiveKeys(sql: Queryable): Promise<KeyRow[]> {
  return sql<KeyRow[]>`
    select ${columns(sql, KEY_COLUMNS)} from jwks
    where expires_at is null or expires_at > now()
    order by created_at desc, id`;
}

/** The newest unretired key of `algorithm`: the one that signs. */
export async function findSigningKey(
  sql: Queryable,
  algorithm: string,
): Promise<KeyRow | undefined> {
  const [row] = await sql<KeyRow[]>`
    select ${columns(sql, KEY_COLUMNS)} from jwks
    where expires_at is null and public_key::jsonb ->> 'alg' = ${algorithm}
    order by created_at desc, id
    limit 1`;
  return row;
}

export async function insertKey(
  sql: Queryable,
  key: Pick<KeyRow, "id" | "publicKey" | "privateKey">,
): Promise<KeyRow> {
  const [row] = await sql<KeyRow[]>`
    insert into jwks (id, public_key, private_key)
    values (${key.id}, ${key.publicKey}, ${key.privateKey})
    returning ${columns(sql, KEY_COLUMNS)}`;
  if (!row) throw new Error("insert into jwks returned no row");
  return row;
}

/** Retires every unretired key but `keepId`: each stays published for `graceSeconds`. */
export function retireKeys(
  sql: Queryable,
  keepId: string,
  graceSeconds: number,
): Promise<Pick<KeyRow, "id" | "expiresAt">[]> {
  return sql<Pick<KeyRow, "id" | "expiresAt">[]>`
    update jwks set expires_at = now() + make_interval(secs => ${graceSeconds})
    where expires_at is null and id <> ${keepId}
    returning id, expires_at`;
}

/** Stores a key's private part sealed anew (under the newest secret). */
export async function updateSealedKey(sql: Queryable, id: string, sealed: string): Promise<void> {
  await sql`update jwks set private_key = ${sealed} where id = ${id}`;
}

/** Deletes the keys whose grace has ended; an unretired key is never deleted. */
export function deleteExpiredKeys(sql: Queryable): Promise<Pick<KeyRow, "id" | "expiresAt">[]> {
  return sql<Pick<KeyRow, "id" | "expiresAt">[]>`
    delete from jwks where expires_at is not null and expires_at <= now()
    returning id, expires_at`;
}
