/**
 * The three pieces social sign-in takes from work that lands beside it, wired here and
 * nowhere else: the built-in provider catalogue, the cipher of stored provider tokens
 * and the verifier of id tokens posted to sign-in/social and link-social. Until they
 * land, the catalogue is empty, tokens are stored as they came and id-token sign-in
 * answers 404 ID_TOKEN_NOT_SUPPORTED.
 */
import { AuthError } from "../errors.js";
import type { IdTokenVerifier, TokenCipher } from "./ports.js";
import type { ProviderDefinition } from "./provider.js";

// TODO(merge): replace with `export { BUILT_IN_PROVIDERS } from "./providers/index.js";`
export const BUILT_IN_PROVIDERS: Readonly<Record<string, ProviderDefinition>> = {};

/**
 * TEMPORARY identity cipher: stores provider tokens unencrypted.
 * TODO(merge): return `createTokenCipher(...)` from ./token-crypto.js (AES-256-GCM) keyed
 * from `secret`, and delete TEMPORARY_IDENTITY_CIPHER.
 */
export const TEMPORARY_IDENTITY_CIPHER: TokenCipher = {
  encrypt: (plain) => plain,
  decrypt: (stored) => stored,
};

export function createAppTokenCipher(_secret: string): TokenCipher {
  return TEMPORARY_IDENTITY_CIPHER;
}

/** TODO(merge): the id-token verifier replaces this stub. */
export const verifyIdTokenSignIn: IdTokenVerifier = async () => {
  throw new AuthError("ID_TOKEN_NOT_SUPPORTED");
};
