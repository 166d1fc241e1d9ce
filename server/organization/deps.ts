/**
 * What the organization rules are given when the app or a command is built: the pool,
 * the configuration, the teams port and the batched creations.
 */
import type { Actor } from "../actor.js";
import type { AuthdConfig } from "../config.js";
import type { Queryable, Sql, TransactionSql } from "../db/connection.js";
import type { TeamMemberRow } from "../teams/queries.js";
import type { OrganizationCreations, OrganizationRow } from "./queries.js";

/**
 * What organizations need from teams, which sit above them (a team belongs to an
 * organization): given when the app or a command is built, so neither imports the
 * other both ways. Each runs inside the caller's transaction.
 */
export interface TeamsOfOrganizations {
  /** Whether a new organization gets a default team. */
  defaultTeamEnabled(config: AuthdConfig): boolean;
  /** The default team of a new organization, with its creator in it; answers its id. */
  createDefaultTeam(
    tx: TransactionSql,
    organization: OrganizationRow,
    userId: string,
  ): Promise<string>;
  /** A membership that ends takes the user's team memberships in the organization along. */
  removeFromTeams(tx: Queryable, organizationId: string, userId: string): Promise<void>;
  /**
   * Adding a member straight into a team: the team's rules are resolved now (before any
   * lock), and the answered step joins the team inside the caller's transaction.
   */
  prepareJoin(
    actor: Actor,
    organization: OrganizationRow,
    teamId: string,
    userId: string,
  ): Promise<(tx: TransactionSql) => Promise<TeamMemberRow>>;
}

export interface OrganizationDeps {
  sql: Sql;
  config: AuthdConfig;
  teams: TeamsOfOrganizations;
  /** Plain creations are batched here: the app's own, or one of the command's. */
  creations: OrganizationCreations;
}
