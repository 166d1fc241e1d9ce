/**
 * The authorization-code flow from start to callback, without HTTP: the state and the
 * authorization URL; then the callback's checks (state, browser binding, provider
 * error, issuer), the code exchange, the profile and what it does to users and
 * accounts. The routes turn outcomes into cookies and redirects.
 */
import { constantTimeEqual } from "../crypto/digest.js";
import type { Sql } from "../db/connection.js";
import { AuthError } from "../errors.js";
import type { LogSink } from "../logger.js";
import type { UserRow } from "../users/queries.js";
import { requireValidEmail } from "../users/users.js";
import type { SocialContext } from "./context.js";
import { authorizationUrl, exchangeCode } from "./oauth.js";
import { verifiedIdTokenClaims } from "./oidc.js";
import type { ProviderTokens, SocialProfile } from "./provider.js";
import type { SocialRedirectError } from "./redirect-errors.js";
import { isConfigured, type ResolvedProvider, resolveProvider } from "./resolve.js";
import { type CheckedProfile, linkProfile, signInWithProfile } from "./sign-in.js";
import { consumeState, createState, type StateData } from "./state.js";

export interface BeginInput {
  provider: ResolvedProvider;
  redirectURI: string;
  callbackURL: string;
  newUserCallbackURL?: string;
  errorCallbackURL?: string;
  /** Asked for on top of the provider's scopes. */
  scopes?: string[];
  loginHint?: string;
  requestSignUp: boolean;
  /** link-social: the signed-in user the account will join. */
  link?: { userId: string; email: string };
}

/** Stores the state of a new authorization and answers where to send the browser. */
export async function beginAuthorization(
  sql: Sql,
  input: BeginInput,
): Promise<{ url: string; state: string }> {
  const { provider } = input;
  const { state, data } = await createState(
    sql,
    {
      providerId: provider.id,
      redirectURI: input.redirectURI,
      callbackURL: input.callbackURL,
      newUserCallbackURL: input.newUserCallbackURL,
      errorCallbackURL: input.errorCallbackURL,
      link: input.link,
      requestSignUp: input.requestSignUp,
    },
    // A nonce where id tokens are checked: it ties the id token to this authorization.
    { withNonce: provider.idToken !== undefined },
  );
  const url = authorizationUrl(provider, {
    state,
    redirectURI: input.redirectURI,
    scopes: [...new Set([...provider.scopes, ...(input.scopes ?? [])])],
    codeVerifier: provider.pkce ? data.codeVerifier : undefined,
    nonce: data.nonce,
    loginHint: input.loginHint,
  });
  return { url, state };
}

/** What the callback received, from the query (or a form_post turned into one). */
export interface CallbackParameters {
  code?: string;
  state?: string;
  error?: string;
  error_description?: string;
  iss?: string;
  device_id?: string;
  user?: string;
}

export type CallbackOutcome =
  /** `state` is what the stored state held, when it could be read (errorCallbackURL). */
  | { kind: "failed"; code: string; description?: string; state: StateData | null }
  | { kind: "signed-in"; user: UserRow; isNewUser: boolean; state: StateData }
  | { kind: "linked"; state: StateData };

/** A provider's error code passes through when it looks like one; anything else does not. */
const PROVIDER_ERROR = /^[A-Za-z0-9_.-]{1,64}$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g;

/** The parameters the callback carried, without the absent ones. */
function definedOnly(parameters: CallbackParameters): Record<string, string> {
  const present: Record<string, string> = {};
  for (const [name, value] of Object.entries(parameters)) {
    if (typeof value === "string") present[name] = value;
  }
  return present;
}

/** A provider's own OAuth error code, passed through to the app as it came. */
type ProviderError = string & { readonly fromProvider: true };

function failed(
  code: SocialRedirectError | ProviderError,
  state: StateData | null,
  description?: string,
): CallbackOutcome {
  return description
    ? { kind: "failed", code, description, state }
    : { kind: "failed", code, state };
}

/**
 * The callback: the state is used up whatever follows, and each failure answers the
 * redirect code clients know. The state must be the one this browser started with
 * (the state cookie), unexpired, and for this provider.
 */
