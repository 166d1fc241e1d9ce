/**
 * request-password-reset (and its older alias forget-password),
 * reset-password/{token}, reset-password, change-password. set-password is
 * server-only and has no route: the CLI calls setPassword.
 */

import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { AuthError } from "../errors.js";
import {
  type AuthContext,
  linkContext,
  publicBaseUrl,
  requireSession,
} from "../http/auth-context.js";
import { assertAllowedRedirect } from "../http/origin.js";
import { withQuery } from "../http/redirects.js";
import * as schemas from "../http/schemas.js";
import { readDontRemember } from "../http/session-cookies.js";
import { issueSession } from "../http/session-response.js";
import type { ZodTypeProvider } from "../http/validation.js";
import { userSchema } from "../sessions/schemas.js";
import { isRememberedSession, revokeSessions, userResponse } from "../sessions/sessions.js";
import {
  changePassword,
  isResetTokenValid,
  RESET_REQUESTED_MESSAGE,
  requestPasswordReset,
  resetPassword,
} from "./password.js";

/** A reset token, in the link's path, the form's body or its query. */
const resetToken = schemas.boundedString(256);

const requestResetBody = z.object({
  email: schemas.emailInput,
  redirectTo: schemas.callbackUrl.optional(),
});
const resetTokenParams = z.object({ token: resetToken });
const resetTokenQuery = z.object({ callbackURL: schemas.callbackUrl.optional() });
const resetBody = z.object({ newPassword: schemas.passwordInput, token: resetToken.optional() });
const resetQuery = z.object({ token: resetToken.optional() });
const changePasswordBody = z.object({
  newPassword: schemas.passwordInput,
  currentPassword: schemas.passwordInput,
  revokeOtherSessions: schemas.booleanish.optional(),
});

export function passwordRoutes(context: AuthContext) {
  return async (app: FastifyInstance): Promise<void> => {
    const typed = app.withTypeProvider<ZodTypeProvider>();

    const requestReset = async (
      request: { body: z.infer<typeof requestResetBody> },
      link: ReturnType<typeof linkContext>,
    ) => {
      await requestPasswordReset(context, link, request.body);
      return { status: true, message: RESET_REQUESTED_MESSAGE };
    };
    for (const path of ["/request-password-reset", "/forget-password"]) {
      typed.post(
        path,
        {
          schema: {
            body: requestResetBody,
            response: {
              200: z.object({ status: z.boolean(), message: z.string() }),
              ...schemas.errorResponses(403, 502),
            },
          },
        },
        async (request) => requestReset(request, linkContext(context, request)),
      );
    }

    typed.get(
      "/reset-password/:token",
      {
        schema: {
          params: resetTokenParams,
          querystring: resetTokenQuery,
          response: { 302: schemas.redirectAnswer, ...schemas.errorResponses(403) },
        },
      },
      async (request, reply) => {
        const { callbackURL } = request.query;
        if (!callbackURL) {
          return reply.redirect(
            `${publicBaseUrl(context, request)}/error?error=no_callback_url`,
            302,
          );
        }
        assertAllowedRedirect(callbackURL, "INVALID_CALLBACK_URL", context.config, request);
        const target = callbackURL.startsWith("/")
          ? `${new URL(publicBaseUrl(context, request)).origin}${callbackURL}`
          : callbackURL;
        const valid = await isResetTokenValid(context.sql, request.params.token);
        const parameters: Record<string, string> = valid
          ? { token: request.params.token }
          : { error: "INVALID_TOKEN" };
        return reply.redirect(withQuery(target, parameters), 302);
      },
    );

    typed.post(
      "/reset-password",
      schemas.routeSchema({ body: resetBody, querystring: resetQuery }, schemas.statusAnswer, 403),
      async (request) => {
        const token = request.body.token ?? request.query.token;
        if (!token) throw new AuthError("INVALID_TOKEN");
        await resetPassword(context.sql, context.config, context.passwords, {
          token,
          newPassword: request.body.newPassword,
        });
        return { status: true };
      },
    );

    typed.post(
      "/change-password",
      {
        schema: {
          body: changePasswordBody,
          response: {
            200: z.object({ token: z.string().nullable(), user: userSchema }),
            ...schemas.errorResponses(401, 403),
          },
        },
      },
      async (request, reply) => {
        const current = await requireSession(context, request);
        await changePassword(
          context.sql,
          context.config,
          context.passwords,
          current.user.id,
          request.body,
        );
        if (!request.body.revokeOtherSessions)
          return { token: null, user: userResponse(current.user) };
        // Every session ends; the caller continues in a fresh one, remembered as before.
        const rememberMe = current.bearer
          ? isRememberedSession(current.session)
          : !readDontRemember(request, context.cookies);
        await revokeSessions(context.sql, current.user.id);
        const { token } = await issueSession(context, request, reply, current.user, { rememberMe });
        return { token, user: userResponse(current.user) };
      },
    );
  };
}
