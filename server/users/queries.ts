/** Every SQL statement on the "user" table: one place per table. */
import { columns, columnsOf, insertValues } from "../db/columns.js";
import type { Queryable, TransactionSql } from "../db/connection.js";
import { keysReader, rowReader } from "../db/readers.js";

export interface UserRow {
  id: string;
  email: string;
  emailVerified: boolean;
  name: string;
  image: string | null;
  role: string | null;
  banned: boolean;
  banReason: string | null;
  banExpires: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export const USER_COLUMNS = columnsOf<UserRow>()([
  "id",
  "email",
  "emailVerified",
  "name",
  "image",
  "role",
  "banned",
  "banReason",
  "banExpires",
  "createdAt",
  "updatedAt",
]);

export interface NewUser {
  id: string;
  email: string;
  name: string;
  image?: string | null;
  emailVerified?: boolean;
  role?: string | null;
}

export async function insertUser(sql: Queryable, user: NewUser): Promise<UserRow> {
  const [row] = await sql<UserRow[]>`
    insert into "user" (id, email, name, image, email_verified, role)
    values (${user.id}, ${user.email}, ${user.name}, ${user.image ?? null},
            ${user.emailVerified ?? false}, ${user.role ?? null})
    returning ${columns(sql, USER_COLUMNS)}`;
  if (!row) throw new Error("insert into user returned no row");
  return row;
}

const selectUser = rowReader<UserRow>("user", USER_COLUMNS);

export function findUserById(sql: Queryable, id: string): Promise<UserRow | undefined> {
  return selectUser(sql, sql`id = ${id}`);
}

export function findUserByEmail(sql: Queryable, email: string): Promise<UserRow | undefined> {
  return selectUser(sql, sql`email = ${email}`);
}

/**
 * Sign-in's one read: the user with this address and the password hash of their
 * account with `credentialProvider` (null without one). One statement whether or not
 * the address is known, so the database work does not tell the two apart.
 */
export async function findUserWithPassword(
  sql: Queryable,
  email: string,
  credentialProvider: string,
): Promise<{ user: UserRow; passwordHash: string | null } | undefined> {
  const [row] = await sql<(UserRow & { passwordHash: string | null })[]>`
    select ${columns(sql, USER_COLUMNS, "u")}, a.password as password_hash
    from "user" u
    left join account a on a.user_id = u.id and a.provider_id = ${credentialProvider}
    where u.email = ${email}`;
  if (!row) return undefined;
  const { passwordHash, ...user } = row;
  return { user, passwordHash };
}

export interface UserProfileChanges {
  name?: string;
  image?: string | null;
}

export async function updateUserProfile(
  sql: Queryable,
  id: string,
  changes: UserProfileChanges,
): Promise<UserRow | undefined> {
  const [row] = await sql<UserRow[]>`
    update "user" set
      name = coalesce(${changes.name ?? null}, name),
      image = case when ${changes.image !== undefined} then ${changes.image ?? null} else image end,
      updated_at = now()
    where id = ${id}
    returning ${columns(sql, USER_COLUMNS)}`;
  return row;
}

/** Marks the email verified; answers undefined when it already was (or the user is gone). */
export async function setEmailVerified(sql: Queryable, id: string): Promise<UserRow | undefined> {
  const [row] = await sql<UserRow[]>`
    update "user" set email_verified = true, updated_at = now()
    where id = ${id} and not email_verified returning ${columns(sql, USER_COLUMNS)}`;
  return row;
}

/** A confirmed email change sets the new email and resets emailVerified. */
export async function changeUserEmail(
  sql: Queryable,
  id: string,
  email: string,
  emailVerified: boolean,
): Promise<UserRow | undefined> {
  const [row] = await sql<UserRow[]>`
    update "user" set email = ${email}, email_verified = ${emailVerified}, updated_at = now()
    where id = ${id} returning ${columns(sql, USER_COLUMNS)}`;
  return row;
}

/**
 * Deletes the user inside the caller's transaction. The cascades delete their memberships
 * and the invitations they sent, and each of those updates its organization's row (the
 * content version's trigger); writers of an organization lock that row before its members
 * and invitations, and a change of the user's name or email locks the user before their
 * organizations. So this takes the same order: the user, then their organizations in id
 * order, then the delete; taken the other way round, either pair could deadlock.
 */
export async function deleteUserById(sql: TransactionSql, id: string): Promise<boolean> {
  const [user] = await sql`select id from "user" where id = ${id} for no key update`;
  if (!user) return false;
  await sql`
    select id from organization
    where id in (select organization_id from member where user_id = ${id}
                 union select organization_id from invitation where inviter_id = ${id})
    order by id
    for update`;
  const rows = await sql`delete from "user" where id = ${id}`;
  return rows.count > 0;
}

export async function liftBan(sql: Queryable, id: string): Promise<UserRow | undefined> {
  const [row] = await sql<UserRow[]>`
    update "user" set banned = false, ban_reason = null, ban_expires = null, updated_at = now()
    where id = ${id} returning ${columns(sql, USER_COLUMNS)}`;
  return row;
}

/** Serializes per-user limits (organizations a user may create) inside a transaction. */
export function lockUser(sql: Queryable, id: string): Promise<UserRow | undefined> {
  return selectUser(sql, sql`id = ${id}`, sql`for update`);
}

/** The users with these (lowercased) emails, for seeding by natural key. */
export const findUsersByEmails = keysReader<UserRow>("user", USER_COLUMNS, "email");

/** One multi-row INSERT (callers keep batches to a few hundred rows). */
export async function insertUsers(sql: Queryable, users: NewUser[]): Promise<void> {
  if (users.length === 0) return;
  const rows = users.map((user) => ({
    id: user.id,
    email: user.email,
    name: user.name,
    image: user.image ?? null,
    emailVerified: user.emailVerified ?? false,
    role: user.role ?? null,
  }));
  await sql`insert into "user" ${sql(rows, "id", "email", "name", "image", "emailVerified", "role")}`;
}

/** Sets the fields a seed file may change; an undefined field keeps its value. */
export async function updateUserSeedFields(
  sql: Queryable,
  id: string,
  changes: { name?: string; emailVerified?: boolean; role?: string },
): Promise<void> {
  await sql`
    update "user" set
      name = coalesce(${changes.name ?? null}::text, name),
      email_verified = coalesce(${changes.emailVerified ?? null}::boolean, email_verified),
      role = coalesce(${changes.role ?? null}::text, role),
      updated_at = now()
    where id = ${id}`;
}

const USER_COLUMN_LIST = [
  "id",
  "email",
  "email_verified",
  "name",
  "image",
  "role",
  "banned",
  "ban_reason",
  "ban_expires",
  "created_at",
  "updated_at",
] as const;

/** The changes a platform admin (or an import with --if-exists update) makes to a user. */
export interface AdminUserChanges {
  name?: string;
  image?: string | null;
  email?: string;
  emailVerified?: boolean;
  role?: string;
  banned?: boolean;
  banReason?: string | null;
  banExpires?: Date | null;
}

export async function updateUserAsAdmin(
  sql: Queryable,
  id: string,
  changes: AdminUserChanges,
): Promise<UserRow | undefined> {
  const has = (key: keyof AdminUserChanges) => changes[key] !== undefined;
  const [row] = await sql<UserRow[]>`
    update "user" set
      name = coalesce(${changes.name ?? null}, name),
      image = case when ${has("image")} then ${changes.image ?? null} else image end,
      email = coalesce(${changes.email ?? null}, email),
      email_verified = coalesce(${changes.emailVerified ?? null}::boolean, email_verified),
      role = coalesce(${changes.role ?? null}, role),
      banned = coalesce(${changes.banned ?? null}::boolean, banned),
      ban_reason = case when ${has("banReason")} then ${changes.banReason ?? null} else ban_reason end,
      ban_expires = case when ${has("banExpires")} then ${changes.banExpires ?? null}::timestamptz
                         else ban_expires end,
      updated_at = now()
    where id = ${id}
    returning ${sql(USER_COLUMN_LIST)}`;
  return row;
}

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
 * A user brought from another system as it was there: every column of a user row, its
 * id, dates, role and ban included.
 */
export type MigratedUserRow = UserRow;

/**
 * One multi-row INSERT of migrated users (`authd import better-auth`); a row whose id
 * or email is already taken is left out. Answers the ids that went in.
 */
export async function insertMigratedUsers(
  sql: Queryable,
  users: MigratedUserRow[],
): Promise<string[]> {
  if (users.length === 0) return [];
  const rows = users.map((user) => ({
    ...user,
    banExpires: user.banExpires?.toISOString() ?? null,
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
  }));
  const values = insertValues(sql, rows, USER_COLUMNS);
  const inserted = await sql<Array<{ id: string }>>`
    insert into "user" ${values} on conflict do nothing returning id`;
  return inserted.map((row) => row.id);
}

/** Which of these ids are users, with their emails (an import's "already there"). */
export const findUserIds = keysReader<{ id: string; email: string }>(
  "user",
  columnsOf<{ id: string; email: string }>()(["id", "email"]),
  "id",
);
