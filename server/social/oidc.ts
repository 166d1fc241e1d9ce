/**
 * OpenID Connect: an issuer's discovery document (openid-client), the checks of id
 * tokens (jose, against the issuer's key set) and the standard claims as a profile, for
 * providers configured by `issuer` or by their three endpoints.
 */
import { AuthError } from "../errors.js";
import type { LogSink } from "../logger.js";
import type { DiscoveredIssuer, SocialContext } from "./context.js";
import { boundedFetch, ProviderRequestError, type RequestLimits } from "./fetch.js";
import { IdTokenError } from "./id-token.js";
import type { IdTokenInput, ResolvedProvider } from "./ports.js";
import type { ProfileRequest, ProfileResult, ProviderTokens, SocialProfile } from "./provider.js";

const DISCOVERY_LIFETIME_MS = 3600_000;
/** Provider clocks drift; a minute is what OpenID Connect clients commonly allow. */
const CALLBACK_CLOCK_TOLERANCE_SECONDS = 60;
/**
 * A posted token comes from the client, not straight from the token endpoint: its own
 * times get only the verifier's few seconds.
 */
const POSTED_CLOCK_TOLERANCE_SECONDS = 5;

// Loaded on first use: most requests never discover an issuer or check an id token.
const loadOpenIdClient = () => import("openid-client");

function endpoint(value: unknown, what: string, insecure: boolean): string {
  if (typeof value !== "string") throw new ProviderRequestError(`discovery lists no ${what}`);
  const url = new URL(value);
  // An https issuer may not send authd to plain http; an http issuer was chosen on purpose.
  if (url.protocol !== "https:" && !(insecure && url.protocol === "http:")) {
    throw new ProviderRequestError(`discovery lists a ${what} that is not https`);
  }
  return url.toString();
}

/**
 * Reads and checks an issuer's discovery document, within the time and size bounds of
 * `limits`; `authd doctor` calls it directly, without the hour-long cache below.
 */
export async function discoverIssuer(
  limits: Pick<RequestLimits, "discoveryTimeoutMs" | "maxBytes">,
  settings: { issuer: string; clientId: string; clientSecret: string },
): Promise<DiscoveredIssuer> {
  const client = await loadOpenIdClient();
  const issuerUrl = new URL(settings.issuer);
  const insecure = issuerUrl.protocol === "http:";
  const configuration = await client.discovery(
    issuerUrl,
    settings.clientId,
    settings.clientSecret,
    undefined,
    {
      // http is allowed only for an issuer configured as http (loopback, tests).
      execute: insecure ? [client.allowInsecureRequests] : [],
      timeout: Math.ceil(limits.discoveryTimeoutMs / 1000),
      [client.customFetch]: boundedFetch(limits),
    },
  );
  const metadata = configuration.serverMetadata();
  const methods = metadata.token_endpoint_auth_methods_supported;
  const challenges = metadata.code_challenge_methods_supported;
  return {
    issuer: metadata.issuer,
    authorizationEndpoint: endpoint(
      metadata.authorization_endpoint,
      "authorization endpoint",
      insecure,
    ),
    tokenEndpoint: endpoint(metadata.token_endpoint, "token endpoint", insecure),
    userInfoEndpoint:
      metadata.userinfo_endpoint === undefined
        ? undefined
        : endpoint(metadata.userinfo_endpoint, "userinfo endpoint", insecure),
    jwksUri:
      metadata.jwks_uri === undefined
        ? undefined
        : endpoint(metadata.jwks_uri, "jwks_uri", insecure),
    pkce: !Array.isArray(challenges) || challenges.includes("S256"),
    // Basic is the default when the issuer lists nothing; post only when basic is not offered.
    tokenEndpointAuth:
      Array.isArray(methods) &&
      !methods.includes("client_secret_basic") &&
      methods.includes("client_secret_post")
        ? "client_secret_post"
        : "client_secret_basic",
    issParameter: metadata.authorization_response_iss_parameter_supported === true,
  };
}

/**
 * The issuer's discovery document, fetched once an hour per app and shared by the
 * requests waiting for it; a failed fetch is forgotten so the next request tries again.
 */
export function discovered(
  social: SocialContext,
  id: string,
  settings: { issuer: string; clientId: string; clientSecret: string },
): Promise<DiscoveredIssuer> {
  const cached = social.discovered.get(id);
  if (cached && cached.expiresAt > Date.now()) return cached.pending;
  const pending = discoverIssuer(social.limits, settings);
  const entry = { expiresAt: Date.now() + DISCOVERY_LIFETIME_MS, pending };
  social.discovered.set(id, entry);
  pending.catch(() => {
    if (social.discovered.get(id) === entry) social.discovered.delete(id);
  });
  return pending;
}

