/**
 * Password hashing: argon2id at the OWASP parameters (m=19456 KiB, t=2, p=1). Sign-in
 * for an unknown email verifies against a dummy hash so it costs what a wrong password
 * costs (emails cannot be enumerated by timing).
 *
 * Imported users (`authd user import`) may bring hashes of other systems: argon2id at
 * any parameters, bcrypt (`$2a$`/`$2b$`/`$2y$`) and the established implementation's
 * scrypt (`<salt hex>:<key hex>`). All of them verify; `needsRehash` tells sign-in to
 * replace them with an argon2id hash at the current parameters.
 */
import { scrypt, timingSafeEqual } from "node:crypto";
import { availableParallelism } from "node:os";
import { Algorithm, hash as argon2Hash, verify as argon2Verify } from "@node-rs/argon2";
import bcrypt from "bcryptjs";

/**
 * OWASP's argon2id minimum. Hashes are standard PHC strings, so any argon2
 * implementation verifies them (and authd verifies theirs: the test suite keeps
 * hashes written by the `argon2` package as fixtures).
 */
export const ARGON2_PARAMETERS = {
  algorithm: Algorithm.Argon2id,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
} as const;

/** The stored hash formats authd verifies. */
export const HASH_FORMATS = ["argon2id", "bcrypt", "scrypt"] as const;
export type HashFormat = (typeof HASH_FORMATS)[number];

/** PHC string of argon2id; other implementations write m, t, p in another order. */
const ARGON2ID_PATTERN =
  /^\$argon2id\$v=(\d+)\$((?:[a-z]=\d+,)*[a-z]=\d+)\$[A-Za-z0-9+/]+={0,2}\$[A-Za-z0-9+/]+={0,2}$/;
/** Modular crypt format of bcrypt: cost 04-31, 22 salt and 31 hash characters. */
const BCRYPT_PATTERN = /^\$2[aby]\$(0[4-9]|[12]\d|3[01])\$[./A-Za-z0-9]{53}$/;
/** The established implementation's scrypt: hex salt (used as text), ':', 64-byte key in hex. */
const SCRYPT_PATTERN = /^([0-9a-fA-F]{16,256}):([0-9a-fA-F]{128})$/;

/**
 * The scrypt parameters of that format: N=2^14, r=16, p=1, 64-byte key, password
 * NFKC-normalized. One derivation needs 128·N·r = 32 MiB, so maxmem is set above it.
 */
const SCRYPT_PARAMETERS = { N: 16384, r: 16, p: 1, maxmem: 64 * 1024 * 1024 } as const;
const SCRYPT_KEY_LENGTH = 64;

/** Which format a stored hash is in; undefined for anything authd cannot verify. */
export function detectHashFormat(hash: string): HashFormat | undefined {
  if (ARGON2ID_PATTERN.test(hash)) return "argon2id";
  if (BCRYPT_PATTERN.test(hash)) return "bcrypt";
  if (SCRYPT_PATTERN.test(hash)) return "scrypt";
  return undefined;
}

/**
 * The argon2id parameters a stored hash may carry and still be verified here: each
 * sign-in against a hash spends its memory and time, so a hash far above authd's own
 * (19 MiB, t=2) would make every sign-in of that user a load on the server.
 */
const ARGON2_LIMITS = { maxMemoryKiB: 262144, maxTime: 16, maxParallelism: 16 } as const;

/**
 * Why authd cannot verify a stored hash, or undefined when it can: a format authd knows
 * (argon2id, bcrypt, scrypt as the established implementation writes it) with
 * parameters in range. `authd import better-auth --verify` lists every hash with one.
 */
export function hashProblem(hash: string): string | undefined {
  const format = detectHashFormat(hash);
  if (format === undefined) {
    if (hash === "") return "empty";
    const variant = /^\$(argon2(?:i|d))\$/.exec(hash)?.[1];
    if (variant) return `${variant}, not argon2id (authd accepts argon2id, bcrypt, scrypt)`;
    return "in no format authd accepts (argon2id, bcrypt, scrypt)";
  }
  if (format !== "argon2id") return undefined;
  const match = ARGON2ID_PATTERN.exec(hash);
  if (Number(match?.[1]) !== 19) return "argon2id of a version other than 19 (0x13)";
  const parameters = new Map(
    (match?.[2] ?? "").split(",").map((pair) => {
      const [name, value] = pair.split("=");
      return [name ?? "", Number(value)] as const;
    }),
  );
  const memory = parameters.get("m") ?? 0;
  const time = parameters.get("t") ?? 0;
  const parallelism = parameters.get("p") ?? 0;
  if (parallelism < 1 || parallelism > ARGON2_LIMITS.maxParallelism) {
    return `argon2id parallelism p=${parallelism} outside 1-${ARGON2_LIMITS.maxParallelism}`;
  }
  if (memory < 8 * parallelism || memory > ARGON2_LIMITS.maxMemoryKiB) {
    return `argon2id memory m=${memory} KiB outside ${8 * parallelism}-${ARGON2_LIMITS.maxMemoryKiB}`;
  }
  if (time < 1 || time > ARGON2_LIMITS.maxTime) {
    return `argon2id time t=${time} outside 1-${ARGON2_LIMITS.maxTime}`;
  }
  return undefined;
}

