/**
 * Signing tokens for other services: each app keeps its signing key imported and its
 * JWKS document built, read again from the database once they are older than
 * `refreshAfterMs`, so a rotation made by the CLI reaches every instance within that.
 */
import type { CryptoKey, JWK, SignJWT } from "jose";
import type { AuthdConfig } from "../config.js";
import type { Sql } from "../db/connection.js";
import {
  ensureSigningKey,
  KEY_REFRESH_MS,
  openPrivateJwk,
  type PublicJwk,
  signingKeySealer,
} from "./keys.js";
import { type KeyRow, listLiveKeys } from "./queries.js";

interface Snapshot {
  kid: string;
  algorithm: string;
  key: CryptoKey;
  /** The published document: every key whose grace has not ended. */
  jwks: { keys: PublicJwk[] };
  SignJWT: typeof SignJWT;
  loadedAt: number;
}

export interface KeyCache {
  /** The JWKS document as published. */
  jwks(): Promise<{ keys: PublicJwk[] }>;
  /**
   * A token of `claims`, signed with the current key, valid `jwt.expiresIn` seconds. The
   * same claims asked again within TOKEN_REUSE_MS get the token already made.
   */
  sign(claims: TokenClaims, issuer: string, audience: string | string[]): Promise<string>;
  /**
   * The token made for session `sid` within TOKEN_REUSE_MS, when `matches` accepts its
   * claims: a caller answering from the cookie cache, which holds no role, asks this first.
   */
  recent(sid: string, matches: (claims: TokenClaims) => boolean): string | null;
}

/**
 * How long a token made for a session is handed out again for the same claims, instead
 * of signing a new one: signing costs more than the rest of a token request, and clients
 * often ask for a token on every call to their API. Short against the token's own
 * lifetime (it then still has almost all of it) and against the cookie cache's bound.
 */
export const TOKEN_REUSE_MS = 30_000;
/** Sessions whose last token is remembered, first in, first out. */
const ISSUED_LIMIT = 4096;

interface Issued {
  /** Claims, issuer, audience and key id: a token answers only for exactly these. */
  key: string;
  claims: TokenClaims;
  token: string;
  issuedAt: number;
}

export interface TokenClaims {
  sub: string;
  email: string;
  email_verified: boolean;
  name: string;
  sid: string;
  org_id?: string;
  org_slug?: string;
  org_role?: string;
}

/** One app's keys (made by buildApp; two apps share nothing). */
export function createKeyCache(
  sql: Sql,
  config: AuthdConfig,
  secrets: readonly string[],
  refreshAfterMs = KEY_REFRESH_MS,
): KeyCache {
  const sealer = signingKeySealer(secrets);
  const algorithm = config.jwt.algorithm;
  let snapshot: Snapshot | undefined;
  let loading: Promise<Snapshot> | undefined;
  /**
   * The last token made for each session, by session id. Reuse stops at the key refresh
   * age too, so a rotated key still signs everywhere within that age.
   */
  const issued = new Map<string, Issued>();
  const reuseMs = Math.min(TOKEN_REUSE_MS, refreshAfterMs);
  const fresh = (entry: Issued | undefined, now: number, withinMs = reuseMs): entry is Issued =>
    entry !== undefined && now - entry.issuedAt < withinMs;
  /**
   * A token handed out on the word of the cookie cache carries a role read when it was
   * made: no older than the cache's own maxAge, so that a role changed on another
   * instance shows within the cookie cache's bound however short it is set.
   */
  const recentMs = Math.min(reuseMs, config.session.cookieCache.maxAge * 1000);

  const load = async (): Promise<Snapshot> => {
    const { importJWK, SignJWT } = await import("jose");
    const isSigning = (row: KeyRow) =>
      row.expiresAt === null && (JSON.parse(row.publicKey) as { alg?: string }).alg === algorithm;
    let rows = await listLiveKeys(sql);
    let signing = rows.find(isSigning);
    if (!signing) {
      // First use with jwt on, or the algorithm changed: the key is made (once) now.
      await ensureSigningKey(sql, config, sealer);
      rows = await listLiveKeys(sql);
      signing = rows.find(isSigning);
    }
    if (!signing) throw new Error("no jwt signing key after creating one");
    let key = snapshot?.kid === signing.id ? snapshot.key : undefined;
    if (!key) {
      const opened = sealer.open(signing.privateKey);
      if (!opened) throw new Error(`jwt signing key ${signing.id}: no configured secret opens it`);
      const { jwk } = openPrivateJwk(signing, opened.plain);
      key = (await importJWK(jwk as JWK, algorithm)) as CryptoKey;
    }
    const seen = new Set<string>();
    const keys: PublicJwk[] = [];
    for (const row of rows) {
      if (seen.has(row.id)) continue;
      seen.add(row.id);
      keys.push(JSON.parse(row.publicKey) as PublicJwk);
    }
    return { kid: signing.id, algorithm, key, jwks: { keys }, SignJWT, loadedAt: Date.now() };
  };

  const current = (): Promise<Snapshot> => {
    if (snapshot && Date.now() - snapshot.loadedAt < refreshAfterMs) {
      return Promise.resolve(snapshot);
    }
    // One read for every request that finds the keys stale at the same moment.
    loading ??= load().then(
      (fresh) => {
        snapshot = fresh;
        loading = undefined;
        return fresh;
      },
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };

  return {
    async jwks() {
      return (await current()).jwks;
    },
    async sign(claims, issuer, audience) {
      const keys = await current();
      const key = JSON.stringify([keys.kid, issuer, audience, claims]);
      const nowMs = Date.now();
      const known = issued.get(claims.sid);
      if (fresh(known, nowMs) && known.key === key) return known.token;
      const now = Math.floor(nowMs / 1000);
      const token = await new keys.SignJWT({ ...claims })
        .setProtectedHeader({ alg: keys.algorithm, kid: keys.kid, typ: "JWT" })
        .setIssuedAt(now)
        .setExpirationTime(now + config.jwt.expiresIn)
        .setIssuer(issuer)
        .setAudience(audience)
        .sign(keys.key);
      issued.delete(claims.sid);
      issued.set(claims.sid, { key, claims, token, issuedAt: nowMs });
      if (issued.size > ISSUED_LIMIT) {
        const oldest = issued.keys().next().value;
        if (oldest !== undefined) issued.delete(oldest);
      }
      return token;
    },
    recent(sid, matches) {
      const known = issued.get(sid);
      return fresh(known, Date.now(), recentMs) && matches(known.claims) ? known.token : null;
    },
  };
}
