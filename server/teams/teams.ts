/**
 * Teams: create, update, remove and list teams of an
 * organization, add and remove team members, the session's active team. Every call
 * first proves the caller belongs to the organization the team is in (tenant isolation),
 * and the limits are counted under a row lock so concurrent calls cannot exceed them.
 */
import { recordAuditEvent } from "../audit/audit.js";
import type { AuthdConfig } from "../config.js";
import { generateId } from "../crypto/random.js";
import type { Sql, TransactionSql } from "../db/connection.js";
import { isUniqueViolation, transaction } from "../db/transaction.js";
import { AuthError } from "../errors.js";
import { removeTeamFromPendingInvitations } from "../invitations/queries.js";
import { accessOrganization, requirePermission } from "../organization/access.js";
import { hasPermission } from "../organization/permissions.js";
import {
  findMember,
  lockMemberForShare,
  lockOrganization,
  type OrganizationRow,
} from "../organization/queries.js";
import type { SessionRow } from "../sessions/queries.js";
import { clearActiveTeamOfUser, setActiveTeamOfSession } from "../sessions/sessions.js";
import {
  countTeamMembers,
  countTeams,
  deleteTeamMember,
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

export interface TeamDeps {
  sql: Sql;
  config: AuthdConfig;
}

/** Who is calling: the session's user and what the session has active. */
export interface TeamCaller {
  userId: string;
  sessionId: string;
  activeOrganizationId: string | null;
  activeTeamId: string | null;
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

/** Who acted, for the audit trail: a signed-in user over HTTP, or the CLI. */
export interface TeamActor {
  actorType: "user" | "cli";
  actorId: string | null;
}

async function auditTeam(
  tx: TransactionSql,
  actor: TeamActor,
  action: string,
  organizationId: string,
  target: { type: "team" | "user"; id: string },
  details: Record<string, unknown>,
): Promise<void> {
  await recordAuditEvent(tx, {
    action,
    actorType: actor.actorType,
    actorId: actor.actorId,
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
  actor: TeamActor,
  organization: OrganizationRow,
  name: string,
): Promise<TeamRow> {
  const maximum = await resolveLimit("maximumTeams", deps.config.organization.teams.maximumTeams, {
    organizationId: organization.id,
    organization,
    userId: actor.actorId,
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
  actor: TeamActor,
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
  actor: TeamActor,
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
    await removeTeamFromPendingInvitations(tx, organization.id, team.id);
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
  actor: TeamActor,
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
      userId: actor.actorId ?? userId,
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
  actor: TeamActor,
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
  actor: TeamActor,
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
  actor: TeamActor,
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

const CLI_ACTOR: TeamActor = { actorType: "cli", actorId: null };

function userActor(caller: TeamCaller): TeamActor {
  return { actorType: "user", actorId: caller.userId };
}

/**
 * create-team: a member with team:create adds a team to the organization (the given
 * one, else the active one). The creator is not put in it (as in Better Auth).
 */
export async function createTeam(
  deps: TeamDeps,
  caller: TeamCaller,
  input: { name: string; organizationId?: string },
): Promise<TeamRow> {
  const { organization, member } = await accessOrganization(
    deps.sql,
    caller.userId,
    { organizationId: input.organizationId },
    caller.activeOrganizationId,
    // A non-member is told so, as on the other team routes (Better Auth answers an
    // invitation code here, which names the wrong reason).
    { notMember: "YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION" },
  );
  requirePermission(
    deps.config,
    member,
    { team: ["create"] },
    "YOU_ARE_NOT_ALLOWED_TO_CREATE_TEAMS_IN_THIS_ORGANIZATION",
  );
  return createTeamInOrganization(deps, userActor(caller), organization, input.name);
}

/**
 * update-team: only the name is applied. The organization comes from
 * data.organizationId (as in Better Auth), a top-level organizationId, or the active one.
 */
export async function updateTeam(
  deps: TeamDeps,
  caller: TeamCaller,
  input: { teamId: string; name?: string; organizationId?: string },
): Promise<TeamRow> {
  const { organization, member } = await accessOrganization(
    deps.sql,
    caller.userId,
    { organizationId: input.organizationId },
    caller.activeOrganizationId,
    { notMember: "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_TEAM" },
  );
  requirePermission(
    deps.config,
    member,
    { team: ["update"] },
    "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_TEAM",
  );
  const team = await findTeamInOrganization(deps.sql, organization.id, input.teamId);
  if (!team) throw new AuthError("TEAM_NOT_FOUND");
  if (input.name === undefined) return team;
  return renameTeamInOrganization(deps, userActor(caller), organization, team, input.name);
}

/**
 * remove-team: the last team cannot be removed unless removing all teams is
 * allowed; a member cannot remove the team they belong to.
 */
export async function removeTeam(
  deps: TeamDeps,
  caller: TeamCaller,
  input: { teamId: string; organizationId?: string },
): Promise<void> {
  const { organization, member } = await accessOrganization(
    deps.sql,
    caller.userId,
    { organizationId: input.organizationId },
    caller.activeOrganizationId,
    { notMember: "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_TEAM" },
  );
  requirePermission(
    deps.config,
    member,
    { team: ["delete"] },
    "YOU_ARE_NOT_ALLOWED_TO_DELETE_TEAMS_IN_THIS_ORGANIZATION",
  );
  await removeTeamFromOrganization(
    deps,
    userActor(caller),
    organization,
    input.teamId,
    async (tx, team) => {
      // "The team they belong to" is a team they are in, or their active team.
      if (
        caller.activeTeamId === team.id ||
        (await findTeamMember(tx, team.id, caller.userId)) !== undefined
      ) {
        throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_TEAM");
      }
    },
  );
}

/**
 * list-teams: the active organization takes precedence over the query, and a
 * non-member is answered FORBIDDEN. The organization is not looked
 * up on its own, so an unknown id and another tenant's id answer alike.
 */
export async function listTeams(
  deps: TeamDeps,
  caller: TeamCaller,
  input: { organizationId?: string },
): Promise<TeamRow[]> {
  const organizationId = caller.activeOrganizationId ?? input.organizationId;
  if (!organizationId) throw new AuthError("NO_ACTIVE_ORGANIZATION");
  if (!(await findMember(deps.sql, organizationId, caller.userId))) {
    throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_ACCESS_THIS_ORGANIZATION");
  }
  return listTeamsOfOrganization(deps.sql, organizationId);
}

/**
 * add-team-member: a member with member:update puts a member of the organization in
 * one of its teams (idempotent; the team member limit holds under concurrency).
 */
export async function addTeamMember(
  deps: TeamDeps,
  caller: TeamCaller,
  input: { teamId: string; userId: string; organizationId?: string },
): Promise<TeamMemberRow> {
  const { organization, member } = await accessOrganization(
    deps.sql,
    caller.userId,
    { organizationId: input.organizationId },
    caller.activeOrganizationId,
  );
  requirePermission(
    deps.config,
    member,
    { member: ["update"] },
    "YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_TEAM_MEMBER",
  );
  const team = await findTeamInOrganization(deps.sql, organization.id, input.teamId);
  if (!team) throw new AuthError("TEAM_NOT_FOUND");
  return (await addMemberToTeam(deps, userActor(caller), organization, team, input.userId)).member;
}

/**
 * remove-team-member: a member with member:delete takes a user out of a team of the
 * organization. Sessions of that user lose the team as their active team.
 */
export async function removeTeamMember(
  deps: TeamDeps,
  caller: TeamCaller,
  input: { teamId: string; userId: string; organizationId?: string },
): Promise<void> {
  const { organization, member } = await accessOrganization(
    deps.sql,
    caller.userId,
    { organizationId: input.organizationId },
    caller.activeOrganizationId,
  );
  requirePermission(
    deps.config,
    member,
    { member: ["delete"] },
    "YOU_ARE_NOT_ALLOWED_TO_REMOVE_A_TEAM_MEMBER",
  );
  const team = await findTeamInOrganization(deps.sql, organization.id, input.teamId);
  if (!team) throw new AuthError("TEAM_NOT_FOUND");
  await removeMemberFromTeam(deps, userActor(caller), organization, team, input.userId);
}

/**
 * set-active-team: null clears it; no teamId re-affirms the current
 * one; otherwise the team must be in the active organization and the caller in it.
 * Answers the team (or null) and the updated session, whose cache cookie the route
 * rewrites.
 */
export async function setActiveTeam(
  deps: TeamDeps,
  caller: TeamCaller,
  teamId: string | null | undefined,
): Promise<{ team: TeamRow | null; session: SessionRow | null }> {
  if (teamId === null) {
    const session = await setActiveTeamOfSession(deps.sql, caller.sessionId, null);
    return { team: null, session: session ?? null };
  }
  const organizationId = caller.activeOrganizationId;
  if (!organizationId) throw new AuthError("NO_ACTIVE_ORGANIZATION");
  const wanted = teamId ?? caller.activeTeamId;
  if (!wanted) return { team: null, session: null };
  const team = await findTeamInOrganization(deps.sql, organizationId, wanted);
  if (!team) throw new AuthError("TEAM_NOT_FOUND");
  if (!(await findTeamMember(deps.sql, team.id, caller.userId))) {
    // As in Better Auth, this endpoint answers the code with 403, the others with 400.
    throw new AuthError("USER_IS_NOT_A_MEMBER_OF_THE_TEAM", { status: 403 });
  }
  if (team.id === caller.activeTeamId) return { team, session: null };
  const session = await setActiveTeamOfSession(deps.sql, caller.sessionId, team.id);
  return { team, session: session ?? null };
}

/**
 * list-user-teams: the caller's teams, in every organization they belong to or in
 * the given one (403 when they are not its member). Another user's teams (query
 * `userId`) need member:update in that organization and cover only it.
 */
export async function listUserTeams(
  deps: TeamDeps,
  caller: TeamCaller,
  input: { organizationId?: string; userId?: string },
): Promise<TeamRow[]> {
  if (input.userId === undefined || input.userId === caller.userId) {
    if (input.organizationId === undefined) return listTeamsOfUser(deps.sql, caller.userId);
    if (!(await findMember(deps.sql, input.organizationId, caller.userId))) {
      throw new AuthError("YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION");
    }
    return listTeamsOfUser(deps.sql, caller.userId, input.organizationId);
  }
  const organizationId = input.organizationId ?? caller.activeOrganizationId;
  if (!organizationId) throw new AuthError("NO_ACTIVE_ORGANIZATION");
  const member = await findMember(deps.sql, organizationId, caller.userId);
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
  caller: TeamCaller,
  input: { teamId?: string },
): Promise<TeamMemberRow[]> {
  const teamId = input.teamId ?? caller.activeTeamId;
  if (!teamId) throw new AuthError("YOU_DO_NOT_HAVE_AN_ACTIVE_TEAM");
  const team = await findTeamById(deps.sql, teamId);
  if (!team) throw new AuthError("TEAM_NOT_FOUND");
  const member = await findMember(deps.sql, team.organizationId, caller.userId);
  if (!member) throw new AuthError("TEAM_NOT_FOUND");
  if (
    !hasPermission(deps.config, member.role, { member: ["update"] }) &&
    !(await findTeamMember(deps.sql, team.id, caller.userId))
  ) {
    throw new AuthError("USER_IS_NOT_A_MEMBER_OF_THE_TEAM");
  }
  return listTeamMembers(deps.sql, team.id);
}

// --- The operator (`authd org team …`) ----------------------------------------------
// The CLI acts as the operator of the installation, not as a member: these functions
// apply the same rules as the ones above (unique names, maximumTeams, the last team,
// the team member limit, only members of the organization join its teams) without a
// membership or permission check, and audit as actor_type "cli".

/** A team name has 1 to 255 characters (the HTTP body's rule). */
function requireTeamName(name: string): string {
  if (name.length === 0 || name.length > 255) {
    throw new AuthError("VALIDATION_ERROR", { message: "a team name has 1 to 255 characters" });
  }
  return name;
}

/** Every team of the organization, oldest first. */
export async function listTeamsAsOperator(
  sql: Sql,
  organization: OrganizationRow,
): Promise<TeamRow[]> {
  return listTeamsOfOrganization(sql, organization.id);
}

/** A team of the organization by id, else by its name (unique per organization). */
export async function findTeamAsOperator(
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

/** create-team from the CLI: the same rules, audited as the operator. */
export async function createTeamAsOperator(
  deps: TeamDeps,
  organization: OrganizationRow,
  name: string,
): Promise<TeamRow> {
  return createTeamInOrganization(deps, CLI_ACTOR, organization, requireTeamName(name));
}

/** update-team from the CLI: only the name changes. */
export async function renameTeamAsOperator(
  deps: TeamDeps,
  organization: OrganizationRow,
  team: TeamRow,
  name: string,
): Promise<TeamRow> {
  return renameTeamInOrganization(deps, CLI_ACTOR, organization, team, requireTeamName(name));
}

/** remove-team from the CLI: the last team stays unless allowRemovingAllTeams. */
export async function removeTeamAsOperator(
  deps: TeamDeps,
  organization: OrganizationRow,
  team: TeamRow,
): Promise<TeamRow> {
  return removeTeamFromOrganization(deps, CLI_ACTOR, organization, team.id);
}

/** add-team-member from the CLI: `added` says whether the user was new to the team. */
export async function addTeamMemberAsOperator(
  deps: TeamDeps,
  organization: OrganizationRow,
  team: TeamRow,
  userId: string,
): Promise<{ member: TeamMemberRow; added: boolean }> {
  return addMemberToTeam(deps, CLI_ACTOR, organization, team, userId);
}

/**
 * add-team-member from the CLI as one step of a larger write (`org member add --team`):
 * the team member limit is resolved now, before any lock; the answered function puts
 * the user in the team inside the caller's transaction, with the same rules, so a
 * refusal rolls back the caller's writes too.
 */
export async function prepareTeamMemberAsOperator(
  deps: TeamDeps,
  organization: OrganizationRow,
  team: TeamRow,
  userId: string,
): Promise<(tx: TransactionSql) => Promise<{ member: TeamMemberRow; added: boolean }>> {
  const maximum = await teamMemberLimit(deps, CLI_ACTOR, organization, team, userId);
  return (tx) => joinTeam(tx, CLI_ACTOR, organization, team, userId, maximum);
}

/** remove-team-member from the CLI. */
export async function removeTeamMemberAsOperator(
  deps: TeamDeps,
  organization: OrganizationRow,
  team: TeamRow,
  userId: string,
): Promise<void> {
  await removeMemberFromTeam(deps, CLI_ACTOR, organization, team, userId);
}
