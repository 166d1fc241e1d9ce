/**
 * Accounts of people: sign-up with email and password, profile updates,
 * bans as they affect sign-in, and deletion. No Fastify here.
 */

import { findCredentialAccount, insertCredentialAccount } from "../accounts/queries.js";
import type { AuthdConfig } from "../config.js";
import { sha256 } from "../crypto/digest.js";
import { hashPassword, verifyPassword } from "../crypto/password.js";
import { generateId, randomString, TOKEN_LENGTHS } from "../crypto/random.js";
import type { Queryable, Sql } from "../db/connection.js";
import { isUniqueViolation, transaction } from "../db/transaction.js";
import { AuthError } from "../errors.js";
import type { MailOutcome } from "../mail/mailer.js";
import { describeDuration } from "../mail/templates.js";
import {
  consumeVerification,
  deleteVerificationsByValue,
  insertVerification,
} from "../verification/queries.js";
import type { LinkContext, VerificationDeps } from "../verification/verification.js";
import {
  deleteUserById,
  findUserByEmail,
  findUserById,
  findUsersByEmails,
  insertImportedUsers,
  insertUser,
  liftBan,
  lockUser,
  type UserProfileChanges,
  type UserRow,
  updateUserAsAdmin,
  updateUserProfile,
} from "./queries.js";

/** Practical email check (RFC 5321 length, one @, a dotted domain, no spaces). */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

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

export interface SignUpInput {
  email: string;
  password: string;
  name: string;
  image?: string | null;
}

/**
 * Creates the user and its credential account in one transaction. A concurrent
 * sign-up of the same address ends as USER_ALREADY_EXISTS, never a duplicate.
 */
export async function createUserWithPassword(
  sql: Sql,
  config: AuthdConfig,
  input: SignUpInput,
): Promise<UserRow> {
  const email = requireValidEmail(input.email);
  checkPasswordLength(config, input.password);
  const passwordHash = await hashPassword(input.password);
  try {
    return await transaction(sql, async (tx) => {
      const user = await insertUser(tx, {
        id: generateId(),
        email,
        name: input.name,
        image: input.image ?? null,
        role: config.admin.defaultRole,
      });
      await insertCredentialAccount(tx, { id: generateId(), userId: user.id, passwordHash });
      return user;
    });
  } catch (error) {
    if (isUniqueViolation(error, "user_email_key")) throw new AuthError("USER_ALREADY_EXISTS");
    throw error;
  }
}

/** Reads other domains use: users are found and locked through this module. */
/** Writes of platform administration and bulk import, which bypass the sign-up rules. */
export {
  findUserByEmail,
  findUserById,
  findUsersByEmails,
  insertImportedUsers,
  insertUser,
  lockUser,
  updateUserAsAdmin,
};

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
 * Proves the caller is the user before deletion: with a password, it must match the
 * credential account.
 */
export async function verifyUserPassword(
  sql: Queryable,
  userId: string,
  password: string,
): Promise<void> {
  const account = await findCredentialAccount(sql, userId);
  if (!account?.password) throw new AuthError("CREDENTIAL_ACCOUNT_NOT_FOUND");
  if (!(await verifyPassword(account.password, password))) throw new AuthError("INVALID_PASSWORD");
}

/**
 * Deletes the user; the schema's cascades remove sessions, accounts, memberships and
 * team memberships in the same statement, so it is one transaction.
 */
export async function deleteUser(sql: Queryable, userId: string): Promise<boolean> {
  return deleteUserById(sql, userId);
}

const DELETE_PREFIX = "delete-account:";
const LOWER_ALPHANUMERIC = "abcdefghijklmnopqrstuvwxyz0123456789";

/**
 * delete-user with confirmation (a 32-character token valid
 * `user.deleteUser.expiresIn` seconds): the link goes to the user's address; nothing
 * is deleted until it is followed.
 */
export async function requestAccountDeletion(
  deps: VerificationDeps,
  link: LinkContext,
  user: UserRow,
  callbackURL?: string,
): Promise<MailOutcome> {
  const token = randomString(TOKEN_LENGTHS.deleteAccount, LOWER_ALPHANUMERIC);
  const lifetime = deps.config.user.deleteUser.expiresIn;
  await transaction(deps.sql, async (tx) => {
    // Only the newest link works: older ones of this user are withdrawn.
    await deleteVerificationsByValue(tx, DELETE_PREFIX, user.id);
    await insertVerification(tx, {
      id: generateId(),
      identifier: `${DELETE_PREFIX}${sha256(token)}`,
      value: user.id,
      expiresAt: new Date(Date.now() + lifetime * 1000),
    });
  });
  const query = new URLSearchParams({ token });
  if (callbackURL) query.set("callbackURL", callbackURL);
  return deps.mailer.send(
    {
      kind: "delete-account",
      to: user.email,
      url: `${link.baseUrl}/delete-user/callback?${query.toString()}`,
      variables: { name: user.name || user.email, expiresIn: describeDuration(lifetime) },
    },
    link.logger,
  );
}

/**
 * Deletes the user a deletion token was made for, using the token up. `expectedUserId`
 * (the signed-in caller, when there is one) must match.
 */
export async function deleteUserWithToken(
  sql: Sql,
  token: string,
  expectedUserId?: string,
): Promise<string> {
  return transaction(sql, async (tx) => {
    const row = await consumeVerification(tx, `${DELETE_PREFIX}${sha256(token)}`);
    if (!row || row.expiresAt.getTime() <= Date.now()) {
      throw new AuthError("INVALID_TOKEN", { status: 404 });
    }
    if (expectedUserId !== undefined && row.value !== expectedUserId) {
      throw new AuthError("INVALID_TOKEN", { status: 404 });
    }
    await deleteUserById(tx, row.value);
    return row.value;
  });
}
