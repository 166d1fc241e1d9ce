/**
 * Members of an organization: leave, remove a member, change a member's role, add a
 * member, list them all. The membership limit and the last-owner rules are checked
 * inside transactions that lock the organization row, so they hold under concurrency.
 */
import {
  type Actor,
  type AuditActor,
  auditActorOf,
  type OperatorActor,
  type UserActor,
} from "../actor.js";
import { recordAuditEvent } from "../audit/audit.js";
import type { AuthdConfig } from "../config.js";
import { generateId } from "../crypto/random.js";
import type { Queryable } from "../db/connection.js";
import { isUniqueViolation, transaction } from "../db/transaction.js";
import { AuthError } from "../errors.js";
import { clearActiveOrganizationOfUser } from "../sessions/sessions.js";
import type { TeamMemberRow } from "../teams/queries.js";
import type { UserRow } from "../users/queries.js";
import {
  accessOrganization,
  type OrganizationSelector,
  organizationOfActor,
  requirePermission,
} from "./access.js";
import type { OrganizationDeps, TeamsOfOrganizations } from "./deps.js";
import {
  countMembers,
  countMembersWithRole,
  deleteMemberRow,
  findMember,
  findMemberByEmail,
  findMemberById,
  findMemberWithUser,
  insertMember,
  listMembersPage,
  type MemberRow,
  type MemberWithUser,
  updateMemberRoleRow,
} from "./member-queries.js";
import { isCreatorRole, requireKnownRoles } from "./permissions.js";
import { lockOrganization, type OrganizationRow } from "./queries.js";

export function memberResponse(member: MemberRow) {
  return {
    id: member.id,
    organizationId: member.organizationId,
    userId: member.userId,
    role: member.role,
    createdAt: member.createdAt,
  };
}

export function memberWithUserResponse(member: MemberWithUser) {
  return Object.assign(memberResponse(member), { user: member.user });
}

/** An audit event about a user's membership of an organization: the user is its target. */
async function recordMembershipEvent(
  tx: Queryable,
  action: string,
  who: AuditActor,
  membership: { organizationId: string; userId: string },
  details?: unknown,
): Promise<void> {
  await recordAuditEvent(tx, {
    action,
    ...who,
    targetType: "user",
    targetId: membership.userId,
    organizationId: membership.organizationId,
    details,
  });
}

/** Whether `target` is the organization's only owner. Runs under the organization lock. */
async function isTheOnlyOwner(
  tx: Queryable,
  config: AuthdConfig,
  organization: OrganizationRow,
  target: MemberRow,
): Promise<boolean> {
  return (
    isCreatorRole(config, target.role) &&
    (await countMembersWithRole(tx, organization.id, config.organization.creatorRole)) <= 1
  );
}

/** The last owner cannot be demoted. Runs under the organization lock. */
async function changeMemberRole(
  tx: Queryable,
  config: AuthdConfig,
  organization: OrganizationRow,
  target: MemberRow,
  newRole: string,
  who: AuditActor,
): Promise<MemberRow> {
  if (!isCreatorRole(config, newRole) && (await isTheOnlyOwner(tx, config, organization, target))) {
    throw new AuthError("YOU_CANNOT_LEAVE_THE_ORGANIZATION_WITHOUT_AN_OWNER");
  }
  const updated = await updateMemberRoleRow(tx, target.id, newRole);
  if (!updated) throw new AuthError("MEMBER_NOT_FOUND");
  await recordMembershipEvent(tx, "organization.member_role_changed", who, target, {
    role: newRole,
  });
  return updated;
}

/** The only owner cannot be removed. Runs under the organization lock. */
async function refuseRemovingTheOnlyOwner(
  tx: Queryable,
  config: AuthdConfig,
  organization: OrganizationRow,
  target: MemberRow,
): Promise<void> {
  if (await isTheOnlyOwner(tx, config, organization, target)) {
    throw new AuthError("YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER");
  }
}

