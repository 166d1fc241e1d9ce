/**
 * The session model: creation, lookup by token digest, expiry,
 * refresh after `updateAge`, freshness, revocation. No Fastify here; cookies are the
 * HTTP layer's business (server/http/session-cookies.ts).
 */
import type { AuthdConfig } from "../config.js";
import { sha256 } from "../crypto/digest.js";
import { generateId, generateSessionToken } from "../crypto/random.js";
import type { Queryable, Sql } from "../db/connection.js";
import type { UserRow } from "../users/queries.js";
import { assertNotBanned } from "../users/users.js";
import {
  deleteSessionById,
  deleteSessionOfUser,
  deleteSessionsOfUser,
  extendSession,
  insertSession,
  listActiveSessionsOfUser,
  type SessionLookups,
  type SessionRider,
  type SessionRow,
  type SessionWithUser,
} from "./queries.js";

/** `rememberMe: false` gives a one-day session. */
export const DONT_REMEMBER_LIFETIME_SECONDS = 86400;

export interface ClientInfo {
  ipAddress: string | null;
  userAgent: string | null;
}

export interface CreatedSession {
  session: SessionRow;
  /** The secret the cookie carries; only its digest is stored. */
  token: string;
}

export async function createSession(
  sql: Queryable,
  config: AuthdConfig,
  input: {
    userId: string;
    client: ClientInfo;
    rememberMe?: boolean;
    impersonatedBy?: string | null;
    lifetimeSeconds?: number;
    activeOrganizationId?: string | null;
  },
): Promise<CreatedSession> {
  const token = generateSessionToken();
  const lifetime =
    input.lifetimeSeconds ??
    (input.rememberMe === false ? DONT_REMEMBER_LIFETIME_SECONDS : config.session.expiresIn);
  const session = await insertSession(sql, {
    id: generateId(),
    userId: input.userId,
    tokenHash: sha256(token),
    expiresAt: new Date(Date.now() + lifetime * 1000),
    ipAddress: input.client.ipAddress,
    userAgent: input.client.userAgent,
    impersonatedBy: input.impersonatedBy ?? null,
    activeOrganizationId: input.activeOrganizationId ?? null,
  });
  return { session, token };
}

/**
 * Signing in, by any method: a banned user gets no session (an expired ban lifts), and
 * the session the client still carries, if any, is ended first.
 */
export async function startSession(
  sql: Queryable,
  config: AuthdConfig,
  input: { user: UserRow; replacing: string | null; client: ClientInfo; rememberMe: boolean },
): Promise<CreatedSession> {
  await assertNotBanned(sql, input.user);
  if (input.replacing) await endSession(sql, input.replacing);
  return createSession(sql, config, {
    userId: input.user.id,
    client: input.client,
    rememberMe: input.rememberMe,
  });
}

/** The operator's paged list of sessions across the platform (`authd session list`). */
export {
  type ListedSession,
  listSessionsPage,
  type SessionListQuery,
  type SessionPage,
} from "./list-queries.js";

/**
 * Made once per app (buildApp): its session lookups share round trips. Also the session
 * statements other domains run, and the writes of `authd import better-auth --sessions`.
 */
export {
  activateOrganizationStep,
  activateOrganizationsStep,
  clearActiveOrganizationOfSession,
  clearActiveOrganizationOfUser,
  clearActiveTeamOfUser,
  createSessionLookups,
  deleteSessionByIdOrDigest,
  findSessionIds,
  insertMigratedSessions,
  listAllSessionsOfUser,
  type SessionRider,
  sessionRider,
  setActiveOrganizationOfSession,
  setActiveTeamOfSession,
} from "./queries.js";

/** The live session of a token, or null; an expired one found here is deleted. */
export async function findLiveSession(
  sql: Sql,
  lookups: SessionLookups,
  token: string,
): Promise<SessionWithUser | null> {
  return liveOrNull(sql, await lookups.find(sha256(token)));
}

/** findLiveSession plus a read about the caller in the same round trip (SessionRider). */
export async function findLiveSessionAnd<T>(
  sql: Sql,
  lookups: SessionLookups,
  token: string,
  rider: SessionRider,
  riderParameters: readonly (string | null)[] = [],
): Promise<(SessionWithUser & { rider: T | null }) | null> {
  const found = await lookups.findWith<T>(sha256(token), rider, riderParameters);
  const live = await liveOrNull(sql, found?.found);
  return live && found ? { session: live.session, user: live.user, rider: found.rider } : null;
}

