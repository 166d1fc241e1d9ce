/**
 * Social sign-in's requests and answers: sign-in/social, link-social, the callback (a
 * query, or a provider's form_post), the list of configured providers, and a linked
 * account's provider tokens (get-access-token, refresh-token).
 */
import { z } from "zod";
import { boundedString } from "../bounded-string.js";
import { userSchema } from "../sessions/schemas.js";

/** Checked like every redirect target by the origin hook (server/http/origin.ts). */
const redirectTarget = boundedString(2048);
const providerId = boundedString(64).min(1);
const scopes = z.array(boundedString(256).min(1)).max(50);

/** The last millisecond of the year 9999: later instants are no expiry a provider means. */
const LATEST_EXPIRY_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** An id token the client got from the provider itself (Google One Tap, native apps). */
const idTokenInput = z.object({
  token: boundedString(16384).min(1),
  nonce: boundedString(512).optional(),
  accessToken: boundedString(16384).optional(),
  refreshToken: boundedString(16384).optional(),
  /** When the access token expires, in milliseconds since 1970 (as `Date.now()`). */
  expiresAt: z.number().min(0).max(LATEST_EXPIRY_MS).optional(),
});

export const signInSocialBody = z.object({
  provider: providerId,
  callbackURL: redirectTarget.optional(),
  newUserCallbackURL: redirectTarget.optional(),
  errorCallbackURL: redirectTarget.optional(),
  disableRedirect: z.boolean().optional(),
  idToken: idTokenInput.optional(),
  /** Asked for on top of the provider's scopes. */
  scopes: scopes.optional(),
  requestSignUp: z.boolean().optional(),
  loginHint: boundedString(320).optional(),
  /** Accepted for compatibility and not used. */
  additionalData: z.record(z.string(), z.unknown()).optional(),
});

export const linkSocialBody = z.object({
  provider: providerId,
  callbackURL: redirectTarget.optional(),
  errorCallbackURL: redirectTarget.optional(),
  disableRedirect: z.boolean().optional(),
  idToken: idTokenInput.optional(),
  scopes: scopes.optional(),
  requestSignUp: z.boolean().optional(),
});

/** Repeated query keys arrive as arrays: the first one counts. */
const callbackValue = z
  .union([boundedString(4096), z.array(boundedString(4096))])
  .transform((value) => (Array.isArray(value) ? value[0] : value));

/** What a provider sends back, in the query or (form_post) in the body. */
export const callbackParameters = z.object({
  code: callbackValue.optional(),
  state: callbackValue.optional(),
  error: callbackValue.optional(),
  error_description: callbackValue.optional(),
  device_id: callbackValue.optional(),
  user: callbackValue.optional(),
  iss: callbackValue.optional(),
});

export const CALLBACK_PARAMETER_NAMES = Object.keys(callbackParameters.shape) as Array<
  keyof z.infer<typeof callbackParameters>
>;

export const callbackPath = z.object({ id: boundedString(64) });

/** Where the browser goes next (also in Location unless disableRedirect); or, for an id token, the session. */
export const signInSocialAnswer = z.object({
  url: z.string().optional(),
  redirect: z.boolean(),
  token: z.string().optional(),
  user: userSchema.optional(),
});

export const linkSocialAnswer = z.object({
  url: z.string(),
  redirect: z.boolean(),
  status: z.boolean().optional(),
});

export const socialProvidersAnswer = z.array(z.object({ id: z.string(), name: z.string() }));

/**
 * get-access-token and refresh-token: the older clients' `{providerId, accountId?}`
 * (accountId the row id or the provider's account id) or the current clients'
 * `{accountId}` (the row id); `userId`, when sent, must be the caller's.
 */
export const tokenAccountBody = z.object({
  providerId: providerId.optional(),
  accountId: boundedString(255).min(1).optional(),
  userId: boundedString(255).min(1).optional(),
});

export const accessTokenAnswer = z.object({
  accessToken: z.string(),
  accessTokenExpiresAt: z.date().nullable(),
  scopes: z.array(z.string()),
  idToken: z.string().nullable(),
});

export const refreshTokenAnswer = z.object({
  accessToken: z.string(),
  refreshToken: z.string().nullable(),
  accessTokenExpiresAt: z.date().nullable(),
  refreshTokenExpiresAt: z.date().nullable(),
  /** The granted scopes as stored, comma-separated. */
  scope: z.string().nullable(),
  idToken: z.string().nullable(),
  providerId: z.string(),
  /** The provider's id of the account, as list-accounts names it. */
  accountId: z.string(),
});
