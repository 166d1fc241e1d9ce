/** send-verification-email and verify-email. */

import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { AuthError, type ErrorCode } from "../errors.js";
import { type AuthContext, currentSession, linkContext } from "../http/auth-context.js";
import { assertAllowedRedirect } from "../http/origin.js";
import { withQuery } from "../http/redirects.js";
import {
  boundedString,
  callbackUrl,
  emailInput,
  errorResponses,
  redirectAnswer,
  routeSchema,
  statusAnswer,
} from "../http/schemas.js";
import { readDontRemember } from "../http/session-cookies.js";
import {
  acceptInvitationForSession,
  issueSession,
  rewriteSessionCache,
} from "../http/session-response.js";
import type { ZodTypeProvider } from "../http/validation.js";
import { invitationSchema } from "../invitations/schemas.js";
import { assertDelivered } from "../mail/mailer.js";
import { memberSchema } from "../organization/schemas.js";
import { userSchema } from "../sessions/schemas.js";
import { userResponse } from "../sessions/sessions.js";
import { findUserByEmail, requireValidEmail } from "../users/users.js";
import { applyEmailToken, sendVerificationMail, VerifyEmailError } from "./verification.js";

const sendBody = z.object({ email: emailInput, callbackURL: callbackUrl.optional() });
const verifyQuery = z.object({ token: boundedString(4096), callbackURL: callbackUrl.optional() });

const REDIRECT_CODES: Record<VerifyEmailError["reason"], string> = {
  INVALID_TOKEN: "INVALID_TOKEN",
  TOKEN_EXPIRED: "token_expired",
  USER_NOT_FOUND: "user_not_found",
  COULD_NOT_UPDATE_EMAIL: "COULD_NOT_UPDATE_EMAIL",
};

export function verificationRoutes(context: AuthContext) {
  return async (app: FastifyInstance): Promise<void> => {
    const typed = app.withTypeProvider<ZodTypeProvider>();

    typed.post(
      "/send-verification-email",
      routeSchema({ body: sendBody }, statusAnswer, 403, 502),
      async (request) => {
        const email = requireValidEmail(request.body.email);
        const link = linkContext(context, request);
        const current = await currentSession(context, request);
        if (current) {
          // Only for the caller's own, still unverified, address.
          if (current.user.email !== email) throw new AuthError("EMAIL_MISMATCH");
          if (current.user.emailVerified) throw new AuthError("EMAIL_ALREADY_VERIFIED");
          assertDelivered(
            await sendVerificationMail(context, link, current.user, request.body.callbackURL),
          );
          return { status: true };
        }
        // Unauthenticated: the same answer for every address; the mail goes in
        // the background so the answer takes as long for unknown addresses.
        const user = await findUserByEmail(context.sql, email);
        if (user && !user.emailVerified) {
          void sendVerificationMail(context, link, user, request.body.callbackURL);
        }
        return { status: true };
      },
    );

    typed.get(
      "/verify-email",
      {
        schema: {
          querystring: verifyQuery,
          response: {
            200: z.object({
              status: z.boolean(),
              user: userSchema,
              invitation: invitationSchema.optional(),
              member: memberSchema.optional(),
            }),
            302: redirectAnswer,
            ...errorResponses(401, 403),
          },
        },
      },
      async (request, reply) => {
        const { token, callbackURL } = request.query;
        assertAllowedRedirect(callbackURL, "INVALID_CALLBACK_URL", context.config, request);
        const link = linkContext(context, request);
        let verified: Awaited<ReturnType<typeof applyEmailToken>>;
        try {
          verified = await applyEmailToken(context, link, token);
        } catch (error) {
          if (!(error instanceof VerifyEmailError)) throw error;
          if (callbackURL) {
            return reply.redirect(
              withQuery(callbackURL, { error: REDIRECT_CODES[error.reason] }),
              302,
            );
          }
          // A taken address keeps its own status (400); a bad or stale token is 401.
          if (error.reason === "COULD_NOT_UPDATE_EMAIL") throw new AuthError(error.reason);
          throw new AuthError(error.reason as ErrorCode, { status: 401 });
        }
        // Only the visit that verifies signs in: a replayed link is not a login link.
        const newlyVerified = !verified.changed && verified.newlyVerified;
        // A sign-up from an invitation is verified, signed in and joined.
        const joining = newlyVerified ? verified.invitationId : undefined;
        let signedIn: Parameters<typeof acceptInvitationForSession>[3] | undefined;
        let issuedHere = false;
        if (
          newlyVerified &&
          (context.config.emailVerification.autoSignInAfterVerification || joining)
        ) {
          const current = await currentSession(context, request);
          if (current?.user.id !== verified.user.id) {
            const issued = await issueSession(context, request, reply, verified.user);
            signedIn = {
              session: issued.session,
              token: issued.token,
              user: verified.user,
              rememberMe: true,
            };
            issuedHere = true;
          } else {
            const rememberMe = !readDontRemember(request, context.cookies);
            signedIn = {
              session: current.session,
              token: current.token,
              user: verified.user,
              rememberMe,
            };
          }
        }
        let joined: Awaited<ReturnType<typeof acceptInvitationForSession>> | undefined;
        if (joining && signedIn) {
          try {
            joined = await acceptInvitationForSession(context, request, reply, signedIn, joining);
          } catch (error) {
            // The address stays verified and the session stands; only joining failed.
            if (!(error instanceof AuthError) || !callbackURL) throw error;
            return reply.redirect(withQuery(callbackURL, { error: error.code }), 302);
          }
        }
        if (!issuedHere && !joined) {
          // The visitor's own session shows the verified (or changed) address at once.
          const current = await currentSession(context, request);
          if (current?.user.id === verified.user.id) {
            await rewriteSessionCache(context, request, reply, current, { user: verified.user });
          }
        }
        if (callbackURL) return reply.redirect(callbackURL, 302);
        if (joined) {
          const { invitation, member } = joined;
          return { status: true, user: userResponse(verified.user), invitation, member };
        }
        return { status: true, user: userResponse(verified.user) };
      },
    );
  };
}
