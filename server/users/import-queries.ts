/**
 * The SQL of bulk user import (`authd user import`) and of upgrading a stored password
 * hash at sign-in. Plain user and account statements stay in users/ and accounts/queries.
 */
import { CREDENTIAL_PROVIDER } from "../accounts/queries.js";
import type { Queryable } from "../db/connection.js";

export interface ImportedUserRow {
  id: string;
  email: string;
  name: string;
  image: string | null;
  emailVerified: boolean;
  role: string | null;
  createdAt: Date;
}

/**
 * One multi-row INSERT (callers keep batches to a few hundred rows). An email taken in
 * the meantime is left alone: the answer holds only the rows that went in.
 */
export async function insertImportedUsers(
  sql: Queryable,
  users: ImportedUserRow[],
): Promise<Array<{ id: string; email: string }>> {
  if (users.length === 0) return [];
  const rows = users.map((user) => {
    const createdAt = user.createdAt.toISOString();
    return { ...user, createdAt, updatedAt: createdAt };
  });
  const values = sql(
    rows,
    "id",
    "email",
    "name",
    "image",
    "emailVerified",
    "role",
    "createdAt",
    "updatedAt",
  );
  return sql<Array<{ id: string; email: string }>>`
    insert into "user" ${values}
    on conflict (email) do nothing
    returning id, email`;
}

/**
 * Replaces a credential hash only while it is still the one that was verified, so a
 * password changed in between is never overwritten with the old one.
 */
export async function replacePasswordHash(
  sql: Queryable,
  userId: string,
  previous: string,
  next: string,
): Promise<boolean> {
  const rows = await sql`
    update account set password = ${next}, updated_at = now()
    where user_id = ${userId} and provider_id = ${CREDENTIAL_PROVIDER} and password = ${previous}`;
  return rows.count > 0;
}
