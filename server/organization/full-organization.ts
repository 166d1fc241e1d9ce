/**
 * get-full-organization in one round trip whatever the organization's size: the
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
import type { Fragment } from "../db/columns.js";
import type { Queryable } from "../db/connection.js";
import { compactJson, isoTimestamp } from "../db/json.js";
import { splitRoles } from "../role-list.js";
import { type SessionRider, sessionRider } from "../sessions/sessions.js";
import type { AnswerCache } from "./answer-cache.js";
import { hasPermission, rolesOf } from "./permissions.js";

interface FullOrganizationParameters {
  organizationId: string | null;
  slug: string | null;
  userId: string;
  membersLimit: number;
  invitingRoles: readonly string[];
  creatorRole: string;
  invitationsLimit: number;
  teamsEnabled: boolean;
}

/** The statement that builds the answer; its text is the same for every call (prepared once). */
function fullOrganization(sql: Queryable, p: FullOrganizationParameters) {
  const iso = (column: Fragment) => isoTimestamp(sql, column);
  return sql<
    {
      found: boolean;
      id: string | null;
      memberRole: string | null;
      version: string | null;
      body: string | null;
    }[]
  >`
  with o as (
    select id, name, slug, logo, metadata, created_at, content_version from organization
    where (${p.organizationId}::text is not null and id = ${p.organizationId})
       or (${p.organizationId}::text is null and slug = ${p.slug})
  ), me as (
    select m.role from member m join o on m.organization_id = o.id where m.user_id = ${p.userId}
  )
  select
    exists (select 1 from o) as found,
    (select role from me) as member_role,
    (select id from o) as id,
    (select content_version from o) as version,
    (select json_build_object(
      'id', o.id, 'name', o.name, 'slug', o.slug, 'logo', o.logo, 'metadata', o.metadata,
      'createdAt', ${iso(sql`o.created_at`)},
      'members', coalesce((
        select json_agg(json_build_object(
          'id', p.id, 'organizationId', p.organization_id, 'userId', p.user_id,
          'role', p.role, 'createdAt', ${iso(sql`p.created_at`)},
          'user', json_build_object('id', p.user_id, 'name', p.name, 'email', p.email,
                                    'image', p.image)
        ) order by p.created_at, p.id)
        from (
          select m.id, m.organization_id, m.user_id, m.role, m.created_at,
                 u.name, u.email, u.image
          from member m join "user" u on u.id = m.user_id
          where m.organization_id = o.id
          order by m.created_at, m.id
          limit ${p.membersLimit}
        ) p
      ), '[]'::json),
      'membersTotal', (select count(*)::int from member where organization_id = o.id),
      'invitations', coalesce((
        select json_agg(json_build_object(
          'id', i.id, 'organizationId', i.organization_id, 'email', i.email, 'role', i.role,
          'status', i.status, 'teamId', i.team_id, 'inviterId', i.inviter_id,
          'expiresAt', ${iso(sql`i.expires_at`)}, 'createdAt', ${iso(sql`i.created_at`)}
        ) order by i.created_at, i.id)
        from (
          select id, organization_id, email, role, status, team_id, inviter_id, expires_at,
                 created_at
          from invitation
          where organization_id = o.id and status = 'pending'
            and string_to_array((select role from me), ',') && ${p.invitingRoles}::text[]
            and (${p.creatorRole} = any(string_to_array((select role from me), ','))
                 or not (${p.creatorRole} = any(string_to_array(role, ','))))
          order by created_at, id
          limit ${p.invitationsLimit}
        ) i
      ), '[]'::json),
      'teams', case when ${p.teamsEnabled} then coalesce((
        select json_agg(json_build_object(
          'id', t.id, 'name', t.name, 'organizationId', t.organization_id,
          'createdAt', ${iso(sql`t.created_at`)},
          'updatedAt', case when t.updated_at is null then null else ${iso(sql`t.updated_at`)} end
        ) order by t.created_at, t.id)
        from team t where t.organization_id = o.id
      ), '[]'::json) else null end
    )::text from o where exists (select 1 from me)) as body`;
}

