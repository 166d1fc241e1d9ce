/**
 * Session cookies: `<prefix>.session_token` carries the token signed with
 * the secret (HMAC); `<prefix>.dont_remember` marks a browser-session login;
 * `<prefix>.session_data` is the optional signed session cache, at most 4093
 * characters, bound to the token it was made for; `<prefix>.state` binds a social
 * sign-in to its browser. HttpOnly, SameSite=Lax, and Secure with the `__Secure-` prefix
 * on https. With `bearer.enabled`, a request without a session cookie may carry the
 * same token in `Authorization: Bearer`, for clients that keep no cookies.
 */
import type {} from "@fastify/cookie";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { AuthdConfig } from "../config.js";
import { constantTimeEqual, hmac, signValue, unsignWithAny } from "../crypto/digest.js";
import type { SessionResponse, UserResponse } from "../sessions/sessions.js";

/** The cached session cookie's cap, in characters. */
export const SESSION_DATA_MAX_LENGTH = 4093;
/** Cookie lifetime cap, 400 days. */
export const COOKIE_MAX_AGE_CAP = 400 * 86400;
const CACHE_VERSION = "v1";

export interface CookieContext {
  config: AuthdConfig;
  /** The newest secret: every cookie is signed with it. */
  secret: string;
  /** Every configured secret, newest first: a cookie signed with any of them is read. */
  secrets: readonly string[];
  /** Session cookies whose signature was checked: signed value -> token (valid ones only). */
  verifiedTokens: VerifiedMemo<string>;
  /** Cookie caches whose signature was checked, by signature. */
  verifiedCaches: VerifiedMemo<VerifiedCache>;
  /** Their JSON, parsed once: the memo hands back the same buffer for the same cookie. */
  parsedCaches: WeakMap<Buffer, unknown>;
}

/** The cookie settings and signature memos of one app; `secrets` newest first. */
export function createCookieContext(
  config: AuthdConfig,
  secrets: string | readonly string[],
): CookieContext {
  const list = typeof secrets === "string" ? [secrets] : secrets;
  return {
    config,
    secret: list[0] as string,
    secrets: list,
    verifiedTokens: new VerifiedMemo(),
    verifiedCaches: new VerifiedMemo(),
    parsedCaches: new WeakMap(),
  };
}

export function isSecureRequest(config: AuthdConfig, request: FastifyRequest): boolean {
  if (config.baseURL) return config.baseURL.startsWith("https://");
  return request.protocol === "https";
}

export function cookieNames(config: AuthdConfig, secure: boolean) {
  const prefix = `${secure ? "__Secure-" : ""}${config.session.cookiePrefix}`;
  return {
    sessionToken: `${prefix}.session_token`,
    sessionData: `${prefix}.session_data`,
    dontRemember: `${prefix}.dont_remember`,
    adminSession: `${prefix}.admin_session`,
    state: `${prefix}.state`,
  };
}

function attributes(secure: boolean, maxAge?: number) {
  return {
    path: "/",
    httpOnly: true,
    sameSite: "lax" as const,
    secure,
    ...(maxAge === undefined ? {} : { maxAge: Math.min(maxAge, COOKIE_MAX_AGE_CAP) }),
  };
}

type CookieName = keyof ReturnType<typeof cookieNames>;

/** Expires one of the app's cookies, only where the request carries it (no needless Set-Cookie). */
export function expireCookieIfSent(
  request: FastifyRequest,
  reply: FastifyReply,
  context: CookieContext,
  cookie: CookieName,
): void {
  const secure = isSecureRequest(context.config, request);
  const name = cookieNames(context.config, secure)[cookie];
  if (request.cookies[name] !== undefined) reply.setCookie(name, "", attributes(secure, 0));
}

/**
 * What this app already verified (get-session and every authenticated request start
 * with an HMAC, which costs far more inside a busy server than in a tight loop:
 * bench/README.md). A memo answers only for the very same cookie value; first in,
 * first out, at most VERIFIED_LIMIT entries.
 */
