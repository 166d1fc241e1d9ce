/**
 * What one app keeps for social sign-in: its provider catalogue, its token cipher, its
 * request bounds, and what it learnt from providers (discovery documents, key sets).
 * buildApp makes one per app; two apps in one process share none of it. A provider
 * configured without any source of endpoints stops the app here (ConfigError).
 */
import type { JWTVerifyGetKey } from "jose";
import { type AuthdConfig, ConfigError } from "../config.js";
import { providerSourceProblems } from "./config-check.js";
import { createProviderFetch, DEFAULT_LIMITS, type RequestLimits } from "./fetch.js";
import { BUILT_IN_PROVIDERS, createAppTokenCipher, verifyIdTokenSignIn } from "./merge-points.js";
import type { IdTokenVerifier, TokenCipher } from "./ports.js";
import type { ProviderDefinition, ProviderFetch } from "./provider.js";

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
  verifyIdToken: IdTokenVerifier;
  limits: RequestLimits;
  fetchJson: ProviderFetch;
  /** Discovery documents by provider id, shared by concurrent requests, kept an hour. */
  discovered: Map<string, { expiresAt: number; pending: Promise<DiscoveredIssuer> }>;
  /** Key sets by URL, each with its own cache of keys. */
  keySets: Map<string, JWTVerifyGetKey>;
}

export function createSocialContext(
  config: AuthdConfig,
  secret: string,
  options: SocialOptions = {},
): SocialContext {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const catalogue = options.catalogue ?? BUILT_IN_PROVIDERS;
  const problems = providerSourceProblems(config, catalogue);
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    config,
    catalogue,
    cipher: options.cipher ?? createAppTokenCipher(secret),
    verifyIdToken: options.verifyIdToken ?? verifyIdTokenSignIn,
    limits,
    fetchJson: createProviderFetch(limits),
    discovered: new Map(),
    keySets: new Map(),
  };
}
