/**
 * The keys that sign tokens for other services: made here, stored with their private
 * part sealed under the server secret, retired with a grace period during which they
 * are still published, and checked when the server starts.
 */
import { createPrivateKey, createPublicKey, generateKeyPair, type JsonWebKey } from "node:crypto";
import { promisify } from "node:util";
import { type AuthdConfig, ConfigError } from "../config.js";
import { generateId } from "../crypto/random.js";
import { createSealer, type Sealer } from "../crypto/seal.js";
import type { Queryable, Sql } from "../db/connection.js";
import { transaction } from "../db/transaction.js";
import {
  deleteExpiredKeys,
  findSigningKey,
  insertKey,
  type KeyRow,
  listAllKeys,
  lockKeys,
  retireKeys,
  updateSealedKey,
} from "./queries.js";

export type SigningAlgorithm = AuthdConfig["jwt"]["algorithm"];

/** The label that keeps the sealing key of signing keys apart from every other use. */
export const SIGNING_KEY_PURPOSE = "authd signing keys";

/** How long a key replaced without an explicit grace stays published: 7 days. */
export const DEFAULT_GRACE_SECONDS = 7 * 86400;

/** How long a running instance uses the keys it read before it reads them again. */
export const KEY_REFRESH_MS = 30_000;

/**
 * The shortest grace a rotation may give the keys it replaces: an instance may sign
 * with the old key until it next reads the keys, and that token is valid for the whole
 * token lifetime after it.
 */
export function minimumGraceSeconds(config: AuthdConfig): number {
  return config.jwt.expiresIn + KEY_REFRESH_MS / 1000;
}

/** The members a public JWK may carry; anything else (a private member) is left out. */
const PUBLIC_MEMBERS = ["kty", "crv", "x", "y", "n", "e", "alg", "use", "kid"] as const;

export type PublicJwk = Partial<Record<(typeof PUBLIC_MEMBERS)[number], string>> & {
  kty: string;
  kid: string;
  alg: string;
  use: string;
};

const generate = promisify(generateKeyPair);

/** A new key pair of `algorithm` as private and public JWKs. */
async function newKeyPair(
  algorithm: SigningAlgorithm,
): Promise<{ privateJwk: JsonWebKey; publicJwk: JsonWebKey }> {
  const pair =
    algorithm === "EdDSA"
      ? await generate("ed25519")
      : algorithm === "ES256"
        ? await generate("ec", { namedCurve: "P-256" })
        : await generate("rsa", { modulusLength: 2048 });
  return {
    privateJwk: pair.privateKey.export({ format: "jwk" }),
    publicJwk: pair.publicKey.export({ format: "jwk" }),
  };
}

/** Only the public members of `jwk`, as published. */
export function publicMembers(jwk: Record<string, unknown>): PublicJwk {
  const picked: Record<string, string> = {};
  for (const name of PUBLIC_MEMBERS) {
    const value = jwk[name];
    if (typeof value === "string") picked[name] = value;
  }
  return picked as PublicJwk;
}

/** The sealer of signing keys under the configured secrets (newest first). */
export function signingKeySealer(secrets: readonly string[]): Sealer {
  return createSealer(secrets, SIGNING_KEY_PURPOSE);
}

/** A new key of `algorithm`, stored with its private part sealed; it signs from now on. */
async function createKey(
  tx: Queryable,
  sealer: Sealer,
  algorithm: SigningAlgorithm,
): Promise<KeyRow> {
  const kid = generateId();
  const { privateJwk, publicJwk } = await newKeyPair(algorithm);
  const published = publicMembers({ ...publicJwk, alg: algorithm, use: "sig", kid });
  return insertKey(tx, {
    id: kid,
    publicKey: JSON.stringify(published),
    privateKey: sealer.seal(JSON.stringify({ ...privateJwk, alg: algorithm, kid })),
  });
}

/**
 * The signing key of the configured algorithm, created when there is none (first start,
 * or the algorithm changed), the others then retired with the default grace. Under the
 * key lock, so instances starting together make one key.
 */
export async function ensureSigningKey(
  sql: Sql,
  config: AuthdConfig,
  sealer: Sealer,
): Promise<KeyRow> {
  const algorithm = config.jwt.algorithm;
  const found = await findSigningKey(sql, algorithm);
  if (found) return found;
  return transaction(sql, async (tx) => {
    await lockKeys(tx);
    const again = await findSigningKey(tx, algorithm);
    if (again) return again;
    const created = await createKey(tx, sealer, algorithm);
    await retireKeys(tx, created.id, DEFAULT_GRACE_SECONDS);
    return created;
  });
}

export interface Rotation {
  /** The new signing key. */
  kid: string;
  algorithm: SigningAlgorithm;
  /** The keys retired, each published until its `expiresAt`. */
  retired: { kid: string; expiresAt: Date | null }[];
}

