/**
 * The platform admin API (Better Auth's admin endpoints) under /admin/: thin handlers over
 * the operations in server/admin/. Signed out is 401 UNAUTHORIZED; a caller without the
 * permission gets 403 with the endpoint's YOU_ARE_NOT_ALLOWED_TO_* code. With
 * `admin.enabled: false` no route exists (404 NOT_FOUND).
 */

import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { UserActor } from "../actor.js";
import { AuthError } from "../errors.js";
import {
  type AuthContext,
  clientInfo,
  currentSession,
  requireSession,
} from "../http/auth-context.js";
import {
  actionSchema,
  booleanish,
  boundedString,
  emailInput,
  errorResponses,
  imageInput,
  nameInput,
  passwordInput,
  routeSchema,
  statusAnswer,
  successAnswer,
} from "../http/schemas.js";
import {
  clearAdminSessionCookie,
  readAdminSessionCookie,
  readDontRemember,
  setAdminSessionCookie,
  setSessionCookie,
  setSessionDataCookie,
} from "../http/session-cookies.js";
import { rewriteSessionCache } from "../http/session-response.js";
import type { ZodTypeProvider } from "../http/validation.js";
import { sessionAndUserSchema, sessionSchema, userSchema } from "../sessions/schemas.js";
import { findLiveSession, sessionResponse, userResponse } from "../sessions/sessions.js";
import type { UserRow } from "../users/queries.js";
import { ADMIN_STATEMENTS, hasPermission, type PermissionCheck } from "./access.js";
import type { AdminDeps } from "./admin.js";
import { listUsers, listUsersQuery } from "./list-users.js";
import {
  impersonateUser,
  listUserSessions,
  revokeUserSession,
  revokeUserSessions,
  stopImpersonating,
} from "./sessions.js";
import * as users from "./users.js";

const userId = boundedString(255).min(1);
const role = z.union([boundedString(255), z.array(boundedString(255)).max(32)]);

const createUserBody = z.object({
  email: emailInput,
  password: passwordInput.optional(),
  name: nameInput.default(""),
  role: role.optional(),
  data: z
    .object({ image: imageInput.nullable().optional(), emailVerified: z.boolean().optional() })
    .loose()
    .optional(),
});
const userIdBody = z.object({ userId });
const setRoleBody = z.object({ userId, role });
const banUserBody = z.object({
  userId,
  banReason: boundedString(1024).optional(),
  banExpiresIn: z
    .number()
    .int()
    .positive()
    .max(400 * 86400 * 100)
    .optional(),
});
const updateUserBody = z.object({ userId, data: z.record(z.string(), z.unknown()) });
const revokeSessionBody = z.object({ sessionToken: boundedString(512).min(1) });
const setPasswordBody = z.object({
  userId,
  newPassword: passwordInput.min(1, "newPassword cannot be empty"),
});
const actionsShape = z.array(boundedString(64)).max(32);
/** Per resource: actions (all needed), or `{actions, connector: "OR" | "AND"}`. */
const resourceCheck = z.union([
  actionsShape,
  z.object({ actions: actionsShape, connector: z.enum(["OR", "AND"]).optional() }),
]);
const permissionsShape = z.object(
  Object.fromEntries(
    Object.keys(ADMIN_STATEMENTS).map((resource) => [resource, resourceCheck.optional()]),
  ) as Record<keyof typeof ADMIN_STATEMENTS, z.ZodOptional<typeof resourceCheck>>,
);
const hasPermissionBody = z.object({
  userId: userId.optional(),
  role: boundedString(255).optional(),
  permissions: permissionsShape.optional(),
  permission: z.unknown().optional(),
});
const listUsersQueryString = listUsersQuery.omit({ emailGlob: true, banned: true }).extend({
  filterValue: z.union([booleanish, z.string().max(320)]).optional(),
});

const userAnswer = z.object({ user: userSchema });
/** list-users: a page of users; limit and offset when they were asked for. */
const userListAnswer = z.object({
  users: z.array(userSchema),
  total: z.number().int(),
  limit: z.number().int().optional(),
  offset: z.number().int().optional(),
});

