/**
 * Origin and redirect safety.
 *
 * - Cookie-carrying POSTs must come from a trusted Origin (or, without one, Referer).
 *   A request without cookies (a bearer session's) carries no ambient credential a
 *   foreign page could ride on, so it skips this check; with cookies it keeps it, even
 *   beside an Authorization header.
 * - Sign-in and sign-up are also guarded against login CSRF without a cookie.
 * - Every callbackURL, redirectTo, errorCallbackURL and newUserCallbackURL must be an
 *   absolute http(s) URL on a trusted origin, without userinfo, or a canonical
 *   root-relative path; the same check runs again wherever a redirect is issued.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AuthdConfig } from "../config.js";
import { AuthError, type ErrorCode } from "../errors.js";
import { redactUrl } from "../logger.js";

/** Body and query fields that name a place to send the browser, with their error. */
export const REDIRECT_FIELDS: ReadonlyArray<readonly [string, ErrorCode]> = [
  ["callbackURL", "INVALID_CALLBACK_URL"],
  ["redirectTo", "INVALID_REDIRECT_URL"],
  ["errorCallbackURL", "INVALID_ERROR_CALLBACK_URL"],
  ["newUserCallbackURL", "INVALID_NEW_USER_CALLBACK_URL"],
];

// Control characters and backslashes are never part of a URL authd redirects to.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
const UNSAFE_CHARACTERS = /[\u0000-\u001f\u007f\\]/;

/** The origin authd itself answers on: baseURL's, or the request's own. */
export function ownOrigin(config: AuthdConfig, request: FastifyRequest): string {
  if (config.baseURL) return new URL(config.baseURL).origin;
  try {
    return new URL(`${request.protocol}://${request.host}`).origin;
  } catch {
    return "null";
  }
}

function patternToRegExp(pattern: string): RegExp {
  const escaped = pattern.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^./:]+");
  return new RegExp(`^${escaped}$`, "i");
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * An origin with its loopback host written one way: localhost, 127.0.0.1 and [::1]
 * are the same machine, so a server configured as http://localhost:3000 trusts a
 * browser that opened http://127.0.0.1:3000 (same scheme and port) and the other way
 * round.
 */
function comparableOrigin(url: URL): string {
  if (!LOOPBACK_HOSTS.has(url.hostname)) return url.origin;
  return `${url.protocol}//localhost${url.port ? `:${url.port}` : ""}`;
}

/** `value` as an http: or https: URL; null when it is not one. */
function httpUrl(value: string): URL | null {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return null;
  }
  return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed : null;
}

/**
 * The configured trust, worked out once: `baseURL`'s origin and `trustedOrigins`
 * (exact origins and `*` patterns). The answer says whether `origin` (scheme://host
 * [:port]) is trusted; given the request, the origin it came in on counts too when no
 * `baseURL` is configured.
 */
export function compileOriginTrust(
  config: AuthdConfig,
): (origin: string, request?: FastifyRequest) => boolean {
  const exact = new Set<string>();
  const patterns: RegExp[] = [];
  if (config.baseURL) {
    const base = httpUrl(config.baseURL);
    if (base) exact.add(comparableOrigin(base));
  }
  for (const trusted of config.trustedOrigins) {
    if (trusted.includes("*")) {
      patterns.push(patternToRegExp(trusted.replace(/\/+$/, "")));
      continue;
    }
    const parsed = httpUrl(trusted);
    // An unparsable entry trusts nothing.
    if (parsed) exact.add(comparableOrigin(parsed));
  }
  return (origin, request) => {
    const parsed = httpUrl(origin);
    if (!parsed) return false;
    const comparable = comparableOrigin(parsed);
    if (exact.has(comparable)) return true;
    if (!config.baseURL && request) {
      const own = httpUrl(ownOrigin(config, request));
      if (own && comparableOrigin(own) === comparable) return true;
    }
    return patterns.some((pattern) => pattern.test(parsed.origin));
  };
}

/** Is `origin` (scheme://host[:port]) one of the trusted origins or patterns? */
export function isTrustedOrigin(
  origin: string,
  config: AuthdConfig,
  request: FastifyRequest,
): boolean {
  return compileOriginTrust(config)(origin, request);
}

/**
 * A canonical root-relative path: one leading slash, no backslash or control
 * character, no encoded slash, backslash or dot, no `.` or `..` segment, and it must
 * resolve to itself (so `/..//host` cannot turn into `//host`).
 */
