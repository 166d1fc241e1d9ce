/** Every SQL statement that writes the team and team_member tables. */
import { columns, columnsOf, type Fragment } from "../db/columns.js";
import type { Queryable } from "../db/connection.js";
import { keysReader, rowCounter, rowReader } from "../db/readers.js";

export interface TeamRow {
  id: string;
  name: string;
  organizationId: string;
  createdAt: Date;
  updatedAt: Date | null;
}

export interface TeamMemberRow {
  id: string;
  teamId: string;
  userId: string;
  createdAt: Date;
}

const TEAM_COLUMNS = columnsOf<TeamRow>()([
  "id",
  "name",
  "organizationId",
  "createdAt",
  "updatedAt",
]);

const TEAM_MEMBER_COLUMNS = columnsOf<TeamMemberRow>()(["id", "teamId", "userId", "createdAt"]);

export async function insertTeam(
  sql: Queryable,
  team: Pick<TeamRow, "id" | "name" | "organizationId">,
): Promise<TeamRow> {
  const [row] = await sql<TeamRow[]>`
    insert into team (id, name, organization_id, updated_at)
    values (${team.id}, ${team.name}, ${team.organizationId}, now())
    returning ${columns(sql, TEAM_COLUMNS)}`;
  if (!row) throw new Error("insert into team returned no row");
  return row;
}

const selectTeam = rowReader<TeamRow>("team", TEAM_COLUMNS);
const selectTeamMember = rowReader<TeamMemberRow>("team_member", TEAM_MEMBER_COLUMNS);
const countTeamRows = rowCounter("team");
const countTeamMemberRows = rowCounter("team_member");

/** The team only if it belongs to the organization (tenant isolation). */
function teamInOrganization(sql: Queryable, organizationId: string, teamId: string): Fragment {
  return sql`id = ${teamId} and organization_id = ${organizationId}`;
}

/** A team only if it belongs to the organization (tenant isolation). */
export async function findTeamInOrganization(
  sql: Queryable,
  organizationId: string,
  teamId: string,
): Promise<TeamRow | undefined> {
  return selectTeam(sql, teamInOrganization(sql, organizationId, teamId));
}

/** A team by id alone; callers then prove the caller belongs to its organization. */
export async function findTeamById(sql: Queryable, teamId: string): Promise<TeamRow | undefined> {
  return selectTeam(sql, sql`id = ${teamId}`);
}

/** Locks the team row: its member limit is counted under this lock. */
export async function lockTeam(
  sql: Queryable,
  organizationId: string,
  teamId: string,
): Promise<TeamRow | undefined> {
  return selectTeam(sql, teamInOrganization(sql, organizationId, teamId), sql`for update`);
}

export async function listTeamsOfOrganization(
  sql: Queryable,
  organizationId: string,
): Promise<TeamRow[]> {
  return sql<TeamRow[]>`
    select ${columns(sql, TEAM_COLUMNS)} from team
    where organization_id = ${organizationId} order by created_at, id`;
}

export function countTeams(sql: Queryable, organizationId: string): Promise<number> {
  return countTeamRows(sql, sql`organization_id = ${organizationId}`);
}

export async function renameTeam(
  sql: Queryable,
  teamId: string,
  name: string,
): Promise<TeamRow | undefined> {
  const [row] = await sql<TeamRow[]>`
    update team set name = ${name}, updated_at = now()
    where id = ${teamId} returning ${columns(sql, TEAM_COLUMNS)}`;
  return row;
}

export async function deleteTeamRow(sql: Queryable, teamId: string): Promise<TeamRow | undefined> {
  const [row] = await sql<
    TeamRow[]
  >`delete from team where id = ${teamId} returning ${columns(sql, TEAM_COLUMNS)}`;
  return row;
}

/** Adds a user to a team; adding someone already in it answers the existing row. */
export async function insertTeamMember(
  sql: Queryable,
  member: Pick<TeamMemberRow, "id" | "teamId" | "userId">,
): Promise<TeamMemberRow> {
  const [row] = await sql<TeamMemberRow[]>`
    insert into team_member (id, team_id, user_id)
    values (${member.id}, ${member.teamId}, ${member.userId})
    on conflict (team_id, user_id) do update set team_id = excluded.team_id
    returning ${columns(sql, TEAM_MEMBER_COLUMNS)}`;
  if (!row) throw new Error("insert into team_member returned no row");
  return row;
}