export function adminRoutes(context: AuthContext) {
  return async (app: FastifyInstance): Promise<void> => {
    if (!context.config.admin.enabled) return;
    const typed = app.withTypeProvider<ZodTypeProvider>();
    const deps: AdminDeps = {
      sql: context.sql,
      config: context.config,
      passwords: context.passwords,
    };

    /** An admin changing their own user sees the change in their cached session at once. */
    const actorOf = async (request: FastifyRequest) => {
      const { user, session } = await requireSession(context, request);
      const client = clientInfo(request);
      return {
        kind: "user",
        user,
        session,
        ipAddress: client.ipAddress,
        userAgent: client.userAgent,
      } satisfies UserActor;
    };
    /** Changes a user as the caller; when that user is the caller, their cache follows. */
    const changeUser = async (
      request: FastifyRequest,
      reply: FastifyReply,
      change: (actor: UserActor) => Promise<UserRow>,
    ) => {
      const user = await change(await actorOf(request));
      const current = await requireSession(context, request);
      if (user.id === current.user.id) {
        await rewriteSessionCache(context, request, reply, current, { user });
      }
      return user;
    };

    typed.post(
      "/admin/create-user",
      routeSchema({ body: createUserBody }, userAnswer, 401, 403, 422),
      async (request) => {
        const actor = await actorOf(request);
        const { data, ...body } = request.body;
        // Ban fields through create-user need the ban permission (as in Better Auth): refused.
        if (data && ("banned" in data || "banReason" in data || "banExpires" in data)) {
          throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_BAN_USERS");
        }
        const user = await users.createUser(deps, actor, {
          ...body,
          image: data?.image,
          emailVerified: data?.emailVerified,
        });
        return { user: userResponse(user) };
      },
    );

    typed.get(
      "/admin/list-users",
      routeSchema({ querystring: listUsersQueryString }, userListAnswer, 401, 403),
      async (request) => {
        const actor = await actorOf(request);
        const result = await listUsers(deps, actor, request.query);
        return { ...result, users: result.users.map(userResponse) };
      },
    );

    typed.get(
      "/admin/get-user",
      actionSchema({ querystring: z.object({ id: userId }) }, userSchema),
      async (request) => {
        const actor = await actorOf(request);
        return userResponse(await users.getUser(deps, actor, request.query.id));
      },
    );

    typed.post(
      "/admin/update-user",
      actionSchema({ body: updateUserBody }, userSchema),
      async (request, reply) => {
        const { userId, data } = request.body;
        return userResponse(
          await changeUser(request, reply, (actor) => users.updateUser(deps, actor, userId, data)),
        );
      },
    );

    typed.post(
      "/admin/set-role",
      actionSchema({ body: setRoleBody }, userAnswer),
      async (request, reply) => {
        const { userId, role } = request.body;
        const user = await changeUser(request, reply, (actor) =>
          users.setRole(deps, actor, userId, role),
        );
        return { user: userResponse(user) };
      },
    );

    typed.post(
      "/admin/ban-user",
      actionSchema({ body: banUserBody }, userAnswer),
      async (request) => {
        const actor = await actorOf(request);
        const user = await users.banUser(deps, actor, request.body.userId, {
          reason: request.body.banReason,
          expiresIn: request.body.banExpiresIn,
        });
        return { user: userResponse(user) };
      },
    );

    typed.post(
      "/admin/unban-user",
      actionSchema({ body: userIdBody }, userAnswer),
      async (request) => {
        const actor = await actorOf(request);
        return { user: userResponse(await users.unbanUser(deps, actor, request.body.userId)) };
      },
    );

    typed.post(
      "/admin/impersonate-user",
      actionSchema({ body: userIdBody }, sessionAndUserSchema),
      async (request, reply) => {
        const actor = await actorOf(request);
        const own = await requireSession(context, request);
        const { session, token, user } = await impersonateUser(
          deps,
          actor,
          request.body.userId,
          clientInfo(request),
        );
        // As in Better Auth, the admin's token waits in admin_session; the impersonation
        // cookie is a browser-session one.
        setAdminSessionCookie(
          request,
          reply,
          context.cookies,
          own.token,
          readDontRemember(request, context.cookies),
          context.config.admin.impersonationSessionDuration,
        );
        setSessionCookie(request, reply, context.cookies, token, { rememberMe: false });
        const payload = { session: sessionResponse(session), user: userResponse(user) };
        setSessionDataCookie(request, reply, context.cookies, token, payload, false);
        return payload;
      },
    );

    // No admin permission check: any impersonation session may end itself (as in Better Auth).
    typed.post(
      "/admin/stop-impersonating",
      routeSchema({}, sessionAndUserSchema, 401, 403),
      async (request, reply) => {
        const current = await requireSession(context, request);
        if (!current.session.impersonatedBy)
          throw new AuthError("YOU_ARE_NOT_IMPERSONATING_ANYONE");
        const saved = readAdminSessionCookie(request, context.cookies);
        const admin = saved
          ? await findLiveSession(context.sql, context.sessionLookups, saved.token)
          : null;
        if (!saved || !admin || admin.user.id !== current.session.impersonatedBy) {
          throw new AuthError("SESSION_NOT_FOUND", { message: "Failed to find admin session" });
        }
        const client = clientInfo(request);
        await stopImpersonating(
          deps,
          { kind: "user", user: admin.user, session: admin.session, ...client },
          current.session,
        );
        const rememberMe = !saved.dontRemember;
        setSessionCookie(request, reply, context.cookies, saved.token, { rememberMe });
        clearAdminSessionCookie(request, reply, context.cookies);
        const payload = { session: sessionResponse(admin.session), user: userResponse(admin.user) };
        setSessionDataCookie(request, reply, context.cookies, saved.token, payload, rememberMe);
        return payload;
      },
    );

    typed.post(
      "/admin/list-user-sessions",
      actionSchema({ body: userIdBody }, z.object({ sessions: z.array(sessionSchema) })),
      async (request) => {
        const actor = await actorOf(request);
        const sessions = await listUserSessions(deps, actor, request.body.userId);
        return { sessions: sessions.map(sessionResponse) };
      },
    );

    typed.post(
      "/admin/revoke-user-session",
      actionSchema({ body: revokeSessionBody }, successAnswer),
      async (request) => {
        const actor = await actorOf(request);
        await revokeUserSession(deps, actor, request.body.sessionToken);
        return { success: true };
      },
    );

    // Both take a user id and answer success alone.
    const userIdActions = [
      ["/admin/revoke-user-sessions", revokeUserSessions],
      ["/admin/remove-user", users.removeUser],
    ] as const;
    for (const [path, action] of userIdActions) {
      typed.post(path, actionSchema({ body: userIdBody }, successAnswer), async (request) => {
        await action(deps, await actorOf(request), request.body.userId);
        return { success: true };
      });
    }

    typed.post(
      "/admin/set-user-password",
      actionSchema({ body: setPasswordBody }, statusAnswer),
      async (request) => {
        const actor = await actorOf(request);
        await users.setUserPassword(deps, actor, request.body.userId, request.body.newPassword);
        return { status: true };
      },
    );

    typed.post(
      "/admin/has-permission",
      {
        schema: {
          body: hasPermissionBody,
          response: {
            200: z.object({ error: z.null(), success: z.boolean() }),
            ...errorResponses(401, 403),
          },
        },
      },
      async (request) => {
        const current = await currentSession(context, request);
        if (!current) throw new AuthError("UNAUTHORIZED");
        const { permissions } = request.body;
        if (!permissions) {
          throw new AuthError("VALIDATION_ERROR", {
            message: "invalid permission check. no permission(s) were passed.",
          });
        }
        const success = await hasPermission(
          deps,
          { user: current.user },
          permissions as PermissionCheck,
        );
        return { error: null, success };
      },
    );
  };
}
