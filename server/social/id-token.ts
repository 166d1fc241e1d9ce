/**
 * Verifying a provider's id token: its signature against the provider's key set (fetched
 * over HTTPS, cached), then issuer, audience, lifetime and nonce. The verifier belongs to
 * one app: buildApp makes it and hands it down, so two apps in one process share no key
 * sets. Every refusal is an IdTokenError (INVALID_TOKEN) whose `reason` may be logged;
 * the token itself never reaches an error, a log line or a response.
 */
import type { JWTPayload, RemoteJWKSet } from "jose";
import { AuthError } from "../errors.js";
import { readCapped } from "./fetch.js";

/** Why a token was refused, in words safe to log. */
export type IdTokenFailure =
  /** Not a compact JWT, or longer than any id token. */
  | "malformed"
  /** `none`, an HMAC algorithm or anything else outside the asymmetric ones. */
  | "algorithm_not_allowed"
  /** The key set could not be fetched: no connection, or an answer other than 200. */
  | "key_set_unavailable"
  /** The key set did not arrive within the timeout. */
  | "key_set_timeout"
  /** The answer was not a key set: not JSON, too large, or keys that cannot be read. */
  | "key_set_invalid"
  /** No key of the set (or more than one) fits the token's `kid` and `alg`. */
  | "no_matching_key"
  | "bad_signature"
  | "expired"
  /** `nbf` is still ahead. */
  | "not_yet_valid"
  /** `iat` is ahead by more than the clock tolerance. */
  | "issued_in_future"
  /** A claim every id token carries (iss, sub, aud, exp, iat) is absent. */
  | "missing_claim"
  /** A claim has the wrong type, e.g. a string `exp` or an empty `sub`. */
  | "invalid_claim"
  | "wrong_issuer"
  | "wrong_audience"
  /** A nonce was expected and the token has none. */
  | "missing_nonce"
  | "wrong_nonce"
  /** Anything else the verification threw. */
  | "unverifiable";

/**
 * A refused id token. It is the catalogue's INVALID_TOKEN on the wire; `reason` is for
 * logs only and is deliberately not in `details`, which responses carry.
 */
export class IdTokenError extends AuthError {
  readonly reason: IdTokenFailure;

  constructor(reason: IdTokenFailure) {
    // 401 like the other refusals of id-token sign-in (clients of the established API
    // read it so); the catalogue's 400 is for mailed-link tokens.
    super("INVALID_TOKEN", { status: 401 });
    this.name = "IdTokenError";
    this.reason = reason;
  }
}

/** The fetch the key sets use: jose's request shape, answered with a web Response. */
export type KeySetFetch = (
  url: string,
  init: { method: "GET"; headers: Headers; redirect: "manual"; signal: AbortSignal },
) => Promise<Response>;

export interface IdTokenVerifierOptions {
  /** Longest wait for a key set, in milliseconds (default 5 s). */
  timeoutMs?: number;
  /** How long fetched keys are trusted before the set is fetched again (default 10 min). */
  cacheMaxAgeMs?: number;
  /**
   * After a fetch, how long a token with an unknown key waits before it may cause another
   * fetch (default 30 s): rotated keys are picked up, forged `kid`s cannot hammer the provider.
   */
  cooldownMs?: number;
  /** Most key sets kept (default 64); the one used least recently is dropped first. */
  maxKeySets?: number;
  /** Largest key set answer read, in bytes (default 1 MiB). */
  maxKeySetBytes?: number;
  /** The fetch used for key sets; the global fetch by default. */
  fetch?: KeySetFetch;
}

export interface IdTokenCheck {
  /** The compact JWT. It is a secret: it is never logged or put in an error. */
  token: string;
  /** The provider's key set URL. */
  jwksUri: string;
  /**
   * The issuer, or issuers, accepted. An issuer containing `{tenantid}` is a template
   * filled with the token's `tid` claim (Microsoft's multi-tenant endpoints).
   */
  issuer: string | string[];
  /** The client id (or ids) the token must be issued to. */
  audience: string | string[];
  /** When given, the token's `nonce` claim must equal it. */
  nonce?: string;
  /** Allowed clock skew for exp, nbf and iat, in seconds (default 5). */
  clockToleranceSeconds?: number;
}

/** Verified claims; the ones every id token carries are typed. */
export type IdTokenClaims = Record<string, unknown> & {
  iss: string;
  sub: string;
  aud: string | string[];
  exp: number;
  iat: number;
};

export interface IdTokenVerifier {
  /** The verified claims, or an IdTokenError (INVALID_TOKEN) naming the reason. */
  verify(check: IdTokenCheck): Promise<IdTokenClaims>;
}

/**
 * Asymmetric algorithms only. HMAC would need the client secret as the key, and a key
 * set cannot hold one; `none` is no signature at all.
 */
const ALGORITHMS = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
  "Ed25519",
];

