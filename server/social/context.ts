/**
 * What one app keeps for social sign-in: its provider catalogue, its token cipher, its
 * request bounds, what it learnt from providers (discovery documents, key sets) and the
 * provider token refreshes under way. buildApp makes one per app; two apps in one
 * process share none of it. A provider configured without any source of endpoints stops
 * the app here (ConfigError).
 */
import type { AccountRow } from "../accounts/accounts.js";
import { type AuthdConfig, ConfigError } from "../config.js";
import { providerSourceProblems } from "./config-check.js";
import { createProviderFetch, DEFAULT_LIMITS, type RequestLimits } from "./fetch.js";
import { createIdTokenVerifier, type IdTokenVerifier as KeySetVerifier } from "./id-token.js";
import type { IdTokenVerifier, TokenCipher } from "./ports.js";
import type { ProviderDefinition, ProviderFetch } from "./provider.js";
import { BUILT_IN_PROVIDERS } from "./providers/index.js";
import { createTokenCipher } from "./token-crypto.js";

/** An issuer's discovery document, as far as authd uses it. */
export interface DiscoveredIssuer {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  userInfoEndpoint?: string;
  jwksUri?: string;
  /** Whether the issuer takes PKCE with S256 (or does not say). */
  pkce: boolean;
  tokenEndpointAuth: "client_secret_basic" | "client_secret_post";
  /** The issuer promises `iss` in every authorization response. */
  issParameter: boolean;
}

/** Replacements for tests, and for buildApp's callers: anything left out takes its default. */
export interface SocialOptions {
  catalogue?: Readonly<Record<string, ProviderDefinition>>;
  cipher?: TokenCipher;
  verifyIdToken?: IdTokenVerifier;
  limits?: Partial<RequestLimits>;
}

export interface SocialContext {
  config: AuthdConfig;
  catalogue: Readonly<Record<string, ProviderDefinition>>;
  cipher: TokenCipher;
  /** A replacement for the checks of posted id tokens (tests); absent, oidc.ts checks them. */
  verifyIdToken?: IdTokenVerifier;
  limits: RequestLimits;
  fetchJson: ProviderFetch;
  /** Discovery documents by provider id, shared by concurrent requests, kept an hour. */
  discovered: Map<string, { expiresAt: number; pending: Promise<DiscoveredIssuer> }>;
  /** Checks id tokens against the providers' key sets, which it keeps (bounded). */
  idTokens: KeySetVerifier;
  /**
   * Refreshes of provider tokens under way, by account id: concurrent requests for one
   * account share one request to the provider (provider-tokens.ts). Each entry leaves
   * when its refresh ends.
   */
  refreshes: Map<string, Promise<AccountRow>>;
}

export function createSocialContext(
  config: AuthdConfig,
  secrets: string | readonly string[],
  options: SocialOptions = {},
): SocialContext {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const catalogue = options.catalogue ?? BUILT_IN_PROVIDERS;
  const problems = providerSourceProblems(config, catalogue);
  if (problems.length > 0) throw new ConfigError(problems);
  const social: SocialContext = {
    config,
    catalogue,
    cipher: options.cipher ?? createTokenCipher(secrets),
    limits,
    fetchJson: createProviderFetch(limits),
    discovered: new Map(),
    idTokens: createIdTokenVerifier({ timeoutMs: limits.discoveryTimeoutMs }),
    refreshes: new Map(),
  };
  if (options.verifyIdToken) social.verifyIdToken = options.verifyIdToken;
  return social;
}
