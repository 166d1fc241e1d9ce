/**
 * Provider tokens (access, refresh and id tokens of linked accounts) encrypted at rest.
 * AES-256-GCM under a key derived from authd's secret with HKDF-SHA256, a fresh random
 * 12-byte IV per value, stored as `v1:<iv>.<ciphertext and tag>` (base64url), so a
 * stored value tells by its prefix whether it is encrypted and under which scheme.
 */
import {
  createCipheriv,
  createDecipheriv,
  createSecretKey,
  hkdfSync,
  type KeyObject,
  randomBytes,
} from "node:crypto";

export interface TokenCipher {
  /** The stored form of a token: `v1:` followed by IV and ciphertext, base64url. */
  encrypt(plain: string): string;
  /**
   * The token a stored value holds; null when it is encrypted but cannot be read
   * (tampered, or under a secret no longer configured).
   */
  decrypt(stored: string): string | null;
}

const VERSION = "v1";
const PREFIX = `${VERSION}:`;
/** Any `v<digits>:` start marks a value written by some version of this scheme. */
const VERSIONED = /^v[0-9]+:/;
/** A fixed label: the derived key serves provider tokens only, never another use of the secret. */
const HKDF_INFO = "authd provider tokens";
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** The version is authenticated too, so a value cannot be replayed under another scheme. */
const AAD = Buffer.from(VERSION, "utf8");
const BASE64URL = /^[A-Za-z0-9_-]*$/;

function deriveKey(secret: string): KeyObject {
  if (secret.length === 0) throw new TypeError("token cipher: a secret must not be empty");
  // The secret is already high-entropy, so HKDF needs no salt; the info label binds the use.
  const key = hkdfSync("sha256", Buffer.from(secret, "utf8"), Buffer.alloc(0), HKDF_INFO, 32);
  return createSecretKey(Buffer.from(key));
}

/**
 * Bytes of a canonical base64url string, or null: Buffer.from skips characters it does
 * not know and ignores spare trailing bits, so a tampered value could otherwise decode to
 * the very same bytes.
 */
function decodeStrict(text: string): Buffer | null {
  if (!BASE64URL.test(text)) return null;
  const bytes = Buffer.from(text, "base64url");
  return bytes.toString("base64url") === text ? bytes : null;
}

function open(key: KeyObject, iv: Buffer, sealed: Buffer): string | null {
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(AAD);
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    const plain = Buffer.concat([
      decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)),
      decipher.final(),
    ]);
    return plain.toString("utf8");
  } catch {
    // Authentication failed: another key, or a changed byte. Nothing of the value is kept.
    return null;
  }
}

/**
 * A cipher for provider tokens. `secrets` lists the current secret first, then previous
 * ones still accepted while rotating: encrypt uses the first, decrypt tries each in turn.
 * The keys are derived here, once per cipher.
 */
export function createTokenCipher(secrets: string | string[]): TokenCipher {
  const list = typeof secrets === "string" ? [secrets] : secrets;
  if (list.length === 0) throw new TypeError("token cipher: at least one secret is required");
  const keys = list.map(deriveKey);
  const current = keys[0] as KeyObject;

  return {
    encrypt(plain: string): string {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", current, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(AAD);
      const body = Buffer.concat([
        cipher.update(plain, "utf8"),
        cipher.final(),
        cipher.getAuthTag(),
      ]);
      return `${PREFIX}${iv.toString("base64url")}.${body.toString("base64url")}`;
    },

    decrypt(stored: string): string | null {
      // Without a version prefix the value was never encrypted by authd: tokens brought in
      // by an import from another system are stored as the provider issued them, and are
      // used as they are. Provider tokens do not start with `v<digits>:`.
      if (!VERSIONED.test(stored)) return stored;
      // A later scheme than this code knows (e.g. after a downgrade) is unreadable, not
      // plaintext: it must never be sent to a provider as a token.
      if (!stored.startsWith(PREFIX)) return null;
      const parts = stored.slice(PREFIX.length).split(".");
      if (parts.length !== 2) return null;
      const iv = decodeStrict(parts[0] as string);
      const sealed = decodeStrict(parts[1] as string);
      if (!iv || iv.length !== IV_BYTES || !sealed || sealed.length < TAG_BYTES) return null;
      for (const key of keys) {
        const plain = open(key, iv, sealed);
        if (plain !== null) return plain;
      }
      return null;
    },
  };
}
