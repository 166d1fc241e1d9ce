/**
 * Team members: add and remove them, the session's active team, and the teams of a
 * user or the members of a team. The team member limit is counted under the team's row
 * lock, so concurrent adds cannot exceed it.
 */
import type { Actor, UserActor } from "../actor.js";
import { generateId } from "../crypto/random.js";
import type { TransactionSql } from "../db/connection.js";
import { transaction } from "../db/transaction.js";
import { AuthError } from "../errors.js";
import { findMember, lockMemberForShare, requirePermission } from "../organization/access.js";
import { hasPermission } from "../organization/permissions.js";
import type { OrganizationRow } from "../organization/queries.js";
import type { SessionRow } from "../sessions/queries.js";
import { clearActiveTeamOfUser, setActiveTeamOfSession } from "../sessions/sessions.js";
import { auditTeam, requireTeam, resolveLimit, type TeamDeps, teamFor } from "./access.js";
import {
  countTeamMembers,
  deleteTeamMember,
  findTeamById,
  findTeamMember,
  insertTeamMember,
  listTeamMembers,
  listTeamsOfUser,
  lockTeam,
  type TeamMemberRow,
  type TeamRow,
} from "./queries.js";

export interface TeamMemberResponse {
  id: string;
  teamId: string;
  userId: string;
  createdAt: Date;
}

export function teamMemberResponse(member: TeamMemberRow): TeamMemberResponse {
  return {
    id: member.id,
    teamId: member.teamId,
    userId: member.userId,
    createdAt: member.createdAt,
  };
}

/**
 * maximumMembersPerTeam for `userId` joining `team`. Resolved before any lock is taken,
 * so a slow limit function holds no row.
 */
function teamMemberLimit(
  deps: TeamDeps,
  actor: Actor,
  organization: OrganizationRow,
  team: TeamRow,
  userId: string,
): Promise<number> {
  return resolveLimit(
    "maximumMembersPerTeam",
    deps.config.organization.teams.maximumMembersPerTeam,
    {
      teamId: team.id,
      team,
      organizationId: organization.id,
      organization,
      userId: actor.kind === "user" ? actor.user.id : userId,
    },
  );
}

/**
 * The join itself, inside the caller's transaction: only members of the organization
 * join its teams; someone already in the team is answered with their row (idempotent);
 * otherwise `maximum` is counted under the team's row lock, so concurrent adds cannot
 * exceed it.
 */
