/**
 * Values sealed at rest under the server secret: AES-256-GCM under a key derived from
 * each configured secret with HKDF-SHA256 and a label naming the use, a fresh random
 * 12-byte IV per value, stored as `v1:<iv>.<ciphertext and tag>` (base64url). The label
 * keeps the uses apart: a key derived for provider tokens never opens a signing key.
 */
import {
  createCipheriv,
  createDecipheriv,
  createSecretKey,
  hkdfSync,
  type KeyObject,
  randomBytes,
} from "node:crypto";

export interface Sealer {
  /** The stored form: `v1:` followed by IV and ciphertext, base64url, under the newest secret. */
  seal(plain: string): string;
  /**
   * What a sealed value holds, and whether it was sealed under an older secret (then the
   * caller seals it again under the newest); null when no configured secret opens it.
   */
  open(stored: string): { plain: string; stale: boolean } | null;
}

const VERSION = "v1";
export const SEALED_PREFIX = `${VERSION}:`;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** The version is authenticated too, so a value cannot be replayed under another scheme. */
const AAD = Buffer.from(VERSION, "utf8");
const BASE64URL = /^[A-Za-z0-9_-]*$/;

function deriveKey(secret: string, purpose: string): KeyObject {
  if (secret.length === 0) throw new TypeError("seal: a secret must not be empty");
  // The secret is already high-entropy, so HKDF needs no salt; the label binds the use.
  const key = hkdfSync("sha256", Buffer.from(secret, "utf8"), Buffer.alloc(0), purpose, 32);
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

function openWith(key: KeyObject, iv: Buffer, sealed: Buffer): string | null {
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
 * A sealer for one use (`purpose`, a fixed label). `secrets` lists the newest secret
 * first, then older ones still accepted while rotating: sealing uses the first, opening
 * tries each in turn. The keys are derived here, once per sealer.
 */
export function createSealer(secrets: readonly string[], purpose: string): Sealer {
  if (secrets.length === 0) throw new TypeError("seal: at least one secret is required");
  const keys = secrets.map((secret) => deriveKey(secret, purpose));
  const newest = keys[0] as KeyObject;

  return {
    seal(plain) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", newest, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(AAD);
      const body = Buffer.concat([
        cipher.update(plain, "utf8"),
        cipher.final(),
        cipher.getAuthTag(),
      ]);
      return `${SEALED_PREFIX}${iv.toString("base64url")}.${body.toString("base64url")}`;
    },

    open(stored) {
      if (!stored.startsWith(SEALED_PREFIX)) return null;
      const parts = stored.slice(SEALED_PREFIX.length).split(".");
      if (parts.length !== 2) return null;
      const iv = decodeStrict(parts[0] as string);
      const sealed = decodeStrict(parts[1] as string);
      if (!iv || iv.length !== IV_BYTES || !sealed || sealed.length < TAG_BYTES) return null;
      for (const [index, key] of keys.entries()) {
        const plain = openWith(key, iv, sealed);
        if (plain !== null) return { plain, stale: index > 0 };
      }
      return null;
    },
  };
}
