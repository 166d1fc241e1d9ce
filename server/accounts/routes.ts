/**
 * Linked accounts: list-accounts, account-info (POST body, and the current client's
 * GET query; a provider account's `data` read from the provider by the social domain),
 * unlink-account (the older clients' {providerId, accountId?} and the current client's
 * {accountId} row id).
 */

import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { AuthError } from "../errors.js";
import {
  type AuthContext,
  clientInfo,
  requireFreshSession,
  requireSession,
} from "../http/auth-context.js";
import { boundedString, errorResponses, routeSchema, statusAnswer } from "../http/schemas.js";
import type { ZodTypeProvider } from "../http/validation.js";
import { providerProfileReader } from "../social/provider-tokens.js";
import { accountInfo, listAccounts, unlinkAccount } from "./accounts.js";
import { accountInfoSchema, accountSchema } from "./schemas.js";

const accountInfoInput = z.object({ accountId: boundedString(255).min(1) });
const unlinkBody = z.object({
  providerId: boundedString(64).min(1).optional(),
  accountId: boundedString(255).min(1).optional(),
});

export function accountRoutes(context: AuthContext) {
  return async (app: FastifyInstance): Promise<void> => {
    const typed = app.withTypeProvider<ZodTypeProvider>();
    const readProfile = (request: FastifyRequest) =>
      providerProfileReader(context.social, context.sql, request.log);
    // account-info answers the same whether the account id comes in a body or a query.
    const accountInfoAnswers = { 200: accountInfoSchema, ...errorResponses(401, 404, 502) };
    const answerAccountInfo = async (request: FastifyRequest, accountId: string) => {
      const { user } = await requireSession(context, request);
      return accountInfo(context.sql, user.id, accountId, readProfile(request));
    };

    typed.get("/list-accounts", routeSchema({}, z.array(accountSchema), 401), async (request) => {
      const { user } = await requireSession(context, request);
      return listAccounts(context.sql, user.id);
    });

    typed.post(
      "/account-info",
      { schema: { body: accountInfoInput, response: accountInfoAnswers } },
      (request) => answerAccountInfo(request, request.body.accountId),
    );

    typed.get(
      "/account-info",
      { schema: { querystring: accountInfoInput, response: accountInfoAnswers } },
      (request) => answerAccountInfo(request, request.query.accountId),
    );

    typed.post(
      "/unlink-account",
      routeSchema({ body: unlinkBody }, statusAnswer, 401, 403),
      async (request) => {
        // Unlinking requires a fresh session.
        const { user } = await requireFreshSession(context, request);
        if (!request.body.providerId && !request.body.accountId) {
          throw new AuthError("VALIDATION_ERROR", {
            details: [{ path: "providerId", message: "providerId or accountId is required" }],
          });
        }
        await unlinkAccount(context.sql, context.config, user.id, request.body, {
          actorType: "user",
          actorId: user.id,
          ipAddress: clientInfo(request).ipAddress,
        });
        return { status: true };
      },
    );
  };
}
