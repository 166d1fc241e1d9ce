/**
 * The session endpoints and the email sign-in: get-session, list-sessions, revoke-session,
 * revoke-sessions, revoke-other-sessions, sign-out, sign-in/email.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { signInWithEmail } from "../accounts/email-password.js";
import { type AuthContext, linkContext, requireSession } from "../http/auth-context.js";
import {
  booleanish,
  boundedString,
  callbackUrl,
  emailInput,
  errorResponses,
  routeSchema,
  statusAnswer,
  successAnswer,
} from "../http/schemas.js";
import { fastSerializerCompiler } from "../http/serialization.js";
import {
  clearSessionCookies,
  readDontRemember,
  readSessionCredential,
  readSessionDataCookie,
  setSessionCookie,
  setSessionDataCookie,
} from "../http/session-cookies.js";
import {
  cachedSubject,
  recentSessionJwt,
  signSessionJwt,
  type TokenSubject,
} from "../http/session-jwt.js";
import { closeSession, issueSession } from "../http/session-response.js";
import type { ZodTypeProvider } from "../http/validation.js";
import { countSignIn } from "../metrics/metrics.js";
import {
  ACTIVE_MEMBERSHIP_OF_CALLER,
  activeMembershipOf,
  findActiveMembership,
} from "../organization/organization.js";
import { getSessionAnswer, sessionSchema, signInAnswer } from "./schemas.js";
import {
  findLiveSession,
  findLiveSessionAnd,
  isRememberedSession,
  listSessions,
  needsRefresh,
  refreshSession,
  revokeOtherSessions,
  revokeSession,
  revokeSessions,
  sessionResponse,
  userResponse,
} from "./sessions.js";

const getSessionQuery = z.object({
  disableCookieCache: booleanish.optional(),
  disableRefresh: booleanish.optional(),
});

const signInBody = z.object({
  email: emailInput,
  password: boundedString(4096),
  callbackURL: callbackUrl.optional(),
  rememberMe: booleanish.optional(),
});

const revokeSessionBody = z.object({ token: boundedString(512).min(1) });

export function sessionRoutes(context: AuthContext) {
  /**
   * `set-auth-jwt` for an answer from the cookie cache: the cached answer names the user
   * and the active organization; the role in it is read (one statement) only when there
   * is one. Like the cached answer, the token may be up to the cache's maxAge behind.
   */
  const sendJwtOfCachedSession = async (
    request: FastifyRequest,
    reply: FastifyReply,
    cached: Buffer,
  ): Promise<void> => {
    const subject = cachedSubject(context, cached);
    const recent = recentSessionJwt(context, subject);
    if (recent) {
      reply.header("set-auth-jwt", recent);
      return;
    }
    const { session, user } = subject;
    await sendJwt(request, reply, async () => ({
      user,
      sessionId: session.id,
      membership: session.activeOrganizationId
        ? await findActiveMembership(context.sql, user.id, session.activeOrganizationId)
        : null,
    }));
  };

  /**
   * The header is extra: a token that cannot be made (the keys unreadable, the role not
   * read) is logged, and get-session, which every page load asks, still answers.
   */
  const sendJwt = async (
    request: FastifyRequest,
    reply: FastifyReply,
    subject: () => Promise<TokenSubject>,
  ): Promise<void> => {
    try {
      const jwt = await signSessionJwt(context, request, await subject());
      if (jwt) reply.header("set-auth-jwt", jwt);
    } catch (error) {
      request.log.error({ err: error }, "could not sign the set-auth-jwt token");
    }
  };

  return async (app: FastifyInstance): Promise<void> => {
    const typed = app.withTypeProvider<ZodTypeProvider>();

    typed.get(
      "/get-session",
      {
        schema: {
          querystring: getSessionQuery,
          response: { 200: getSessionAnswer, ...errorResponses() },
        },
        // The most frequent call: its answer is written by fast-json-stringify.
        serializerCompiler: fastSerializerCompiler,
      },
      async (request, reply) => {
        reply.header("cache-control", "no-store").header("pragma", "no-cache");
        if (!request.query.disableCookieCache) {
          const cached = readSessionDataCookie(request, context.cookies);
          // Signed JSON we wrote ourselves: sent back as it is, without a parse.
          if (cached) {
            if (context.keys) await sendJwtOfCachedSession(request, reply, cached);
            return reply.type("application/json; charset=utf-8").send(cached);
          }
        }
        const credential = readSessionCredential(request, context.cookies);
        if (!credential) {
          if (Object.keys(request.cookies).length > 0)
            clearSessionCookies(request, reply, context.cookies);
          return reply.send(null);
        }
        const { token, bearer } = credential;
        // With signed tokens on, the active membership they carry rides on the lookup.
        const found = context.keys
          ? await findLiveSessionAnd<(string | null)[]>(
              context.sql,
              context.sessionLookups,
              token,
              ACTIVE_MEMBERSHIP_OF_CALLER,
            )
          : await findLiveSession(context.sql, context.sessionLookups, token);
        if (!found) {
          // A bearer client holds no cookies to clear.
          if (!bearer) clearSessionCookies(request, reply, context.cookies);
          return reply.send(null);
        }
        if (context.keys) {
          const membership = activeMembershipOf(
            "rider" in found ? (found.rider as (string | null)[] | null) : null,
          );
          await sendJwt(request, reply, async () => ({
            user: found.user,
            sessionId: found.session.id,
            membership,
          }));
        }
        let { session } = found;
        // A bearer client carries no dont_remember cookie: the session row tells instead.
        const dontRemember = bearer
          ? !isRememberedSession(session)
          : readDontRemember(request, context.cookies);
        if (
          !request.query.disableRefresh &&
          !dontRemember &&
          needsRefresh(session, context.config)
        ) {
          session = await refreshSession(context.sql, session, context.config);
          setSessionCookie(request, reply, context.cookies, token, { rememberMe: true });
        }
        const payload = { session: sessionResponse(session), user: userResponse(found.user) };
        // A caller that bypasses the cache gets fresh data without rewriting the cache; the
        // cache is a cookie, of no use to a bearer client.
        if (!request.query.disableCookieCache && !bearer) {
          setSessionDataCookie(request, reply, context.cookies, token, payload, !dontRemember);
        }
        return payload;
      },
    );

    typed.get("/list-sessions", routeSchema({}, z.array(sessionSchema), 401), async (request) => {
      const { user } = await requireSession(context, request);
      const sessions = await listSessions(context.sql, user.id);
      return sessions.filter((session) => !session.impersonatedBy).map(sessionResponse);
    });

    typed.post(
      "/revoke-session",
      routeSchema({ body: revokeSessionBody }, statusAnswer, 401),
      async (request, reply) => {
        const current = await requireSession(context, request);
        await revokeSession(context.sql, current.user.id, request.body.token);
        if (request.body.token === current.session.id || request.body.token === current.token) {
          clearSessionCookies(request, reply, context.cookies);
        }
        return { status: true };
      },
    );

    typed.post(
      "/revoke-sessions",
      routeSchema({}, statusAnswer, 401, 403),
      async (request, reply) => {
        const current = await requireSession(context, request);
        await revokeSessions(context.sql, current.user.id);
        clearSessionCookies(request, reply, context.cookies);
        return { status: true };
      },
    );

    typed.post(
      "/revoke-other-sessions",
      routeSchema({}, statusAnswer, 401, 403),
      async (request) => {
        const current = await requireSession(context, request);
        await revokeOtherSessions(context.sql, current.user.id, current.session.id);
        return { status: true };
      },
    );

    typed.post("/sign-out", routeSchema({}, successAnswer, 403), async (request, reply) => {
      await closeSession(context, request, reply);
      return { success: true };
    });

    typed.post(
      "/sign-in/email",
      routeSchema({ body: signInBody }, signInAnswer, 401, 403, 502),
      async (request, reply) =>
        countSignIn(context.metrics, "email", async () => {
          const user = await signInWithEmail(context, linkContext(context, request), request.body);
          const { token } = await issueSession(context, request, reply, user, {
            rememberMe: request.body.rememberMe !== false,
          });
          const callback = request.body.callbackURL;
          if (callback) reply.header("location", callback);
          return {
            redirect: Boolean(callback),
            token,
            ...(callback ? { url: callback } : {}),
            user: userResponse(user),
          };
        }),
    );
  };
}