/**
 * The claims of an id token the token endpoint sent: signed by a key of the issuer's
 * key set, issued by the issuer for this client, unexpired, and carrying the nonce the
 * authorization request sent. The app's verifier keeps the key sets.
 */
export function verifiedIdTokenClaims(
  social: SocialContext,
  idToken: string,
  expected: {
    issuers: string[];
    jwksUri: string;
    audience: string;
    nonce?: string;
    clockToleranceSeconds?: number;
  },
): Promise<Record<string, unknown>> {
  return social.idTokens.verify({
    token: idToken,
    jwksUri: expected.jwksUri,
    issuer: expected.issuers,
    audience: expected.audience,
    nonce: expected.nonce,
    clockToleranceSeconds: expected.clockToleranceSeconds ?? CALLBACK_CLOCK_TOLERANCE_SECONDS,
  });
}

/**
 * An id token a client got from the provider itself (sign-in/social, link-social):
 * verified like the callback's, then read into a profile by the provider's own rules
 * (which prefer the token's claims to its userinfo endpoint). A failed step is logged
 * with its reason, as the callback's are, since the answer only says INVALID_TOKEN.
 */
export async function verifyPostedIdToken(
  social: SocialContext,
  provider: ResolvedProvider,
  input: IdTokenInput,
  logger: LogSink,
): Promise<{ profile: SocialProfile; tokens: ProviderTokens }> {
  if (!provider.idToken) throw new AuthError("ID_TOKEN_NOT_SUPPORTED");
  const log = (step: string, reason: string) =>
    logger.warn({ provider: provider.id, step, reason }, `social sign-in: ${step} failed`);
  let claims: Record<string, unknown>;
  try {
    claims = await verifiedIdTokenClaims(social, input.token, {
      ...provider.idToken,
      audience: provider.clientId,
      nonce: input.nonce,
      clockToleranceSeconds: POSTED_CLOCK_TOLERANCE_SECONDS,
    });
  } catch (error) {
    if (error instanceof IdTokenError) log("id token check", error.reason);
    throw error;
  }
  const tokens: ProviderTokens = {
    accessToken: input.accessToken ?? "",
    refreshToken: input.refreshToken,
    idToken: input.token,
    accessTokenExpiresAt: input.expiresAt === undefined ? undefined : new Date(input.expiresAt),
  };
  let result: ProfileResult | null;
  try {
    result = await provider.fetchProfile({
      tokens,
      endpoints: provider.endpoints,
      idTokenClaims: claims,
      fetchJson: social.fetchJson,
      clientId: provider.clientId,
    });
  } catch (error) {
    log("profile", (error as Error).message);
    throw new AuthError("FAILED_TO_GET_USER_INFO");
  }
  if (!result?.profile.id) throw new AuthError("FAILED_TO_GET_USER_INFO");
  return { profile: result.profile, tokens };
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/**
 * The standard claims as a profile: the id token's, completed (and overridden) by the
 * userinfo endpoint's; a userinfo answer about another subject is refused. Without an
 * access token (an id token posted alone) userinfo cannot answer, so the claims suffice.
 */
export async function readStandardProfile(request: ProfileRequest): Promise<ProfileResult | null> {
  const claims = request.idTokenClaims ?? {};
  let userInfo: Record<string, unknown> = {};
  if (request.endpoints.userInfoEndpoint && request.tokens.accessToken) {
    const answer = await request.fetchJson(request.endpoints.userInfoEndpoint, {
      accessToken: request.tokens.accessToken,
    });
    if (typeof answer !== "object" || answer === null || Array.isArray(answer)) return null;
    userInfo = answer as Record<string, unknown>;
    if (claims.sub !== undefined && userInfo.sub !== claims.sub) return null;
  }
  const merged = { ...claims, ...userInfo };
  const id = text(merged.sub) ?? (typeof merged.sub === "number" ? String(merged.sub) : undefined);
  if (!id) return null;
  const joinedName = [text(merged.given_name), text(merged.family_name)].filter(Boolean).join(" ");
  return {
    profile: {
      id,
      email: text(merged.email) ?? null,
      emailVerified: merged.email_verified === true || merged.email_verified === "true",
      name: text(merged.name) ?? (joinedName || text(merged.preferred_username) || ""),
      image: text(merged.picture) ?? null,
    },
    raw: Object.keys(userInfo).length > 0 ? userInfo : claims,
  };
}
