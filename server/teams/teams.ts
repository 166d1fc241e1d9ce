/**
 * Teams: create, update, remove and list teams of an
 * organization, add and remove team members, the session's active team. Every call
 * first proves the caller belongs to the organization the team is in (tenant isolation),
 * and the limits are counted under a row lock so concurrent calls cannot exceed them.
 */
import { type Actor, auditActorOf, type UserActor } from "../actor.js";
import { recordAuditEvent } from "../audit/audit.js";
import type { AuthdConfig } from "../config.js";
import { generateId } from "../crypto/random.js";
import type { Sql, TransactionSql } from "../db/connection.js";
import { isUniqueViolation, transaction } from "../db/transaction.js";
import { AuthError, type ErrorCode } from "../errors.js";
import {
  findMember,
  lockMemberForShare,
  lockOrganization,
  organizationOfActor,
  requirePermission,
} from "../organization/access.js";
import type { TeamsOfOrganizations } from "../organization/organization.js";
import type { PermissionRequest } from "../organization/permissions.js";
import { hasPermission } from "../organization/permissions.js";
import type { OrganizationRow } from "../organization/queries.js";
import type { SessionRow } from "../sessions/queries.js";
import { clearActiveTeamOfUser, setActiveTeamOfSession } from "../sessions/sessions.js";
import {
  countTeamMembers,
  countTeams,
  deleteTeamMember,
  deleteTeamMembershipsInOrganization,
  deleteTeamRow,
  findTeamById,
  findTeamInOrganization,
  findTeamMember,
  insertTeam,
  insertTeamMember,
  listTeamMembers,
  listTeamsOfOrganization,
  listTeamsOfUser,
  lockTeam,
  renameTeam,
  type TeamMemberRow,
  type TeamRow,
} from "./queries.js";

const TEAM_NAME_INDEX = "team_organization_name_key";

/** The team reads, locks and writes invitations use inside their transactions. */
export {
  countTeamMembers,
  findTeamInOrganization,
  findTeamMember,
  insertTeam,
  insertTeamMember,
  insertTeamMembers,
  listMembersOfTeams,
  listTeamsOfOrganizations,
  lockTeam,
} from "./queries.js";

/**
 * What teams need from invitations, which sit above them (an invitation names teams):
 * given when the app or a command is built, so neither imports the other both ways.
 */
export interface InvitationsOfTeams {
  /** Pending invitations stop naming a removed team (inside the removal's transaction). */
  forgetTeam(tx: TransactionSql, organizationId: string, teamId: string): Promise<void>;
}

export interface TeamDeps {
  sql: Sql;
  config: AuthdConfig;
  invitations: InvitationsOfTeams;
}

export interface TeamResponse {
  id: string;
  name: string;
  organizationId: string;
  createdAt: Date;
  updatedAt: Date | null;
}

export interface TeamMemberResponse {
  id: string;
  teamId: string;
  userId: string;
  createdAt: Date;
}

/** Better Auth's team shape: the fields clients read, and nothing a later column adds. */
export function teamResponse(team: TeamRow): TeamResponse {
  return {
    id: team.id,
    name: team.name,
    organizationId: team.organizationId,
    createdAt: team.createdAt,
    updatedAt: team.updatedAt,
  };
}

export function teamMemberResponse(member: TeamMemberRow): TeamMemberResponse {
  return {
    id: member.id,
    teamId: member.teamId,
    userId: member.userId,
    createdAt: member.createdAt,
  };
}

type LimitSetting = AuthdConfig["organization"]["teams"]["maximumTeams"];

/**
 * A team limit: unset is unlimited; a function gets what better-auth passes (ids) plus
 * the rows. It is called before any lock is taken, so a slow one holds no row.
 */
async function resolveLimit(name: string, setting: LimitSetting, data: object): Promise<number> {
  if (setting === undefined) return Number.POSITIVE_INFINITY;
  if (typeof setting === "number") return setting;
  const value = await setting(data);
  if (typeof value !== "number" || Number.isNaN(value) || value < 0) {
    throw new Error(`organization.teams.${name} must return a number of at least 0`);
  }
  return value;
}

