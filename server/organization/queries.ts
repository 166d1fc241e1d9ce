/**
 * Every SQL statement that writes the organization table, and the one statement that
 * creates organizations with their owners' memberships. The member table's own
 * statements are in member-queries.ts.
 */
import type { NewAuditEvent } from "../audit/queries.js";
import { Batcher } from "../db/batcher.js";
import { columns, columnsOf, type Fragment, fixedFragment } from "../db/columns.js";
import type { Queryable, Sql } from "../db/connection.js";
import { compactJson, organizationJson } from "../db/json.js";
import { keysReader, rowReader } from "../db/readers.js";
import { type SessionRider, sessionRider } from "../sessions/sessions.js";
import { MEMBER_COLUMNS, type MemberRow } from "./member-queries.js";

/** The membership row types, where other domains have always found them. */
export type { MemberRow, MemberWithUser } from "./member-queries.js";

export interface OrganizationRow {
  id: string;
  name: string;
  slug: string;
  logo: string | null;
  metadata: Record<string, unknown> | null;
  createdAt: Date;
  updatedAt: Date;
}

const ORGANIZATION_COLUMNS = columnsOf<OrganizationRow>()([
  "id",
  "name",
  "slug",
  "logo",
  "metadata",
  "createdAt",
  "updatedAt",
]);

export async function insertOrganization(
  sql: Queryable,
  organization: Pick<OrganizationRow, "id" | "name" | "slug" | "logo" | "metadata">,
): Promise<OrganizationRow> {
  const [row] = await sql<OrganizationRow[]>`
    insert into organization (id, name, slug, logo, metadata)
    values (${organization.id}, ${organization.name}, ${organization.slug}, ${organization.logo},
            ${organization.metadata === null ? null : sql.json(organization.metadata as never)})
    returning ${columns(sql, ORGANIZATION_COLUMNS)}`;
  if (!row) throw new Error("insert into organization returned no row");
  return row;
}

type NewOrganization = Pick<OrganizationRow, "id" | "name" | "slug" | "logo" | "metadata">;
type NewOwner = Pick<MemberRow, "id" | "userId" | "role">;
type CreatedRow = OrganizationRow & { member: MemberRow };
/** A created organization with its owner's membership; undefined: the slug is taken. */
type Creation = { organization: OrganizationRow; member: MemberRow } | undefined;

function createdOf(row: CreatedRow): { organization: OrganizationRow; member: MemberRow } {
  const { member, ...organization } = row;
  return {
    organization,
    member: { ...member, createdAt: new Date(member.createdAt as unknown as string) },
  };
}

/** One organization to create, with its creator's membership and its audit row. */
export interface OrganizationCreation {
  organization: NewOrganization;
  member: NewOwner;
  audit: NewAuditEvent;
  /** The session that switches to the new organization, if any. */
  activeForSession: string | null;
}

/**
 * Creates on the plain path, batched with concurrent ones (server/db/batcher.ts): the
 * organization, its creator's membership, the audit row and the session's switch land
 * together, in one statement per batch. Answers undefined when the slug is taken
 * (then nothing of this creation is written). Creations are independent: one that
 * fails for its own reason (a user deleted meanwhile) is retried alone so that only its
 * caller sees the error.
 */
export interface OrganizationCreations {
  create(creation: OrganizationCreation): Promise<Creation>;
}

/**
 * The parts of a creation's statement that write other domains' tables, given by those
 * domains (the audit trail, the session's switch), so each table keeps one owner.
 */
export interface CreationSteps {
  recordAudit(sql: Queryable, events: Fragment): Fragment;
  activate(sql: Queryable, switches: Fragment): Fragment;
}