async function joinTeam(
  tx: TransactionSql,
  actor: Actor,
  organization: OrganizationRow,
  team: TeamRow,
  userId: string,
  maximum: number,
): Promise<{ member: TeamMemberRow; added: boolean }> {
  if (!(await lockTeam(tx, organization.id, team.id))) throw new AuthError("TEAM_NOT_FOUND");
  // An unknown user answers like a non-member: nothing says who has an account. The
  // membership stays locked, so a concurrent remove-member either ran first (not found
  // here) or waits and then removes the team membership written below with it.
  if (!(await lockMemberForShare(tx, organization.id, userId))) {
    throw new AuthError("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
  }
  const existing = await findTeamMember(tx, team.id, userId);
  if (existing) return { member: existing, added: false };
  if ((await countTeamMembers(tx, team.id)) >= maximum) {
    throw new AuthError("TEAM_MEMBER_LIMIT_REACHED");
  }
  const member = await insertTeamMember(tx, { id: generateId(), teamId: team.id, userId });
  await auditTeam(
    tx,
    actor,
    "team.member_added",
    organization.id,
    { type: "user", id: userId },
    {
      teamId: team.id,
    },
  );
  return { member, added: true };
}

/** add-team-member's rules (teamMemberLimit, then joinTeam) in a transaction of its own. */
async function addMemberToTeam(
  deps: TeamDeps,
  actor: Actor,
  organization: OrganizationRow,
  team: TeamRow,
  userId: string,
): Promise<{ member: TeamMemberRow; added: boolean }> {
  const maximum = await teamMemberLimit(deps, actor, organization, team, userId);
  return transaction(deps.sql, (tx) => joinTeam(tx, actor, organization, team, userId, maximum));
}

/** Takes a user out of a team; their sessions lose it as the active team. */
async function removeMemberFromTeam(
  deps: TeamDeps,
  actor: Actor,
  organization: OrganizationRow,
  team: TeamRow,
  userId: string,
): Promise<void> {
  await transaction(deps.sql, async (tx) => {
    if (!(await deleteTeamMember(tx, team.id, userId))) {
      throw new AuthError("USER_IS_NOT_A_MEMBER_OF_THE_TEAM");
    }
    // Like an organization one leaves, a team one leaves stops being active.
    await clearActiveTeamOfUser(tx, userId, team.id);
    await auditTeam(
      tx,
      actor,
      "team.member_removed",
      organization.id,
      { type: "user", id: userId },
      {
        teamId: team.id,
      },
    );
  });
}

/**
 * add-team-member: a member with member:update (or the operator) puts a member of the
 * organization in one of its teams (idempotent: `added` says whether they were new; the
 * team member limit holds under concurrency).
 */
export async function addTeamMember(
  deps: TeamDeps,
  actor: Actor,
  input: { teamId: string; userId: string; organizationId?: string },
): Promise<{ member: TeamMemberRow; added: boolean }> {
  const { organization, team } = await teamFor(deps, actor, input, {
    permission: { member: ["update"] },
    denied: "YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_TEAM_MEMBER",
  });
  return addMemberToTeam(deps, actor, organization, team, input.userId);
}

/**
 * add-team-member as one step of a larger write (adding a member straight into a
 * team): the team member limit is resolved now, before any lock; the answered function
 * puts the user in the team inside the caller's transaction, with the same rules, so a
 * refusal rolls back the caller's writes too.
 */
export async function prepareTeamMember(
  deps: TeamDeps,
  actor: Actor,
  organization: OrganizationRow,
  teamId: string,
  userId: string,
): Promise<(tx: TransactionSql) => Promise<TeamMemberRow>> {
  const team = await requireTeam(deps.sql, organization.id, teamId);
  const maximum = await teamMemberLimit(deps, actor, organization, team, userId);
  return async (tx) => (await joinTeam(tx, actor, organization, team, userId, maximum)).member;
}

/**
 * remove-team-member: a member with member:delete (or the operator) takes a user out of
 * a team of the organization. Sessions of that user lose the team as their active team.
 */
export async function removeTeamMember(
  deps: TeamDeps,
  actor: Actor,
  input: { teamId: string; userId: string; organizationId?: string },
): Promise<void> {
  const { organization, team } = await teamFor(deps, actor, input, {
    permission: { member: ["delete"] },
    denied: "YOU_ARE_NOT_ALLOWED_TO_REMOVE_A_TEAM_MEMBER",
  });
  await removeMemberFromTeam(deps, actor, organization, team, input.userId);
}

/**
 * set-active-team: null clears it; no teamId re-affirms the current
 * one; otherwise the team must be in the active organization and the caller in it.
 * Answers the team (or null) and the updated session, whose cache cookie the route
 * rewrites.
 */
export async function setActiveTeam(
  deps: TeamDeps,
  actor: UserActor & { session: SessionRow },
  teamId: string | null | undefined,
): Promise<{ team: TeamRow | null; session: SessionRow | null }> {
  const { session: current } = actor;
  if (teamId === null) {
    const session = await setActiveTeamOfSession(deps.sql, current.id, null);
    return { team: null, session: session ?? null };
  }
  const organizationId = current.activeOrganizationId;
  if (!organizationId) throw new AuthError("NO_ACTIVE_ORGANIZATION");
  const wanted = teamId ?? current.activeTeamId;
  if (!wanted) return { team: null, session: null };
  const team = await requireTeam(deps.sql, organizationId, wanted);
  if (!(await findTeamMember(deps.sql, team.id, actor.user.id))) {
    // As in Better Auth, this endpoint answers the code with 403, the others with 400.
    throw new AuthError("USER_IS_NOT_A_MEMBER_OF_THE_TEAM", { status: 403 });
  }
  if (team.id === current.activeTeamId) return { team, session: null };
  // A transaction of its own, so that a deadlock is retried: the update locks the session
  // and then the team (its foreign key's check), while removing the team locks the team
  // and then its sessions.
  const session = await transaction(deps.sql, (tx) =>
    setActiveTeamOfSession(tx, current.id, team.id),
  );
  return { team, session: session ?? null };
}

/**
 * list-user-teams: the caller's teams, in every organization they belong to or in
 * the given one (403 when they are not its member). Another user's teams (query
 * `userId`) need member:update in that organization and cover only it.
 */
export async function listUserTeams(
  deps: TeamDeps,
  actor: UserActor,
  input: { organizationId?: string; userId?: string },
): Promise<TeamRow[]> {
  const callerId = actor.user.id;
  if (input.userId === undefined || input.userId === callerId) {
    if (input.organizationId === undefined) return listTeamsOfUser(deps.sql, callerId);
    if (!(await findMember(deps.sql, input.organizationId, callerId))) {
      throw new AuthError("YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION");
    }
    return listTeamsOfUser(deps.sql, callerId, input.organizationId);
  }
  const organizationId = input.organizationId ?? actor.session?.activeOrganizationId;
  if (!organizationId) throw new AuthError("NO_ACTIVE_ORGANIZATION");
  const member = await findMember(deps.sql, organizationId, callerId);
  if (!member) throw new AuthError("YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION");
  requirePermission(
    deps.config,
    member,
    { member: ["update"] },
    "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER",
  );
  if (!(await findMember(deps.sql, organizationId, input.userId))) {
    throw new AuthError("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
  }
  return listTeamsOfUser(deps.sql, input.userId, organizationId);
}

/**
 * list-team-members: the members of a team (default: the active team). Members of the
 * team see it; so do the organization's owners and admins (member:update) who are not
 * in it (where Better Auth refuses them). A team of an organization the caller is not
 * in answers as unknown.
 */
export async function listMembersOfTeam(
  deps: TeamDeps,
  actor: UserActor,
  input: { teamId?: string },
): Promise<TeamMemberRow[]> {
  const teamId = input.teamId ?? actor.session?.activeTeamId;
  if (!teamId) throw new AuthError("YOU_DO_NOT_HAVE_AN_ACTIVE_TEAM");
  const team = await findTeamById(deps.sql, teamId);
  if (!team) throw new AuthError("TEAM_NOT_FOUND");
  const member = await findMember(deps.sql, team.organizationId, actor.user.id);
  if (!member) throw new AuthError("TEAM_NOT_FOUND");
  if (
    !hasPermission(deps.config, member.role, { member: ["update"] }) &&
    !(await findTeamMember(deps.sql, team.id, actor.user.id))
  ) {
    throw new AuthError("USER_IS_NOT_A_MEMBER_OF_THE_TEAM");
  }
  return listTeamMembers(deps.sql, team.id);
}
