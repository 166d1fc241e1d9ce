/**
 * Provider tokens (access, refresh and id tokens of linked accounts) sealed at rest
 * (server/crypto/seal.ts), so a stored value tells by its prefix whether it is
 * encrypted and under which scheme.
 */
import { createSealer, SEALED_PREFIX } from "../crypto/seal.js";

export interface TokenCipher {
  /** The stored form of a token: `v1:` followed by IV and ciphertext, base64url. */
  encrypt(plain: string): string;
  /**
   * The token a stored value holds; null when it is encrypted but cannot be read
   * (tampered, or under a secret no longer configured).
   */
  decrypt(stored: string): string | null;
  /** The value sealed under the newest secret when an older one sealed it, else null. */
  reseal(stored: string): string | null;
}

/** Any `v<digits>:` start marks a value written by some version of this scheme. */
const VERSIONED = /^v[0-9]+:/;
/** A fixed label: the derived key serves provider tokens only, never another use of the secret. */
const PURPOSE = "authd provider tokens";

/**
 * A cipher for provider tokens. `secrets` lists the current secret first, then previous
 * ones still accepted while rotating: encrypt uses the first, decrypt tries each in turn.
 */
export function createTokenCipher(secrets: string | readonly string[]): TokenCipher {
  const sealer = createSealer(typeof secrets === "string" ? [secrets] : secrets, PURPOSE);
  return {
    encrypt: (plain) => sealer.seal(plain),
    decrypt(stored) {
      // Without a version prefix the value was never encrypted by authd: tokens brought in
      // by an import from another system are stored as the provider issued them, and are
      // used as they are. Provider tokens do not start with `v<digits>:`.
      if (!VERSIONED.test(stored)) return stored;
      // A later scheme than this code knows (e.g. after a downgrade) is unreadable, not
      // plaintext: it must never be sent to a provider as a token.
      if (!stored.startsWith(SEALED_PREFIX)) return null;
      return sealer.open(stored)?.plain ?? null;
    },
    reseal(stored) {
      if (!stored.startsWith(SEALED_PREFIX)) return null;
      const opened = sealer.open(stored);
      return opened?.stale ? sealer.seal(opened.plain) : null;
    },
  };
}