export async function completeAuthorization(
  social: SocialContext,
  sql: Sql,
  input: {
    providerId: string;
    parameters: CallbackParameters;
    stateCookie: string | null;
    logger: LogSink;
  },
): Promise<CallbackOutcome> {
  const { providerId, parameters, logger } = input;
  if (!isConfigured(social, providerId)) return failed("oauth_provider_not_found", null);
  if (!parameters.state) return failed("state_not_found", null);
  const consumed = await consumeState(sql, parameters.state);
  if (!consumed.found) return failed("state_not_found", null);
  const { data } = consumed;
  if (data.providerId !== providerId) return failed("state_not_found", data);
  if (consumed.expired) return failed("state_not_found", data);
  // The browser that finishes must be the one that started: a callback link handed to
  // someone else signs nobody in.
  if (!input.stateCookie || !constantTimeEqual(input.stateCookie, parameters.state)) {
    return failed("please_restart_the_process", data);
  }
  if (parameters.error) {
    const code = PROVIDER_ERROR.test(parameters.error)
      ? (parameters.error as ProviderError)
      : "invalid_callback_request";
    const description = parameters.error_description?.replace(CONTROL_CHARACTERS, "").slice(0, 300);
    return failed(code, data, description);
  }
  if (!parameters.code) return failed("no_code", data);
  try {
    return await finish(social, sql, {
      data,
      code: parameters.code,
      iss: parameters.iss,
      callbackParams: definedOnly(parameters),
      logger,
    });
  } catch (error) {
    // The state is spent; the browser still goes to the errorCallbackURL it asked for.
    logger.error({ err: error, provider: providerId }, "social sign-in callback failed");
    return failed("internal_server_error", data);
  }
}

async function finish(
  social: SocialContext,
  sql: Sql,
  input: {
    data: StateData;
    code: string;
    iss?: string;
    callbackParams: Record<string, string>;
    logger: LogSink;
  },
): Promise<CallbackOutcome> {
  const { data, logger } = input;
  const log = (step: string, reason: string) =>
    logger.warn({ provider: data.providerId, step, reason }, `social sign-in: ${step} failed`);

  let provider: ResolvedProvider | null;
  try {
    provider = await resolveProvider(social, data.providerId);
  } catch (error) {
    if (error instanceof AuthError && error.code === "PROVIDER_UNAVAILABLE") {
      log("discovery", error.message);
      return failed("internal_server_error", data);
    }
    throw error;
  }
  if (!provider) return failed("oauth_provider_not_found", data);
  // Mix-up defence: an issuer that names itself in responses must name itself here.
  if (provider.issuer) {
    const named = input.iss;
    if (named === undefined ? provider.issuer.required : named !== provider.issuer.value) {
      return failed("invalid_callback_request", data);
    }
  }

  let tokens: ProviderTokens;
  try {
    tokens = await exchangeCode(
      provider,
      {
        code: input.code,
        redirectURI: data.redirectURI,
        codeVerifier: provider.pkce ? data.codeVerifier : undefined,
        callbackParams: input.callbackParams,
      },
      social.limits,
    );
  } catch (error) {
    log("code exchange", (error as Error).message);
    return failed("invalid_code", data);
  }

  let idTokenClaims: Record<string, unknown> | undefined;
  if (tokens.idToken && provider.idToken) {
    try {
      idTokenClaims = await verifiedIdTokenClaims(social, tokens.idToken, {
        ...provider.idToken,
        audience: provider.clientId,
        nonce: data.nonce,
      });
    } catch (error) {
      log("id token check", (error as Error).message);
      return failed("invalid_code", data);
    }
  }

  let profile: SocialProfile | null;
  try {
    const result = await provider.fetchProfile({
      tokens,
      endpoints: provider.endpoints,
      idTokenClaims,
      fetchJson: social.fetchJson,
      clientId: provider.clientId,
      callbackParams: input.callbackParams,
    });
    profile = result?.profile ?? null;
  } catch (error) {
    log("profile", (error as Error).message);
    return failed("unable_to_get_user_info", data);
  }
  if (!profile?.id) return failed("unable_to_get_user_info", data);
  const checked = checkedProfile(profile);
  if (!checked) return failed("email_not_found", data);

  if (data.link) {
    const outcome = await linkProfile(sql, social.config, social.cipher, {
      providerId: provider.id,
      profile: checked,
      tokens,
      userId: data.link.userId,
    });
    return outcome.kind === "linked" ? { kind: "linked", state: data } : failed(outcome.code, data);
  }
  const outcome = await signInWithProfile(sql, social.config, social.cipher, {
    providerId: provider.id,
    profile: checked,
    tokens,
    requestSignUp: data.requestSignUp,
    signUp: provider.signUp,
  });
  if (outcome.kind === "signed-in") {
    return { kind: "signed-in", user: outcome.user, isNewUser: outcome.isNewUser, state: data };
  }
  // A ban says why in error_description, as a password sign-in's answer does.
  return failed(outcome.code, data, outcome.error?.message);
}

/** The profile with its address normalized, or null when it has no usable address. */
export function checkedProfile(profile: SocialProfile): CheckedProfile | null {
  if (!profile.email) return null;
  try {
    return { ...profile, email: requireValidEmail(profile.email) };
  } catch {
    return null;
  }
}
