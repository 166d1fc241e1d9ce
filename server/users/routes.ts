/**
 * sign-up/email, update-user, delete-user and its mailed confirmation.
 */

import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { verifyUserPassword } from "../accounts/accounts.js";
import { signUpWithEmail } from "../accounts/email-password.js";
import { AuthError } from "../errors.js";
import {
  type AuthContext,
  currentSession,
  linkContext,
  requireSession,
} from "../http/auth-context.js";
import { assertAllowedRedirect } from "../http/origin.js";
import { withQuery } from "../http/redirects.js";
import {
  booleanish,
  boundedString,
  callbackUrl,
  emailInput,
  errorResponses,
  imageInput,
  nameInput,
  passwordInput,
  redirectAnswer,
  routeSchema,
  statusAnswer,
} from "../http/schemas.js";
import { clearSessionCookies } from "../http/session-cookies.js";
import { issueSession, rewriteSessionCache } from "../http/session-response.js";
import type { ZodTypeProvider } from "../http/validation.js";
import { assertDelivered } from "../mail/mailer.js";
import { userSchema } from "../sessions/schemas.js";
import { isFresh, userResponse } from "../sessions/sessions.js";
import { deleteUserWithToken, requestAccountDeletion } from "../verification/account-deletion.js";
import { deleteUser, updateProfile } from "./users.js";

const signUpBody = z.object({
  name: nameInput,
  email: emailInput,
  password: passwordInput,
  image: imageInput.optional(),
  callbackURL: callbackUrl.optional(),
  rememberMe: booleanish.optional(),
  /** Signing up from an invitation link. */
  invitationId: boundedString(255).optional(),
});

/** Fields update-user never writes, whatever the body says. */
const PROTECTED_FIELDS = [
  "id",
  "role",
  "emailVerified",
  "banned",
  "banReason",
  "banExpires",
  "createdAt",
  "updatedAt",
];

const updateUserBody = z
  .object({
    name: nameInput.optional(),
    image: imageInput.nullable().optional(),
  })
  .catchall(z.unknown());

const deleteUserBody = z.object({
  callbackURL: callbackUrl.optional(),
  password: passwordInput.optional(),
  token: boundedString(128).optional(),
});

const deleteCallbackQuery = z.object({
  token: boundedString(128),
  callbackURL: callbackUrl.optional(),
});

/**
 * sign-up answers the user, or (a duplicate while no session would be issued) a
 * look-alike of a new user in the same shape.
 */
const signUpAnswer = z.object({
  token: z.string().nullable(),
  user: userSchema,
});

const deletedAnswer = z.object({ success: z.boolean(), message: z.string() });

export function userRoutes(context: AuthContext) {
  return async (app: FastifyInstance): Promise<void> => {
    const typed = app.withTypeProvider<ZodTypeProvider>();

    typed.post(
      "/sign-up/email",
      routeSchema({ body: signUpBody }, signUpAnswer, 403, 422, 502),
      async (request, reply) => {
        const { name, email, password, image, callbackURL, invitationId } = request.body;
        const outcome = await signUpWithEmail(context, linkContext(context, request), {
          name,
          email,
          password,
          image,
          callbackURL,
          invitationId,
        });
        if (!outcome.created || !outcome.signIn) {
          return { token: null, user: userResponse(outcome.user) };
        }
        const { user } = outcome;
        const { token } = await issueSession(context, request, reply, user, {
          rememberMe: request.body.rememberMe !== false,
        });
        return { token, user: userResponse(user) };
      },
    );

    typed.post(
      "/update-user",
      routeSchema({ body: updateUserBody }, statusAnswer, 401, 403),
      async (request, reply) => {
        const current = await requireSession(context, request);
        const body = request.body;
        if ("email" in body && body.email !== undefined)
          throw new AuthError("EMAIL_CAN_NOT_BE_UPDATED");
        for (const field of PROTECTED_FIELDS) {
          if (body[field] !== undefined && body[field] !== null && body[field] !== false) {
            throw new AuthError("FIELD_NOT_ALLOWED", {
              message: `${field} is not allowed to be set`,
            });
          }
        }
        if (body.name === undefined && body.image === undefined)
          throw new AuthError("NO_FIELDS_TO_UPDATE");
        const user = await updateProfile(context.sql, current.user.id, {
          name: body.name,
          image: body.image,
        });
        await rewriteSessionCache(context, request, reply, current, { user });
        return { status: true };
      },
    );

    typed.post(
      "/delete-user",
      routeSchema({ body: deleteUserBody }, deletedAnswer, 401, 403, 404, 502),
      async (request, reply) => {
        const { config } = context;
        if (!config.user.deleteUser.enabled) throw new AuthError("DELETE_USER_DISABLED");
        const current = await requireSession(context, request);
        const { password, token, callbackURL } = request.body;
        if (token) {
          await deleteUserWithToken(context.sql, token, current.user.id);
          clearSessionCookies(request, reply, context.cookies);
          return { success: true, message: "User deleted" };
        }
        if (password !== undefined) {
          await verifyUserPassword(context.sql, context.passwords, current.user.id, password);
        } else if (!isFresh(current.session, config)) {
          // Deleting without a password needs a fresh session.
          throw new AuthError("SESSION_EXPIRED");
        }
        if (config.user.deleteUser.requireEmailConfirmation) {
          const outcome = await requestAccountDeletion(
            context,
            linkContext(context, request),
            current.user,
            callbackURL,
          );
          assertDelivered(outcome);
          return { success: true, message: "Verification email sent" };
        }
        await deleteUser(context.sql, current.user.id);
        clearSessionCookies(request, reply, context.cookies);
        return { success: true, message: "User deleted" };
      },
    );

    typed.get(
      "/delete-user/callback",
      {
        schema: {
          querystring: deleteCallbackQuery,
          response: { 200: deletedAnswer, 302: redirectAnswer, ...errorResponses(403, 404) },
        },
      },
      async (request, reply) => {
        if (!context.config.user.deleteUser.enabled) throw new AuthError("DELETE_USER_DISABLED");
        const { token, callbackURL } = request.query;
        assertAllowedRedirect(callbackURL, "INVALID_CALLBACK_URL", context.config, request);
        const current = await currentSession(context, request);
        try {
          await deleteUserWithToken(context.sql, token, current?.user.id);
        } catch (error) {
          // The mailed link is opened in a browser: with somewhere to go, a used, expired
          // or foreign token is told there (`?error=`), as verify-email does, not as JSON.
          if (!callbackURL || !(error instanceof AuthError)) throw error;
          return reply.redirect(withQuery(callbackURL, { error: error.code }), 302);
        }
        clearSessionCookies(request, reply, context.cookies);
        if (callbackURL) return reply.redirect(callbackURL, 302);
        return { success: true, message: "User deleted" };
      },
    );
  };
}