class VerifiedMemo<T> {
  readonly #entries = new Map<string, T>();

  get(key: string): T | undefined {
    return this.#entries.get(key);
  }

  remember(key: string, value: T): void {
    this.#entries.set(key, value);
    if (this.#entries.size > VERIFIED_LIMIT) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
  }
}

const VERIFIED_LIMIT = 1024;

/** The token of a signed value `<token>.<hmac>`, through the app's memo; null if forged. */
function verifiedToken(signed: string, context: CookieContext): string | null {
  const known = context.verifiedTokens.get(signed);
  if (known !== undefined) return known;
  const token = unsign(signed, context);
  if (token === null) return null;
  context.verifiedTokens.remember(signed, token);
  return token;
}

/** A signed cookie's value under any configured secret, or null. */
function unsign(signed: string, context: CookieContext): string | null {
  return unsignWithAny(signed, context.secrets)?.value ?? null;
}

/**
 * Does the request carry a session cookie signed with an older secret? Then the answer
 * signs it again with the newest, so that the older secret can later be removed.
 */
export function hasStaleSessionCookie(request: FastifyRequest, context: CookieContext): boolean {
  const names = cookieNames(context.config, isSecureRequest(context.config, request));
  const signed = request.cookies[names.sessionToken];
  return signed !== undefined && unsignWithAny(signed, context.secrets)?.stale === true;
}

/** Where a request's session token came from. */
export interface SessionCredential {
  token: string;
  /** From `Authorization: Bearer`: no cookie of the session was sent. */
  bearer: boolean;
}

/**
 * Longer than any value authd hands out (a signed token, URL-encoded, is under 150
 * characters); a longer header is refused before any decoding or hashing.
 */
const BEARER_MAX_LENGTH = 512;
const BEARER_HEADER = /^Bearer +([A-Za-z0-9._~+/=%-]+) *$/i;
/** A session token is base64url: a dot only ever separates a token from its signature. */
const RAW_TOKEN = /^[A-Za-z0-9_-]+$/;

/**
 * The token of an `Authorization: Bearer` header, or null. The value is the raw session
 * token (looked up by its digest like any token, so no signature to check) or the
 * signed cookie value `<token>.<hmac>`, also URL-encoded as copied from a cookie, whose
 * signature must match.
 */
function readBearerToken(request: FastifyRequest, context: CookieContext): string | null {
  const header = request.headers.authorization;
  if (typeof header !== "string" || header.length > BEARER_MAX_LENGTH) return null;
  const match = BEARER_HEADER.exec(header);
  let value = match?.[1];
  if (!value) return null;
  if (value.includes("%")) {
    try {
      value = decodeURIComponent(value);
    } catch {
      return null;
    }
  }
  if (!value.includes(".")) return RAW_TOKEN.test(value) ? value : null;
  return verifiedToken(value, context);
}

/**
 * The request's session token and where it came from: the correctly signed session
 * cookie; without one, when bearer sessions are on, the Authorization header. A request
 * that carries a session cookie is never read as a bearer one, even when the cookie's
 * signature fails.
 */
export function readSessionCredential(
  request: FastifyRequest,
  context: CookieContext,
): SessionCredential | null {
  const names = cookieNames(context.config, isSecureRequest(context.config, request));
  const signed = request.cookies[names.sessionToken];
  if (signed) {
    const token = verifiedToken(signed, context);
    return token === null ? null : { token, bearer: false };
  }
  if (!context.config.bearer.enabled) return null;
  const token = readBearerToken(request, context);
  return token === null ? null : { token, bearer: true };
}

export function readDontRemember(request: FastifyRequest, context: CookieContext): boolean {
  const names = cookieNames(context.config, isSecureRequest(context.config, request));
  const signed = request.cookies[names.dontRemember];
  return signed !== undefined && unsign(signed, context) === "true";
}

export interface SessionPayload {
  session: SessionResponse;
  user: UserResponse;
}

/**
 * Sets the session cookie, and with bearer sessions on the `set-auth-token` header
 * holding the same signed value. `rememberMe: false` makes browser-session cookies (no
 * Max-Age) and a signed dont_remember marker that stops refreshes.
 */
export function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  context: CookieContext,
  token: string,
  options: { rememberMe: boolean; maxAge?: number },
): void {
  const secure = isSecureRequest(context.config, request);
  const names = cookieNames(context.config, secure);
  const maxAge = options.rememberMe
    ? (options.maxAge ?? context.config.session.expiresIn)
    : undefined;
  const signed = signValue(token, context.secret);
  reply.setCookie(names.sessionToken, signed, attributes(secure, maxAge));
  // Clients without a cookie jar read the same value here and send it back as a bearer.
  if (context.config.bearer.enabled) reply.header("set-auth-token", signed);
  if (options.rememberMe) {
    expireCookieIfSent(request, reply, context, "dontRemember");
  } else {
    reply.setCookie(names.dontRemember, signValue("true", context.secret), attributes(secure));
  }
}

