/**
 * Every random value authd makes, all from this one module. Tokens are drawn
 * from the platform CSPRNG (uniform integers, which Node draws with rejection
 * sampling), so each character is uniform and independent of the others.
 */
import { randomBytes, randomInt } from "node:crypto";

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

/** The widest range `crypto.randomInt` draws from: below 2^48. */
const RANDOM_INT_RANGE = 2 ** 48;

/** A string of `length` characters drawn uniformly from `alphabet` (at most 256 symbols). */
export function randomString(length: number, alphabet: string = ALPHANUMERIC): string {
  const size = alphabet.length;
  if (size < 2 || size > 256) {
    throw new RangeError("alphabet must have between 2 and 256 symbols");
  }
  // One uniform draw below size^digits gives that many independent, uniform characters
  // (its base-size digits): eight per draw for ids, a quarter of the CSPRNG calls of
  // drawing bytes and rejecting the ones above the largest multiple of the alphabet.
  // Multiplied out rather than `size ** digits`: a power with a variable exponent is a
  // call into the math library on every id.
  let digits = 1;
  let span = size;
  while (span * size < RANDOM_INT_RANGE) {
    span *= size;
    digits += 1;
  }
  let result = "";
  while (result.length < length) {
    let draw = randomInt(span);
    for (let i = 0; i < digits && result.length < length; i++) {
      result += alphabet[draw % size];
      draw = Math.floor(draw / size);
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
