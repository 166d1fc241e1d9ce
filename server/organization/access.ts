/**
 * Tenant isolation: every organization-scoped call resolves which
 * organization it is about and proves the caller belongs to it before anything else.
 */
import type { Actor } from "../actor.js";
import type { AuthdConfig } from "../config.js";
import type { Queryable } from "../db/connection.js";
import { AuthError, type ErrorCode } from "../errors.js";
import { findMember, lockMemberForShare, type MemberRow } from "./member-queries.js";
import { hasPermission, type PermissionRequest } from "./permissions.js";
import {
  findOrganizationById,
  findOrganizationBySlug,
  findOrganizationWithMember,
  lockOrganization,
  type OrganizationRow,
} from "./queries.js";

export interface OrganizationAccess {
  organization: OrganizationRow;
  member: MemberRow;
}

export interface OrganizationSelector {
  organizationId?: string | null;
  organizationSlug?: string | null;
}

/**
 * The organization a call is about: an explicit id or slug, else the session's active
 * one; with neither, `missing` (NO_ACTIVE_ORGANIZATION unless the endpoint says else).
 */
export async function resolveOrganization(
  sql: Queryable,
  selector: OrganizationSelector,
  activeOrganizationId: string | null,
  missing: ErrorCode = "NO_ACTIVE_ORGANIZATION",
): Promise<OrganizationRow> {
  let organization: OrganizationRow | undefined;
  if (selector.organizationId) {
    organization = await findOrganizationById(sql, selector.organizationId);
  } else if (selector.organizationSlug) {
    organization = await findOrganizationBySlug(sql, selector.organizationSlug);
  } else if (activeOrganizationId) {
    organization = await findOrganizationById(sql, activeOrganizationId);
  } else {
    throw new AuthError(missing);
  }
  if (!organization) throw new AuthError("ORGANIZATION_NOT_FOUND");
  return organization;
}

/** The caller's membership of the organization, or `notMember`. */
export async function requireMember(
  sql: Queryable,
  organization: OrganizationRow,
  userId: string,
  notMember: ErrorCode = "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION",
): Promise<OrganizationAccess> {
  const member = await findMember(sql, organization.id, userId);
  if (!member) throw new AuthError(notMember);
  return { organization, member };
}

/** Resolve and check membership in one step (one query for an id or a slug). */
export async function accessOrganization(
  sql: Queryable,
  userId: string,
  selector: OrganizationSelector,
  activeOrganizationId: string | null,
  codes: { missing?: ErrorCode; notMember?: ErrorCode; notMemberStatus?: number } = {},
): Promise<OrganizationAccess> {
  const id =
    selector.organizationId || (selector.organizationSlug ? undefined : activeOrganizationId);
  const slug = selector.organizationId ? undefined : (selector.organizationSlug ?? undefined);
  if (!id && !slug) throw new AuthError(codes.missing ?? "NO_ACTIVE_ORGANIZATION");
  const found = await findOrganizationWithMember(sql, id ? { id } : { slug }, userId);
  if (!found) throw new AuthError("ORGANIZATION_NOT_FOUND");
  if (!found.member) {
    throw new AuthError(codes.notMember ?? "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION", {
      status: codes.notMemberStatus,
    });
  }
  return { organization: found.organization, member: found.member };
}

/** The member's role(s) must grant the request, else `denied` (403). */
export function requirePermission(
  config: AuthdConfig,
  member: MemberRow,
  request: PermissionRequest,
  denied: ErrorCode,
): void {
  if (!hasPermission(config, member.role, request)) throw new AuthError(denied);
}

/**
 * The organization an operation is about, for whoever acts. A user must be a member
 * (`notMember` otherwise) and their role must grant `permission` (`denied` otherwise);
 * the operator names the organization (id or slug) and is neither checked nor a member.
 */
export async function organizationOfActor(
  sql: Queryable,
  config: AuthdConfig,
  actor: Actor,
  selector: OrganizationSelector,
  rule: {
    missing?: ErrorCode;
    notMember?: ErrorCode;
    permission?: PermissionRequest;
    denied?: ErrorCode;
  } = {},
): Promise<{ organization: OrganizationRow; member: MemberRow | null }> {
  if (actor.kind === "operator") {
    return {
      organization: await resolveOrganization(sql, selector, null, rule.missing),
      member: null,
    };
  }
  const access = await accessOrganization(
    sql,
    actor.user.id,
    selector,
    actor.session?.activeOrganizationId ?? null,
    { missing: rule.missing, notMember: rule.notMember },
  );
  if (rule.permission && rule.denied) {
    requirePermission(config, access.member, rule.permission, rule.denied);
  }
  return access;
}

/** Membership reads and locks other domains take inside their own transactions. */
export { findMember, lockMemberForShare, lockOrganization };
