/**
 * The organization and team domains wired to one another for one pool:
 * teams sit above organizations and invitations above both, and where a lower domain
 * must act on a higher one's table in the same transaction (a new organization's
 * default team, a removed team in pending invitations) it calls what is given here.
 * buildApp makes one set per app; a CLI command makes its own.
 */
import type { AuthdConfig } from "./config.js";
import type { Sql } from "./db/connection.js";
import { invitationsOfTeams } from "./invitations/invitations.js";
import type { OrganizationDeps } from "./organization/deps.js";
import { createOrganizationCreations } from "./organization/organization.js";
import { type TeamDeps, teamsOfOrganizations } from "./teams/teams.js";

export interface Domains {
  organizations: OrganizationDeps;
  teams: TeamDeps;
}

export function createDomains(sql: Sql, config: AuthdConfig): Domains {
  const teams: TeamDeps = { sql, config, invitations: invitationsOfTeams };
  return {
    teams,
    organizations: {
      sql,
      config,
      teams: teamsOfOrganizations(teams),
      creations: createOrganizationCreations(sql),
    },
  };
}
