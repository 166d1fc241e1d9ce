/**
 * A linked account's provider tokens over the API: its access token, refreshed first
 * when it is about to expire (get-access-token); a refresh on demand (refresh-token);
 * and what the provider says about the account now (account-info's `data`). Only the
 * caller's own accounts are ever read.
 *
 * Concurrent refreshes of one account: within an app they share one request to the
 * provider (SocialContext.refreshes), so a provider that rotates refresh tokens sees each
 * one used once. Across processes the write is a compare-and-set on the stored refresh
 * token: a refresh whose token was replaced meanwhile (by another refresh or a sign-in)
 * writes nothing and answers what the winner stored, so the row always holds one whole
 * set of tokens and never an older refresh token than it had. No row lock is held
 * while the provider answers: that may take the whole request time limit, and embedded
 * mode has a single database connection.
 */
import { setTimeout } from "node:timers/promises";
import {
  type AccountRow,
  findAccountForTokens,
  findAccountOfUserById,
  type ProviderProfileReader,
  resealProviderTokens,
  storeRefreshedTokens,
} from "../accounts/accounts.js";
import type { Sql } from "../db/connection.js";
import { AuthError, type ErrorCode } from "../errors.js";
import type { LogSink } from "../logger.js";
import type { SocialContext } from "./context.js";
import { refreshAccessToken, TokenExchangeError } from "./oauth.js";
import { verifiedIdTokenClaims } from "./oidc.js";
import type { ProfileResult, ProviderTokens } from "./provider.js";
import { isConfigured, type ResolvedProvider, resolveProvider } from "./resolve.js";
import { storedTokens } from "./sign-in.js";

/** An access token that expires sooner than this is refreshed before it is handed out. */
const EXPIRY_MARGIN_MS = 5_000;

/**
 * How long a refused refresh keeps looking for a concurrent refresh's tokens, and how
 * often: the provider may refuse the loser well before the winner has its answer and
 * has written it (another instance, a slow provider, a busy database). A refusal with
 * no concurrent refresh answers after this bound, which only the failure path pays.
 */
const CONCURRENT_WRITE_GRACE_MS = 1000;
const CONCURRENT_WRITE_POLL_MS = 50;

/**
 * Which account: the older clients' `{providerId, accountId?}` or the current clients'
 * `{accountId}`; `userId`, when sent, must be the caller's.
 */
export interface TokenAccountSelector {
  providerId?: string;
  accountId?: string;
  userId?: string;
}

/** A signed-in user's request for the tokens of one of their accounts. */
export interface TokenRequest {
  userId: string;
  selector: TokenAccountSelector;
  logger: LogSink;
}

export interface AccessTokenAnswer {
  accessToken: string;
  accessTokenExpiresAt: Date | null;
  scopes: string[];
  idToken: string | null;
}

export interface RefreshAnswer {
  accessToken: string;
  refreshToken: string | null;
  accessTokenExpiresAt: Date | null;
  refreshTokenExpiresAt: Date | null;
  scope: string | null;
  idToken: string | null;
  providerId: string;
  /** The provider's id of the account, as list-accounts names it. */
  accountId: string;
}

/** A refresh token in clear, and as the account stores it (the compare-and-set's value). */
interface RefreshToken {
  plain: string;
  stored: string;
}

/** The provider refused or did not answer; the message is safe to log. */
class RefreshFailure extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "RefreshFailure";
  }
}

/** A stored token in clear; null when absent or unreadable (another secret, tampering). */
function open(social: SocialContext, stored: string | null): string | null {
  if (!stored) return null;
  return social.cipher.decrypt(stored) || null;
}

/** The account's refresh token, when it has one that can be read. */
function refreshTokenOf(social: SocialContext, account: AccountRow): RefreshToken | null {
  const plain = open(social, account.refreshToken);
  return plain && account.refreshToken ? { plain, stored: account.refreshToken } : null;
}

function scopesOf(scope: string | null): string[] {
  return scope ? scope.split(/[\s,]+/).filter(Boolean) : [];
}

function expiresSoon(account: AccountRow, now = Date.now()): boolean {
  return (
    account.accessTokenExpiresAt !== null &&
    account.accessTokenExpiresAt.getTime() - now < EXPIRY_MARGIN_MS
  );
}

/** The caller's account the body names, of a provider that is still configured. */
async function selectAccount(
  social: SocialContext,
  sql: Sql,
  userId: string,
  selector: TokenAccountSelector,
): Promise<AccountRow> {
  // Nobody reads another user's tokens, whatever the body says.
  if (selector.userId !== undefined && selector.userId !== userId) {
    throw new AuthError("FORBIDDEN");
  }
  if (selector.providerId === undefined && selector.accountId === undefined) {
    throw new AuthError("VALIDATION_ERROR", {
      details: [{ path: "accountId", message: "accountId or providerId is required" }],
    });
  }
  if (selector.providerId !== undefined && !isConfigured(social, selector.providerId)) {
    throw new AuthError("PROVIDER_NOT_SUPPORTED");
  }
  const account = await findAccountForTokens(sql, userId, selector);
  if (!account) throw new AuthError("ACCOUNT_NOT_FOUND");
  if (!isConfigured(social, account.providerId)) throw new AuthError("PROVIDER_NOT_SUPPORTED");
  return resealed(social, sql, account);
}