/**
 * An argon2id hash at ARGON2_PARAMETERS, computed on libuv's thread pool by
 * @node-rs/argon2 (prebuilt for every platform; about twice as fast as the `argon2`
 * package, bench/README.md "Password hashing"). Unthrottled: requests, seeding and
 * imports hash through a PasswordHasher, which bounds how many run at once.
 */
export function hashPassword(password: string): Promise<string> {
  return argon2Hash(password, ARGON2_PARAMETERS);
}

function scryptKey(password: string, salt: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // The salt is the hex text itself (its UTF-8 bytes), not the bytes it spells.
    scrypt(password.normalize("NFKC"), salt, SCRYPT_KEY_LENGTH, SCRYPT_PARAMETERS, (error, key) => {
      if (error) reject(error);
      else resolve(key);
    });
  });
}

async function verifyScrypt(hash: string, password: string): Promise<boolean> {
  const match = SCRYPT_PATTERN.exec(hash);
  if (!match?.[1] || !match[2]) return false;
  const expected = Buffer.from(match[2], "hex");
  const derived = await scryptKey(password, match[1]);
  return derived.length === expected.length && timingSafeEqual(derived, expected);
}

/**
 * False for a wrong password and for a stored value in no format authd knows.
 * argon2id (any parameters), bcrypt and scrypt (see the module comment) verify.
 * Unthrottled, like hashPassword.
 */
export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    switch (detectHashFormat(hash)) {
      case "bcrypt":
        return await bcrypt.compare(password, hash);
      case "scrypt":
        return await verifyScrypt(hash, password);
      default:
        // argon2id, and the other argon2 variants a PHC string can name.
        return await argon2Verify(hash, password);
    }
  } catch {
    return false;
  }
}

/**
 * True when a (verified) stored hash should be replaced by a fresh argon2id one:
 * another algorithm, another argon2 variant or version, or weaker parameters than
 * ARGON2_PARAMETERS. Stronger argon2id parameters are kept.
 */
export function needsRehash(hash: string): boolean {
  const match = ARGON2ID_PATTERN.exec(hash);
  if (!match?.[2]) return true;
  if (Number(match[1]) !== 19) return true;
  const parameters = new Map(
    match[2].split(",").map((pair) => {
      const [name, value] = pair.split("=");
      return [name ?? "", Number(value)] as const;
    }),
  );
  return (
    (parameters.get("m") ?? 0) < ARGON2_PARAMETERS.memoryCost ||
    (parameters.get("t") ?? 0) < ARGON2_PARAMETERS.timeCost ||
    (parameters.get("p") ?? 0) < ARGON2_PARAMETERS.parallelism
  );
}

/**
 * Hashing and verification with at most `slots` running at a time, and the dummy hash
 * of unknown-email sign-ins. Made by whoever hashes (buildApp, a CLI run), so the
 * slots and the dummy belong to it and two apps in one process share neither.
 */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
  /** Spends one verification on a throw-away hash; always false. */
  verifyAgainstDummy(password: string): Promise<false>;
}

/**
 * At most one hash per core at a time by default: each holds 19 MiB, and more in
 * flight than cores only time-slices the same CPUs while multiplying memory
 * (bench/README.md).
 */
export function createPasswordHasher(
  slots: number = Math.max(1, availableParallelism()),
): PasswordHasher {
  let running = 0;
  const waiting: Array<() => void> = [];
  let dummyHash: Promise<string> | undefined;

  async function withHashSlot<T>(work: () => Promise<T>): Promise<T> {
    // A released slot passes straight to the next waiter, so none is ever over-booked.
    if (running >= slots) await new Promise<void>((resolve) => waiting.push(resolve));
    else running += 1;
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running -= 1;
    }
  }

  const hasher: PasswordHasher = {
    hash: (password) => withHashSlot(() => hashPassword(password)),
    verify: (hash, password) => withHashSlot(() => verifyPassword(hash, password)),
    async verifyAgainstDummy(password) {
      dummyHash ??= hasher.hash("authd-dummy-password-for-timing");
      await hasher.verify(await dummyHash, password);
      return false;
    },
  };
  return hasher;
}
