/**
 * get-full-organization in one round trip (issue 4 point 7 and its benchmark): the
 * organization, the caller's membership, the first page of members with their users,
 * the members' total, the pending invitations the caller may see and the teams, built
 * by PostgreSQL as one JSON text that is sent as it is. Parsing some fifty rows and
 * serializing them again cost most of this endpoint's time (bench/README.md).
 *
 * The wire shape is the one of organizationResponse, memberWithUserResponse,
 * invitationResponse and teamResponse; tests/server/organizations.test.ts compares the
 * two paths. Who may see invitations is still decided by hasPermission: the roles that
 * grant `invitation:create` are computed from the configuration and passed in.
 */
import type { AuthdConfig } from "../config.js";
import type { Queryable } from "../db/connection.js";
import { hasPermission, rolesOf } from "./permissions.js";

/** JavaScript's Date#toISOString, in SQL (milliseconds, UTC, `Z`). */
const iso = (column: string) =>
  `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const FULL_ORGANIZATION_SQL = `
  with o as (
    select * from organization
    where ($1::text is not null and id = $1) or ($1::text is null and slug = $2)
  ), me as (
    select m.role from member m join o on m.organization_id = o.id where m.user_id = $3
  )
  select
    exists (select 1 from o) as found,
    (select role from me) as member_role,
    (select json_build_object(
      'id', o.id, 'name', o.name, 'slug', o.slug, 'logo', o.logo, 'metadata', o.metadata,
      'createdAt', ${iso("o.created_at")},
      'members', coalesce((
        select json_agg(json_build_object(
          'id', p.id, 'organizationId', p.organization_id, 'userId', p.user_id,
          'role', p.role, 'createdAt', ${iso("p.created_at")},
          'user', json_build_object('id', p.user_id, 'name', p.name, 'email', p.email,
                                    'image', p.image)
        ) order by p.created_at, p.id)
        from (
          select m.id, m.organization_id, m.user_id, m.role, m.created_at,
                 u.name, u.email, u.image
          from member m join "user" u on u.id = m.user_id
          where m.organization_id = o.id
          order by m.created_at, m.id
          limit $4
        ) p
      ), '[]'::json),
      'membersTotal', (select count(*)::int from member where organization_id = o.id),
      'invitations', coalesce((
        select json_agg(json_build_object(
          'id', i.id, 'organizationId', i.organization_id, 'email', i.email, 'role', i.role,
          'status', i.status, 'teamId', i.team_id, 'inviterId', i.inviter_id,
          'expiresAt', ${iso("i.expires_at")}, 'createdAt', ${iso("i.created_at")}
        ) order by i.created_at, i.id)
        from (
          select * from invitation
          where organization_id = o.id and status = 'pending'
            and string_to_array((select role from me), ',') && $5::text[]
            and ($6 = any(string_to_array((select role from me), ','))
                 or not ($6 = any(string_to_array(role, ','))))
          order by created_at, id
          limit $7
        ) i
      ), '[]'::json),
      'teams', case when $8 then coalesce((
        select json_agg(json_build_object(
          'id', t.id, 'name', t.name, 'organizationId', t.organization_id,
          'createdAt', ${iso("t.created_at")},
          'updatedAt', case when t.updated_at is null then null else ${iso("t.updated_at")} end
        ) order by t.created_at, t.id)
        from team t where t.organization_id = o.id
      ), '[]'::json) else null end
    )::text from o where exists (select 1 from me)) as body`;

/** The roles (of this configuration) whose holders see pending invitations. */
const invitingRolesCache = new WeakMap<AuthdConfig, string[]>();
function invitingRoles(config: AuthdConfig): string[] {
  let roles = invitingRolesCache.get(config);
  if (!roles) {
    roles = Object.keys(rolesOf(config)).filter((role) =>
      hasPermission(config, role, { invitation: ["create"] }),
    );
    invitingRolesCache.set(config, roles);
  }
  return roles;
}

export type FullOrganizationResult =
  | { kind: "not-found" }
  | { kind: "not-member" }
  | { kind: "found"; body: string };

export async function findFullOrganizationJson(
  sql: Queryable,
  config: AuthdConfig,
  input: {
    userId: string;
    organizationId?: string;
    slug?: string;
    membersLimit: number;
    invitationsLimit?: number;
  },
): Promise<FullOrganizationResult> {
  const [row] = await sql.unsafe<
    { found: boolean; memberRole: string | null; body: string | null }[]
  >(
    FULL_ORGANIZATION_SQL,
    [
      input.organizationId ?? null,
      input.slug ?? null,
      input.userId,
      input.membersLimit,
      invitingRoles(config),
      config.organization.creatorRole,
      input.invitationsLimit ?? 100,
      config.organization.teams.enabled,
    ],
    { prepare: true },
  );
  if (!row?.found) return { kind: "not-found" };
  if (row.memberRole === null || row.body === null) return { kind: "not-member" };
  return { kind: "found", body: row.body };
}
