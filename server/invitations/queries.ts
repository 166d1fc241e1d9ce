/**
 * Every SQL statement on the invitation table: one place per table. Each
 * function takes the pool or a transaction first. Times are compared with the
 * application's clock (`now` arguments), the same clock that wrote `expires_at`.
 */
import { columns, columnsOf, type Fragment, fixedText, insertValues } from "../db/columns.js";
import type { Queryable } from "../db/connection.js";
import { keysReader, rowCounter, rowReader } from "../db/readers.js";
import type { MemberRow, OrganizationRow } from "../organization/queries.js";

/** An invitation's statuses. */
export const INVITATION_STATUSES = ["pending", "accepted", "rejected", "canceled"] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

/** The partial unique index that keeps one pending invitation per address and organization. */
export const PENDING_EMAIL_INDEX = "invitation_pending_email_key";

export interface InvitationRow {
  id: string;
  organizationId: string;
  email: string;
  role: string;
  status: InvitationStatus;
  /** One team id, or several joined by commas. */
  teamId: string | null;
  inviterId: string;
  expiresAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

const INVITATION_COLUMNS = columnsOf<InvitationRow>()([
  "id",
  "organizationId",
  "email",
  "role",
  "status",
  "teamId",
  "inviterId",
  "expiresAt",
  "createdAt",
  "updatedAt",
]);

export interface InvitationDetailsRow extends InvitationRow {
  organizationName: string;
  organizationSlug: string;
  inviterEmail: string;
  /** False: the invitation answers "Inviter is no longer a member". */
  inviterIsMember: boolean;
}

export interface InvitationWithOrganizationRow extends InvitationRow {
  organizationName: string;
}

export async function insertInvitation(
  sql: Queryable,
  invitation: Pick<
    InvitationRow,
    "id" | "organizationId" | "email" | "role" | "teamId" | "inviterId" | "expiresAt"
  >,
): Promise<InvitationRow> {
  const [row] = await sql<InvitationRow[]>`
    insert into invitation (id, organization_id, email, role, team_id, inviter_id, expires_at)
    values (${invitation.id}, ${invitation.organizationId}, ${invitation.email},
            ${invitation.role}, ${invitation.teamId}, ${invitation.inviterId},
            ${invitation.expiresAt})
    returning ${columns(sql, INVITATION_COLUMNS)}`;
  if (!row) throw new Error("insert into invitation returned no row");
  return row;
}

const selectInvitation = rowReader<InvitationRow>("invitation", INVITATION_COLUMNS);
const countInvitationRows = rowCounter("invitation");

export function findInvitationById(sql: Queryable, id: string): Promise<InvitationRow | undefined> {
  return selectInvitation(sql, sql`id = ${id}`);
}

/**
 * accept-invitation's reads, for when only the invitation id is known: the invitation's
 * organization locked (organization before invitation, the lock order of every path),
 * then in a second statement the invitation locked with the caller's membership and the
 * member count. Sent together they take one round trip on the transaction; the second
 * statement starts after the first holds the lock, so its snapshot sees every membership
 * committed before (members only change under that lock).
 */
export async function lockInvitationWithOrganization(
  sql: Queryable,
  invitationId: string,
  userId: string,
): Promise<{
  organization: OrganizationRow | undefined;
  invitation: InvitationRow | undefined;
  existing: MemberRow | undefined;
  memberCount: number;
}> {
  const [[organization], [row]] = await Promise.all([
    sql<OrganizationRow[]>`
      select id, name, slug, logo, metadata, created_at, updated_at from organization
      where id = (select organization_id from invitation where id = ${invitationId})
      for update`,
    sql<LockedInvitationRow[]>`
      select ${columns(sql, INVITATION_COLUMNS, "i")}, m.id as m_id, m.role as m_role, m.created_at as m_created_at,
             (select count(*)::int from member c where c.organization_id = i.organization_id)
               as member_count
      from invitation i
      left join member m on m.organization_id = i.organization_id and m.user_id = ${userId}
      where i.id = ${invitationId}
      for update of i`,
  ]);
  if (!row) return { organization, invitation: undefined, existing: undefined, memberCount: 0 };
  const { mId, mRole, mCreatedAt, memberCount, ...invitation } = row;
  const existing =
    mId !== null && mRole !== null && mCreatedAt !== null
      ? {
          id: mId,
          organizationId: invitation.organizationId,
          userId,
          role: mRole,
          createdAt: mCreatedAt,
        }
      : undefined;
  return { organization, invitation, existing, memberCount };
}

interface LockedInvitationRow extends InvitationRow {
  mId: string | null;
  mRole: string | null;
  mCreatedAt: Date | null;
  memberCount: number;
}

/** The parts of accept-invitation's statement that write the member and session tables. */
export interface JoinSteps {
  addMember(
    sql: Queryable,
    member: Pick<MemberRow, "id" | "organizationId" | "userId" | "role">,
    when: Fragment,
  ): Fragment;
  activate(sql: Queryable, sessionId: string, organizationId: string, when: Fragment): Fragment;
}

/**
 * accept-invitation's writes when the caller joins with no team, as one statement: the
 * invitation accepted, and only if it was, the membership and the session's active
 * organization. (It is locked and was pending when read; should it not be, nothing is
 * written and the answer is undefined.)
 */
export async function joinByInvitation(
  sql: Queryable,
  input: {
    member: Pick<MemberRow, "id" | "organizationId" | "userId" | "role">;
    invitationId: string;
    sessionId: string;
  },
  steps: JoinSteps,
): Promise<{ member: MemberRow; invitation: InvitationRow } | undefined> {
  const { member } = input;
  // The condition of the writes that follow the invitation's settling.
  const whenSettled = fixedText(sql, "select 1 from settled");
  const [row] = await sql<(InvitationRow & { mCreatedAt: Date })[]>`
    with settled as (
      update invitation set status = 'accepted', updated_at = now()
      where id = ${input.invitationId} and status = 'pending'
      returning ${columns(sql, INVITATION_COLUMNS)}
    ), joined as (
      ${steps.addMember(sql, member, whenSettled)}
    ), activated as (
      ${steps.activate(sql, input.sessionId, member.organizationId, whenSettled)}
    )
    select ${columns(sql, INVITATION_COLUMNS, "settled")}, joined.created_at as m_created_at from settled cross join joined`;
  if (!row) return undefined;
  const { mCreatedAt, ...invitation } = row;
  return {
    member: {
      id: member.id,
      organizationId: member.organizationId,
      userId: member.userId,
      role: member.role,
      createdAt: mCreatedAt,
    },
    invitation,
  };
}

/** The pending invitation of an address to an organization (at most one), locked. */
export function lockPendingInvitation(
  sql: Queryable,
  organizationId: string,
  email: string,
): Promise<InvitationRow | undefined> {
  const where = sql`organization_id = ${organizationId} and email = ${email} and status = 'pending'`;
  return selectInvitation(sql, where, sql`for update`);
}

/**
 * Writes `assignments` to the invitation while it is still pending; undefined when it is
 * no longer (someone else accepted, rejected or canceled it first).
 */
async function updatePendingInvitation(
  sql: Queryable,
  id: string,
  assignments: Fragment,
): Promise<InvitationRow | undefined> {
  const [row] = await sql<InvitationRow[]>`
    update invitation set ${assignments}, updated_at = now()
    where id = ${id} and status = 'pending'
    returning ${columns(sql, INVITATION_COLUMNS)}`;
  return row;
}

/** Moves a pending invitation to `status`, as `updatePendingInvitation` writes. */
export function settleInvitation(
  sql: Queryable,
  id: string,
  status: Exclude<InvitationStatus, "pending">,
): Promise<InvitationRow | undefined> {
  return updatePendingInvitation(sql, id, sql`status = ${status}`);
}

/** A resent invitation lives again for the full lifetime. */
export function extendInvitation(
  sql: Queryable,
  id: string,
  expiresAt: Date,
): Promise<InvitationRow | undefined> {
  return updatePendingInvitation(sql, id, sql`expires_at = ${expiresAt}`);
}

/** Pending invitations that can still be accepted: what `invitationLimit` counts. */
export function countLivePendingInvitations(
  sql: Queryable,
  organizationId: string,
  now: Date,
): Promise<number> {
  return countInvitationRows(
    sql,
    sql`organization_id = ${organizationId} and status = 'pending' and expires_at > ${now}`,
  );
}

export interface InvitationListFilter {
  status?: InvitationStatus;
  /** Invitations granting this role are left out (hidden from non-creators). */
  hiddenRole?: string;
}

/**
 * One page of an organization's invitations, oldest first, and the total of the
 * filter, in two bounded queries. `limit: null` answers every row.
 */
export async function listInvitationsPage(
  sql: Queryable,
  organizationId: string,
  filter: InvitationListFilter,
  page: { limit: number | null; offset: number },
): Promise<{ invitations: InvitationRow[]; total: number }> {
  const status = filter.status ?? null;
  const hidden = filter.hiddenRole ?? null;
  const [invitations, [count]] = await Promise.all([
    sql<InvitationRow[]>`
      select ${columns(sql, INVITATION_COLUMNS)} from invitation
      where organization_id = ${organizationId}
        and (${status}::text is null or status = ${status})
        and (${hidden}::text is null or not (${hidden} = any(string_to_array(role, ','))))
      order by created_at, id
      limit ${page.limit} offset ${page.offset}`,
    sql<{ total: number }[]>`
      select count(*)::int as total from invitation
      where organization_id = ${organizationId}
        and (${status}::text is null or status = ${status})
        and (${hidden}::text is null or not (${hidden} = any(string_to_array(role, ','))))`,
  ]);
  return { invitations, total: count?.total ?? 0 };
}

/** Pending, unexpired invitations addressed to `email`, with the organization's name. */
export async function listLivePendingInvitationsForEmail(
  sql: Queryable,
  email: string,
  now: Date,
): Promise<InvitationWithOrganizationRow[]> {
  return sql<InvitationWithOrganizationRow[]>`
    select ${columns(sql, INVITATION_COLUMNS, "i")}, o.name as organization_name
    from invitation i join organization o on o.id = i.organization_id
    where i.email = ${email} and i.status = 'pending' and i.expires_at > ${now}
    order by i.created_at, i.id`;
}

/** The invitation with what get-invitation shows about its organization and inviter. */
export async function findInvitationDetails(
  sql: Queryable,
  id: string,
): Promise<InvitationDetailsRow | undefined> {
  const [row] = await sql<InvitationDetailsRow[]>`
    select ${columns(sql, INVITATION_COLUMNS, "i")}, o.name as organization_name, o.slug as organization_slug,
           u.email as inviter_email,
           exists (select 1 from member m
                   where m.organization_id = i.organization_id and m.user_id = i.inviter_id)
             as inviter_is_member
    from invitation i
    join organization o on o.id = i.organization_id
    join "user" u on u.id = i.inviter_id
    where i.id = ${id}`;
  return row;
}

/** Pending invitations of several organizations (the seed's natural key is org + email). */
export const listPendingInvitationsOfOrganizations = keysReader<InvitationRow>(
  "invitation",
  INVITATION_COLUMNS,
  "organization_id",
  (sql) => sql`status = 'pending'`,
);

export async function setInvitationRole(sql: Queryable, id: string, role: string): Promise<void> {
  await sql`update invitation set role = ${role}, updated_at = now() where id = ${id}`;
}

/** A removed team leaves the pending invitations that named it (team_id is a list). */
export async function removeTeamFromPendingInvitations(
  sql: Queryable,
  organizationId: string,
  teamId: string,
): Promise<number> {
  const rows = await sql`
    update invitation
    set team_id = nullif(array_to_string(array_remove(string_to_array(team_id, ','), ${teamId}), ','), ''),
        updated_at = now()
    where organization_id = ${organizationId} and status = 'pending'
      and ${teamId} = any(string_to_array(team_id, ','))`;
  return rows.count;
}

/**
 * One multi-row INSERT of invitations brought from another system, with their ids,
 * statuses and dates; a row whose id is taken, or a second pending invitation of one
 * address to one organization, is left out. Answers the ids that went in.
 */
export async function insertMigratedInvitations(
  sql: Queryable,
  invitations: InvitationRow[],
): Promise<string[]> {
  if (invitations.length === 0) return [];
  const rows = invitations.map((invitation) => ({
    ...invitation,
    expiresAt: invitation.expiresAt.toISOString(),
    createdAt: invitation.createdAt.toISOString(),
    updatedAt: invitation.updatedAt.toISOString(),
  }));
  const values = insertValues(sql, rows, INVITATION_COLUMNS);
  const inserted = await sql<Array<{ id: string }>>`
    insert into invitation ${values} on conflict do nothing returning id`;
  return inserted.map((row) => row.id);
}

/** Which of these ids are invitations (an import's "already there"). */
export const findInvitationIds = keysReader<{ id: string }>(
  "invitation",
  columnsOf<{ id: string }>()(["id"]),
  "id",
);
