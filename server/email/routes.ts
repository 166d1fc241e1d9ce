/** change-email; the mails and their rules are in server/verification/verification.ts. */

import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { AuthError } from "../errors.js";
import { type AuthContext, linkContext, requireSession } from "../http/auth-context.js";
import { callbackUrl, emailInput, errorResponses, statusAnswer } from "../http/schemas.js";
import type { ZodTypeProvider } from "../http/validation.js";
import { assertDelivered } from "../mail/mailer.js";
import { findUserByEmail, requireValidEmail } from "../users/users.js";
import { sendChangeEmailMail } from "../verification/verification.js";

const changeEmailBody = z.object({ newEmail: emailInput, callbackURL: callbackUrl.optional() });

export function emailRoutes(context: AuthContext) {
  return async (app: FastifyInstance): Promise<void> => {
    const typed = app.withTypeProvider<ZodTypeProvider>();

    typed.post(
      "/change-email",
      {
        schema: {
          body: changeEmailBody,
          response: { 200: statusAnswer, ...errorResponses(401, 403, 502) },
        },
      },
      async (request) => {
        if (!context.config.user.changeEmail.enabled) throw new AuthError("CHANGE_EMAIL_DISABLED");
        const current = await requireSession(context, request);
        const newEmail = requireValidEmail(request.body.newEmail);
        if (newEmail === current.user.email) throw new AuthError("EMAIL_IS_THE_SAME");
        // An address that already has an account is refused.
        if (await findUserByEmail(context.sql, newEmail))
          throw new AuthError("COULD_NOT_UPDATE_EMAIL");
        const outcome = await sendChangeEmailMail(
          context,
          linkContext(context, request),
          current.user,
          newEmail,
          request.body.callbackURL,
        );
        assertDelivered(outcome);
        return { status: true };
      },
    );
  };
}
