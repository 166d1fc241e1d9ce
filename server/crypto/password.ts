/**
 * Password hashing: argon2id at the OWASP parameters (m=19456 KiB, t=2, p=1). Sign-in
 * for an unknown email verifies against a dummy hash so it costs what a wrong password
 * costs (issue 3: emails cannot be enumerated by timing).
 */
import argon2 from "argon2";

export const ARGON2_PARAMETERS = {
  type: argon2.argon2id,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
} as const;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, ARGON2_PARAMETERS);
}

/** False for a wrong password and for a stored value that is not an argon2 hash. */
export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/** Spends one verification on a throw-away hash; always false. */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= argon2.hash("authd-dummy-password-for-timing", ARGON2_PARAMETERS);
  await verifyPassword(await dummyHash, password);
  return false;
}
