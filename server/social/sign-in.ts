/**
 * What a provider's profile does to authd's users and accounts, in one transaction
 * each: sign in the owner of the provider account; link the account to the user with
 * the same address when the rules allow; create the user; or link it to a signed-in
 * user (link-social). A refusal writes nothing.
 */
import {
  findAccountByProviderKey,
  insertProviderAccount,
  type StoredProviderTokens,
  updateProviderTokens,
} from "../accounts/accounts.js";
import type { AuthdConfig } from "../config.js";
import { generateId } from "../crypto/random.js";
import type { Queryable, Sql } from "../db/connection.js";
import { isUniqueViolation, transaction } from "../db/transaction.js";
import { AuthError } from "../errors.js";
import type { UserRow } from "../users/queries.js";
import {
  assertNotBanned,
  findUserByEmail,
  findUserById,
  insertUser,
  setEmailVerified,
} from "../users/users.js";
import type { TokenCipher } from "./ports.js";
import type { ProviderTokens, SocialProfile } from "./provider.js";
import type { SocialRedirectError } from "./redirect-errors.js";

/** Why a profile signs no one in (the `error` of the redirect). */
export type Refusal = Extract<
  SocialRedirectError,
  | "unable_to_link_account"
  | "signup_disabled"
  | "account_already_linked_to_different_user"
  | "email_does_not_match"
  | "BANNED_USER"
>;

export type SignInOutcome = { kind: "signed-in"; user: UserRow; isNewUser: boolean } | Refused;

/** A refusal; a ban carries its own error, with the reason and end the caller may show. */
export type Refused = { kind: "refused"; code: Refusal; error?: AuthError };

export type LinkOutcome = { kind: "linked"; user: UserRow } | Refused;

/** A profile whose email is present and normalized (the callback checked it). */
export interface CheckedProfile extends SocialProfile {
  email: string;
}

export interface ProfileInput {
  providerId: string;
  profile: CheckedProfile;
  tokens: ProviderTokens;
}

/** The columns of the account row: tokens encrypted, expiries and scopes as the provider said. */
export function storedTokens(tokens: ProviderTokens, cipher: TokenCipher): StoredProviderTokens {
  const seal = (value: string | undefined) => (value ? cipher.encrypt(value) : null);
  return {
    accessToken: seal(tokens.accessToken),
    refreshToken: seal(tokens.refreshToken),
    idToken: seal(tokens.idToken),
    accessTokenExpiresAt: tokens.accessTokenExpiresAt ?? null,
    refreshTokenExpiresAt: tokens.refreshTokenExpiresAt ?? null,
    scope: tokens.scopes && tokens.scopes.length > 0 ? tokens.scopes.join(",") : null,
  };
}

/** Names and images from providers are cut to what authd stores elsewhere. */
function profileName(profile: CheckedProfile): string {
  return profile.name.slice(0, 255);
}

function profileImage(profile: CheckedProfile): string | null {
  return profile.image && profile.image.length <= 2048 ? profile.image : null;
}

/** Gives the user the provider account of the profile, holding its tokens. */
async function addAccount(
  tx: Queryable,
  userId: string,
  input: Pick<ProfileInput, "providerId" | "profile">,
  tokens: StoredProviderTokens,
): Promise<void> {
  await insertProviderAccount(tx, {
    id: generateId(),
    userId,
    providerId: input.providerId,
    accountId: input.profile.id,
    ...tokens,
  });
}

/**
 * Runs `work` in a transaction, once more when a concurrent sign-in created the same
 * user or account first: the second run finds it and goes on from there.
 */
async function withOneRetry<T>(sql: Sql, work: (tx: Queryable) => Promise<T>): Promise<T> {
  try {
    return await transaction(sql, work);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return transaction(sql, work);
  }
}

/** Marks the address verified when the provider vouches for this very address. */
async function verifyIfVouched(
  tx: Queryable,
  user: UserRow,
  profile: CheckedProfile,
): Promise<UserRow> {
  if (user.emailVerified || !profile.emailVerified || user.email !== profile.email) return user;
  return (await setEmailVerified(tx, user.id)) ?? user;
}

