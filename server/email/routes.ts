/** change-email; its rules and mails are in server/verification/verification.ts. */

import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { type AuthContext, linkContext, requireSession } from "../http/auth-context.js";
import { callbackUrl, emailInput, routeSchema, statusAnswer } from "../http/schemas.js";
import type { ZodTypeProvider } from "../http/validation.js";
import { assertDelivered } from "../mail/mailer.js";
import { assertChangeEmailEnabled, requestEmailChange } from "../verification/verification.js";

const changeEmailBody = z.object({ newEmail: emailInput, callbackURL: callbackUrl.optional() });

export function emailRoutes(context: AuthContext) {
  return async (app: FastifyInstance): Promise<void> => {
    const typed = app.withTypeProvider<ZodTypeProvider>();

    typed.post(
      "/change-email",
      routeSchema({ body: changeEmailBody }, statusAnswer, 401, 403, 502),
      async (request) => {
        // Disabled is the answer even without a session.
        assertChangeEmailEnabled(context.config);
        const current = await requireSession(context, request);
        const outcome = await requestEmailChange(
          context,
          linkContext(context, request),
          current.user,
          request.body.newEmail,
          request.body.callbackURL,
        );
        assertDelivered(outcome);
        return { status: true };
      },
    );
  };
}
