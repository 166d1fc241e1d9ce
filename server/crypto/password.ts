/**
 * Password hashing: argon2id at the OWASP parameters (m=19456 KiB, t=2, p=1). Sign-in
 * for an unknown email verifies against a dummy hash so it costs what a wrong password
 * costs (issue 3: emails cannot be enumerated by timing).
 */
import { availableParallelism } from "node:os";
import argon2 from "argon2";

export const ARGON2_PARAMETERS = {
  type: argon2.argon2id,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
} as const;

/**
 * At most one hash per core at a time: each holds 19 MiB, and more in flight than
 * cores only time-slices the same CPUs while multiplying memory (bench/README.md).
 */
const HASH_SLOTS = Math.max(1, availableParallelism());
let running = 0;
const waiting: Array<() => void> = [];

async function withHashSlot<T>(work: () => Promise<T>): Promise<T> {
  // A released slot passes straight to the next waiter, so none is ever over-booked.
  if (running >= HASH_SLOTS) await new Promise<void>((resolve) => waiting.push(resolve));
  else running += 1;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}

export function hashPassword(password: string): Promise<string> {
  return withHashSlot(() => argon2.hash(password, ARGON2_PARAMETERS));
}

/** False for a wrong password and for a stored value that is not an argon2 hash. */
export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await withHashSlot(() => argon2.verify(hash, password));
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/** Spends one verification on a throw-away hash; always false. */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword("authd-dummy-password-for-timing");
  await verifyPassword(await dummyHash, password);
  return false;
}
