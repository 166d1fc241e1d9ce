/**
 * What every team operation shares: its dependencies, the invitations port, the team
 * limits, the audit record, the organization an actor may act on and its team by id.
 * Kept apart so team and team-member operations can both use it without importing
 * each other.
 */
import { type Actor, auditActorOf } from "../actor.js";
import { recordAuditEvent } from "../audit/audit.js";
import type { AuthdConfig } from "../config.js";
import type { Queryable, Sql, TransactionSql } from "../db/connection.js";
import { AuthError, type ErrorCode } from "../errors.js";
import { organizationOfActor } from "../organization/access.js";
import type { PermissionRequest } from "../organization/permissions.js";
import type { OrganizationRow } from "../organization/queries.js";
import { findTeamInOrganization, type TeamRow } from "./queries.js";

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

type LimitSetting = AuthdConfig["organization"]["teams"]["maximumTeams"];

/**
 * A team limit: unset is unlimited; a function gets what better-auth passes (ids) plus
 * the rows. It is called before any lock is taken, so a slow one holds no row.
 */
export async function resolveLimit(
  name: string,
  setting: LimitSetting,
  data: object,
): Promise<number> {
  if (setting === undefined) return Number.POSITIVE_INFINITY;
  if (typeof setting === "number") return setting;
  const value = await setting(data);
  if (typeof value !== "number" || Number.isNaN(value) || value < 0) {
    throw new Error(`organization.teams.${name} must return a number of at least 0`);
  }
  return value;
}

export async function auditTeam(
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
 * The organization a team operation is about. A user must be a member (`notMember`
 * otherwise) and hold `permission` (`denied` otherwise); the operator is neither checked
 * nor a member.
 */
export function organizationFor(
  deps: TeamDeps,
  actor: Actor,
  organizationId: string | undefined,
  rule: AccessRule,
): Promise<OrganizationRow> {
  return organizationOfActor(deps.sql, deps.config, actor, { organizationId }, rule).then(
    (access) => access.organization,
  );
}

/** Who may act on an organization in one operation, and the codes of those who may not. */
type AccessRule = { notMember?: ErrorCode; permission: PermissionRequest; denied: ErrorCode };

/**
 * The team `input` names, in the organization the actor may act on under `rule`
 * (organizationFor); a team of another organization is TEAM_NOT_FOUND.
 */
export async function teamFor(
  deps: TeamDeps,
  actor: Actor,
  input: { teamId: string; organizationId?: string },
  rule: AccessRule,
): Promise<{ organization: OrganizationRow; team: TeamRow }> {
  const organization = await organizationFor(deps, actor, input.organizationId, rule);
  return { organization, team: await requireTeam(deps.sql, organization.id, input.teamId) };
}

/** The organization's team by id: one of another organization, or none, is TEAM_NOT_FOUND. */
export async function requireTeam(
  sql: Queryable,
  organizationId: string,
  teamId: string,
): Promise<TeamRow> {
  const team = await findTeamInOrganization(sql, organizationId, teamId);
  if (!team) throw new AuthError("TEAM_NOT_FOUND");
  return team;
}
