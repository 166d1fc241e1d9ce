/**
 * Linked accounts: listing, account info and unlinking. Social linking comes with
 * social sign-in; credential accounts work here.
 */
import { recordAuditEvent } from "../audit/audit.js";
import type { AuthdConfig } from "../config.js";
import type { Queryable, Sql } from "../db/connection.js";
import { transaction } from "../db/transaction.js";
import { AuthError } from "../errors.js";
import { findUserById } from "../users/users.js";
import {
  type AccountRow,
  countAccountsOfUser,
  deleteAccountById,
  findAccountOfUser,
  listAccountsOfUser,
} from "./queries.js";

function scopesOf(account: AccountRow): string[] {
  return account.scope ? account.scope.split(/[\s,]+/).filter(Boolean) : [];
}

/** What other domains read of accounts: the credential account and its provider id. */
/** Password writes of platform administration and bulk import. */
export {
  CREDENTIAL_PROVIDER,
  findCredentialAccount,
  insertAccounts,
  insertCredentialAccount,
  setCredentialPassword,
} from "./queries.js";

/**
 * A list-accounts entry in both generations' shapes: the older clients' `provider` and the
 * current client's `providerId` and `userId` (docs/compatibility.md).
 */
export function accountResponse(account: AccountRow) {
  return {
    id: account.id,
    provider: account.providerId,
    providerId: account.providerId,
    accountId: account.accountId,
    userId: account.userId,
    createdAt: account.createdAt,
    updatedAt: account.updatedAt,
    scopes: scopesOf(account),
  };
}

export async function listAccounts(sql: Sql, userId: string) {
  return (await listAccountsOfUser(sql, userId)).map(accountResponse);
}

/**
 * An account of the caller by row id, or by the provider's account id (the older
 * clients' `accountId`); another user's account is never found.
 */
async function findOwnAccount(
  sql: Queryable,
  userId: string,
  accountId: string,
  providerId?: string,
) {
  return (
    (providerId ? undefined : await findAccountOfUser(sql, userId, { id: accountId })) ??
    (await findAccountOfUser(sql, userId, { accountId, providerId }))
  );
}

export async function accountInfo(sql: Sql, userId: string, accountId: string) {
  const account = await findOwnAccount(sql, userId, accountId);
  if (!account) throw new AuthError("ACCOUNT_NOT_FOUND");
  const user = await findUserById(sql, userId);
  if (!user) throw new AuthError("USER_NOT_FOUND");
  return {
    user: {
      id: user.id,
      name: user.name,
      email: user.email,
      image: user.image,
      emailVerified: user.emailVerified,
    },
    // Provider profile data comes from the provider; the credential account has none.
    data: {},
    account: { id: account.id, providerId: account.providerId, accountId: account.accountId },
  };
}

/** Who unlinked, for the audit trail (`account.unlinked`). */
export interface UnlinkAuditActor {
  actorType: "user" | "cli";
  actorId: string | null;
  ipAddress?: string | null;
}

/**
 * The last account cannot be unlinked unless allowed. Counting and deleting
 * happen in one transaction, so two concurrent unlinks cannot remove the last two.
 * With `audit`, the `account.unlinked` row is written in that same transaction: a
 * refused or failed unlink records nothing, and a recorded one always happened.
 */
export async function unlinkAccount(
  sql: Sql,
  config: AuthdConfig,
  userId: string,
  selector: { providerId?: string; accountId?: string },
  audit?: UnlinkAuditActor,
): Promise<void> {
  await transaction(
    sql,
    async (tx) => {
      const account = selector.providerId
        ? await findAccountOfUser(tx, userId, {
            providerId: selector.providerId,
            accountId: selector.accountId,
          })
        : selector.accountId
          ? await findOwnAccount(tx, userId, selector.accountId)
          : undefined;
      if (!account) throw new AuthError("ACCOUNT_NOT_FOUND");
      const count = await countAccountsOfUser(tx, userId);
      if (count <= 1 && !config.account.accountLinking.allowUnlinkingAll) {
        throw new AuthError("FAILED_TO_UNLINK_LAST_ACCOUNT");
      }
      await deleteAccountById(tx, account.id);
      if (audit) {
        await recordAuditEvent(tx, {
          action: "account.unlinked",
          ...audit,
          targetType: "user",
          targetId: userId,
          details: { providerId: account.providerId, accountId: account.accountId },
        });
      }
    },
    { isolation: "serializable" },
  );
}
