/**
 * Accounts a user signs in with: sign-up with email and password (the user and their
 * credential account), checking a password, listing, account info and unlinking.
 */
import { recordAuditEvent } from "../audit/audit.js";
import type { AuthdConfig } from "../config.js";
import type { PasswordHasher } from "../crypto/password.js";
import { generateId } from "../crypto/random.js";
import type { Queryable, Sql } from "../db/connection.js";
import { isUniqueViolation, transaction } from "../db/transaction.js";
import { AuthError } from "../errors.js";
import type { UserRow } from "../users/queries.js";
import {
  checkPasswordLength,
  findUserById,
  insertUser,
  requireValidEmail,
} from "../users/users.js";
import {
  type AccountRow,
  CREDENTIAL_PROVIDER,
  countAccountsOfUser,
  deleteAccountById,
  findAccountOfUser,
  findCredentialAccount,
  insertCredentialAccount,
  listAccountsOfUser,
} from "./queries.js";

function scopesOf(account: AccountRow): string[] {
  return account.scope ? account.scope.split(/[\s,]+/).filter(Boolean) : [];
}

/**
 * What other domains use of accounts: the credential account, read and written, and
 * provider accounts with their tokens (social sign-in, provider tokens over the API).
 */
export {
  type AccountRow,
  CREDENTIAL_PROVIDER,
  findAccountByProviderKey,
  findAccountIds,
  findAccountsByIds,
  findAccountsByProviderKeys,
  findCredentialAccount,
  findCredentialAccountsOfUsers,
  insertAccounts,
  insertCredentialAccount,
  insertMigratedAccounts,
  insertProviderAccount,
  type MigratedAccountRow,
  replacePasswordHash,
  resealProviderTokens,
  type StoredProviderTokens,
  setCredentialPassword,
  storeRefreshedTokens,
  updateProviderTokens,
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

/**
 * An account of the caller for its provider tokens. With `providerId` (the older
 * clients' body): the caller's account of that provider, the one `accountId` names (row
 * id or the provider's account id) when given, else the first linked. Without it: the
 * account `accountId` names, as account-info finds it.
 */
export async function findAccountForTokens(
  sql: Queryable,
  userId: string,
  selector: { providerId?: string; accountId?: string },
): Promise<AccountRow | undefined> {
  const { providerId, accountId } = selector;
  if (providerId === undefined) {
    return accountId === undefined ? undefined : findOwnAccount(sql, userId, accountId);
  }
  if (accountId === undefined) return findAccountOfUser(sql, userId, { providerId });
  return (
    (await findAccountOfUser(sql, userId, { id: accountId, providerId })) ??
    (await findAccountOfUser(sql, userId, { accountId, providerId }))
  );
}

/** The account of the caller with this row id, as it is stored now. */
export function findAccountOfUserById(
  sql: Queryable,
  userId: string,
  id: string,
): Promise<AccountRow | undefined> {
  return findAccountOfUser(sql, userId, { id });
}

/**
 * What the provider says about a linked account now (account-info's `data`): the social
 * domain gives it, since reading it needs the account's tokens and the provider.
 */
export type ProviderProfileReader = (account: AccountRow) => Promise<Record<string, unknown>>;

/**
 * account-info: the caller, the account, and for a provider account what `readProfile`
 * reads from the provider; the credential account has no provider data.
 */
export async function accountInfo(
  sql: Sql,
  userId: string,
  accountId: string,
  readProfile?: ProviderProfileReader,
) {
  const account = await findOwnAccount(sql, userId, accountId);
  if (!account) throw new AuthError("ACCOUNT_NOT_FOUND");
  const user = await findUserById(sql, userId);
  if (!user) throw new AuthError("USER_NOT_FOUND");
  const data =
    account.providerId === CREDENTIAL_PROVIDER || readProfile === undefined
      ? {}
      : await readProfile(account);
  return {
    user: {
      id: user.id,
      name: user.name,
      email: user.email,
      image: user.image,
      emailVerified: user.emailVerified,
    },
    data,
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
  passwords: PasswordHasher,
  input: SignUpInput,
): Promise<UserRow> {
  const email = requireValidEmail(input.email);
  checkPasswordLength(config, input.password);
  const passwordHash = await passwords.hash(input.password);
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

/**
 * Proves the caller is the user before deletion: with a password, it must match the
 * credential account.
 */
export async function verifyUserPassword(
  sql: Queryable,
  passwords: PasswordHasher,
  userId: string,
  password: string,
): Promise<void> {
  const account = await findCredentialAccount(sql, userId);
  if (!account?.password) throw new AuthError("CREDENTIAL_ACCOUNT_NOT_FOUND");
  if (!(await passwords.verify(account.password, password)))
    throw new AuthError("INVALID_PASSWORD");
}
