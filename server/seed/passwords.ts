/**
 * The password work of a seed run: hashing new passwords and checking changed ones,
 * concurrently, once per run however often the run plans.
 */
import { createPasswordHasher, type PasswordHasher } from "../crypto/password.js";
import type { UserRow } from "../users/queries.js";
import type { ApplyOptions } from "./report.js";
import type { PreparedSeed } from "./validate.js";

/** What the database holds that decides the password work: users, their stored hashes. */
export interface StoredPasswords {
  /** Email -> the user. */
  users: ReadonlyMap<string, Pick<UserRow, "id">>;
  /** User id -> the credential account's hash (null: an account without a password). */
  credentials: ReadonlyMap<string, string | null>;
}

/**
 * Remembers hashes and verifications across plans (the dry plan and the real one, or
 * the items of --continue-on-error), so no password is hashed or checked twice.
 */
export interface PasswordWork {
  /** Email -> the hash made for that user. */
  hashes: Map<string, string>;
  /** `stored hash \0 plain` -> whether it verifies. */
  verified: Map<string, Promise<boolean>>;
  /** --share-password-hashes: plain password -> its one hash of this run. */
  shared: Map<string, Promise<string>>;
  /** This run's hashing: one hash per core at a time, however many users the seed has. */
  passwords: PasswordHasher;
}

export function newPasswordWork(): PasswordWork {
  return {
    hashes: new Map(),
    verified: new Map(),
    shared: new Map(),
    passwords: createPasswordHasher(),
  };
}

export function verifyKey(stored: string, plain: string): string {
  return `${stored}\0${plain}`;
}

/**
 * Hashes what the seed needs hashed, concurrently: the run's hasher runs one argon2id hash
 * per core at a time (on libuv's thread pool) and queues the rest. New users with a
 * plain password need a hash; with --if-exists update, existing users' passwords are
 * verified against the stored hash first and hashed only when they differ.
 */
export async function preparePasswords(
  seed: PreparedSeed,
  existing: StoredPasswords,
  options: ApplyOptions,
  work: PasswordWork,
): Promise<void> {
  const { ifExists, dryRun = false } = options;
  const toHash: Array<{ email: string; plain: string }> = [];
  const toVerify: Array<{ email: string; stored: string; plain: string }> = [];
  for (const user of seed.users) {
    if (!user.secret || !("plain" in user.secret)) continue;
    const { plain } = user.secret;
    const row = existing.users.get(user.email);
    if (!row) {
      if (!dryRun && !work.hashes.has(user.email)) toHash.push({ email: user.email, plain });
      continue;
    }
    if (ifExists !== "update") continue;
    const stored = existing.credentials.get(row.id);
    if (stored) toVerify.push({ email: user.email, stored, plain });
    else if (!dryRun && !work.hashes.has(user.email)) toHash.push({ email: user.email, plain });
  }
  // Only checks not made yet by an earlier plan of this run count as progress.
  const fresh = toVerify.filter((item) => !work.verified.has(verifyKey(item.stored, item.plain)));
  if (fresh.length > 0) {
    let done = 0;
    await Promise.all(
      fresh.map(async ({ stored, plain }) => {
        const key = verifyKey(stored, plain);
        let pending = work.verified.get(key);
        if (!pending) {
          pending = work.passwords.verify(stored, plain);
          work.verified.set(key, pending);
        }
        await pending;
        options.onProgress?.({ phase: "verify", done: ++done, total: fresh.length });
      }),
    );
  }
  if (toVerify.length > 0) {
    for (const item of toVerify) {
      const same = await work.verified.get(verifyKey(item.stored, item.plain));
      if (!dryRun && !same && !work.hashes.has(item.email)) toHash.push(item);
    }
  }
  if (toHash.length === 0) return;
  let done = 0;
  await Promise.all(
    toHash.map(async ({ email: address, plain }) => {
      let hash: Promise<string>;
      if (options.sharePasswordHashes) {
        const known = work.shared.get(plain);
        hash = known ?? work.passwords.hash(plain);
        if (!known) work.shared.set(plain, hash);
      } else hash = work.passwords.hash(plain);
      work.hashes.set(address, await hash);
      options.onProgress?.({ phase: "hash", done: ++done, total: toHash.length });
    }),
  );
}