async function liveOrNull(
  sql: Queryable,
  found: SessionWithUser | undefined,
): Promise<SessionWithUser | null> {
  if (!found) return null;
  if (found.session.expiresAt.getTime() <= Date.now()) {
    await deleteSessionById(sql, found.session.id);
    return null;
  }
  // A banned user has no live session (a ban set by hand in the database too).
  const { user } = found;
  if (user.banned && (!user.banExpires || user.banExpires.getTime() > Date.now())) return null;
  return found;
}

/**
 * Refreshed on get-session once the age threshold is passed: when the last
 * extension is at least `updateAge` old, the session lives `expiresIn` from now.
 */
export function needsRefresh(session: SessionRow, config: AuthdConfig, now = Date.now()): boolean {
  const { expiresIn, updateAge } = config.session;
  const lastExtendedAt = session.expiresAt.getTime() - expiresIn * 1000;
  return lastExtendedAt + updateAge * 1000 <= now;
}

/** Beyond a `rememberMe: false` session's lifetime, so clock skew cannot blur the two. */
const REMEMBERED_MARGIN_SECONDS = 3600;

/**
 * Whether a session may be extended for a client that cannot say how it signed in: a
 * bearer request has no dont_remember cookie. The session itself tells: an impersonation
 * never, nor a session that has lived no longer than a `rememberMe: false` one is given
 * (where `session.expiresIn` is that short too, no bearer session is extended).
 */
export function isRememberedSession(session: SessionRow): boolean {
  if (session.impersonatedBy) return false;
  const lifetime = session.expiresAt.getTime() - session.createdAt.getTime();
  return lifetime > (DONT_REMEMBER_LIFETIME_SECONDS + REMEMBERED_MARGIN_SECONDS) * 1000;
}

export async function refreshSession(
  sql: Queryable,
  session: SessionRow,
  config: AuthdConfig,
): Promise<SessionRow> {
  const extended = await extendSession(
    sql,
    session.id,
    new Date(Date.now() + config.session.expiresIn * 1000),
  );
  return extended ?? session;
}

/** Freshness: measured from creation against `freshAge`; 0 disables it. */
export function isFresh(session: SessionRow, config: AuthdConfig, now = Date.now()): boolean {
  const { freshAge } = config.session;
  if (freshAge === 0) return true;
  return now - session.createdAt.getTime() < freshAge * 1000;
}

export function listSessions(sql: Queryable, userId: string): Promise<SessionRow[]> {
  return listActiveSessionsOfUser(sql, userId);
}

/**
 * revoke-session takes the opaque handle list-sessions shows (the session id) or a
 * raw token; a session of another user is never touched, and an unknown one is ignored.
 */
export async function revokeSession(
  sql: Queryable,
  userId: string,
  tokenOrHandle: string,
): Promise<void> {
  await deleteSessionOfUser(sql, userId, { id: tokenOrHandle, tokenHash: sha256(tokenOrHandle) });
}

export async function revokeSessions(sql: Queryable, userId: string): Promise<number> {
  return deleteSessionsOfUser(sql, userId);
}

export async function revokeOtherSessions(
  sql: Queryable,
  userId: string,
  currentSessionId: string,
): Promise<number> {
  return deleteSessionsOfUser(sql, userId, currentSessionId);
}

export function endSession(sql: Queryable, sessionId: string): Promise<boolean> {
  return deleteSessionById(sql, sessionId);
}

/** The session as clients see it: the token field is the opaque handle, never the secret. */
export function sessionResponse(session: SessionRow) {
  return {
    id: session.id,
    token: session.id,
    userId: session.userId,
    expiresAt: session.expiresAt,
    createdAt: session.createdAt,
    updatedAt: session.updatedAt,
    ipAddress: session.ipAddress,
    userAgent: session.userAgent,
    activeOrganizationId: session.activeOrganizationId,
    activeTeamId: session.activeTeamId,
    impersonatedBy: session.impersonatedBy,
  };
}

/** The user as clients see it (Better Auth's shape): never a password. */
export function userResponse(user: UserRow) {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    emailVerified: user.emailVerified,
    image: user.image,
    createdAt: user.createdAt,
    updatedAt: user.updatedAt,
    role: user.role,
    banned: user.banned,
    banReason: user.banReason,
    banExpires: user.banExpires,
  };
}

export type SessionResponse = ReturnType<typeof sessionResponse>;
export type UserResponse = ReturnType<typeof userResponse>;