/**
 * The roles (of this configuration) whose holders see pending invitations: worked out
 * once per app (organizationRoutes) and handed in with the answer cache.
 */
export function invitingRolesOf(config: AuthdConfig): string[] {
  return Object.keys(rolesOf(config)).filter((role) =>
    hasPermission(config, role, { invitation: ["create"] }),
  );
}

export type FullOrganizationResult =
  | { kind: "not-found" }
  | { kind: "not-member" }
  | { kind: "found"; body: string };

/** What decides whether a built answer can be sent: the organization's content version. */
export interface OrganizationVersion {
  id: string;
  version: string;
  /** The caller's role in it; null when the caller is not a member. */
  memberRole: string | null;
}

/**
 * The check that comes first, answered in the session lookup's own statement (one
 * round trip): the organization's content version and the caller's role, by key and
 * unique-index lookups. The organization is the caller's `organizationId`, else its
 * `slug`, else the session's active organization.
 */
export const ORGANIZATION_VERSION_FOR_CALLER: SessionRider = sessionRider(
  ["organizationId", "slug"],
  (sql, { organizationId, slug }) => sql`
    select array[o.id, o.content_version::text, m.role]
    from organization o
    left join member m on m.organization_id = o.id and m.user_id = s.user_id
    where o.id = case
      when ${organizationId} is not null then ${organizationId}
      when ${slug} is not null then (select id from organization where slug = ${slug})
      else s.active_organization_id end`,
);

/** The rider's value as an OrganizationVersion; null when no organization matched. */
export function organizationVersionOf(value: (string | null)[] | null): OrganizationVersion | null {
  const [id, version, memberRole] = value ?? [];
  return id && version ? { id, version, memberRole: memberRole ?? null } : null;
}

/** Which invitations a role sees: none, all but the creator role's, or all. */
function invitationView(config: AuthdConfig, inviting: readonly string[], role: string): string {
  const roles = splitRoles(role);
  if (!roles.some((name) => inviting.includes(name))) return "none";
  return roles.includes(config.organization.creatorRole) ? "all" : "no-creator";
}

/**
 * The answer as JSON text. `cache.current` (ORGANIZATION_VERSION_FOR_CALLER, read with
 * the session) decides first: unknown organization, not a member, or a built answer of
 * that version sent as it is; otherwise one statement builds it.
 */
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
  cache: {
    entries: AnswerCache;
    current: OrganizationVersion | null;
    /** invitingRolesOf(config), worked out once per app. */
    invitingRoles: readonly string[];
  },
): Promise<FullOrganizationResult> {
  const invitationsLimit = input.invitationsLimit ?? 100;
  // What shapes an answer besides the version: the page sizes and what the role sees.
  const keyOf = (id: string, version: string, memberRole: string) =>
    `${id}:${version}:${input.membersLimit}:${invitationsLimit}:${invitationView(config, cache.invitingRoles, memberRole)}`;
  const { current } = cache;
  if (!current) return { kind: "not-found" };
  if (current.memberRole === null) return { kind: "not-member" };
  const cached = cache.entries.get(keyOf(current.id, current.version, current.memberRole));
  if (cached !== undefined) return { kind: "found", body: cached };
  const [row] = await fullOrganization(sql, {
    organizationId: input.organizationId ?? null,
    slug: input.slug ?? null,
    userId: input.userId,
    membersLimit: input.membersLimit,
    invitingRoles: cache.invitingRoles,
    creatorRole: config.organization.creatorRole,
    invitationsLimit,
    teamsEnabled: config.organization.teams.enabled,
  });
  if (!row?.found) return { kind: "not-found" };
  if (row.memberRole === null || row.body === null) return { kind: "not-member" };
  const body = compactJson(row.body);
  if (row.version !== null && row.id !== null) {
    // Keyed by the version read in the same statement as the answer: never newer
    // content under an older version, nor the reverse.
    cache.entries.set(keyOf(row.id, row.version, row.memberRole), body);
  }
  return { kind: "found", body };
}