/** Is a default team made when an organization is created? */
export function defaultTeamEnabled(config: AuthdConfig): boolean {
  return config.organization.teams.enabled && config.organization.teams.defaultTeam.enabled;
}

/**
 * The default team, named after the organization, with the creator in it.
 * Runs inside the caller's organization-create transaction (it opens none), so the
 * organization, its creator's membership and the team appear together or not at all.
 * The caller checks `defaultTeamEnabled(config)` first.
 */
export async function createDefaultTeam(
  tx: TransactionSql,
  organization: OrganizationRow,
  creatorUserId: string,
): Promise<{ team: TeamRow; member: TeamMemberRow }> {
  const team = await insertTeam(tx, {
    id: generateId(),
    name: organization.name,
    organizationId: organization.id,
  });
  const member = await insertTeamMember(tx, {
    id: generateId(),
    teamId: team.id,
    userId: creatorUserId,
  });
  return { team, member };
}

/** A rename or create that hit the (organization, name) index is a clean 400. */
function duplicateNameToError(error: unknown): never {
  if (isUniqueViolation(error, TEAM_NAME_INDEX)) throw new AuthError("TEAM_ALREADY_EXISTS");
  throw error;
}

async function auditTeam(
  tx: TransactionSql,
  actor: Actor,
  action: string,
  organizationId: string,
  target: { type: "team" | "user"; id: string },
  details: Record<string, unknown>,
): Promise<void> {
  const { actorType, actorId } = auditActorOf(actor);
  await recordAuditEvent(tx, {
    action,
    actorType,
    actorId,
    targetType: target.type,
    targetId: target.id,
    organizationId,
    details,
  });
}

/**
 * The team rules, once, for HTTP and the CLI. maximumTeams is counted under the
 * organization's row lock (creates queue on it); names are unique per organization.
 */
async function createTeamInOrganization(
  deps: TeamDeps,
  actor: Actor,
  organization: OrganizationRow,
  name: string,
): Promise<TeamRow> {
  const maximum = await resolveLimit("maximumTeams", deps.config.organization.teams.maximumTeams, {
    organizationId: organization.id,
    organization,
    userId: actor.kind === "user" ? actor.user.id : null,
  });
  try {
    return await transaction(deps.sql, async (tx) => {
      // Team limit: creates in one organization queue on its row, so the count holds.
      if (!(await lockOrganization(tx, organization.id))) {
        throw new AuthError("ORGANIZATION_NOT_FOUND");
      }
      if ((await countTeams(tx, organization.id)) >= maximum) {
        throw new AuthError("YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_TEAMS");
      }
      const team = await insertTeam(tx, {
        id: generateId(),
        name,
        organizationId: organization.id,
      });
      await auditTeam(
        tx,
        actor,
        "team.created",
        organization.id,
        { type: "team", id: team.id },
        { name },
      );
      return team;
    });
  } catch (error) {
    duplicateNameToError(error);
  }
}

/** Only the name changes; a name taken in the organization is TEAM_ALREADY_EXISTS. */
async function renameTeamInOrganization(
  deps: TeamDeps,
  actor: Actor,
  organization: OrganizationRow,
  team: TeamRow,
  name: string,
): Promise<TeamRow> {
  try {
    return await transaction(deps.sql, async (tx) => {
      const renamed = await renameTeam(tx, team.id, name);
      if (!renamed) throw new AuthError("TEAM_NOT_FOUND");
      await auditTeam(
        tx,
        actor,
        "team.updated",
        organization.id,
        { type: "team", id: team.id },
        {
          name,
          previousName: team.name,
        },
      );
      return renamed;
    });
  } catch (error) {
    duplicateNameToError(error);
  }
}

/**
 * The last team stays unless removing all teams is allowed, counted under the
 * organization's row lock so two removals cannot both see "another team is left".
 * `refuse` adds the caller's own rule (a member cannot remove their own team). Team
 * members go with it (cascade); sessions that had it active lose it (set null).
 */