/** A ban refuses before anything is written (an expired ban lifts, as at password sign-in). */
async function unlessBanned(tx: Queryable, user: UserRow): Promise<UserRow | Refused> {
  try {
    return await assertNotBanned(tx, user);
  } catch (error) {
    if (error instanceof AuthError && error.code === "BANNED_USER") {
      return { kind: "refused", code: "BANNED_USER", error };
    }
    throw error;
  }
}

/**
 * Sign-in with a provider's profile. The account of (provider, profile id) signs its
 * user in. Otherwise a user with the same address gets the account linked when linking
 * is on and the provider is trusted or vouches for the address (which then counts as
 * verified). Otherwise a new user, unless sign-up is off for the provider.
 */
export async function signInWithProfile(
  sql: Sql,
  config: AuthdConfig,
  cipher: TokenCipher,
  input: ProfileInput & {
    requestSignUp: boolean;
    signUp: { disabled: boolean; implicitDisabled: boolean };
  },
): Promise<SignInOutcome> {
  const { profile, providerId } = input;
  const tokens = storedTokens(input.tokens, cipher);
  const linking = config.account.accountLinking;
  return withOneRetry(sql, async (tx): Promise<SignInOutcome> => {
    const account = await findAccountByProviderKey(tx, providerId, profile.id);
    if (account) {
      const owner = await findUserById(tx, account.userId);
      if (!owner) return { kind: "refused", code: "unable_to_link_account" };
      const user = await unlessBanned(tx, owner);
      if ("kind" in user) return user;
      await updateProviderTokens(tx, account.id, tokens);
      return {
        kind: "signed-in",
        user: await verifyIfVouched(tx, user, profile),
        isNewUser: false,
      };
    }

    const existing = await findUserByEmail(tx, profile.email);
    if (existing) {
      const trusted = linking.trustedProviders.includes(providerId);
      if (!linking.enabled || (!trusted && !profile.emailVerified)) {
        return { kind: "refused", code: "unable_to_link_account" };
      }
      const user = await unlessBanned(tx, existing);
      if ("kind" in user) return user;
      await addAccount(tx, user.id, input, tokens);
      return {
        kind: "signed-in",
        user: await verifyIfVouched(tx, user, profile),
        isNewUser: false,
      };
    }

    if (input.signUp.disabled || (input.signUp.implicitDisabled && !input.requestSignUp)) {
      return { kind: "refused", code: "signup_disabled" };
    }
    const user = await insertUser(tx, {
      id: generateId(),
      email: profile.email,
      name: profileName(profile),
      image: profileImage(profile),
      emailVerified: profile.emailVerified,
      role: config.admin.defaultRole,
    });
    await addAccount(tx, user.id, input, tokens);
    return { kind: "signed-in", user, isNewUser: true };
  });
}

/**
 * link-social's callback: the account joins the signed-in user who asked, unless it
 * belongs to someone else, or (without `allowDifferentEmails`) its address is not the
 * user's. Linking an account the user already has refreshes its tokens.
 */
export async function linkProfile(
  sql: Sql,
  config: AuthdConfig,
  cipher: TokenCipher,
  input: ProfileInput & { userId: string },
): Promise<LinkOutcome> {
  const { profile, providerId } = input;
  const tokens = storedTokens(input.tokens, cipher);
  return withOneRetry(sql, async (tx): Promise<LinkOutcome> => {
    const found = await findUserById(tx, input.userId);
    if (!found) return { kind: "refused", code: "unable_to_link_account" };
    const account = await findAccountByProviderKey(tx, providerId, profile.id);
    if (account && account.userId !== found.id) {
      return { kind: "refused", code: "account_already_linked_to_different_user" };
    }
    if (profile.email !== found.email && !config.account.accountLinking.allowDifferentEmails) {
      return { kind: "refused", code: "email_does_not_match" };
    }
    if (account) {
      await updateProviderTokens(tx, account.id, tokens);
    } else {
      await addAccount(tx, found.id, input, tokens);
    }
    return { kind: "linked", user: await verifyIfVouched(tx, found, profile) };
  });
}
