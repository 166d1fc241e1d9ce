/**
 * Every SQL statement that writes the member table, and the reads of memberships.
 * Creating an organization with its owner is one statement, kept in queries.ts.
 */
import { columns, columnsOf, type Fragment } from "../db/columns.js";
import type { Queryable } from "../db/connection.js";
import { keysReader, rowCounter, rowReader } from "../db/readers.js";
import { type SessionRider, sessionRider } from "../sessions/sessions.js";

export interface MemberRow {
  id: string;
  organizationId: string;
  userId: string;
  role: string;
  createdAt: Date;
}

export const MEMBER_COLUMNS = columnsOf<MemberRow>()([
  "id",
  "organizationId",
  "userId",
  "role",
  "createdAt",
]);

export interface MemberWithUser extends MemberRow {
  user: { id: string; name: string; email: string; image: string | null };
}

const countMemberRows = rowCounter("member");

export function countOrganizationsOfUser(sql: Queryable, userId: string): Promise<number> {
  return countMemberRows(sql, sql`user_id = ${userId}`);
}

export async function insertMember(
  sql: Queryable,
  member: Pick<MemberRow, "id" | "organizationId" | "userId" | "role">,
): Promise<MemberRow> {
  const [row] = await sql<MemberRow[]>`
    insert into member (id, organization_id, user_id, role)
    values (${member.id}, ${member.organizationId}, ${member.userId}, ${member.role})
    returning ${columns(sql, MEMBER_COLUMNS)}`;
  if (!row) throw new Error("insert into member returned no row");
  return row;
}

const selectMember = rowReader<MemberRow>("member", MEMBER_COLUMNS);

function memberOf(sql: Queryable, organizationId: string, userId: string): Fragment {
  return sql`organization_id = ${organizationId} and user_id = ${userId}`;
}

export async function findMember(
  sql: Queryable,
  organizationId: string,
  userId: string,
): Promise<MemberRow | undefined> {
  return selectMember(sql, memberOf(sql, organizationId, userId));
}

/**
 * The membership, share-locked until the transaction ends: a concurrent removal (which
 * deletes the row) waits for this transaction, or has already happened and nothing is
 * found. What hangs on a membership (a team membership) is written under this lock.
 */
export async function lockMemberForShare(
  sql: Queryable,
  organizationId: string,
  userId: string,
): Promise<MemberRow | undefined> {
  return selectMember(sql, memberOf(sql, organizationId, userId), sql`for share`);
}

export async function findMemberById(
  sql: Queryable,
  organizationId: string,
  memberId: string,
): Promise<MemberRow | undefined> {
  return selectMember(sql, sql`organization_id = ${organizationId} and id = ${memberId}`);
}

export async function findMemberByEmail(
  sql: Queryable,
  organizationId: string,
  email: string,
): Promise<MemberRow | undefined> {
  return selectMember(
    sql,
    sql`organization_id = ${organizationId}
      and user_id in (select id from "user" where email = ${email})`,
  );
}

// Flat columns, shaped in JS: cheaper than building and re-parsing JSON per row.
const MEMBER_WITH_USER = (sql: Queryable) => sql`
  m.id, m.organization_id, m.user_id, m.role, m.created_at,
  u.name as user_name, u.email as user_email, u.image as user_image`;

interface FlatMemberWithUser extends MemberRow {
  userName: string;
  userEmail: string;
  userImage: string | null;
}

function withUser(row: FlatMemberWithUser): MemberWithUser {
  return {
    id: row.id,
    organizationId: row.organizationId,
    userId: row.userId,
    role: row.role,
    createdAt: row.createdAt,
    user: { id: row.userId, name: row.userName, email: row.userEmail, image: row.userImage },
  };
}

export async function findMemberWithUser(
  sql: Queryable,
  memberId: string,
): Promise<MemberWithUser | undefined> {
  const [row] = await sql<FlatMemberWithUser[]>`
    select ${MEMBER_WITH_USER(sql)} from member m join "user" u on u.id = m.user_id
    where m.id = ${memberId}`;
  return row ? withUser(row) : undefined;
}

export type MemberSortField = "createdAt" | "name" | "email" | "role";

/** ORDER BY of a members page: a fixed fragment per field and direction, never spliced text. */
function memberOrder(sql: Queryable, field: MemberSortField, direction: "asc" | "desc"): Fragment {
  const desc = direction === "desc";
  switch (field) {
    case "createdAt":
      return desc ? sql`m.created_at desc` : sql`m.created_at asc`;
    case "name":
      return desc ? sql`u.name desc` : sql`u.name asc`;
    case "email":
      return desc ? sql`u.email desc` : sql`u.email asc`;
    case "role":
      return desc ? sql`m.role desc` : sql`m.role asc`;
  }
}

