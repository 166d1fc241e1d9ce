/**
 * Passwords: reset by a mailed 24-character token valid
 * `resetPasswordTokenExpiresIn` seconds, stored as a digest and single-use; change with
 * the current password; set (server-only) for a user without one.
 */

import {
  findCredentialAccount,
  insertCredentialAccount,
  setCredentialPassword,
} from "../accounts/accounts.js";
import type { AuthdConfig } from "../config.js";
import { sha256 } from "../crypto/digest.js";
import { createPasswordHasher, type PasswordHasher } from "../crypto/password.js";
import { generateId, randomString, TOKEN_LENGTHS } from "../crypto/random.js";
import type { Sql } from "../db/connection.js";
import { transaction } from "../db/transaction.js";
import { AuthError } from "../errors.js";
import type { MailOutcome } from "../mail/mailer.js";
import { describeDuration } from "../mail/templates.js";
import { pageUrl } from "../pages/links.js";
import { revokeSessions } from "../sessions/sessions.js";
import type { UserRow } from "../users/queries.js";
import {
  checkPasswordLength,
  findUserByEmail,
  findUserById,
  requireValidEmail,
} from "../users/users.js";
import {
  consumeVerification,
  deleteVerificationsByValue,
  findVerification,
  insertVerification,
  type LinkContext,
  type VerificationDeps,
} from "../verification/verification.js";

const RESET_PREFIX = "reset-password:";

/** What request-password-reset answers, whether or not the address exists. */
export const RESET_REQUESTED_MESSAGE =
  "If this email exists in our system, check your email for the reset link";

function resetIdentifier(token: string): string {
  return `${RESET_PREFIX}${sha256(token)}`;
}

/**
 * Starts a reset for an existing address; an unknown one gets the same answer and no
 * mail. The mail is handed over in the background so both cost the same time.
 */
export async function requestPasswordReset(
  deps: VerificationDeps,
  link: LinkContext,
  input: { email: string; redirectTo?: string },
): Promise<{ delivery: Promise<MailOutcome> | null }> {
  if (!deps.config.emailAndPassword.enabled) throw new AuthError("RESET_PASSWORD_DISABLED");
  const email = requireValidEmail(input.email);
  const user = await findUserByEmail(deps.sql, email);
  if (!user) return { delivery: null };
  const token = randomString(TOKEN_LENGTHS.resetPassword);
  const lifetime = deps.config.emailAndPassword.resetPasswordTokenExpiresIn;
  await transaction(deps.sql, async (tx) => {
    // Only the newest link works: older ones of this user are withdrawn.
    await deleteVerificationsByValue(tx, RESET_PREFIX, user.id);
    await insertVerification(tx, {
      id: generateId(),
      identifier: resetIdentifier(token),
      value: user.id,
      expiresAt: new Date(Date.now() + lifetime * 1000),
    });
  });
  // Without a redirectTo of the caller's, the link opens the served reset-password page.
  const callbackURL =
    input.redirectTo || pageUrl(deps.config, link.baseUrl, "/reset-password") || "";
  const query = new URLSearchParams({ callbackURL });
  const delivery = deps.mailer.send(
    {
      kind: "reset-password",
      to: user.email,
      url: `${link.baseUrl}/reset-password/${token}?${query.toString()}`,
      variables: { name: user.name || user.email, expiresIn: describeDuration(lifetime) },
    },
    link.logger,
  );
  return { delivery };
}

/** Is this reset token known and unexpired (without using it up)? */
export async function isResetTokenValid(sql: Sql, token: string): Promise<boolean> {
  if (!/^[A-Za-z0-9]{1,128}$/.test(token)) return false;
  const row = await findVerification(sql, resetIdentifier(token));
  return row !== undefined && row.expiresAt.getTime() > Date.now();
}

/** Sets a new password with a reset token; the token works once. */
export async function resetPassword(
  sql: Sql,
  config: AuthdConfig,
  passwords: PasswordHasher,
  input: { token: string; newPassword: string },
): Promise<UserRow> {
  checkPasswordLength(config, input.newPassword);
  const passwordHash = await passwords.hash(input.newPassword);
  return transaction(sql, async (tx) => {
    const row = await consumeVerification(tx, resetIdentifier(input.token));
    if (!row || row.expiresAt.getTime() <= Date.now()) throw new AuthError("INVALID_TOKEN");
    const user = await findUserById(tx, row.value);
    if (!user) throw new AuthError("USER_NOT_FOUND", { status: 400 });
    const updated = await setCredentialPassword(tx, user.id, passwordHash);
    if (!updated)
      await insertCredentialAccount(tx, { id: generateId(), userId: user.id, passwordHash });
    if (config.emailAndPassword.revokeSessionsOnPasswordReset) await revokeSessions(tx, user.id);
    return user;
  });
}

/** change-password: the current password proves the caller; then the new one is set. */
export async function changePassword(
  sql: Sql,
  config: AuthdConfig,
  passwords: PasswordHasher,
  userId: string,
  input: { currentPassword: string; newPassword: string },
): Promise<void> {
  checkPasswordLength(config, input.newPassword);
  const account = await findCredentialAccount(sql, userId);
  if (!account?.password) throw new AuthError("CREDENTIAL_ACCOUNT_NOT_FOUND");
  if (!(await passwords.verify(account.password, input.currentPassword))) {
    throw new AuthError("INVALID_PASSWORD");
  }
  await setCredentialPassword(sql, userId, await passwords.hash(input.newPassword));
}

/**
 * set-password (server-only, never routed over HTTP): only for a user who has
 * no password yet, e.g. one who signed up with a social provider.
 */
export async function setPassword(
  sql: Sql,
  config: AuthdConfig,
  userId: string,
  newPassword: string,
  // No route calls this; a caller without a hasher of its own hashes through a fresh one.
  passwords: PasswordHasher = createPasswordHasher(),
): Promise<void> {
  checkPasswordLength(config, newPassword);
  const passwordHash = await passwords.hash(newPassword);
  await transaction(sql, async (tx) => {
    const user = await findUserById(tx, userId);
    if (!user) throw new AuthError("USER_NOT_FOUND");
    const account = await findCredentialAccount(tx, userId);
    if (account?.password) throw new AuthError("PASSWORD_ALREADY_SET");
    if (account) await setCredentialPassword(tx, userId, passwordHash);
    else await insertCredentialAccount(tx, { id: generateId(), userId, passwordHash });
  });
}
