/**
 * The signed token (JWT) of a signed-in caller, for other services: what GET /token
 * answers and get-session sends in `set-auth-jwt` when `jwt.enabled`.
 */
import type { FastifyRequest } from "fastify";
import type { TokenClaims } from "../keys/tokens.js";
import type { ActiveMembership } from "../organization/organization.js";
import type { AuthContext } from "./auth-context.js";
import { ownOrigin } from "./origin.js";

export interface TokenSubject {
  user: { id: string; email: string; emailVerified: boolean; name: string };
  sessionId: string;
  membership: ActiveMembership | null;
}

export function claimsOf(subject: TokenSubject): TokenClaims {
  const { user, membership } = subject;
  return {
    sub: user.id,
    email: user.email,
    email_verified: user.emailVerified,
    name: user.name,
    sid: subject.sessionId,
    ...(membership
      ? {
          org_id: membership.organizationId,
          org_slug: membership.slug,
          org_role: membership.role,
        }
      : {}),
  };
}

/** A token for `subject`; null when signed tokens are off. */
export async function signSessionJwt(
  context: AuthContext,
  request: FastifyRequest,
  subject: TokenSubject,
): Promise<string | null> {
  if (!context.keys) return null;
  const { jwt } = context.config;
  const issuer = jwt.issuer ?? ownOrigin(context.config, request);
  return context.keys.sign(claimsOf(subject), issuer, jwt.audience ?? issuer);
}
