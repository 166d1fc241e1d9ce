/**
 * Issuing and ending sessions over HTTP: the glue between the session domain and the
 * cookies, shared by sign-in, sign-up, verification, password change and deletion.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { type AcceptedInvitation, acceptInvitation } from "../invitations/accept.js";
import type { SessionRow } from "../sessions/queries.js";
import {
  endSession,
  findLiveSession,
  sessionResponse,
  startSession,
  userResponse,
} from "../sessions/sessions.js";
import type { UserRow } from "../users/queries.js";
import { type AuthContext, clientInfo, currentSession } from "./auth-context.js";
import {
  clearSessionCookies,
  expireCookieIfSent,
  hasStaleSessionCookie,
  readDontRemember,
  setSessionCookie,
  setSessionDataCookie,
} from "./session-cookies.js";

/**
 * While secrets rotate: a session cookie signed with an older secret is signed again
 * with the newest on its next answer, same session and same expiry, so every active
 * browser has moved on long before the older secret is removed. An answer that sets
 * or clears the session cookie itself (sign-in, sign-out) overrides this one.
 */
export function reissueStaleSessionCookie(context: AuthContext) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (!hasStaleSessionCookie(request, context.cookies)) return;
    const current = await currentSession(context, request);
    if (!current) return;
    const remaining = Math.floor((current.session.expiresAt.getTime() - Date.now()) / 1000);
    if (remaining <= 0) return;
    setSessionCookie(request, reply, context.cookies, current.token, {
      rememberMe: !readDontRemember(request, context.cookies),
      maxAge: remaining,
    });
  };
}

export interface IssuedSession {
  token: string;
  session: SessionRow;
}

/**
 * Starts a session for `user` and sets its cookies. A valid session the request still
 * carries is ended first (signing in ends the old session).
 */
export async function issueSession(
  context: AuthContext,
  request: FastifyRequest,
  reply: FastifyReply,
  user: UserRow,
  options: { rememberMe?: boolean } = {},
): Promise<IssuedSession> {
  const previous = await currentSession(context, request);
  const rememberMe = options.rememberMe !== false;
  const { session, token } = await startSession(context.sql, context.config, {
    user,
    replacing: previous?.session.id ?? null,
    client: clientInfo(request),
    rememberMe,
  });
  setSessionCookie(request, reply, context.cookies, token, { rememberMe });
  setSessionDataCookie(
    request,
    reply,
    context.cookies,
    token,
    { session: sessionResponse(session), user: userResponse(user) },
    rememberMe,
  );
  reply.header("cache-control", "no-store");
  return { token, session };
}

/** Ends the caller's session (if any) and expires every session cookie. */
export async function closeSession(
  context: AuthContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const current = await currentSession(context, request);
  if (current) await endSession(context.sql, current.session.id);
  clearSessionCookies(request, reply, context.cookies);
}

/**
 * After a call changed what get-session shows for the caller's own session (the active
 * organization or team, the user's name, image, email, role), the signed cache cookie is
 * rewritten in the same answer, so get-session served from the cache never shows the
 * state from before the call. Every such route goes through here.
 *
 * `changed` gives the new rows where the call already has them; without any, the
 * session and its user are read again (one statement, and only with the cache on). A
 * session that is gone by then loses its cache cookie. `rememberMe` is for a session
 * issued in this same request, whose cookies the request does not carry yet.
 */
export async function rewriteSessionCache(
  context: AuthContext,
  request: FastifyRequest,
  reply: FastifyReply,
  current: { token: string; session: SessionRow; user: UserRow },
  changed: { session?: SessionRow; user?: UserRow; rememberMe?: boolean } = {},
): Promise<void> {
  if (!context.config.session.cookieCache.enabled) return;
  let session = changed.session;
  let user = changed.user;
  if (!session && !user) {
    const found = await findLiveSession(context.sql, context.sessionLookups, current.token);
    if (!found) {
      expireCookieIfSent(request, reply, context.cookies, "sessionData");
      return;
    }
    ({ session, user } = found);
  }
  setSessionDataCookie(
    request,
    reply,
    context.cookies,
    current.token,
    {
      session: sessionResponse(session ?? current.session),
      user: userResponse(user ?? current.user),
    },
    changed.rememberMe ?? !readDontRemember(request, context.cookies),
  );
}

/**
 * Accepts for a signed-in session and keeps its cookie cache in step with the new
 * active organization. Also used by verify-email (a sign-up from an invitation).
 */
export async function acceptInvitationForSession(
  context: AuthContext,
  request: FastifyRequest,
  reply: FastifyReply,
  signedIn: { session: SessionRow; user: UserRow; token: string; rememberMe: boolean },
  invitationId: string,
): Promise<AcceptedInvitation> {
  const accepted = await acceptInvitation(
    context,
    { user: signedIn.user, sessionId: signedIn.session.id },
    invitationId,
  );
  await rewriteSessionCache(context, request, reply, signedIn, {
    session: {
      ...signedIn.session,
      activeOrganizationId: accepted.activeOrganizationId,
      activeTeamId: accepted.activeTeamId,
    },
    user: signedIn.user,
    rememberMe: signedIn.rememberMe,
  });
  return accepted;
}