/** A new signing key; every unretired key stays published for `graceSeconds`. */
export function rotateKeys(
  sql: Sql,
  config: AuthdConfig,
  sealer: Sealer,
  graceSeconds: number,
): Promise<Rotation> {
  const algorithm = config.jwt.algorithm;
  return transaction(sql, async (tx) => {
    await lockKeys(tx);
    // A key sealed under secrets the servers do not have would stop every token: the
    // secrets here must open the keys there are, which the servers' secrets opened.
    const unopened = (await listAllKeys(tx)).filter(
      (row) => row.expiresAt === null && !sealer.open(row.privateKey),
    );
    if (unopened.length > 0) {
      throw new ConfigError(
        unopened.map(
          (row) =>
            `jwt signing key ${row.id}: no configured secret opens it; rotate with the secrets the server is configured with`,
        ),
      );
    }
    const created = await createKey(tx, sealer, algorithm);
    const retired = await retireKeys(tx, created.id, graceSeconds);
    return {
      kid: created.id,
      algorithm,
      retired: retired.map((row) => ({ kid: row.id, expiresAt: row.expiresAt })),
    };
  });
}

export type KeyStatus = "current" | "unretired" | "retiring" | "expired";

export interface KeySummary {
  kid: string;
  algorithm: string | null;
  createdAt: Date;
  status: KeyStatus;
  /** When a retired key stops being published (null while it signs). */
  expiresAt: Date | null;
}

function algorithmOf(row: KeyRow): string | null {
  try {
    const alg = (JSON.parse(row.publicKey) as { alg?: unknown }).alg;
    return typeof alg === "string" ? alg : null;
  } catch {
    return null;
  }
}

/**
 * Every key with its status: `current` signs, `retiring` is still published until its
 * expiry, `expired` waits for `authd secret prune`; `unretired` is a key of another
 * algorithm than the configured one that no start has retired yet.
 */
export async function listKeys(sql: Sql, config: AuthdConfig): Promise<KeySummary[]> {
  const rows = await listAllKeys(sql);
  const now = Date.now();
  const signing = rows.find(
    (row) => row.expiresAt === null && algorithmOf(row) === config.jwt.algorithm,
  );
  return rows.map((row) => ({
    kid: row.id,
    algorithm: algorithmOf(row),
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    status:
      row === signing
        ? "current"
        : row.expiresAt === null
          ? "unretired"
          : row.expiresAt.getTime() > now
            ? "retiring"
            : "expired",
  }));
}

/** Deletes the keys whose grace has ended; the signing key has none, so it stays. */
export async function pruneKeys(sql: Sql): Promise<{ kid: string; expiresAt: Date | null }[]> {
  const deleted = await deleteExpiredKeys(sql);
  return deleted.map((row) => ({ kid: row.id, expiresAt: row.expiresAt }));
}

/** A stored key's private JWK, opened and checked against its public half; throws when corrupt. */
export function openPrivateJwk(
  row: KeyRow,
  plain: string,
): { jwk: JsonWebKey; publicJwk: PublicJwk } {
  const publicJwk = JSON.parse(row.publicKey) as PublicJwk;
  const jwk = JSON.parse(plain) as JsonWebKey;
  if (publicJwk.kid !== row.id) throw new Error("the public key names another kid");
  if (!["EdDSA", "ES256", "RS256"].includes(publicJwk.alg)) {
    throw new Error(`unknown algorithm ${String(publicJwk.alg)}`);
  }
  // The public half derived from the private key must be the one published.
  const derived = createPublicKey(createPrivateKey({ key: jwk, format: "jwk" })).export({
    format: "jwk",
  });
  for (const member of ["kty", "crv", "x", "y", "n", "e"] as const) {
    if (derived[member] !== publicJwk[member]) throw new Error("the key pair does not match");
  }
  return { jwk, publicJwk };
}

const SEALED_SHAPE = /^v1:[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/**
 * The start-up check: every stored key opens under a configured secret and holds a
 * usable key pair, else a ConfigError naming the key (the server does not start with
 * keys it cannot use). A key sealed under an older secret is sealed again under the
 * newest, so that the old secret can then be removed. Ends with a signing key present.
 */
export async function checkStoredKeys(
  sql: Sql,
  config: AuthdConfig,
  secrets: readonly string[],
): Promise<{ resealed: string[]; signingKid: string }> {
  const sealer = signingKeySealer(secrets);
  const problems: string[] = [];
  const resealed: string[] = [];
  for (const row of await listAllKeys(sql)) {
    if (!SEALED_SHAPE.test(row.privateKey)) {
      problems.push(`jwt signing key ${row.id}: its stored private key is corrupt (not sealed)`);
      continue;
    }
    const opened = sealer.open(row.privateKey);
    if (!opened) {
      problems.push(
        `jwt signing key ${row.id}: no configured secret opens it; add the secret it was sealed under back to the secret list (newest first), or delete the key`,
      );
      continue;
    }
    try {
      openPrivateJwk(row, opened.plain);
    } catch (error) {
      problems.push(
        `jwt signing key ${row.id}: its stored contents are corrupt (${(error as Error).message})`,
      );
      continue;
    }
    if (opened.stale) {
      await updateSealedKey(sql, row.id, sealer.seal(opened.plain));
      resealed.push(row.id);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  const signing = await ensureSigningKey(sql, config, sealer);
  return { resealed, signingKid: signing.id };
}