/** One page of members with their users, and the total, in two bounded queries. */
export async function listMembersPage(
  sql: Queryable,
  organizationId: string,
  page: {
    limit: number;
    offset: number;
    sortBy: MemberSortField;
    sortDirection: "asc" | "desc";
    search?: string;
    role?: string;
  },
): Promise<{ members: MemberWithUser[]; total: number }> {
  const order = memberOrder(sql, page.sortBy, page.sortDirection);
  const search = page.search ? `%${page.search.replace(/[\\%_]/g, "\\$&").toLowerCase()}%` : null;
  const filter = sql`
    m.organization_id = ${organizationId}
    and (${search}::text is null or lower(u.name) like ${search} or u.email like ${search})
    and (${page.role ?? null}::text is null or ${page.role ?? null} = any(string_to_array(m.role, ',')))`;
  // One round trip: the page and, through a window, the total of the filter.
  const rows = await sql<(FlatMemberWithUser & { total: number })[]>`
    select ${MEMBER_WITH_USER(sql)}, count(*) over ()::int as total
    from member m join "user" u on u.id = m.user_id
    where ${filter}
    order by ${order}, m.id
    limit ${page.limit} offset ${page.offset}`;
  if (rows.length === 0 && (page.offset > 0 || page.limit === 0)) {
    // Past the end, or asked for no row, there is no row to carry the total: count it
    // on its own.
    const [count] = await sql<{ total: number }[]>`
      select count(*)::int as total from member m join "user" u on u.id = m.user_id
      where ${filter}`;
    return { members: [], total: count?.total ?? 0 };
  }
  const total = rows[0]?.total ?? 0;
  const members = rows.map(withUser);
  return { members, total };
}

export function countMembers(sql: Queryable, organizationId: string): Promise<number> {
  return countMemberRows(sql, sql`organization_id = ${organizationId}`);
}

/** Members holding `role` among their roles (e.g. how many owners are left). */
export function countMembersWithRole(
  sql: Queryable,
  organizationId: string,
  role: string,
): Promise<number> {
  return countMemberRows(
    sql,
    sql`organization_id = ${organizationId} and ${role} = any(string_to_array(role, ','))`,
  );
}

export async function updateMemberRoleRow(
  sql: Queryable,
  memberId: string,
  role: string,
): Promise<MemberRow | undefined> {
  const [row] = await sql<MemberRow[]>`
    update member set role = ${role}
    where id = ${memberId} returning ${columns(sql, MEMBER_COLUMNS)}`;
  return row;
}

export async function deleteMemberRow(
  sql: Queryable,
  memberId: string,
): Promise<MemberRow | undefined> {
  const [row] = await sql<MemberRow[]>`
    delete from member where id = ${memberId} returning ${columns(sql, MEMBER_COLUMNS)}`;
  return row;
}

/**
 * The step of a larger statement that adds a member when `when` (a query) has a row,
 * answering the new row's created_at (accept-invitation's one statement).
 */
export function addMemberStep(
  sql: Queryable,
  member: Pick<MemberRow, "id" | "organizationId" | "userId" | "role">,
  when: Fragment,
): Fragment {
  return sql`
    insert into member (id, organization_id, user_id, role)
    select ${member.id}, ${member.organizationId}, ${member.userId}, ${member.role}
    where exists (${when})
    returning created_at`;
}

/** The memberships of these organizations. */
export const listMembersOfOrganizations = keysReader<MemberRow>(
  "member",
  MEMBER_COLUMNS,
  "organization_id",
);

/** One multi-row INSERT (callers keep batches to a few hundred rows). */
export async function insertMembers(
  sql: Queryable,
  members: Array<Pick<MemberRow, "id" | "organizationId" | "userId" | "role">>,
): Promise<void> {
  if (members.length === 0) return;
  const rows = members.map((member) => ({ ...member }));
  await sql`insert into member ${sql(rows, "id", "organizationId", "userId", "role")}`;
}

/** An organization by id and slug, with one user's role in it. */
export interface ActiveMembership {
  organizationId: string;
  slug: string;
  role: string;
}

/**
 * The session's active organization and the caller's role in it, `[id, slug, role]`,
 * read in the session lookup's own statement (signed tokens carry them); null without
 * an active organization or when the caller is no longer a member of it.
 */
export const ACTIVE_MEMBERSHIP_OF_CALLER: SessionRider = sessionRider(
  [],
  (sql) => sql`
    select array[o.id, o.slug, m.role]
    from member m join organization o on o.id = m.organization_id
    where m.organization_id = s.active_organization_id and m.user_id = s.user_id`,
);

/** The rider's value as an ActiveMembership. */
export function activeMembershipOf(value: (string | null)[] | null): ActiveMembership | null {
  const [organizationId, slug, role] = value ?? [];
  return organizationId && slug && role ? { organizationId, slug, role } : null;
}

/** The same read on its own, for an answer that did not come from the session lookup. */
export async function findActiveMembership(
  sql: Queryable,
  userId: string,
  organizationId: string,
): Promise<ActiveMembership | null> {
  const [row] = await sql<ActiveMembership[]>`
    select o.id as organization_id, o.slug, m.role
    from member m join organization o on o.id = m.organization_id
    where m.organization_id = ${organizationId} and m.user_id = ${userId}`;
  return row ?? null;
}

/**
 * One multi-row INSERT of memberships brought from another system, with their ids and
 * dates; a row whose id, or whose user in that organization, is already there is left
 * out. Answers the ids that went in.
 */
export async function insertMigratedMembers(
  sql: Queryable,
  members: MemberRow[],
): Promise<string[]> {
  if (members.length === 0) return [];
  const rows = members.map((member) => ({ ...member, createdAt: member.createdAt.toISOString() }));
  const values = sql(rows, "id", "organizationId", "userId", "role", "createdAt");
  const inserted = await sql<Array<{ id: string }>>`
    insert into member ${values} on conflict do nothing returning id`;
  return inserted.map((row) => row.id);
}

/** Which of these ids are memberships (an import's "already there"). */
export const findMemberIds = keysReader<{ id: string }>(
  "member",
  columnsOf<{ id: string }>()(["id"]),
  "id",
);