export function clearSessionCookies(
  request: FastifyRequest,
  reply: FastifyReply,
  context: CookieContext,
): void {
  const secure = isSecureRequest(context.config, request);
  const names = cookieNames(context.config, secure);
  for (const name of [names.sessionToken, names.sessionData, names.dontRemember]) {
    reply.setCookie(name, "", attributes(secure, 0));
  }
}

/**
 * The cache cookie is `v1.<expires ms>.<base64url JSON>.<signature>`: the expiry is
 * readable without parsing, and the JSON is sent back as it is. The signature covers
 * the token too, so the cache only ever answers for the session it was made for.
 */
function cacheSignature(head: string, token: string, secret: string): string {
  return hmac(`${head}.${token}`, secret, "base64url");
}

/**
 * Writes the signed session cache when enabled and small enough; a payload over the
 * cap is simply not cached (and a stale cache cookie is removed).
 */
export function setSessionDataCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  context: CookieContext,
  token: string,
  payload: SessionPayload,
  rememberMe: boolean,
): void {
  const { cookieCache } = context.config.session;
  if (!cookieCache.enabled) return;
  const secure = isSecureRequest(context.config, request);
  const names = cookieNames(context.config, secure);
  const expiresAt = Math.min(
    Date.now() + cookieCache.maxAge * 1000,
    new Date(payload.session.expiresAt).getTime(),
  );
  const head = `${CACHE_VERSION}.${expiresAt}.${Buffer.from(JSON.stringify(payload)).toString("base64url")}`;
  const value = `${head}.${cacheSignature(head, token, context.secret)}`;
  if (value.length > SESSION_DATA_MAX_LENGTH) {
    expireCookieIfSent(request, reply, context, "sessionData");
    return;
  }
  reply.setCookie(
    names.sessionData,
    value,
    attributes(secure, rememberMe ? cookieCache.maxAge : undefined),
  );
}

/**
 * Cache cookies already verified: signature -> what it was verified for. SPAs ask
 * get-session again and again with the same cookies; a hit skips the HMAC and the base64
 * decode, which are most of the cache path's own cost. A hit needs the very same cookie
 * value and token, and the expiry is checked on every request (about 2 KB per entry).
 */
interface VerifiedCache {
  value: string;
  token: string;
  expiresAt: number;
  json: Buffer;
}

/**
 * The cached `{session, user}` as JSON bytes, when the cache is on, signed for the token
 * the request's session cookie carries, and unexpired; null otherwise.
 *
 * One HMAC, not two: the session cookie's own signature is not checked here, because
 * the cache signature covers the raw token. A forged or altered token cannot match it,
 * and the raw token is the secret a valid signature would protect anyway. Every other
 * use of the session cookie (readSessionCredential) checks its signature.
 */
