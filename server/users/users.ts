/**
 * People: the email rules, profile updates, bans as they affect sign-in, and deletion.
 * No Fastify here.
 */

import type { AuthdConfig } from "../config.js";
import type { Queryable, Sql } from "../db/connection.js";
import { transaction } from "../db/transaction.js";
import { AuthError } from "../errors.js";
import {
  deleteUserById,
  liftBan,
  type UserProfileChanges,
  type UserRow,
  updateUserProfile,
} from "./queries.js";

/**
 * Practical email check: a dot-atom before the @ (RFC 5321/6531: any character but
 * spaces and the specials, dots only between characters) and a domain of two or more
 * dot-separated labels of letters, digits and inner hyphens, in any script. The
 * specials are refused because a mail header reads them as address-list syntax: with
 * `a,b@example.com` accepted, a mailer would send to `b@example.com`.
 */
const ATEXT = String.raw`[^\s@.,;:<>()\[\]"\\]`;
const LABEL = String.raw`[\p{L}\p{N}\p{M}](?:[\p{L}\p{N}\p{M}-]*[\p{L}\p{N}\p{M}])?`;
const EMAIL_PATTERN = new RegExp(`^${ATEXT}+(?:\\.${ATEXT}+)*@${LABEL}(?:\\.${LABEL})+$`, "u");

/**
 * Characters no address may carry, checked before trimming (trim would quietly drop
 * some of them): C0 and C1 controls, zero-width and direction marks (U+200B-U+200F),
 * bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069) and
 * the byte-order mark. They make one address look like another on screen.
 */
const INVISIBLE_OR_CONTROL =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
  /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * "Invalid email" wherever an address enters authd (sign-up, sign-in, change-email,
 * invitations, admin, CLI, seed, import): the normalized address, or INVALID_EMAIL.
 */
export function requireValidEmail(email: string): string {
  if (INVISIBLE_OR_CONTROL.test(email)) throw new AuthError("INVALID_EMAIL");
  const normalized = normalizeEmail(email);
  if (normalized.length > 254 || !EMAIL_PATTERN.test(normalized))
    throw new AuthError("INVALID_EMAIL");
  return normalized;
}

/** The new password length lies between the configured bounds. */
export function checkPasswordLength(config: AuthdConfig, password: string): void {
  const { minPasswordLength, maxPasswordLength } = config.emailAndPassword;
  // The bounds travel with the error, so a form or the CLI can say what is needed.
  if (password.length < minPasswordLength)
    throw new AuthError("PASSWORD_TOO_SHORT", { details: { minPasswordLength } });
  if (password.length > maxPasswordLength)
    throw new AuthError("PASSWORD_TOO_LONG", { details: { maxPasswordLength } });
}

/** What other domains use of users: finding, locking and writing user rows. */
export {
  changeUserEmail,
  deleteUserById,
  findUserByEmail,
  findUserById,
  findUserIds,
  findUsersByEmails,
  findUserWithPassword,
  insertImportedUsers,
  insertMigratedUsers,
  insertUser,
  insertUsers,
  lockUser,
  type MigratedUserRow,
  setEmailVerified,
  USER_COLUMNS as USER_ROW_COLUMNS,
  updateUserAsAdmin,
  updateUserSeedFields,
} from "./queries.js";

/**
 * A banned user cannot sign in; a ban whose expiry has passed lifts itself.
 * Answers the user as it now is.
 */
export async function assertNotBanned(sql: Queryable, user: UserRow): Promise<UserRow> {
  if (!user.banned) return user;
  if (user.banExpires && user.banExpires.getTime() <= Date.now()) {
    return (await liftBan(sql, user.id)) ?? user;
  }
  throw new AuthError("BANNED_USER", {
    details: { reason: user.banReason, expiresAt: user.banExpires },
  });
}

/** update-user: only the name and the image are writable here. */
export async function updateProfile(
  sql: Queryable,
  userId: string,
  changes: UserProfileChanges,
): Promise<UserRow> {
  const user = await updateUserProfile(sql, userId, changes);
  if (!user) throw new AuthError("USER_NOT_FOUND");
  return user;
}

/**
 * Deletes the user; the schema's cascades remove sessions, accounts, memberships, team
 * memberships and the invitations they sent. A transaction of its own, so a deadlock
 * with a writer of one of their organizations is retried.
 */
export function deleteUser(sql: Sql, userId: string): Promise<boolean> {
  return transaction(sql, (tx) => deleteUserById(tx, userId));
}