/** The batched creations of one connection pool; made by whoever owns the pool (buildApp). */
export function batchedOrganizationCreations(
  sql: Sql,
  steps: CreationSteps,
): OrganizationCreations {
  const batcher = new Batcher<OrganizationCreation, Creation>({
    // One statement at a time: batches are then as large as the load makes them, and
    // PostgreSQL's cost per creation is lowest (bench/README.md: two in flight gave
    // 5% fewer creates per second on two cores; a batch of 100 takes ~8 ms).
    maxInFlight: 1,
    run: async (creations) => {
      try {
        return await insertOrganizationsWithOwners(sql, creations, steps);
      } catch (error) {
        if (creations.length === 1) throw error;
        // Nothing of the batch was written: each alone, so each gets its own outcome.
        return Promise.all(
          creations.map((creation) =>
            insertOrganizationsWithOwners(sql, [creation], steps).then(
              ([outcome]) => outcome,
              (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
            ),
          ),
        );
      }
    },
  });
  return { create: (creation) => batcher.load(creation) };
}

/**
 * Organizations with their creators' memberships, audit rows and sessions' switches,
 * all in one statement (atomic on its own, or inside the caller's transaction): one
 * outcome per creation, undefined where the slug is taken.
 */
export async function insertOrganizationsWithOwners(
  sql: Queryable,
  creations: readonly OrganizationCreation[],
  steps: CreationSteps,
): Promise<Creation[]> {
  // The batch as one JSON array, a record per creation: one JSON.stringify, where an
  // array per column cost an escaping pass per element in postgres.js.
  const input = JSON.stringify(
    creations.map(({ organization, member, audit, activeForSession }) => ({
      id: organization.id,
      name: organization.name,
      slug: organization.slug,
      logo: organization.logo,
      metadata: organization.metadata,
      member_id: member.id,
      user_id: member.userId,
      role: member.role,
      session_id: activeForSession,
      audit_id: audit.id,
      actor_id: audit.actorId,
      actor_type: audit.actorType,
      action: audit.action,
      target_type: audit.targetType,
      target_id: audit.targetId,
      audit_organization_id: audit.organizationId,
      ip_address: audit.ipAddress,
      user_agent: audit.userAgent,
      details: audit.details ?? null,
    })),
  );
  // The other domains' steps carry no value: built once per pool.
  const audited = fixedFragment(sql, steps, "audited", () =>
    steps.recordAudit(
      sql,
      sql`
        select i.audit_id as id, i.actor_id, i.actor_type, i.action, i.target_type,
               i.target_id, i.audit_organization_id as organization_id, i.ip_address,
               i.user_agent, i.details
        from input i join created using (id)`,
    ),
  );
  const activated = fixedFragment(sql, steps, "activated", () =>
    steps.activate(
      sql,
      sql`
        select i.session_id, i.id as organization_id
        from input i join created using (id)
        where i.session_id is not null`,
    ),
  );
  const rows = await sql<CreatedRow[]>`
    with input as (
      select id, name, slug, logo, metadata, member_id, user_id, role, session_id, audit_id,
             actor_id, actor_type, action, target_type, target_id, audit_organization_id,
             ip_address, user_agent, details
      from json_to_recordset(${input}::text::json) as i(
        id text, name text, slug text, logo text, metadata jsonb, member_id text, user_id text,
        role text, session_id text, audit_id text, actor_id text, actor_type text,
        action text, target_type text, target_id text, audit_organization_id text,
        ip_address text, user_agent text, details jsonb)
    ), created as (
      -- A slug taken by another (committed) organization, or by an earlier creation of
      -- this batch, skips the row; nothing else is written for it below.
      insert into organization (id, name, slug, logo, metadata)
      select id, name, slug, logo, metadata from input
      on conflict (slug) do nothing
      returning ${columns(sql, ORGANIZATION_COLUMNS)}
    ), owner as (
      insert into member (id, organization_id, user_id, role)
      select i.member_id, i.id, i.user_id, i.role from input i join created using (id)
      returning ${columns(sql, MEMBER_COLUMNS)}
    ), audited as (
      ${audited}
    ), activated as (
      ${activated}
    )
    select ${columns(sql, ORGANIZATION_COLUMNS, "created")}, json_build_object(
      'id', owner.id, 'organizationId', owner.organization_id, 'userId', owner.user_id,
      'role', owner.role, 'createdAt', owner.created_at) as member
    from created join owner on owner.organization_id = created.id`;
  const byId = new Map(rows.map((row) => [row.id, createdOf(row)]));
  return creations.map((creation) => byId.get(creation.organization.id));
}

const selectOrganization = rowReader<OrganizationRow>("organization", ORGANIZATION_COLUMNS);

export function findOrganizationById(
  sql: Queryable,
  id: string,
): Promise<OrganizationRow | undefined> {
  return selectOrganization(sql, sql`id = ${id}`);
}

export function findOrganizationBySlug(
  sql: Queryable,
  slug: string,
): Promise<OrganizationRow | undefined> {
  return selectOrganization(sql, sql`slug = ${slug}`);
}

/**
 * The organization and the user's membership of it in one round trip; `member` is
 * undefined when the user is not a member.
 */
export async function findOrganizationWithMember(
  sql: Queryable,
  selector: { id?: string; slug?: string },
  userId: string,
): Promise<{ organization: OrganizationRow; member: MemberRow | undefined } | undefined> {
  const [row] = await sql<(OrganizationRow & { member: MemberRow | null })[]>`
    select ${columns(sql, ORGANIZATION_COLUMNS, "o")}, (
      select json_build_object('id', m.id, 'organizationId', m.organization_id,
                               'userId', m.user_id, 'role', m.role, 'createdAt', m.created_at)
      from member m where m.organization_id = o.id and m.user_id = ${userId}
    ) as member
    from organization o
    where (${selector.id ?? null}::text is not null and o.id = ${selector.id ?? null})
       or (${selector.id ?? null}::text is null and o.slug = ${selector.slug ?? null})`;
  if (!row) return undefined;
  const { member, ...organization } = row;
  return {
    organization,
    member: member
      ? { ...member, createdAt: new Date(member.createdAt as unknown as string) }
      : undefined,
  };
}

/** Locks the organization row: membership limits are counted under this lock. */
export function lockOrganization(sql: Queryable, id: string): Promise<OrganizationRow | undefined> {
  return selectOrganization(sql, sql`id = ${id}`, sql`for update`);
}

export async function updateOrganizationRow(
  sql: Queryable,
  id: string,
  changes: {
    name?: string;
    slug?: string;
    logo?: string | null;
    metadata?: Record<string, unknown> | null;
  },
): Promise<OrganizationRow | undefined> {
  const [row] = await sql<OrganizationRow[]>`
    update organization set
      name = coalesce(${changes.name ?? null}, name),
      slug = coalesce(${changes.slug ?? null}, slug),
      logo = case when ${changes.logo !== undefined} then ${changes.logo ?? null} else logo end,
      metadata = case when ${changes.metadata !== undefined}
                 then ${changes.metadata ? sql.json(changes.metadata as never) : null}::jsonb
                 else metadata end,
      updated_at = now()
    where id = ${id}
    returning ${columns(sql, ORGANIZATION_COLUMNS)}`;
  return row;
}

export async function deleteOrganizationRow(
  sql: Queryable,
  id: string,
): Promise<OrganizationRow | undefined> {
  const [row] = await sql<OrganizationRow[]>`
    delete from organization where id = ${id} returning ${columns(sql, ORGANIZATION_COLUMNS)}`;
  return row;
}

export async function listOrganizationsOfUser(
  sql: Queryable,
  userId: string,
): Promise<OrganizationRow[]> {
  return sql<OrganizationRow[]>`
    select ${columns(sql, ORGANIZATION_COLUMNS, "o")}
    from organization o join member m on m.organization_id = o.id
    where m.user_id = ${userId}
    order by o.created_at, o.id`;
}

const listKey = (sql: Queryable) =>
  sql`string_agg(o.id || ':' || o.content_version, ',' order by o.id)`;

/**
 * The caller's organizations as their ids and content versions (`id:version,…`, by
 * id), read in the session lookup's own statement: the key under which organization/list
 * keeps the answer it built (server/organization/answer-cache.ts); null without any.
 */
export const ORGANIZATION_LIST_KEY_OF_CALLER: SessionRider = sessionRider(
  [],
  (sql) => sql`select ${listKey(sql)} ${organizationsOf(sql, sql`s.user_id`)}`,
);

/**
 * `from … where …` over the organizations of `userId` (a fragment: a column or a
 * parameter), as `o`. Each is fetched per membership by its key, behind an `offset 0`
 * fence: the planner only knows the average memberships per user, and with one user in
 * thousands of organizations (the benchmark's inviter) that average made it hash-join a
 * full scan of organization for every caller (13 ms instead of 0.3).
 */
function organizationsOf(sql: Queryable, userId: Fragment): Fragment {
  return sql`from member m
   cross join lateral (
     select id, name, slug, logo, metadata, created_at, content_version from organization
     where id = m.organization_id offset 0) o
   where m.user_id = ${userId}`;
}

/**
 * The user's organizations as the JSON array organization/list answers, built by
 * PostgreSQL, with the key of that very content (read in the same statement).
 */
export async function findOrganizationListJson(
  sql: Queryable,
  userId: string,
): Promise<{ key: string | null; body: string }> {
  const user = sql`${userId}`;
  const [row] = await sql<{ key: string | null; body: string }[]>`
    select (select ${listKey(sql)} ${organizationsOf(sql, user)}) as key,
           (select coalesce(json_agg(${organizationJson(sql)} order by o.created_at, o.id),
                            '[]')::text
            ${organizationsOf(sql, user)}) as body`;
  return row ? { key: row.key, body: compactJson(row.body) } : { key: null, body: "[]" };
}

/** The organizations with these slugs. */
export const findOrganizationsBySlugs = keysReader<OrganizationRow>(
  "organization",
  ORGANIZATION_COLUMNS,
  "slug",
);

/** Every organization, oldest first (the operator's `authd org list`). */
export async function listAllOrganizations(sql: Queryable): Promise<OrganizationRow[]> {
  return sql<OrganizationRow[]>`
    select ${columns(sql, ORGANIZATION_COLUMNS)} from organization order by created_at, id`;
}

/** An organization brought from another system as it was there: its id and dates. */
export type MigratedOrganizationRow = OrganizationRow;

/**
 * One multi-row INSERT of migrated organizations; a row whose id or slug is already
 * taken is left out. Answers the ids that went in.
 */
export async function insertMigratedOrganizations(
  sql: Queryable,
  organizations: MigratedOrganizationRow[],
): Promise<string[]> {
  if (organizations.length === 0) return [];
  const rows = organizations.map((organization) => ({
    ...organization,
    metadata: organization.metadata === null ? null : sql.json(organization.metadata as never),
    createdAt: organization.createdAt.toISOString(),
    updatedAt: organization.updatedAt.toISOString(),
  }));
  const values = sql(rows, "id", "name", "slug", "logo", "metadata", "createdAt", "updatedAt");
  const inserted = await sql<Array<{ id: string }>>`
    insert into organization ${values} on conflict do nothing returning id`;
  return inserted.map((row) => row.id);
}

/** Which of these ids are organizations, with their slugs (an import's "already there"). */
export const findOrganizationIds = keysReader<{ id: string; slug: string }>(
  "organization",
  columnsOf<{ id: string; slug: string }>()(["id", "slug"]),
  "id",
);
