/**
 * sign-in/social and link-social with an id token the client got from the provider
 * itself (no redirect). The token is checked by the app's IdTokenVerifier; from there
 * the profile takes the callback's path, and refusals answer as errors instead of
 * redirects.
 */
import type { Sql } from "../db/connection.js";
import { AuthError } from "../errors.js";
import type { LogSink } from "../logger.js";
import type { UserRow } from "../users/queries.js";
import type { SocialContext } from "./context.js";
import { checkedProfile } from "./flow.js";
import { verifyPostedIdToken } from "./oidc.js";
import type { IdTokenInput } from "./ports.js";
import type { ResolvedProvider } from "./resolve.js";
import { linkProfile, type Refusal, signInWithProfile } from "./sign-in.js";

const REFUSALS: Record<Refusal, () => AuthError> = {
  unable_to_link_account: () => new AuthError("ACCOUNT_NOT_LINKED"),
  signup_disabled: () => new AuthError("SIGNUP_DISABLED"),
  account_already_linked_to_different_user: () => new AuthError("SOCIAL_ACCOUNT_ALREADY_LINKED"),
  email_does_not_match: () => new AuthError("EMAIL_MISMATCH"),
  BANNED_USER: () => new AuthError("BANNED_USER"),
};

async function verified(
  social: SocialContext,
  provider: ResolvedProvider,
  idToken: IdTokenInput,
  logger: LogSink,
) {
  const { profile, tokens } = social.verifyIdToken
    ? await social.verifyIdToken(provider, idToken)
    : await verifyPostedIdToken(social, provider, idToken, logger);
  const checked = checkedProfile(profile);
  if (!checked) throw new AuthError("USER_EMAIL_NOT_FOUND");
  return { profile: checked, tokens };
}

/** The user the id token signs in (created when the rules allow). */
export async function signInWithIdToken(
  social: SocialContext,
  sql: Sql,
  provider: ResolvedProvider,
  idToken: IdTokenInput,
  options: { requestSignUp: boolean; logger: LogSink },
): Promise<UserRow> {
  const { profile, tokens } = await verified(social, provider, idToken, options.logger);
  const outcome = await signInWithProfile(sql, social.config, social.cipher, {
    providerId: provider.id,
    profile,
    tokens,
    requestSignUp: options.requestSignUp,
    signUp: provider.signUp,
  });
  if (outcome.kind === "refused") throw outcome.error ?? REFUSALS[outcome.code]();
  return outcome.user;
}

/** Links the id token's account to the signed-in user. */
export async function linkWithIdToken(
  social: SocialContext,
  sql: Sql,
  provider: ResolvedProvider,
  idToken: IdTokenInput,
  userId: string,
  logger: LogSink,
): Promise<void> {
  const { profile, tokens } = await verified(social, provider, idToken, logger);
  const outcome = await linkProfile(sql, social.config, social.cipher, {
    providerId: provider.id,
    profile,
    tokens,
    userId,
  });
  if (outcome.kind === "refused") throw outcome.error ?? REFUSALS[outcome.code]();
}
