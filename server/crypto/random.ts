/**
 * Every random value authd makes, all from this one module. Tokens are drawn
 * from the platform CSPRNG with rejection sampling, so each character is uniform.
 */
import { randomBytes } from "node:crypto";

const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** Token lengths, named by what each token is for. */
export const TOKEN_LENGTHS = {
  id: 32,
  sessionToken: 32,
  resetPassword: 24,
  deleteAccount: 32,
  oauthState: 32,
  codeVerifier: 128,
} as const;

/** A string of `length` characters drawn uniformly from `alphabet` (at most 256 symbols). */
export function randomString(length: number, alphabet: string = ALPHANUMERIC): string {
  if (alphabet.length < 2 || alphabet.length > 256) {
    throw new RangeError("alphabet must have between 2 and 256 symbols");
  }
  // Largest multiple of the alphabet size that fits a byte: bytes above it are rejected.
  const limit = 256 - (256 % alphabet.length);
  let result = "";
  while (result.length < length) {
    // The bytes the missing characters need on average, plus a few for bad luck; a
    // short draw is topped up by the next round. Nothing is kept between calls.
    const missing = length - result.length;
    const bytes = randomBytes(Math.ceil((missing * 256) / limit) + 4);
    for (const byte of bytes) {
      if (byte >= limit) continue;
      result += alphabet[byte % alphabet.length];
      if (result.length === length) break;
    }
  }
  return result;
}

/** Opaque 32-character ids for every row (Better Auth's id format). */
export function generateId(): string {
  return randomString(TOKEN_LENGTHS.id);
}

/** A server secret: 32 random bytes, base64url (43 characters). */
export function generateSecret(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

/** Raw random bytes rendered in the requested encoding (for `authd secret generate`). */
export function generateSecretIn(bytes: number, encoding: "base64url" | "hex" | "base64"): string {
  return randomBytes(bytes).toString(encoding);
}

/** A session token: 32 bytes of randomness, base64url (43 characters). */
export function generateSessionToken(): string {
  return randomBytes(32).toString("base64url");
}