/**
 * While secrets rotate, tokens sealed under an older secret are sealed again under the
 * newest when they are read, so that the older secret can later be removed.
 */
async function resealed(social: SocialContext, sql: Sql, account: AccountRow): Promise<AccountRow> {
  const { reseal } = social.cipher;
  if (!reseal) return account;
  const again = (stored: string | null) => (stored ? (reseal(stored) ?? stored) : stored);
  const tokens = {
    accessToken: again(account.accessToken),
    refreshToken: again(account.refreshToken),
    idToken: again(account.idToken),
  };
  if (
    tokens.accessToken === account.accessToken &&
    tokens.refreshToken === account.refreshToken &&
    tokens.idToken === account.idToken
  ) {
    return account;
  }
  // Lost to a refresh or a sign-in meanwhile: that write sealed under the newest already.
  const wrote = await resealProviderTokens(sql, account.id, account, tokens);
  return wrote ? { ...account, ...tokens } : account;
}

/**
 * The configured provider of an account; an issuer whose discovery document cannot be
 * fetched is the `failure` of the route (the provider cannot be asked).
 */
async function providerOf(
  social: SocialContext,
  providerId: string,
  failure: ErrorCode,
  logger: LogSink,
): Promise<ResolvedProvider> {
  let provider: ResolvedProvider | null;
  try {
    provider = await resolveProvider(social, providerId);
  } catch (error) {
    if (!(error instanceof AuthError) || error.code !== "PROVIDER_UNAVAILABLE") throw error;
    logger.warn({ provider: providerId, step: "discovery" }, "provider tokens: discovery failed");
    throw new AuthError(failure);
  }
  if (!provider) throw new AuthError("PROVIDER_NOT_SUPPORTED");
  return provider;
}

/** What one refresh of an account's tokens works with. */
interface Refresh {
  social: SocialContext;
  sql: Sql;
  provider: ResolvedProvider;
  account: AccountRow;
  refreshToken: RefreshToken;
  logger: LogSink;
}

/**
 * One refresh at the provider with the account's refresh token, written with a
 * compare-and-set (see the top of this file). Answers the account as stored afterwards.
 */
async function refreshAccount(refresh: Refresh): Promise<AccountRow> {
  const { social, sql, provider, account, refreshToken, logger } = refresh;
  const current = () => findAccountOfUserById(sql, account.userId, account.id);
  let tokens: ProviderTokens;
  try {
    tokens = await refreshAccessToken(provider, refreshToken.plain, social.limits);
  } catch (error) {
    if (!(error instanceof TokenExchangeError)) throw error;
    logger.warn(
      { provider: provider.id, step: "token refresh", reason: error.message },
      "provider tokens: refresh failed",
    );
    // A provider that rotates refresh tokens refuses one that another process has just
    // used: that refresh's tokens are stored (or about to be), and serve this caller too.
    const replaced = (row: AccountRow | undefined) =>
      row !== undefined &&
      row.refreshToken !== refreshToken.stored &&
      open(social, row.accessToken) !== null;
    let now = await current();
    for (let waited = 0; !replaced(now) && waited < CONCURRENT_WRITE_GRACE_MS; ) {
      await setTimeout(CONCURRENT_WRITE_POLL_MS);
      waited += CONCURRENT_WRITE_POLL_MS;
      now = await current();
    }
    if (now && replaced(now)) return now;
    throw new RefreshFailure(error.message);
  }
  const stored = await storeRefreshedTokens(
    sql,
    account.id,
    refreshToken.stored,
    storedTokens(tokens, social.cipher),
  );
  if (stored) return stored;
  // Another refresh or a sign-in wrote first: its set stays whole and answers this caller.
  const now = await current();
  if (!now) throw new AuthError("ACCOUNT_NOT_FOUND");
  return now;
}

/**
 * refreshAccount, shared by every request of this app for the same account meanwhile;
 * a refresh the provider refused or failed answers the caller's own `failure` code.
 */
async function sharedRefresh(refresh: Refresh, failure: ErrorCode): Promise<AccountRow> {
  const { social, account } = refresh;
  let pending = social.refreshes.get(account.id);
  if (!pending) {
    const started = refreshAccount(refresh);
    social.refreshes.set(account.id, started);
    const done = () => {
      if (social.refreshes.get(account.id) === started) social.refreshes.delete(account.id);
    };
    started.then(done, done);
    pending = started;
  }
  try {
    return await pending;
  } catch (error) {
    if (error instanceof RefreshFailure) throw new AuthError(failure);
    throw error;
  }
}

/**
 * The account with an access token good for more than the next five seconds, where a
 * refresh can give one: refreshed first when the stored token is missing or about to
 * expire and there is a refresh token the provider takes. Otherwise the stored tokens
 * as they are. A refresh that fails is `failure`.
 */
