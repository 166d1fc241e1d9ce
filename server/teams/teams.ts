/**
 * Teams: create, update, remove and list teams of an organization (their members are in
 * team-members.ts). Every call first proves the caller belongs to the organization the
 * team is in (tenant isolation), and the team limit is counted under the organization's
 * row lock so concurrent creates cannot exceed it.
 */
import type { Actor } from "../actor.js";
import type { AuthdConfig } from "../config.js";
import { generateId } from "../crypto/random.js";
import type { Sql, TransactionSql } from "../db/connection.js";
import { isUniqueViolation, transaction } from "../db/transaction.js";
import { AuthError } from "../errors.js";
import { findMember, lockOrganization } from "../organization/access.js";
import type { TeamsOfOrganizations } from "../organization/organization.js";
import type { OrganizationRow } from "../organization/queries.js";
import {
  auditTeam,
  organizationFor,
  requireTeam,
  resolveLimit,
  type TeamDeps,
  teamFor,
} from "./access.js";
import {
  countTeams,
  deleteTeamMembershipsInOrganization,
  deleteTeamRow,
  findTeamInOrganization,
  findTeamMember,
  insertTeam,
  insertTeamMember,
  listTeamsOfOrganization,
  renameTeam,
  type TeamMemberRow,
  type TeamRow,
} from "./queries.js";
import { prepareTeamMember } from "./team-members.js";

const TEAM_NAME_INDEX = "team_organization_name_key";

/** The dependencies and the invitations port, named where the team domain is built. */
export type { InvitationsOfTeams, TeamDeps } from "./access.js";
/** The organization's team, or TEAM_NOT_FOUND, as invitations name teams too. */
export { requireTeam } from "./access.js";
/** The team reads, locks and writes invitations use inside their transactions. */
export {
  countTeamMembers,
  findTeamIds,
  findTeamInOrganization,
  findTeamMember,
  findTeamMemberIds,
  insertMigratedTeamMembers,
  insertMigratedTeams,
  insertTeam,
  insertTeamMember,
  insertTeamMembers,
  listMembersOfTeams,
  listTeamsOfOrganizations,
  lockTeam,
} from "./queries.js";

export interface TeamResponse {
  id: string;
  name: string;
  organizationId: string;
  createdAt: Date;
  updatedAt: Date | null;
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

/** Locks the team's organization (gone meanwhile: ORGANIZATION_NOT_FOUND). */
async function lockOrganizationOf(tx: TransactionSql, organization: OrganizationRow) {
  if (!(await lockOrganization(tx, organization.id))) {
    throw new AuthError("ORGANIZATION_NOT_FOUND");
  }
}

/**
 * A transaction that writes a team's name: a name taken in the organization is
 * TEAM_ALREADY_EXISTS.
 */
async function namingTeam<T>(sql: Sql, work: (tx: TransactionSql) => Promise<T>): Promise<T> {
  try {
    return await transaction(sql, work);
  } catch (error) {
    if (isUniqueViolation(error, TEAM_NAME_INDEX)) throw new AuthError("TEAM_ALREADY_EXISTS");
    throw error;
  }
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
  return namingTeam(deps.sql, async (tx) => {
    // Team limit: creates in one organization queue on its row, so the count holds.
    await lockOrganizationOf(tx, organization);
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
}

/** Only the name changes; a name taken in the organization is TEAM_ALREADY_EXISTS. */
async function renameTeamInOrganization(
  deps: TeamDeps,
  actor: Actor,
  organization: OrganizationRow,
  team: TeamRow,
  name: string,
): Promise<TeamRow> {
  return namingTeam(deps.sql, async (tx) => {
    // The organization before the team, the lock order of every writer of its rows.
    await lockOrganizationOf(tx, organization);
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
    await lockOrganizationOf(tx, organization);
    const team = await requireTeam(tx, organization.id, teamId);
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

/** The longest team name, in characters (the HTTP body's schema uses it too). */
export const TEAM_NAME_MAX_LENGTH = 255;

/** A team name has 1 to TEAM_NAME_MAX_LENGTH characters, however it is written. */
export function requireTeamName(name: string): string {
  if (name.length === 0 || name.length > TEAM_NAME_MAX_LENGTH) {
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
  const { organization, team } = await teamFor(deps, actor, input, {
    notMember: "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_TEAM",
    permission: { team: ["update"] },
    denied: "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_TEAM",
  });
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