export function findTeamMember(
  sql: Queryable,
  teamId: string,
  userId: string,
): Promise<TeamMemberRow | undefined> {
  return selectTeamMember(sql, sql`team_id = ${teamId} and user_id = ${userId}`);
}

export function countTeamMembers(sql: Queryable, teamId: string): Promise<number> {
  return countTeamMemberRows(sql, sql`team_id = ${teamId}`);
}

export async function listTeamMembers(sql: Queryable, teamId: string): Promise<TeamMemberRow[]> {
  return sql<TeamMemberRow[]>`
    select ${columns(sql, TEAM_MEMBER_COLUMNS)} from team_member
    where team_id = ${teamId} order by created_at, id`;
}

export async function deleteTeamMember(
  sql: Queryable,
  teamId: string,
  userId: string,
): Promise<boolean> {
  const rows = await sql`delete from team_member where team_id = ${teamId} and user_id = ${userId}`;
  return rows.count > 0;
}

/** Leaving an organization leaves its teams too. */
export async function deleteTeamMembershipsInOrganization(
  sql: Queryable,
  organizationId: string,
  userId: string,
): Promise<void> {
  await sql`
    delete from team_member tm using team t
    where tm.team_id = t.id and t.organization_id = ${organizationId} and tm.user_id = ${userId}`;
}

/**
 * Teams of a user, optionally within one organization; only in organizations the user
 * is still a member of, so a stray team row never shows another tenant's team.
 */
export async function listTeamsOfUser(
  sql: Queryable,
  userId: string,
  organizationId?: string,
): Promise<TeamRow[]> {
  return sql<TeamRow[]>`
    select ${columns(sql, TEAM_COLUMNS, "t")} from team t
    join team_member tm on tm.team_id = t.id
    join member m on m.organization_id = t.organization_id and m.user_id = tm.user_id
    where tm.user_id = ${userId}
      and (${organizationId ?? null}::text is null or t.organization_id = ${organizationId ?? null})
    order by t.created_at, t.id`;
}

/** The teams of these organizations. */
export const listTeamsOfOrganizations = keysReader<TeamRow>(
  "team",
  TEAM_COLUMNS,
  "organization_id",
);

/** The memberships of these teams. */
export const listMembersOfTeams = keysReader<TeamMemberRow>(
  "team_member",
  TEAM_MEMBER_COLUMNS,
  "team_id",
);

/** One multi-row INSERT (callers keep batches to a few hundred rows). */
export async function insertTeamMembers(
  sql: Queryable,
  members: Array<Pick<TeamMemberRow, "id" | "teamId" | "userId">>,
): Promise<void> {
  if (members.length === 0) return;
  const rows = members.map((member) => ({ ...member }));
  await sql`insert into team_member ${sql(rows, "id", "teamId", "userId")}`;
}

/**
 * One multi-row INSERT of teams brought from another system, with their ids and dates;
 * a row whose id, or whose name in that organization, is already taken is left out.
 * Answers the ids that went in.
 */
export async function insertMigratedTeams(sql: Queryable, teams: TeamRow[]): Promise<string[]> {
  if (teams.length === 0) return [];
  const rows = teams.map((team) => ({
    ...team,
    createdAt: team.createdAt.toISOString(),
    updatedAt: team.updatedAt?.toISOString() ?? null,
  }));
  const values = sql(rows, "id", "name", "organizationId", "createdAt", "updatedAt");
  const inserted = await sql<Array<{ id: string }>>`
    insert into team ${values} on conflict do nothing returning id`;
  return inserted.map((row) => row.id);
}

/** Which of these ids are teams (an import's "already there"). */
export const findTeamIds = keysReader<{ id: string }>(
  "team",
  columnsOf<{ id: string }>()(["id"]),
  "id",
);

/**
 * One multi-row INSERT of team memberships brought from another system; a row whose id,
 * or whose user in that team, is already there is left out. Answers the ids that went in.
 */
export async function insertMigratedTeamMembers(
  sql: Queryable,
  members: TeamMemberRow[],
): Promise<string[]> {
  if (members.length === 0) return [];
  const rows = members.map((member) => ({ ...member, createdAt: member.createdAt.toISOString() }));
  const values = sql(rows, "id", "teamId", "userId", "createdAt");
  const inserted = await sql<Array<{ id: string }>>`
    insert into team_member ${values} on conflict do nothing returning id`;
  return inserted.map((row) => row.id);
}

/** Which of these ids are team memberships (an import's "already there"). */
export const findTeamMemberIds = keysReader<{ id: string }>(
  "team_member",
  columnsOf<{ id: string }>()(["id"]),
  "id",
);