/** Real id tokens stay under a few KiB; anything far longer is refused unparsed. */
const MAX_TOKEN_LENGTH = 64 * 1024;
const DEFAULT_TIMEOUT_MS = 5_000;
const DEFAULT_CACHE_MAX_AGE_MS = 10 * 60_000;
const DEFAULT_COOLDOWN_MS = 30_000;
const DEFAULT_MAX_KEY_SETS = 64;
const DEFAULT_MAX_KEY_SET_BYTES = 1024 * 1024;
const DEFAULT_CLOCK_TOLERANCE_SECONDS = 5;
const TENANT_PLACEHOLDER = "{tenantid}";
/** A tenant id fills one path segment: Microsoft's are GUIDs. */
const TENANT_ID = /^[A-Za-z0-9-]{1,64}$/;

/** Thrown by the key set fetch, and passed through jose untouched (its name is not TimeoutError). */
class KeySetError extends Error {
  readonly reason: IdTokenFailure;
  constructor(reason: IdTokenFailure) {
    super(reason);
    this.name = "KeySetError";
    this.reason = reason;
  }
}

/** jose loads on first use: most requests never verify an id token. */
const loadJose = () => import("jose");

function positiveInteger(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0) {
    throw new TypeError(`id token verifier: ${name} must be a positive integer`);
  }
  return value;
}

function nonNegative(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0) {
    throw new TypeError(`id token verifier: ${name} must be a non-negative number`);
  }
  return value;
}

function nonEmptyList(value: string | string[], name: string): string[] {
  const list = typeof value === "string" ? [value] : value;
  if (list.length === 0 || list.some((item) => typeof item !== "string" || item.length === 0)) {
    throw new TypeError(`id token verifier: ${name} must be one or more non-empty strings`);
  }
  return list;
}

/**
 * The fetch handed to jose: bounded in size, and naming what went wrong so the reason
 * can be logged. jose bounds it in time with its abort signal, which also cuts a body
 * that trickles.
 */
function boundedFetch(fetchImpl: KeySetFetch, maxBytes: number): KeySetFetch {
  return async (url, init) => {
    const failed = (reason: IdTokenFailure) =>
      new KeySetError(init.signal.aborted ? "key_set_timeout" : reason);
    let response: Response;
    try {
      response = await fetchImpl(url, init);
    } catch {
      throw failed("key_set_unavailable");
    }
    if (response.status !== 200) {
      await response.body?.cancel().catch(() => undefined);
      throw failed("key_set_unavailable");
    }
    let text: string;
    try {
      // Too long, not UTF-8 or not JSON alike: the answer is no key set.
      text = new TextDecoder("utf-8", { fatal: true }).decode(await readCapped(response, maxBytes));
      JSON.parse(text);
    } catch {
      throw failed("key_set_invalid");
    }
    return new Response(text, { status: 200, headers: { "content-type": "application/json" } });
  };
}

/** What a jose error (or ours) means, by its code: never its message, never its payload. */
function reasonOf(error: unknown): IdTokenFailure {
  if (error instanceof KeySetError) return error.reason;
  const { code, claim, reason } = (error ?? {}) as {
    code?: unknown;
    claim?: unknown;
    reason?: unknown;
  };
  switch (code) {
    case "ERR_JOSE_ALG_NOT_ALLOWED":
      return "algorithm_not_allowed";
    case "ERR_JWS_INVALID":
    case "ERR_JWT_INVALID":
      return "malformed";
    case "ERR_JWKS_TIMEOUT":
      return "key_set_timeout";
    case "ERR_JWKS_INVALID":
    case "ERR_JWK_INVALID":
    case "ERR_JOSE_NOT_SUPPORTED":
      return "key_set_invalid";
    case "ERR_JWKS_NO_MATCHING_KEY":
    case "ERR_JWKS_MULTIPLE_MATCHING_KEYS":
      return "no_matching_key";
    case "ERR_JWS_SIGNATURE_VERIFICATION_FAILED":
      return "bad_signature";
    case "ERR_JWT_EXPIRED":
      return "expired";
    case "ERR_JWT_CLAIM_VALIDATION_FAILED":
      if (reason === "missing") return "missing_claim";
      if (claim === "aud" && reason === "check_failed") return "wrong_audience";
      if (claim === "nbf" && reason === "check_failed") return "not_yet_valid";
      return "invalid_claim";
    default:
      return "unverifiable";
  }
}

/**
 * Whether the token's issuer is one of the accepted ones. A `{tenantid}` template is
 * filled with the token's own `tid`: Microsoft's common endpoint signs for every tenant
 * with one key set, and each tenant's tokens name that tenant in both `iss` and `tid`.
 * Both claims are signed, so matching them against each other is sound.
 */
function issuerMatches(claims: JWTPayload, accepted: string[]): boolean {
  const { iss, tid } = claims as { iss?: unknown; tid?: unknown };
  if (typeof iss !== "string") return false;
  return accepted.some((issuer) => {
    if (!issuer.includes(TENANT_PLACEHOLDER)) return iss === issuer;
    if (typeof tid !== "string" || !TENANT_ID.test(tid)) return false;
    return iss === issuer.replaceAll(TENANT_PLACEHOLDER, tid);
  });
}