export function readSessionDataCookie(
  request: FastifyRequest,
  context: CookieContext,
): Buffer | null {
  if (!context.config.session.cookieCache.enabled) return null;
  const names = cookieNames(context.config, isSecureRequest(context.config, request));
  const value = request.cookies[names.sessionData];
  const signedToken = request.cookies[names.sessionToken];
  if (!value || !signedToken) return null;
  const tokenEnd = signedToken.lastIndexOf(".");
  const dot = value.lastIndexOf(".");
  if (tokenEnd <= 0 || dot <= 0) return null;
  const token = signedToken.slice(0, tokenEnd);
  const signature = value.slice(dot + 1);
  const known = context.verifiedCaches.get(signature);
  if (known && known.value === value && known.token === token) {
    return known.expiresAt > Date.now() ? known.json : null;
  }
  const head = value.slice(0, dot);
  const [version, expires, body] = head.split(".");
  if (version !== CACHE_VERSION || !expires || !body) return null;
  const expiresAt = Number(expires);
  if (!(expiresAt > Date.now())) return null;
  const signedBy = context.secrets.some((secret) =>
    constantTimeEqual(signature, cacheSignature(head, token, secret)),
  );
  if (!signedBy) return null;
  const json = Buffer.from(body, "base64url");
  context.verifiedCaches.remember(signature, { value, token, expiresAt, json });
  return json;
}

/**
 * Impersonation (as in Better Auth): the admin's own token rides along in the signed
 * `admin_session` cookie as `<token>:<"true" when the admin's login was not remembered>`.
 */
export function setAdminSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  context: CookieContext,
  adminToken: string,
  dontRemember: boolean,
  maxAge: number,
): void {
  const secure = isSecureRequest(context.config, request);
  const value = signValue(`${adminToken}:${dontRemember ? "true" : ""}`, context.secret);
  reply.setCookie(
    cookieNames(context.config, secure).adminSession,
    value,
    attributes(secure, maxAge),
  );
}

export function readAdminSessionCookie(
  request: FastifyRequest,
  context: CookieContext,
): { token: string; dontRemember: boolean } | null {
  const names = cookieNames(context.config, isSecureRequest(context.config, request));
  const signed = request.cookies[names.adminSession];
  const value = signed ? unsign(signed, context) : null;
  if (!value) return null;
  const colon = value.lastIndexOf(":");
  if (colon <= 0) return null;
  return { token: value.slice(0, colon), dontRemember: value.slice(colon + 1) === "true" };
}

export function clearAdminSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  context: CookieContext,
): void {
  const secure = isSecureRequest(context.config, request);
  reply.setCookie(cookieNames(context.config, secure).adminSession, "", attributes(secure, 0));
}

/**
 * Social sign-in binds its state to the browser that started it: the signed state in
 * `<prefix>.state`, for as long as the state lives. The callback reads it, then clears it.
 */
export function setStateCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  context: CookieContext,
  state: string,
  maxAge: number,
): void {
  const secure = isSecureRequest(context.config, request);
  reply.setCookie(
    cookieNames(context.config, secure).state,
    signValue(state, context.secret),
    attributes(secure, maxAge),
  );
}

/** The state from a correctly signed state cookie, or null. */
export function readStateCookie(request: FastifyRequest, context: CookieContext): string | null {
  const names = cookieNames(context.config, isSecureRequest(context.config, request));
  const signed = request.cookies[names.state];
  return signed ? unsign(signed, context) : null;
}

/**
 * The session cookie a browser would hold for `token`, outside a request (the CLI
 * mints sessions for browser tests): its name and its encoded, signed value.
 */
export function sessionCookieFor(
  config: AuthdConfig,
  secret: string,
  token: string,
): { name: string; value: string } {
  const secure = config.baseURL?.startsWith("https://") === true;
  return {
    name: cookieNames(config, secure).sessionToken,
    value: encodeURIComponent(signValue(token, secret)),
  };
}

/** The JSON of a cookie cache `readSessionDataCookie` answered, parsed once per value. */
export function parsedSessionData(context: CookieContext, json: Buffer): unknown {
  let parsed = context.parsedCaches.get(json);
  if (parsed === undefined) {
    parsed = JSON.parse(json.toString("utf8")) as unknown;
    context.parsedCaches.set(json, parsed);
  }
  return parsed;
}
