/**
 * Signed tokens for other services (with `jwt.enabled`; otherwise neither route exists
 * and both answer 404 NOT_FOUND): GET /token, a JWT for the signed-in caller, and
 * GET /jwks, the public keys that verify it.
 */
import type { FastifyInstance } from "fastify";
import { type AuthContext, requireSessionWith } from "../http/auth-context.js";
import { errorResponses, routeSchema } from "../http/schemas.js";
import { fastSerializerCompiler } from "../http/serialization.js";
import { readSessionDataCookie } from "../http/session-cookies.js";
import { cachedSubject, recentSessionJwt, signSessionJwt } from "../http/session-jwt.js";
import type { ZodTypeProvider } from "../http/validation.js";
import { ACTIVE_MEMBERSHIP_OF_CALLER, activeMembershipOf } from "../organization/organization.js";
import { jwksAnswer, tokenAnswer } from "./schemas.js";

export function keyRoutes(context: AuthContext) {
  return async (app: FastifyInstance): Promise<void> => {
    if (!context.keys) return;
    const keys = context.keys;
    const typed = app.withTypeProvider<ZodTypeProvider>();

    typed.get(
      "/token",
      {
        schema: { response: { 200: tokenAnswer, ...errorResponses(401) } },
        serializerCompiler: fastSerializerCompiler,
      },
      async (request, reply) => {
        // A client asking again within moments, whose cookie cache still says the same,
        // gets the token it just got: no lookup and no signature.
        const cached = readSessionDataCookie(request, context.cookies);
        const recent = cached ? recentSessionJwt(context, cachedSubject(context, cached)) : null;
        if (recent) {
          // A JWT is base64url segments and dots: nothing in it needs escaping in JSON,
          // so the answer is written as it is, without the serializer's string scan.
          return reply.type("application/json; charset=utf-8").send(`{"token":"${recent}"}`);
        }
        // The active organization and the caller's role in it come with the session.
        const { current, value } = await requireSessionWith<(string | null)[]>(
          context,
          request,
          ACTIVE_MEMBERSHIP_OF_CALLER,
        );
        const token = await signSessionJwt(context, request, {
          user: current.user,
          sessionId: current.session.id,
          membership: activeMembershipOf(value),
        });
        return { token: token as string };
      },
    );

    typed.get("/jwks", routeSchema({}, jwksAnswer), async (_request, reply) => {
      // Public and the same for everyone: services and proxies may keep it a while.
      reply.header("cache-control", "public, max-age=300");
      return keys.jwks();
    });
  };
}
