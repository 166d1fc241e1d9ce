/**
 * The signed token (JWT) of a signed-in caller, for other services: what GET /token
 * answers and get-session sends in `set-auth-jwt` when `jwt.enabled`.
 */
import type { FastifyRequest } from "fastify";
import type { TokenClaims } from "../keys/tokens.js";
import type { ActiveMembership } from "../organization/organization.js";
import type { AuthContext } from "./auth-context.js";
import { ownOrigin } from "./origin.js";
import { parsedSessionData } from "./session-cookies.js";

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

/** What the cookie cache holds of a session and its user: all a token needs but the role. */
export interface CachedSubject {
  session: { id: string; activeOrganizationId: string | null };
  user: { id: string; email: string; emailVerified: boolean; name: string };
}

/**
 * The token made for this session moments ago, when the cookie cache still says what it
 * said (user, address, name, active organization); null otherwise. The role is the one
 * read then: at most the reuse age old, and never older than the cookie cache's maxAge.
 */
/** The cookie cache's answer (from `readSessionDataCookie`) as a token's subject. */
export function cachedSubject(context: AuthContext, cached: Buffer): CachedSubject {
  return parsedSessionData(context.cookies, cached) as CachedSubject;
}

export function recentSessionJwt(context: AuthContext, cached: CachedSubject): string | null {
  if (!context.keys) return null;
  const { session, user } = cached;
  return context.keys.recent(
    session.id,
    (claims) =>
      claims.sub === user.id &&
      claims.email === user.email &&
      claims.email_verified === user.emailVerified &&
      claims.name === user.name &&
      (claims.org_id ?? null) === session.activeOrganizationId,
  );
}
