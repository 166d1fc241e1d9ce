/**
 * Deleting an account by a mailed link: the request withdraws earlier links and mails a
 * new one-time token; following it deletes the user (the schema's cascades remove the
 * rest). Tokens are stored as digests in the verification table.
 */
import { sha256 } from "../crypto/digest.js";
import { generateId, randomString, TOKEN_LENGTHS } from "../crypto/random.js";
import type { Sql } from "../db/connection.js";
import { transaction } from "../db/transaction.js";
import { AuthError } from "../errors.js";
import type { MailOutcome } from "../mail/mailer.js";
import { describeDuration } from "../mail/templates.js";
import { pageUrl } from "../pages/links.js";
import type { UserRow } from "../users/queries.js";
import { deleteUserById } from "../users/users.js";
import { consumeVerification, deleteVerificationsByValue, insertVerification } from "./queries.js";
import type { LinkContext, VerificationDeps } from "./verification.js";

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
  // Without a callbackURL of the caller's, the link ends on the served sign-in page,
  // which says the account is gone.
  const target = callbackURL || pageUrl(deps.config, link.baseUrl, "/sign-in?deleted=1");
  const query = new URLSearchParams({ token });
  if (target) query.set("callbackURL", target);
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
