/**
 * What deleting an organization takes with it (`authd org delete --dry-run` shows
 * this blast radius). Members, invitations, teams and
 * team memberships go by cascade; sessions stay but lose it as their active
 * organization (and team), so those are counted apart.
 */
import type { Queryable } from "../db/connection.js";

export interface OrganizationBlastRadius {
  /** Rows deleted with the organization. */
  wouldRemove: { members: number; invitations: number; teams: number; teamMembers: number };
  /** Unexpired sessions whose active organization it is: they go on without one. */
  activeSessions: number;
}

export async function organizationBlastRadius(
  sql: Queryable,
  organizationId: string,
): Promise<OrganizationBlastRadius> {
  const [row] = await sql<
    {
      members: number;
      invitations: number;
      teams: number;
      teamMembers: number;
      activeSessions: number;
    }[]
  >`
    select
      (select count(*)::int from member where organization_id = ${organizationId}) as members,
      (select count(*)::int from invitation where organization_id = ${organizationId})
        as invitations,
      (select count(*)::int from team where organization_id = ${organizationId}) as teams,
      (select count(*)::int from team_member tm join team t on t.id = tm.team_id
        where t.organization_id = ${organizationId}) as team_members,
      (select count(*)::int from session
        where active_organization_id = ${organizationId} and expires_at > now())
        as active_sessions`;
  if (!row) throw new Error("organization blast radius query returned no row");
  const { activeSessions, ...wouldRemove } = row;
  return { wouldRemove, activeSessions };
}
