/**
 * sign-up/email, update-user, delete-user and its mailed confirmation.
 */
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { AuthError } from "../errors.js";
import {
  type AuthContext,
  currentSession,
  linkContext,
  requireSession,
} from "../http/auth-context.js";
import { assertAllowedRedirect } from "../http/origin.js";
import {
  booleanish,
  boundedString,
  callbackUrl,
  emailInput,
  imageInput,
  nameInput,
  passwordInput,
} from "../http/schemas.js";
import {
  clearSessionCookies,
  readDontRemember,
  setSessionDataCookie,
} from "../http/session-cookies.js";
import { issueSession } from "../http/session-response.js";
import type { ZodTypeProvider } from "../http/validation.js";
import { findInvitationForSignUp } from "../invitations/invitations.js";
import { assertDelivered } from "../mail/mailer.js";
import { isFresh, sessionResponse, userResponse } from "../sessions/sessions.js";
import { sendVerificationMail } from "../verification/verification.js";
import {
  createUserWithPassword,
  deleteUser,
  deleteUserWithToken,
  findUserByEmail,
  requestAccountDeletion,
  requireValidEmail,
  updateProfile,
  verifyUserPassword,
} from "./users.js";

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

export function userRoutes(context: AuthContext) {
  return async (app: FastifyInstance): Promise<void> => {
    const typed = app.withTypeProvider<ZodTypeProvider>();

    typed.post("/sign-up/email", { schema: { body: signUpBody } }, async (request, reply) => {
      const { config } = context;
      if (!config.emailAndPassword.enabled) throw new AuthError("EMAIL_PASSWORD_SIGN_UP_DISABLED");
      const { name, email, password, image, callbackURL } = request.body;
      const quietDuplicates =
        config.emailAndPassword.requireEmailVerification || !config.emailAndPassword.autoSignIn;
      let user: Awaited<ReturnType<typeof createUserWithPassword>>;
      try {
        user = await createUserWithPassword(context.sql, config, context.passwords, {
          name,
          email,
          password,
          image,
        });
      } catch (error) {
        // Without an immediate session, a duplicate looks like a success (as in Better Auth),
        // so sign-up cannot tell anyone which addresses have accounts.
        if (error instanceof AuthError && error.code === "USER_ALREADY_EXISTS" && quietDuplicates) {
          const existing = await findUserByEmail(context.sql, requireValidEmail(email));
          const now = new Date();
          return {
            token: null,
            user: {
              id: existing?.id ?? "",
              name,
              email: requireValidEmail(email),
              emailVerified: false,
              image: image ?? null,
              createdAt: now,
              updatedAt: now,
            },
          };
        }
        throw error;
      }
      const sendOnSignUp =
        config.emailVerification.sendOnSignUp ?? config.emailAndPassword.requireEmailVerification;
      // An invitation addressed to this email is accepted by following the
      // verification link, so that link goes out even where verification is not required.
      const invitation =
        request.body.invitationId && config.organization.enabled
          ? await findInvitationForSignUp(context.sql, request.body.invitationId, user.email)
          : undefined;
      if (sendOnSignUp || invitation) {
        const link = linkContext(context, request);
        await sendVerificationMail(context, link, user, callbackURL, invitation?.id);
      }
      if (!config.emailAndPassword.autoSignIn || config.emailAndPassword.requireEmailVerification) {
        return { token: null, user: userResponse(user) };
      }
      const { token } = await issueSession(context, request, reply, user, {
        rememberMe: request.body.rememberMe !== false,
      });
      return { token, user: userResponse(user) };
    });

    typed.post("/update-user", { schema: { body: updateUserBody } }, async (request, reply) => {
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
      setSessionDataCookie(
        request,
        reply,
        context.cookies,
        current.token,
        { session: sessionResponse(current.session), user: userResponse(user) },
        // A rememberMe: false login keeps browser-session cookies (as get-session does).
        !readDontRemember(request, context.cookies),
      );
      return { status: true };
    });

    typed.post("/delete-user", { schema: { body: deleteUserBody } }, async (request, reply) => {
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
    });

    typed.get(
      "/delete-user/callback",
      { schema: { querystring: deleteCallbackQuery } },
      async (request, reply) => {
        if (!context.config.user.deleteUser.enabled) throw new AuthError("DELETE_USER_DISABLED");
        const { token, callbackURL } = request.query;
        assertAllowedRedirect(callbackURL, "INVALID_CALLBACK_URL", context.config, request);
        const current = await currentSession(context, request);
        await deleteUserWithToken(context.sql, token, current?.user.id);
        clearSessionCookies(request, reply, context.cookies);
        if (callbackURL) return reply.redirect(callbackURL, 302);
        return { success: true, message: "User deleted" };
      },
    );
  };
}
