/**
 * The OAuth 2.0 requests authd makes for a provider: the authorization URL the browser
 * is sent to, the exchange of the returned code for tokens, and the refresh of an access
 * token. Both token requests are one plain form POST to the token endpoint, so that
 * providers which stray from the standard in small ways still work.
 */
import { sha256 } from "../crypto/digest.js";
import { type RequestLimits, requestJson } from "./fetch.js";
import type { ProviderTokens } from "./provider.js";
import type { ResolvedProvider } from "./resolve.js";

/** A token request failed; `reason` is safe to log (a status or the provider's error code). */
export class TokenExchangeError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "TokenExchangeError";
  }
}

export interface AuthorizationRequest {
  state: string;
  redirectURI: string;
  scopes: string[];
  codeVerifier?: string;
  nonce?: string;
  loginHint?: string;
}

/** The provider's authorization URL with every parameter of this sign-in. */
export function authorizationUrl(
  provider: ResolvedProvider,
  request: AuthorizationRequest,
): string {
  const url = new URL(provider.endpoints.authorizationEndpoint);
  const parameters = url.searchParams;
  // The definition's extras first: the flow's own parameters below always win.
  for (const [key, value] of Object.entries(provider.authorizationParams)) {
    parameters.set(key, value);
  }
  parameters.set("response_type", "code");
  parameters.set(provider.clientIdParameter, provider.clientId);
  parameters.set("redirect_uri", request.redirectURI);
  if (request.scopes.length > 0) {
    parameters.set("scope", request.scopes.join(provider.scopeSeparator));
  }
  parameters.set("state", request.state);
  if (request.codeVerifier !== undefined) {
    // S256: the base64url SHA-256 of the verifier, which is exactly what sha256() gives.
    parameters.set("code_challenge", sha256(request.codeVerifier));
    parameters.set("code_challenge_method", "S256");
  }
  if (request.nonce !== undefined) parameters.set("nonce", request.nonce);
  if (request.loginHint) parameters.set("login_hint", request.loginHint);
  return url.toString();
}

/** Client credentials in a Basic header are form-encoded first. */
function formEncode(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, "+");
}

/** A century: a longer lifetime is no lifetime a provider means, so it counts as none given. */
const LONGEST_LIFETIME_SECONDS = 100 * 365 * 24 * 3600;

function seconds(value: unknown): number | undefined {
  const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof number === "number" && number > 0 && number <= LONGEST_LIFETIME_SECONDS
    ? number
    : undefined;
}

function optionalText(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** A token endpoint's JSON answer as ProviderTokens, or a TokenExchangeError. */
export function parseTokenAnswer(json: unknown, now = Date.now()): ProviderTokens {
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw new TokenExchangeError("answer is not a JSON object");
  }
  const answer = json as Record<string, unknown>;
  const accessToken = optionalText(answer.access_token);
  if (!accessToken) throw new TokenExchangeError("answer has no access_token");
  const expiresIn = seconds(answer.expires_in);
  const refreshExpiresIn = seconds(answer.refresh_token_expires_in);
  const scope = optionalText(answer.scope);
  return {
    accessToken,
    refreshToken: optionalText(answer.refresh_token),
    idToken: optionalText(answer.id_token),
    accessTokenExpiresAt: expiresIn === undefined ? undefined : new Date(now + expiresIn * 1000),
    refreshTokenExpiresAt:
      refreshExpiresIn === undefined ? undefined : new Date(now + refreshExpiresIn * 1000),
    scopes: scope === undefined ? undefined : scope.split(/[\s,]+/).filter(Boolean),
    tokenType: optionalText(answer.token_type),
  };
}

/**
 * One request to the token endpoint with the client's credentials, as the provider
 * wants them: in a Basic header or as form fields (under its clientIdParameter), with
 * its tokenRequestHeaders. Throws TokenExchangeError.
 */
async function requestTokens(
  provider: ResolvedProvider,
  body: URLSearchParams,
  limits: Pick<RequestLimits, "timeoutMs" | "maxBytes">,
): Promise<ProviderTokens> {
  const headers: Record<string, string> = {
    ...provider.tokenRequestHeaders,
    "content-type": "application/x-www-form-urlencoded",
  };
  if (provider.tokenEndpointAuth === "client_secret_basic") {
    const credentials = `${formEncode(provider.clientId)}:${formEncode(provider.clientSecret)}`;
    headers.authorization = `Basic ${Buffer.from(credentials).toString("base64")}`;
  } else {
    body.set(provider.clientIdParameter, provider.clientId);
    body.set("client_secret", provider.clientSecret);
  }
  let answer: Awaited<ReturnType<typeof requestJson>>;
  try {
    answer = await requestJson(
      provider.endpoints.tokenEndpoint,
      { method: "POST", headers, body: body.toString() },
      limits,
    );
  } catch (error) {
    throw new TokenExchangeError((error as Error).message);
  }
  const error = (answer.json as { error?: unknown } | null)?.error;
  if (answer.status < 200 || answer.status >= 300 || error !== undefined) {
    // The provider's error code (invalid_grant…) says why without carrying a secret.
    const code = typeof error === "string" && /^[\w.-]{1,64}$/.test(error) ? `: ${error}` : "";
    throw new TokenExchangeError(`HTTP ${answer.status}${code}`);
  }
  return parseTokenAnswer(answer.json);
}

/** Trades the authorization code for tokens; throws TokenExchangeError. */
export async function exchangeCode(
  provider: ResolvedProvider,
  input: {
    code: string;
    redirectURI: string;
    codeVerifier?: string;
    /** Callback parameters the provider wants back (its callbackTokenParams). */
    callbackParams?: Record<string, string>;
  },
  limits: Pick<RequestLimits, "timeoutMs" | "maxBytes">,
): Promise<ProviderTokens> {
  const body = new URLSearchParams({
    grant_type: "authorization_code",
    code: input.code,
    redirect_uri: input.redirectURI,
  });
  if (input.codeVerifier !== undefined) body.set("code_verifier", input.codeVerifier);
  for (const name of provider.callbackTokenParams) {
    const value = input.callbackParams?.[name];
    if (value !== undefined) body.set(name, value);
  }
  return requestTokens(provider, body, limits);
}

/**
 * Trades a refresh token for a new access token; the answer carries a new refresh token
 * only where the provider rotates them. Throws TokenExchangeError.
 */
export async function refreshAccessToken(
  provider: ResolvedProvider,
  refreshToken: string,
  limits: Pick<RequestLimits, "timeoutMs" | "maxBytes">,
): Promise<ProviderTokens> {
  const body = new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken });
  return requestTokens(provider, body, limits);
}
