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
