/**
 * Digests, HMAC signatures and constant-time comparison, all in this one place.
 * Secrets at rest are SHA-256 digests; cookies carry `<value>.<signature>`.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";

/** SHA-256 of a secret value, base64url: what the database stores instead of it. */
export function sha256(value: string): string {
  return createHash("sha256").update(value, "utf8").digest("base64url");
}

/** HMAC-SHA256 of `value` keyed with the server secret, standard base64 (44 chars). */
export function hmac(
  value: string,
  secret: string,
  encoding: "base64" | "base64url" = "base64",
): string {
  return createHmac("sha256", secret).update(value, "utf8").digest(encoding);
}

/** Compares two strings in time that does not depend on where they differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, "utf8");
  const right = Buffer.from(b, "utf8");
  if (left.length !== right.length) {
    // Still spend the comparison so the length is all a timing attacker learns.
    timingSafeEqual(left, left);
    return false;
  }
  return timingSafeEqual(left, right);
}

/** `<value>.<hmac>`, the signed form cookies carry. */
export function signValue(value: string, secret: string): string {
  return `${value}.${hmac(value, secret)}`;
}

/** The value of a signed string, or null when the signature does not match. */
export function unsignValue(signed: string, secret: string): string | null {
  const dot = signed.lastIndexOf(".");
  if (dot <= 0) return null;
  const value = signed.slice(0, dot);
  const signature = signed.slice(dot + 1);
  return constantTimeEqual(signature, hmac(value, secret)) ? value : null;
}

/**
 * The value of a string signed under any of `secrets` (newest first), and whether it was
 * signed under an older one (then it is signed again under the newest); null when none
 * of them signed it.
 */
export function unsignWithAny(
  signed: string,
  secrets: readonly string[],
): { value: string; stale: boolean } | null {
  for (const [index, secret] of secrets.entries()) {
    const value = unsignValue(signed, secret);
    if (value !== null) return { value, stale: index > 0 };
  }
  return null;
}

/** SHA-256 of bytes, base64url: a content fingerprint (ETags), not a secret. */
export function contentDigest(value: Uint8Array): string {
  return createHash("sha256").update(value).digest("base64url");
}