/**
 * A verifier with its own key sets, one per key set URL. `fetch`, `cooldownMs` and
 * `cacheMaxAgeMs` are there for tests and unusual deployments; the defaults suit providers.
 */
export function createIdTokenVerifier(options: IdTokenVerifierOptions = {}): IdTokenVerifier {
  const timeoutMs = positiveInteger(options.timeoutMs, DEFAULT_TIMEOUT_MS, "timeoutMs");
  const cacheMaxAgeMs = nonNegative(
    options.cacheMaxAgeMs,
    DEFAULT_CACHE_MAX_AGE_MS,
    "cacheMaxAgeMs",
  );
  const cooldownMs = nonNegative(options.cooldownMs, DEFAULT_COOLDOWN_MS, "cooldownMs");
  const maxKeySets = positiveInteger(options.maxKeySets, DEFAULT_MAX_KEY_SETS, "maxKeySets");
  const maxBytes = positiveInteger(
    options.maxKeySetBytes,
    DEFAULT_MAX_KEY_SET_BYTES,
    "maxKeySetBytes",
  );
  const fetchKeySet = boundedFetch(options.fetch ?? fetch, maxBytes);
  // Insertion order is use order: a hit moves its entry to the end, the first is the oldest.
  const keySets = new Map<string, RemoteJWKSet>();

  function keySetFor(jose: typeof import("jose"), jwksUri: string): RemoteJWKSet {
    let url: URL;
    try {
      url = new URL(jwksUri);
    } catch {
      throw new TypeError("id token verifier: jwksUri must be an absolute URL");
    }
    if (url.protocol !== "https:" && url.protocol !== "http:") {
      throw new TypeError("id token verifier: jwksUri must be an http(s) URL");
    }
    const known = keySets.get(url.href);
    if (known) {
      keySets.delete(url.href);
      keySets.set(url.href, known);
      return known;
    }
    const created = jose.createRemoteJWKSet(url, {
      timeoutDuration: timeoutMs,
      cooldownDuration: cooldownMs,
      cacheMaxAge: cacheMaxAgeMs,
      [jose.customFetch]: fetchKeySet,
    });
    keySets.set(url.href, created);
    if (keySets.size > maxKeySets) {
      const oldest = keySets.keys().next().value;
      if (oldest !== undefined) keySets.delete(oldest);
    }
    return created;
  }

  return {
    async verify(check: IdTokenCheck): Promise<IdTokenClaims> {
      // The caller's configuration is checked first: a mistake there is a bug to see, a
      // TypeError, not a refused token.
      const issuers = nonEmptyList(check.issuer, "issuer");
      const audience = nonEmptyList(check.audience, "audience");
      const tolerance = nonNegative(
        check.clockToleranceSeconds,
        DEFAULT_CLOCK_TOLERANCE_SECONDS,
        "clockToleranceSeconds",
      );
      if (check.nonce !== undefined && (typeof check.nonce !== "string" || check.nonce === "")) {
        throw new TypeError("id token verifier: nonce must be a non-empty string when given");
      }
      const { token } = check;
      if (typeof token !== "string" || token.length === 0 || token.length > MAX_TOKEN_LENGTH) {
        throw new IdTokenError("malformed");
      }

      const jose = await loadJose();
      const keySet = keySetFor(jose, check.jwksUri);
      // Header and payload must parse before the key set is asked: garbage never causes
      // a fetch. (Their content is trusted only after the signature is checked.)
      try {
        jose.decodeProtectedHeader(token);
        jose.decodeJwt(token);
      } catch {
        throw new IdTokenError("malformed");
      }
      let claims: JWTPayload;
      try {
        // jose refuses an algorithm outside the list before it asks the key set, so a
        // `none` or HS256 token never causes a fetch.
        ({ payload: claims } = await jose.jwtVerify(token, keySet, {
          algorithms: ALGORITHMS,
          audience,
          clockTolerance: tolerance,
          requiredClaims: ["iss", "sub", "aud", "exp", "iat"],
        }));
      } catch (error) {
        // The jose error is not kept as a cause: claim errors carry the whole payload.
        throw new IdTokenError(reasonOf(error));
      }

      // jose checks `iat` is a number; a token minted in the future is refused here.
      if ((claims.iat as number) > Math.floor(Date.now() / 1000) + tolerance) {
        throw new IdTokenError("issued_in_future");
      }
      if (typeof claims.sub !== "string" || claims.sub === "") {
        throw new IdTokenError("invalid_claim");
      }
      // `azp` is not compared with the client id: Google's mobile sign-in issues tokens
      // whose audience is the server's client id and whose azp is the app's.
      if (!issuerMatches(claims, issuers)) throw new IdTokenError("wrong_issuer");

      // The nonce is checked only when the caller supplies one, as the established
      // implementation does: a token carrying a nonce nobody asked about is still valid
      // (the id-token sign-in lets clients that used no nonce leave it out).
      if (check.nonce !== undefined) {
        if (claims.nonce === undefined) throw new IdTokenError("missing_nonce");
        if (claims.nonce !== check.nonce) throw new IdTokenError("wrong_nonce");
      }
      return claims as IdTokenClaims;
    },
  };
}