async function removeTeamFromOrganization(
  deps: TeamDeps,
  actor: Actor,
  organization: OrganizationRow,
  teamId: string,
  refuse?: (tx: TransactionSql, team: TeamRow) => Promise<void>,
): Promise<TeamRow> {
  return transaction(deps.sql, async (tx) => {
    if (!(await lockOrganization(tx, organization.id))) {
      throw new AuthError("ORGANIZATION_NOT_FOUND");
    }
    const team = await findTeamInOrganization(tx, organization.id, teamId);
    if (!team) throw new AuthError("TEAM_NOT_FOUND");
    await refuse?.(tx, team);
    if (
      !deps.config.organization.teams.allowRemovingAllTeams &&
      (await countTeams(tx, organization.id)) <= 1
    ) {
      throw new AuthError("UNABLE_TO_REMOVE_LAST_TEAM");
    }
    const deleted = await deleteTeamRow(tx, team.id);
    if (!deleted) throw new AuthError("TEAM_NOT_FOUND");
    // Pending invitations no longer name it (accepting would skip it anyway).
    await deps.invitations.forgetTeam(tx, organization.id, team.id);
    await auditTeam(
      tx,
      actor,
      "team.removed",
      organization.id,
      { type: "team", id: team.id },
      {
        name: team.name,
      },
    );
    return deleted;
  });
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
 * The organization a team operation is about. A user must be a member (`notMember`
 * otherwise) and hold `permission` (`denied` otherwise); the operator is neither checked
 * nor a member.
 */
function organizationFor(
  deps: TeamDeps,
  actor: Actor,
  organizationId: string | undefined,
  rule: { notMember?: ErrorCode; permission: PermissionRequest; denied: ErrorCode },
): Promise<OrganizationRow> {
  return organizationOfActor(deps.sql, deps.config, actor, { organizationId }, rule).then(
    (access) => access.organization,
  );
}

/** A team name has 1 to 255 characters (the HTTP body says so too). */
export function requireTeamName(name: string): string {
  if (name.length === 0 || name.length > 255) {
    throw new AuthError("VALIDATION_ERROR", { message: "a team name has 1 to 255 characters" });
  }
  return name;
}

/**
 * create-team: a member with team:create (or the operator) adds a team to the
 * organization (the given one, else the active one). The creator is not put in it (as
 * in Better Auth).
 */
export async function createTeam(
  deps: TeamDeps,
  actor: Actor,
  input: { name: string; organizationId?: string },
): Promise<TeamRow> {
  const organization = await organizationFor(deps, actor, input.organizationId, {
    // A non-member is told so, as on the other team routes (Better Auth answers an
    // invitation code here, which names the wrong reason).
    notMember: "YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION",
    permission: { team: ["create"] },
    denied: "YOU_ARE_NOT_ALLOWED_TO_CREATE_TEAMS_IN_THIS_ORGANIZATION",
  });
  return createTeamInOrganization(deps, actor, organization, requireTeamName(input.name));
}

/**
 * update-team: only the name is applied. The organization comes from
 * data.organizationId (as in Better Auth), a top-level organizationId, or the active one.
 */
export async function updateTeam(
  deps: TeamDeps,
  actor: Actor,
  input: { teamId: string; name?: string; organizationId?: string },
): Promise<TeamRow> {
  const organization = await organizationFor(deps, actor, input.organizationId, {
    notMember: "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_TEAM",
    permission: { team: ["update"] },
    denied: "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_TEAM",
  });
  const team = await findTeamInOrganization(deps.sql, organization.id, input.teamId);
  if (!team) throw new AuthError("TEAM_NOT_FOUND");
  if (input.name === undefined) return team;
  return renameTeamInOrganization(deps, actor, organization, team, requireTeamName(input.name));
}

/**
 * remove-team: the last team cannot be removed unless removing all teams is
 * allowed; a member cannot remove the team they belong to.
 */
export async function removeTeam(
  deps: TeamDeps,
  actor: Actor,
  input: { teamId: string; organizationId?: string },
): Promise<TeamRow> {
  const organization = await organizationFor(deps, actor, input.organizationId, {
    notMember: "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_TEAM",
    permission: { team: ["delete"] },
    denied: "YOU_ARE_NOT_ALLOWED_TO_DELETE_TEAMS_IN_THIS_ORGANIZATION",
  });
  if (actor.kind === "operator") {
    return removeTeamFromOrganization(deps, actor, organization, input.teamId);
  }
  return removeTeamFromOrganization(deps, actor, organization, input.teamId, async (tx, team) => {
    // "The team they belong to" is a team they are in, or their active team.
    if (
      actor.session?.activeTeamId === team.id ||
      (await findTeamMember(tx, team.id, actor.user.id)) !== undefined
    ) {
      throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_TEAM");
    }
  });
}

/**
 * list-teams: for a user the active organization takes precedence over the query, and
 * a non-member is answered FORBIDDEN. The organization is not looked up on its own, so
 * an unknown id and another tenant's id answer alike. The operator names one.
 */
export async function listTeams(
  deps: TeamDeps,
  actor: Actor,
  input: { organizationId?: string },
): Promise<TeamRow[]> {
  if (actor.kind === "operator") {
    const organization = await organizationFor(deps, actor, input.organizationId, {
      permission: {},
      denied: "YOU_ARE_NOT_ALLOWED_TO_ACCESS_THIS_ORGANIZATION",
    });
    return listTeamsOfOrganization(deps.sql, organization.id);
  }
  const organizationId = actor.session?.activeOrganizationId ?? input.organizationId;
  if (!organizationId) throw new AuthError("NO_ACTIVE_ORGANIZATION");
  if (!(await findMember(deps.sql, organizationId, actor.user.id))) {
    throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_ACCESS_THIS_ORGANIZATION");
  }
  return listTeamsOfOrganization(deps.sql, organizationId);
}

/** A team of the organization by id, else by its name (unique per organization). */
export async function findTeamByIdOrName(
  sql: Sql,
  organization: OrganizationRow,
  idOrName: string,
): Promise<TeamRow> {
  const team =
    (await findTeamInOrganization(sql, organization.id, idOrName)) ??
    (await listTeamsOfOrganization(sql, organization.id)).find((row) => row.name === idOrName);
  if (!team) throw new AuthError("TEAM_NOT_FOUND", { message: `Team not found: ${idOrName}` });
  return team;
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
  const organization = await organizationFor(deps, actor, input.organizationId, {
    permission: { member: ["update"] },
    denied: "YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_TEAM_MEMBER",
  });
  const team = await findTeamInOrganization(deps.sql, organization.id, input.teamId);
  if (!team) throw new AuthError("TEAM_NOT_FOUND");
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
  const team = await findTeamInOrganization(deps.sql, organization.id, teamId);
  if (!team) throw new AuthError("TEAM_NOT_FOUND");
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
  const organization = await organizationFor(deps, actor, input.organizationId, {
    permission: { member: ["delete"] },
    denied: "YOU_ARE_NOT_ALLOWED_TO_REMOVE_A_TEAM_MEMBER",
  });
  const team = await findTeamInOrganization(deps.sql, organization.id, input.teamId);
  if (!team) throw new AuthError("TEAM_NOT_FOUND");
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
  const team = await findTeamInOrganization(deps.sql, organizationId, wanted);
  if (!team) throw new AuthError("TEAM_NOT_FOUND");
  if (!(await findTeamMember(deps.sql, team.id, actor.user.id))) {
    // As in Better Auth, this endpoint answers the code with 403, the others with 400.
    throw new AuthError("USER_IS_NOT_A_MEMBER_OF_THE_TEAM", { status: 403 });
  }
  if (team.id === current.activeTeamId) return { team, session: null };
  const session = await setActiveTeamOfSession(deps.sql, current.id, team.id);
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

/** What the organization domain calls on teams, for the teams of `deps`' app or command. */
export function teamsOfOrganizations(deps: TeamDeps): TeamsOfOrganizations {
  return {
    defaultTeamEnabled,
    createDefaultTeam: async (tx, organization, userId) =>
      (await createDefaultTeam(tx, organization, userId)).team.id,
    removeFromTeams: deleteTeamMembershipsInOrganization,
    prepareJoin: (actor, organization, teamId, userId) =>
      prepareTeamMember(deps, actor, organization, teamId, userId),
  };
}
