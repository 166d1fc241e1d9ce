/** Every SQL statement on the account table. */
import { columns, columnsOf, type Fragment, insertValues } from "../db/columns.js";
import type { Queryable } from "../db/connection.js";
import { keysReader, rowCounter, rowReader } from "../db/readers.js";

/** The email-and-password account's provider id (Better Auth's). */
export const CREDENTIAL_PROVIDER = "credential";

/** A provider's tokens as stored: each already encrypted by the caller. */
export interface StoredProviderTokens {
  accessToken: string | null;
  refreshToken: string | null;
  idToken: string | null;
  accessTokenExpiresAt: Date | null;
  refreshTokenExpiresAt: Date | null;
  scope: string | null;
}

export interface AccountRow extends StoredProviderTokens {
  id: string;
  userId: string;
  providerId: string;
  accountId: string;
  password: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const ACCOUNT_COLUMNS = columnsOf<AccountRow>()([
  "id",
  "userId",
  "providerId",
  "accountId",
  "accessToken",
  "refreshToken",
  "idToken",
  "accessTokenExpiresAt",
  "refreshTokenExpiresAt",
  "scope",
  "password",
  "createdAt",
  "updatedAt",
]);

export async function insertCredentialAccount(
  sql: Queryable,
  account: { id: string; userId: string; passwordHash: string },
): Promise<AccountRow> {
  const [row] = await sql<AccountRow[]>`
    insert into account (id, user_id, provider_id, account_id, password)
    values (${account.id}, ${account.userId}, ${CREDENTIAL_PROVIDER}, ${account.userId},
            ${account.passwordHash})
    returning ${columns(sql, ACCOUNT_COLUMNS)}`;
  if (!row) throw new Error("insert into account returned no row");
  return row;
}

const countAccountRows = rowCounter("account");
/** The account `where` finds; each caller's condition names at most one. */
const selectAccount = rowReader<AccountRow>("account", ACCOUNT_COLUMNS);

export async function findCredentialAccount(
  sql: Queryable,
  userId: string,
): Promise<AccountRow | undefined> {
  return selectAccount(sql, sql`user_id = ${userId} and provider_id = ${CREDENTIAL_PROVIDER}`);
}

export async function setCredentialPassword(
  sql: Queryable,
  userId: string,
  passwordHash: string,
): Promise<boolean> {
  const rows = await sql`
    update account set password = ${passwordHash}, updated_at = now()
    where user_id = ${userId} and provider_id = ${CREDENTIAL_PROVIDER}`;
  return rows.count > 0;
}

export async function listAccountsOfUser(sql: Queryable, userId: string): Promise<AccountRow[]> {
  return sql<AccountRow[]>`
    select ${columns(sql, ACCOUNT_COLUMNS)} from account where user_id = ${userId} order by created_at, id`;
}

export async function findAccountOfUser(
  sql: Queryable,
  userId: string,
  selector: { id?: string; providerId?: string; accountId?: string },
): Promise<AccountRow | undefined> {
  const [row] = await sql<AccountRow[]>`
    select ${columns(sql, ACCOUNT_COLUMNS)} from account
    where user_id = ${userId}
      and (${selector.id ?? null}::text is null or id = ${selector.id ?? null})
      and (${selector.providerId ?? null}::text is null or provider_id = ${selector.providerId ?? null})
      and (${selector.accountId ?? null}::text is null or account_id = ${selector.accountId ?? null})
    order by created_at, id
    limit 1`;
  return row;
}

export function countAccountsOfUser(sql: Queryable, userId: string): Promise<number> {
  return countAccountRows(sql, sql`user_id = ${userId}`);
}

export async function deleteAccountById(sql: Queryable, id: string): Promise<boolean> {
  const rows = await sql`delete from account where id = ${id}`;
  return rows.count > 0;
}

/** Accounts by their natural key (provider, account id), for seeding. */
export async function findAccountsByProviderKeys(
  sql: Queryable,
  keys: Array<{ providerId: string; accountId: string }>,
): Promise<AccountRow[]> {
  if (keys.length === 0) return [];
  return sql<AccountRow[]>`
    select ${columns(sql, ACCOUNT_COLUMNS, "a")} from account a
    join unnest(${keys.map((key) => key.providerId)}::text[], ${keys.map((key) => key.accountId)}::text[])
      as k(provider_id, account_id)
      on a.provider_id = k.provider_id and a.account_id = k.account_id`;
}

/** The password accounts of these users. */
export const findCredentialAccountsOfUsers = keysReader<AccountRow>(
  "account",
  ACCOUNT_COLUMNS,
  "user_id",
  (sql) => sql`provider_id = ${CREDENTIAL_PROVIDER}`,
);

export interface NewAccount {
  id: string;
  userId: string;
  providerId: string;
  accountId: string;
  /** The argon2id hash, for credential accounts only. */
  password: string | null;
}

/** One multi-row INSERT (callers keep batches to a few hundred rows). */
export async function insertAccounts(sql: Queryable, accounts: NewAccount[]): Promise<void> {
  if (accounts.length === 0) return;
  const rows = accounts.map((account) => ({ ...account }));
  await sql`insert into account ${sql(rows, "id", "userId", "providerId", "accountId", "password")}`;
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

/** The account of a provider identity, whoever it belongs to. */
export async function findAccountByProviderKey(
  sql: Queryable,
  providerId: string,
  accountId: string,
): Promise<AccountRow | undefined> {
  return selectAccount(sql, sql`provider_id = ${providerId} and account_id = ${accountId}`);
}

export async function insertProviderAccount(
  sql: Queryable,
  account: {
    id: string;
    userId: string;
    providerId: string;
    accountId: string;
  } & StoredProviderTokens,
): Promise<AccountRow> {
  const [row] = await sql<AccountRow[]>`
    insert into account (id, user_id, provider_id, account_id, access_token, refresh_token,
                         id_token, access_token_expires_at, refresh_token_expires_at, scope)
    values (${account.id}, ${account.userId}, ${account.providerId}, ${account.accountId},
            ${account.accessToken}, ${account.refreshToken}, ${account.idToken},
            ${account.accessTokenExpiresAt}, ${account.refreshTokenExpiresAt}, ${account.scope})
    returning ${columns(sql, ACCOUNT_COLUMNS)}`;
  if (!row) throw new Error("insert into account returned no row");
  return row;
}

/**
 * The assignments of new provider tokens: the access token always; the refresh token,
 * id token and scope only when the provider sent new ones (many send a refresh token
 * only once). `keptRefreshExpiry` is the refresh token's expiry when no new refresh
 * token came.
 */
function tokenAssignments(
  sql: Queryable,
  tokens: StoredProviderTokens,
  keptRefreshExpiry: Fragment,
): Fragment {
  return sql`
      access_token = ${tokens.accessToken},
      access_token_expires_at = ${tokens.accessTokenExpiresAt}::timestamptz,
      refresh_token = coalesce(${tokens.refreshToken}::text, refresh_token),
      refresh_token_expires_at = case when ${tokens.refreshToken}::text is null
        then ${keptRefreshExpiry} else ${tokens.refreshTokenExpiresAt}::timestamptz end,
      id_token = coalesce(${tokens.idToken}::text, id_token),
      scope = coalesce(${tokens.scope}::text, scope),
      updated_at = now()`;
}

/** The three sealed provider tokens of an account, as stored. */
export type SealedTokens = Pick<StoredProviderTokens, "accessToken" | "refreshToken" | "idToken">;

/**
 * The same tokens sealed again under the newest secret, written only while the row still
 * holds what was read (a refresh or sign-in meanwhile wins); answers whether it wrote.
 */
export async function resealProviderTokens(
  sql: Queryable,
  id: string,
  read: SealedTokens,
  resealed: SealedTokens,
): Promise<boolean> {
  const rows = await sql`
    update account set
      access_token = ${resealed.accessToken},
      refresh_token = ${resealed.refreshToken},
      id_token = ${resealed.idToken}
    where id = ${id}
      and access_token is not distinct from ${read.accessToken}::text
      and refresh_token is not distinct from ${read.refreshToken}::text
      and id_token is not distinct from ${read.idToken}::text`;
  return rows.count === 1;
}

/** A new sign-in's tokens, as `tokenAssignments` writes them. */
export async function updateProviderTokens(
  sql: Queryable,
  id: string,
  tokens: StoredProviderTokens,
): Promise<void> {
  await sql`
    update account set ${tokenAssignments(sql, tokens, sql`refresh_token_expires_at`)}
    where id = ${id}`;
}

/**
 * A refresh's tokens, written only while the account still holds the refresh token the
 * refresh used (`expectedRefreshToken`, its stored form: each encryption has its own IV,
 * so the stored value names one issuance). Undefined when another refresh or a sign-in
 * wrote first: its tokens stay, whole. A provider that does not rotate keeps the old
 * refresh token; the id token and scope change only when the provider sent new ones.
 */
export async function storeRefreshedTokens(
  sql: Queryable,
  id: string,
  expectedRefreshToken: string,
  tokens: StoredProviderTokens,
): Promise<AccountRow | undefined> {
  const keptRefreshExpiry = sql`
    coalesce(${tokens.refreshTokenExpiresAt}::timestamptz, refresh_token_expires_at)`;
  const [row] = await sql<AccountRow[]>`
    update account set ${tokenAssignments(sql, tokens, keptRefreshExpiry)}
    where id = ${id} and refresh_token = ${expectedRefreshToken}
    returning ${columns(sql, ACCOUNT_COLUMNS)}`;
  return row;
}

/**
 * An account brought from another system as it was there: its id and dates, the
 * password hash as that system wrote it, and provider tokens already sealed by the caller.
 */
export interface MigratedAccountRow extends StoredProviderTokens {
  id: string;
  userId: string;
  providerId: string;
  accountId: string;
  password: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * One multi-row INSERT of migrated accounts; a row whose id or provider identity is
 * already taken is left out. Answers the ids that went in.
 */
export async function insertMigratedAccounts(
  sql: Queryable,
  accounts: MigratedAccountRow[],
): Promise<string[]> {
  if (accounts.length === 0) return [];
  const rows = accounts.map((account) => ({
    ...account,
    accessTokenExpiresAt: account.accessTokenExpiresAt?.toISOString() ?? null,
    refreshTokenExpiresAt: account.refreshTokenExpiresAt?.toISOString() ?? null,
    createdAt: account.createdAt.toISOString(),
    updatedAt: account.updatedAt.toISOString(),
  }));
  const values = insertValues(sql, rows, ACCOUNT_COLUMNS);
  const inserted = await sql<Array<{ id: string }>>`
    insert into account ${values} on conflict do nothing returning id`;
  return inserted.map((row) => row.id);
}

/** Which of these ids are accounts, with their provider identities (an import's "already there"). */
export const findAccountIds = keysReader<{ id: string; providerId: string; accountId: string }>(
  "account",
  columnsOf<{ id: string; providerId: string; accountId: string }>()([
    "id",
    "providerId",
    "accountId",
  ]),
  "id",
);

/** The accounts with these ids, as stored (an import's check of the hashes it brought). */
export const findAccountsByIds = keysReader<AccountRow>("account", ACCOUNT_COLUMNS, "id");