export function isSafeRelativePath(value: string): boolean {
  if (!value.startsWith("/") || value.startsWith("//")) return false;
  if (UNSAFE_CHARACTERS.test(value)) return false;
  const end = value.search(/[?#]/);
  const path = end === -1 ? value : value.slice(0, end);
  if (/%(2f|5c|2e)/i.test(path)) return false;
  if (path.split("/").some((segment) => segment === "." || segment === "..")) return false;
  try {
    const resolved = new URL(value, "http://authd.invalid");
    return resolved.origin === "http://authd.invalid" && resolved.pathname === path;
  } catch {
    return false;
  }
}

/** Where a redirect may go: a safe relative path, or http(s) on a trusted origin. */
export function isAllowedRedirect(
  value: string,
  config: AuthdConfig,
  request: FastifyRequest,
): boolean {
  if (value.startsWith("/")) return isSafeRelativePath(value);
  if (UNSAFE_CHARACTERS.test(value)) return false;
  const parsed = httpUrl(value);
  if (!parsed) return false;
  if (parsed.username || parsed.password) return false;
  return isTrustedOrigin(parsed.origin, config, request);
}

/** Throws the field's 403 unless `value` is an allowed redirect target. */
export function assertAllowedRedirect(
  value: string | undefined,
  code: ErrorCode,
  config: AuthdConfig,
  request: FastifyRequest,
): void {
  if (value === undefined || value === "") return;
  if (!isAllowedRedirect(value, config, request)) throw new AuthError(code);
}

function originOf(request: FastifyRequest): string | null {
  const origin = request.headers.origin;
  if (typeof origin === "string" && origin !== "") return origin;
  const referer = request.headers.referer;
  if (typeof referer === "string" && referer !== "") {
    try {
      return new URL(referer).origin;
    } catch {
      return "null";
    }
  }
  return null;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Long enough for any real origin; a longer header is shown cut. */
const SHOWN_ORIGIN_LENGTH = 200;

/**
 * The 403 for an origin authd does not trust, saying which origin arrived and what
 * to configure, and the same at `warn` in the log: a misconfigured app is found from
 * either side.
 */
function refused(
  request: FastifyRequest,
  code: "INVALID_ORIGIN" | "MISSING_OR_NULL_ORIGIN",
  origin: string | null,
): AuthError {
  const shown = origin === null ? null : origin.slice(0, SHOWN_ORIGIN_LENGTH);
  const message =
    code === "INVALID_ORIGIN"
      ? `Invalid origin: ${shown} is not trusted; add it to trustedOrigins (or make it the baseURL)`
      : `Missing or null Origin: a request that carries cookies must send an Origin header (got ${shown === null ? "none" : shown}); the origin must be listed in trustedOrigins (or be the baseURL)`;
  request.log.warn(
    { origin: shown, method: request.method, path: redactUrl(request.url).split("?")[0] },
    message,
  );
  return new AuthError(code, { message, details: { origin: shown } });
}

export function registerOriginChecks(app: FastifyInstance, config: AuthdConfig): void {
  const base = config.basePath === "/" ? "" : config.basePath;
  const trusts = compileOriginTrust(config);
  const loginPaths = [`${base}/sign-in/`, `${base}/sign-up/`];

  const checkOrigin = async (request: FastifyRequest): Promise<void> => {
    const origin = originOf(request);
    // The cookie header, not the session's source, decides: any cookie of authd's is a
    // credential the browser adds by itself.
    if (request.headers.cookie) {
      // Same-origin fetches may send `Origin: null` with Sec-Fetch-Site: same-origin.
      if (
        origin === null ||
        (origin === "null" && request.headers["sec-fetch-site"] !== "same-origin")
      ) {
        throw refused(request, "MISSING_OR_NULL_ORIGIN", origin);
      }
      if (origin !== "null" && !trusts(origin, request)) {
        throw refused(request, "INVALID_ORIGIN", origin);
      }
      return;
    }
    if (!loginPaths.some((prefix) => request.url.startsWith(prefix))) return;
    // Login CSRF: a cross-site navigation must not sign a victim into an attacker's account.
    if (
      request.headers["sec-fetch-site"] === "cross-site" &&
      request.headers["sec-fetch-mode"] === "navigate"
    ) {
      throw new AuthError("CROSS_SITE_NAVIGATION_LOGIN_BLOCKED");
    }
    if (origin !== null && origin !== "null" && !trusts(origin, request)) {
      throw refused(request, "INVALID_ORIGIN", origin);
    }
  };

  // After parsing, before any handler: redirect targets in the body or query.
  const checkRedirectFields = async (request: FastifyRequest): Promise<void> => {
    const sources = [request.body, request.query];
    for (const source of sources) {
      if (typeof source !== "object" || source === null) continue;
      const fields = source as Record<string, unknown>;
      for (const [field, code] of REDIRECT_FIELDS) {
        const value = fields[field];
        if (value === undefined || value === null) continue;
        if (typeof value !== "string") {
          throw new AuthError("VALIDATION_ERROR", {
            message: "Invalid body parameters",
            details: [{ path: field, message: `Invalid ${field}: expected a string` }],
          });
        }
        assertAllowedRedirect(value, code, config, request);
      }
    }
  };

  // A provider's form_post to the OAuth callback comes from the provider's own site; that
  // POST changes nothing and only redirects to the callback's GET form.
  const crossSitePosts = new Set([`${base}/callback/:id`]);

  // Only routes that change state carry the checks, so reads pay nothing for them.
  app.addHook("onRoute", (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.every((method) => SAFE_METHODS.has(method))) return;
    if (!crossSitePosts.has(route.url)) {
      route.onRequest = [...hookList(route.onRequest), checkOrigin];
    }
    route.preHandler = [...hookList(route.preHandler), checkRedirectFields];
  });
}

function hookList<T>(hooks: T | T[] | undefined): T[] {
  if (hooks === undefined) return [];
  return Array.isArray(hooks) ? hooks : [hooks];
}