/** Removes a member, keeping an owner. Runs under the organization lock. */
async function removeMemberKeepingAnOwner(
  tx: Queryable,
  teams: TeamsOfOrganizations,
  config: AuthdConfig,
  organization: OrganizationRow,
  target: MemberRow,
  actor: Actor,
): Promise<MemberWithUser> {
  await refuseRemovingTheOnlyOwner(tx, config, organization, target);
  const withUser = await findMemberWithUser(tx, target.id);
  if (!withUser) throw new AuthError("MEMBER_NOT_FOUND");
  await removeMembership(tx, teams, target);
  await recordMembershipEvent(tx, "organization.member_removed", auditActorOf(actor), target);
  return withUser;
}

/** Removes a membership with everything that hangs on it, inside `tx`. */
async function removeMembership(
  tx: Queryable,
  teams: TeamsOfOrganizations,
  member: MemberRow,
): Promise<void> {
  await deleteMemberRow(tx, member.id);
  await teams.removeFromTeams(tx, member.organizationId, member.userId);
  // Leaving or being removed clears the organization as active.
  await clearActiveOrganizationOfUser(tx, member.userId, member.organizationId);
}

/** leave: the sole owner cannot leave. */
export async function leaveOrganization(
  deps: OrganizationDeps,
  actor: UserActor,
  organizationId: string,
): Promise<MemberWithUser> {
  const { config } = deps;
  return transaction(deps.sql, async (tx) => {
    const organization = await lockOrganization(tx, organizationId);
    if (!organization) throw new AuthError("ORGANIZATION_NOT_FOUND");
    const { member } = await accessOrganization(tx, actor.user.id, { organizationId }, null, {
      notMember: "MEMBER_NOT_FOUND",
    });
    await refuseRemovingTheOnlyOwner(tx, config, organization, member);
    const withUser = await findMemberWithUser(tx, member.id);
    await removeMembership(tx, deps.teams, member);
    if (!withUser) throw new AuthError("MEMBER_NOT_FOUND");
    return withUser;
  });
}

/**
 * remove-member: a user needs member:delete to remove someone else, only an owner
 * removes an owner; the operator is not checked. For both, the only owner cannot be
 * removed, and team memberships and active state go too. `memberIdOrEmail` with an @
 * is an email; both are looked up in this organization only.
 */
export async function removeMember(
  deps: OrganizationDeps,
  actor: Actor,
  selector: OrganizationSelector,
  memberIdOrEmail: string,
): Promise<MemberWithUser> {
  const { config } = deps;
  const { organization, member: caller } = await organizationOfActor(
    deps.sql,
    config,
    actor,
    selector,
    { notMember: "MEMBER_NOT_FOUND" },
  );
  return transaction(deps.sql, async (tx) => {
    await lockOrganization(tx, organization.id);
    const target = memberIdOrEmail.includes("@")
      ? await findMemberByEmail(tx, organization.id, memberIdOrEmail.trim().toLowerCase())
      : await findMemberById(tx, organization.id, memberIdOrEmail);
    if (!target) throw new AuthError("MEMBER_NOT_FOUND");
    if (caller && target.userId !== caller.userId) {
      requirePermission(
        config,
        caller,
        { member: ["delete"] },
        "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER",
      );
      if (isCreatorRole(config, target.role)) {
        // The only owner cannot be removed, whoever asks: that reason comes first, so an
        // admin learns it instead of a bare refusal.
        await refuseRemovingTheOnlyOwner(tx, config, organization, target);
        if (!isCreatorRole(config, caller.role)) {
          throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER");
        }
      }
    }
    return removeMemberKeepingAnOwner(tx, deps.teams, config, organization, target, actor);
  });
}

/**
 * update-member-role: a user needs member:update, and only an owner gives or takes
 * the owner role; the operator is not checked. For both, the roles must exist and the
 * last owner cannot be demoted. The member is named by member id or by user id.
 */
