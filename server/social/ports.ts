/**
 * The shapes social sign-in's parts share: a resolved provider, and what it needs from
 * parts it does not own, the cipher of stored provider tokens and the verifier of id
 * tokens a client posts. buildApp gives both (context.ts); tests may give
 * their own.
 */
import type {
  ProviderDefinition,
  ProviderEndpoints,
  ProviderTokens,
  SocialProfile,
} from "./provider.js";

/** A configured provider made concrete by resolveProvider (resolve.ts). */
export interface ResolvedProvider {
  id: string;
  name: string;
  clientId: string;
  clientSecret: string;
  endpoints: ProviderEndpoints;
  /** The configuration's scopes, else the definition's. */
  scopes: string[];
  scopeSeparator: " " | ",";
  pkce: boolean;
  tokenEndpointAuth: "client_secret_basic" | "client_secret_post";
  authorizationParams: Record<string, string>;
  clientIdParameter: string;
  /** Callback parameters the token request must carry too (VK ID's device_id). */
  callbackTokenParams: string[];
  /** Headers for every token endpoint request (Reddit's descriptive User-Agent). */
  tokenRequestHeaders: Record<string, string>;
  /** Whether the token endpoint refreshes access tokens (the definition's tokenRefresh). */
  tokenRefresh: boolean;
  /** The configured redirect URI; without it, the callback route under baseURL. */
  redirectURI?: string;
  /** How id tokens are checked; absent, an id token is stored but its claims are not read. */
  idToken?: { issuers: string[]; jwksUri: string };
  /** The issuer an authorization response's `iss` must name, and whether it must be there. */
  issuer?: { value: string; required: boolean };
  signUp: { disabled: boolean; implicitDisabled: boolean };
  fetchProfile: ProviderDefinition["fetchProfile"];
}

/** Encrypts provider tokens before they are stored, and reads them back. */
export interface TokenCipher {
  encrypt(plain: string): string;
  /** The plain token, or null when the stored value cannot be read (another key, tampering). */
  decrypt(stored: string): string | null;
  /**
   * The value sealed again under the newest secret when an older one sealed it (secrets
   * rotating); null when it needs nothing.
   */
  reseal?(stored: string): string | null;
}

/** An id token a client obtained from the provider itself (sign-in/social, link-social). */
export interface IdTokenInput {
  token: string;
  nonce?: string;
  accessToken?: string;
  refreshToken?: string;
  /** When the access token expires, in milliseconds since the epoch. */
  expiresAt?: number;
}

/** Checks an id token of `provider` and reads the user from it; throws AuthError when not valid. */
export type IdTokenVerifier = (
  provider: ResolvedProvider,
  idToken: IdTokenInput,
) => Promise<{ profile: SocialProfile; tokens: ProviderTokens }>;
