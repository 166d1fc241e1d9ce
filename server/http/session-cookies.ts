/**
 * Session cookies (DESIGN §4): `<prefix>.session_token` carries the token signed with
 * the secret (HMAC); `<prefix>.dont_remember` marks a browser-session login;
 * `<prefix>.session_data` is the optional signed session cache, at most 4093
 * characters (SPEC §9), bound to the token it was made for. HttpOnly, SameSite=Lax,
 * and Secure with the `__Secure-` prefix on https.
 */
import type {} from "@fastify/cookie";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { AuthdConfig } from "../config.js";
import { constantTimeEqual, hmac, signValue, unsignValue } from "../crypto/digest.js";
import type { SessionResponse, UserResponse } from "../sessions/sessions.js";

/** SPEC §9: cached session cookie cap. */
export const SESSION_DATA_MAX_LENGTH = 4093;
/** SPEC §9: cookie lifetime cap, 400 days. */
export const COOKIE_MAX_AGE_CAP = 400 * 86400;
const CACHE_VERSION = "1";

export interface CookieContext {
  config: AuthdConfig;
  secret: string;
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

/** The token from a correctly signed session cookie, or null. */
export function readSessionToken(request: FastifyRequest, context: CookieContext): string | null {
  const names = cookieNames(context.config, isSecureRequest(context.config, request));
  const signed = request.cookies[names.sessionToken];
  if (!signed) return null;
  return unsignValue(signed, context.secret);
}

export function readDontRemember(request: FastifyRequest, context: CookieContext): boolean {
  const names = cookieNames(context.config, isSecureRequest(context.config, request));
  const signed = request.cookies[names.dontRemember];
  return signed !== undefined && unsignValue(signed, context.secret) === "true";
}

export interface SessionPayload {
  session: SessionResponse;
  user: UserResponse;
}

/**
 * Sets the session cookie. `rememberMe: false` makes browser-session cookies (no
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
  reply.setCookie(names.sessionToken, signValue(token, context.secret), attributes(secure, maxAge));
  if (options.rememberMe) {
    if (request.cookies[names.dontRemember] !== undefined) {
      reply.setCookie(names.dontRemember, "", attributes(secure, 0));
    }
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

interface CachedSession {
  payload: SessionPayload;
  version: string;
  expiresAt: number;
}

function cacheSignature(body: string, token: string, secret: string): string {
  return hmac(`${body}.${token}`, secret);
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
  const cached: CachedSession = {
    payload,
    version: CACHE_VERSION,
    expiresAt: Date.now() + cookieCache.maxAge * 1000,
  };
  const body = Buffer.from(JSON.stringify(cached)).toString("base64url");
  const value = `${body}.${cacheSignature(body, token, context.secret)}`;
  if (encodeURIComponent(value).length > SESSION_DATA_MAX_LENGTH) {
    if (request.cookies[names.sessionData] !== undefined) {
      reply.setCookie(names.sessionData, "", attributes(secure, 0));
    }
    return;
  }
  reply.setCookie(
    names.sessionData,
    value,
    attributes(secure, rememberMe ? cookieCache.maxAge : undefined),
  );
}

/** The cached session when the cache is on, signed for this token, and unexpired. */
export function readSessionDataCookie(
  request: FastifyRequest,
  context: CookieContext,
  token: string,
): SessionPayload | null {
  if (!context.config.session.cookieCache.enabled) return null;
  const names = cookieNames(context.config, isSecureRequest(context.config, request));
  const value = request.cookies[names.sessionData];
  if (!value) return null;
  const dot = value.lastIndexOf(".");
  if (dot <= 0) return null;
  const body = value.slice(0, dot);
  if (!constantTimeEqual(value.slice(dot + 1), cacheSignature(body, token, context.secret))) {
    return null;
  }
  try {
    const cached = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as CachedSession;
    const now = Date.now();
    if (cached.version !== CACHE_VERSION || cached.expiresAt <= now) return null;
    if (Date.parse(String(cached.payload.session.expiresAt)) <= now) return null;
    return cached.payload;
  } catch {
    return null;
  }
}
