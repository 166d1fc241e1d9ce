/**
 * What every route module receives from buildApp, and how a request's session is
 * resolved: the signed cookie (or, with bearer sessions on and no session cookie, the
 * Authorization header), then the token digest in the database (or the signed cookie
 * cache where a route allows it). Resolved once per request.
 */
import type { FastifyRequest } from "fastify";
import type { UserActor } from "../actor.js";
import type { AuthdConfig } from "../config.js";
import type { PasswordHasher } from "../crypto/password.js";
import type { Sql } from "../db/connection.js";
import type { Domains } from "../domains.js";
import { AuthError } from "../errors.js";
import type { KeyCache } from "../keys/tokens.js";
import type { Mailer } from "../mail/mailer.js";
import type { Metrics } from "../metrics/metrics.js";
import type { SessionLookups, SessionRider, SessionRow } from "../sessions/queries.js";
import {
  type ClientInfo,
  findLiveSession,
  findLiveSessionAnd,
  isFresh,
} from "../sessions/sessions.js";
import type { SocialContext } from "../social/context.js";
import type { UserRow } from "../users/queries.js";
import type { LinkContext } from "../verification/verification.js";
import { type CookieContext, readSessionCredential } from "./session-cookies.js";

export interface AuthContext {
  config: AuthdConfig;
  /** The newest configured secret: what signs and seals from now on. */
  secret: string;
  /** Every configured secret, newest first: older ones are still accepted while rotating. */
  secrets: readonly string[];
  sql: Sql;
  mailer: Mailer;
  cookies: CookieContext;
  /** This app's password hashing: its slots and its dummy hash are its own. */
  passwords: PasswordHasher;
  /** Session lookups batched across this app's concurrent requests. */
  sessionLookups: SessionLookups;
  /** The organization and team domains of this app, wired to one another. */
  domains: Domains;
  /** Social sign-in's catalogue, token cipher and what this app learnt from providers. */
  social: SocialContext;
  /** The keys that sign tokens for other services; null unless `jwt.enabled`. */
  keys: KeyCache | null;
  /** What this app counts for Prometheus; null when metrics are off. */
  metrics: Metrics | null;
  /** Each request's session, looked up once however many hooks and handlers ask. */
  sessionOfRequest: WeakMap<FastifyRequest, Promise<ResolvedSession | null>>;
}

/** The signed-in caller as the domains see them. */
export function userActor(
  current: { session: SessionRow; user: UserRow },
  request: FastifyRequest,
): UserActor & { session: SessionRow } {
  const client = clientInfo(request);
  return {
    kind: "user",
    user: current.user,
    session: current.session,
    ipAddress: client.ipAddress,
    userAgent: client.userAgent,
  };
}

export interface ResolvedSession {
  session: SessionRow;
  user: UserRow;
  /** The raw token from the cookie or bearer header (never sent back in a body). */
  token: string;
  /** Read from `Authorization: Bearer`: the request carries no session cookie. */
  bearer: boolean;
}

/** The caller's live session from the database, or null. */
export function currentSession(
  context: AuthContext,
  request: FastifyRequest,
): Promise<ResolvedSession | null> {
  const resolved = context.sessionOfRequest;
  let pending = resolved.get(request);
  if (!pending) {
    pending = (async () => {
      const credential = readSessionCredential(request, context.cookies);
      if (!credential) return null;
      const found = await findLiveSession(context.sql, context.sessionLookups, credential.token);
      // Written out, not spread: see "Building objects on the request path" in
      // docs/architecture.md.
      return found
        ? {
            session: found.session,
            user: found.user,
            token: credential.token,
            bearer: credential.bearer,
          }
        : null;
    })();
    resolved.set(request, pending);
  }
  return pending;
}

/** Authenticated calls answer 401 UNAUTHORIZED without a session. */
export async function requireSession(
  context: AuthContext,
  request: FastifyRequest,
): Promise<ResolvedSession> {
  const session = await currentSession(context, request);
  if (!session) throw new AuthError("UNAUTHORIZED");
  return session;
}

/**
 * requireSession plus a read about the caller answered in the same statement as the
 * session lookup (one round trip, e.g. for list organizations). The session rules are
 * the same: findLiveSessionAnd applies findLiveSession's.
 */
export async function requireSessionWith<T>(
  context: AuthContext,
  request: FastifyRequest,
  rider: SessionRider,
  riderParameters: readonly (string | null)[] = [],
): Promise<{ current: ResolvedSession; value: T | null }> {
  const credential = readSessionCredential(request, context.cookies);
  const found = credential
    ? await findLiveSessionAnd<T>(
        context.sql,
        context.sessionLookups,
        credential.token,
        rider,
        riderParameters,
      )
    : null;
  if (!found || !credential) throw new AuthError("UNAUTHORIZED");
  const current = { session: found.session, user: found.user, ...credential };
  const resolved = context.sessionOfRequest;
  if (!resolved.has(request)) resolved.set(request, Promise.resolve(current));
  return { current, value: found.rider };
}

/** Freshness: a session younger than `freshAge` (0 = not checked). */
export async function requireFreshSession(
  context: AuthContext,
  request: FastifyRequest,
): Promise<ResolvedSession> {
  const session = await requireSession(context, request);
  if (!isFresh(session.session, context.config)) throw new AuthError("SESSION_NOT_FRESH");
  return session;
}

/** The client's address (X-Forwarded-For only behind configured proxies) and agent. */
export function clientInfo(request: FastifyRequest): ClientInfo {
  const agent = request.headers["user-agent"];
  return {
    ipAddress: request.ip ?? null,
    userAgent: typeof agent === "string" ? agent.slice(0, 512) : null,
  };
}

/** The public base of links in mail: baseURL, or this request's own origin. */
export function publicBaseUrl(context: AuthContext, request: FastifyRequest): string {
  const origin = context.config.baseURL
    ? context.config.baseURL.replace(/\/+$/, "")
    : `${request.protocol}://${request.host}`;
  const base = context.config.basePath === "/" ? "" : context.config.basePath;
  return `${origin}${base}`;
}

/** Where this request's mailed links point, and its logger. */
export function linkContext(context: AuthContext, request: FastifyRequest): LinkContext {
  return { baseUrl: publicBaseUrl(context, request), logger: request.log };
}