async function withFreshAccessToken(
  social: SocialContext,
  sql: Sql,
  account: AccountRow,
  provider: () => Promise<ResolvedProvider>,
  failure: ErrorCode,
  logger: LogSink,
): Promise<AccountRow> {
  const refreshToken = refreshTokenOf(social, account);
  if (!refreshToken) return account;
  if (open(social, account.accessToken) && !expiresSoon(account)) return account;
  const resolved = await provider();
  if (!resolved.tokenRefresh) return account;
  return sharedRefresh({ social, sql, provider: resolved, account, refreshToken, logger }, failure);
}

/** get-access-token: the caller's access token for the account, refreshed when due. */
export async function getAccessToken(
  social: SocialContext,
  sql: Sql,
  input: TokenRequest,
): Promise<AccessTokenAnswer> {
  const { logger } = input;
  const failure = "FAILED_TO_GET_ACCESS_TOKEN";
  const account = await selectAccount(social, sql, input.userId, input.selector);
  const row = await withFreshAccessToken(
    social,
    sql,
    account,
    () => providerOf(social, account.providerId, failure, logger),
    failure,
    logger,
  );
  const accessToken = open(social, row.accessToken);
  if (!accessToken) throw new AuthError(failure);
  return {
    accessToken,
    accessTokenExpiresAt: row.accessTokenExpiresAt,
    scopes: scopesOf(row.scope),
    idToken: open(social, row.idToken),
  };
}

/** refresh-token: a refresh now, with the account's refresh token, and the new tokens. */
export async function refreshTokens(
  social: SocialContext,
  sql: Sql,
  input: TokenRequest,
): Promise<RefreshAnswer> {
  const { logger } = input;
  const failure = "FAILED_TO_REFRESH_ACCESS_TOKEN";
  const account = await selectAccount(social, sql, input.userId, input.selector);
  const provider = await providerOf(social, account.providerId, failure, logger);
  if (!provider.tokenRefresh) throw new AuthError("TOKEN_REFRESH_NOT_SUPPORTED");
  const refreshToken = refreshTokenOf(social, account);
  if (!refreshToken) throw new AuthError("REFRESH_TOKEN_NOT_FOUND");
  const row = await sharedRefresh(
    { social, sql, provider, account, refreshToken, logger },
    failure,
  );
  const accessToken = open(social, row.accessToken);
  if (!accessToken) throw new AuthError(failure);
  return {
    accessToken,
    refreshToken: open(social, row.refreshToken),
    accessTokenExpiresAt: row.accessTokenExpiresAt,
    refreshTokenExpiresAt: row.refreshTokenExpiresAt,
    scope: row.scope,
    idToken: open(social, row.idToken),
    providerId: row.providerId,
    accountId: row.accountId,
  };
}

/**
 * The claims of the stored id token while it still passes every check (signature,
 * issuer, audience, expiry), for the providers whose profile is the id token (Apple);
 * otherwise none, and the profile comes from the provider's API.
 */
async function storedIdTokenClaims(
  social: SocialContext,
  provider: ResolvedProvider,
  idToken: string | null,
): Promise<Record<string, unknown> | undefined> {
  if (!idToken || !provider.idToken) return undefined;
  try {
    return await verifiedIdTokenClaims(social, idToken, {
      ...provider.idToken,
      audience: provider.clientId,
    });
  } catch {
    return undefined;
  }
}

/**
 * account-info's `data` for a provider account: the provider's own fields about the
 * user, read with the account's access token (refreshed first when due).
 */
export function providerProfileReader(
  social: SocialContext,
  sql: Sql,
  logger: LogSink,
): ProviderProfileReader {
  return async (account) => {
    if (!isConfigured(social, account.providerId)) throw new AuthError("PROVIDER_NOT_CONFIGURED");
    // An issuer that cannot be discovered answers 502 PROVIDER_UNAVAILABLE, as at sign-in.
    const provider = await resolveProvider(social, account.providerId);
    if (!provider) throw new AuthError("PROVIDER_NOT_CONFIGURED");
    const row = await withFreshAccessToken(
      social,
      sql,
      account,
      async () => provider,
      "FAILED_TO_GET_ACCESS_TOKEN",
      logger,
    );
    const accessToken = open(social, row.accessToken);
    if (!accessToken) throw new AuthError("ACCESS_TOKEN_NOT_FOUND");
    const idToken = open(social, row.idToken);
    let result: ProfileResult | null;
    try {
      result = await provider.fetchProfile({
        tokens: {
          accessToken,
          idToken: idToken ?? undefined,
          accessTokenExpiresAt: row.accessTokenExpiresAt ?? undefined,
          scopes: scopesOf(row.scope),
        },
        endpoints: provider.endpoints,
        idTokenClaims: await storedIdTokenClaims(social, provider, idToken),
        fetchJson: social.fetchJson,
        clientId: provider.clientId,
      });
    } catch (error) {
      logger.warn(
        { provider: provider.id, step: "profile", reason: (error as Error).message },
        "account-info: the provider's profile could not be read",
      );
      throw new AuthError("FAILED_TO_GET_USER_INFO");
    }
    if (!result) throw new AuthError("FAILED_TO_GET_USER_INFO");
    return result.raw;
  };
}