export async function updateMemberRole(
  deps: OrganizationDeps,
  actor: Actor,
  selector: OrganizationSelector,
  target: { memberId: string } | { userId: string },
  role: string | readonly string[],
): Promise<MemberRow> {
  const { config } = deps;
  const newRole = requireKnownRoles(config, role);
  const { organization, member: caller } = await organizationOfActor(
    deps.sql,
    config,
    actor,
    selector,
    {
      notMember: "MEMBER_NOT_FOUND",
      permission: { member: ["update"] },
      denied: "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER",
    },
  );
  return transaction(deps.sql, async (tx) => {
    await lockOrganization(tx, organization.id);
    const member =
      "memberId" in target
        ? await findMemberById(tx, organization.id, target.memberId)
        : await findMember(tx, organization.id, target.userId);
    if (!member) throw new AuthError("MEMBER_NOT_FOUND");
    const touchesOwner = isCreatorRole(config, member.role) || isCreatorRole(config, newRole);
    if (caller && touchesOwner && !isCreatorRole(config, caller.role)) {
      throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER");
    }
    return changeMemberRole(tx, config, organization, member, newRole, auditActorOf(actor));
  });
}

/** Every member with their user, oldest first, read page by page. */
export async function listAllMembers(
  sql: Queryable,
  organization: OrganizationRow,
): Promise<MemberWithUser[]> {
  const members: MemberWithUser[] = [];
  for (;;) {
    const page = await listMembersPage(sql, organization.id, {
      limit: 1000,
      offset: members.length,
      sortBy: "createdAt",
      sortDirection: "asc",
    });
    members.push(...page.members);
    if (page.members.length === 0 || members.length >= page.total) return members;
  }
}

/** membershipLimit: a number, or a function of (user, organization). */
async function membershipLimitReached(
  tx: Queryable,
  config: AuthdConfig,
  user: UserRow,
  organization: OrganizationRow,
): Promise<boolean> {
  const setting = config.organization.membershipLimit;
  const limit = typeof setting === "number" ? setting : await setting(user, organization);
  if (typeof limit !== "number" || Number.isNaN(limit)) {
    throw new Error("organization.membershipLimit must return a number");
  }
  return (await countMembers(tx, organization.id)) >= limit;
}

/**
 * add a member directly (the operator; Better Auth offers it only to server code): the roles exist, one membership per user, the membership
 * limit. With `team` (teams enabled), the new member joins it in the same transaction
 * under add-team-member's rules (the team member limit), so a refusal adds nobody.
 */
export async function addMember(
  deps: OrganizationDeps,
  actor: OperatorActor,
  organization: OrganizationRow,
  user: UserRow,
  role: string | readonly string[],
  teamId: string | null = null,
): Promise<{ member: MemberRow; teamMember: TeamMemberRow | null }> {
  const { sql, config } = deps;
  const newRole = requireKnownRoles(config, role);
  // Without teams there is no team to name (as an invitation's teamId).
  if (teamId && !config.organization.teams.enabled) throw new AuthError("TEAM_NOT_FOUND");
  const joinTeam = teamId
    ? await deps.teams.prepareJoin(actor, organization, teamId, user.id)
    : null;
  try {
    return await transaction(sql, async (tx) => {
      const locked = await lockOrganization(tx, organization.id);
      if (!locked) throw new AuthError("ORGANIZATION_NOT_FOUND");
      if (await findMember(tx, organization.id, user.id)) {
        throw new AuthError("USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION");
      }
      if (await membershipLimitReached(tx, config, user, locked)) {
        throw new AuthError("ORGANIZATION_MEMBERSHIP_LIMIT_REACHED");
      }
      const member = await insertMember(tx, {
        id: generateId(),
        organizationId: organization.id,
        userId: user.id,
        role: newRole,
      });
      await recordMembershipEvent(
        tx,
        "organization.member_added",
        auditActorOf(actor),
        member,
        teamId ? { role: newRole, teamId } : { role: newRole },
      );
      const teamMember = joinTeam ? await joinTeam(tx) : null;
      return { member, teamMember };
    });
  } catch (error) {
    if (isUniqueViolation(error, "member_organization_user_key")) {
      throw new AuthError("USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION");
    }
    throw error;
  }
}
