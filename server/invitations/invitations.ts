/**
 * Invitations as clients see them, and cancel, list and list-user-invitations. Inviting
 * is in invite.ts, and what the recipient does (accept, reject, read) in accept.ts.
 *
 * Locks: a write that depends on counts of an organization (members, pending
 * invitations) first locks the organization row, then the invitation row. Invites and
 * accepts of one organization therefore run one after another, and the limits hold
 * under any concurrency.
 */
import { type Actor, auditActorOf, namedOrActiveOrganization } from "../actor.js";
import { recordAuditEvent } from "../audit/audit.js";
import type { AuthdConfig } from "../config.js";
import type { Queryable, Sql } from "../db/connection.js";
import { transaction } from "../db/transaction.js";
import { AuthError } from "../errors.js";
import type { Mailer } from "../mail/mailer.js";
import { findMember, lockOrganization } from "../organization/organization.js";
import { hasPermission, isCreatorRole } from "../organization/permissions.js";
import { pageUrl } from "../pages/links.js";
import type { InvitationsOfTeams } from "../teams/teams.js";
import type { UserRow } from "../users/queries.js";
import {
  findInvitationById,
  type InvitationRow,
  type InvitationStatus,
  listInvitationsPage,
  listLivePendingInvitationsForEmail,
  removeTeamFromPendingInvitations,
  settleInvitation,
} from "./queries.js";

/** What other domains use of invitations: pending ones read, written and re-roled, and imported. */
export {
  findInvitationIds,
  INVITATION_STATUSES,
  insertInvitation,
  insertMigratedInvitations,
  listPendingInvitationsOfOrganizations,
  setInvitationRole,
} from "./queries.js";

export interface InvitationDeps {
  sql: Sql;
  config: AuthdConfig;
  mailer: Mailer;
}

/** The invitation as clients see it (the shape Better Auth answers). */
export type InvitationResponse = Omit<InvitationRow, "updatedAt">;

export function invitationResponse(row: InvitationRow): InvitationResponse {
  return {
    id: row.id,
    organizationId: row.organizationId,
    email: row.email,
    role: row.role,
    status: row.status,
    teamId: row.teamId,
    inviterId: row.inviterId,
    expiresAt: row.expiresAt,
    createdAt: row.createdAt,
  };
}

/**
 * The page an invitation link opens: `organization.invitationAcceptURL` with `{id}`
 * replaced, else the served accept-invitation page (under `pages.path`), else
 * `/accept-invitation/<id>` on the public origin.
 */
export function invitationAcceptUrl(config: AuthdConfig, baseUrl: string, id: string): string {
  const template = config.organization.invitationAcceptURL;
  const encoded = encodeURIComponent(id);
  if (template) return template.replaceAll("{id}", encoded).replaceAll("%7Bid%7D", encoded);
  return (
    pageUrl(config, baseUrl, `/accept-invitation/${encoded}`) ??
    `${new URL(baseUrl).origin}/accept-invitation/${encoded}`
  );
}

/** Only a pending, unexpired invitation can be accepted or read. */
export function isLive(invitation: InvitationRow, now: Date): boolean {
  return invitation.status === "pending" && invitation.expiresAt.getTime() > now.getTime();
}

/** A pending invitation by id (what an operator confirms before canceling it). */
export async function findPendingInvitation(
  sql: Queryable,
  invitationId: string,
): Promise<InvitationResponse> {
  const found = await findInvitationById(sql, invitationId);
  if (found?.status !== "pending") throw new AuthError("INVITATION_NOT_FOUND");
  return invitationResponse(found);
}

/**
 * Moves a pending invitation to `status` inside `tx`, its organization's row locked
 * first. Every write to an organization's members, invitations or teams also updates
 * that row (the content version's trigger), and the writers that start from the
 * organization (invite, delete organization) lock it before the invitation: an update
 * that took the invitation first would deadlock with them.
 */
export async function settlePendingInvitation(
  tx: Queryable,
  invitation: InvitationRow,
  status: Exclude<InvitationStatus, "pending" | "accepted">,
): Promise<InvitationRow> {
  await lockOrganization(tx, invitation.organizationId);
  const settled = await settleInvitation(tx, invitation.id, status);
  if (!settled) throw new AuthError("INVITATION_NOT_FOUND");
  return settled;
}

/**
 * cancel-invitation: a user needs `invitation:cancel` in the invitation's organization,
 * and an invitation of an organization they are not in answers as unknown (tenants stay
 * isolated); the operator is not checked. Only a pending invitation becomes canceled.
 */
export async function cancelInvitation(
  deps: Pick<InvitationDeps, "sql" | "config">,
  actor: Actor,
  invitationId: string,
): Promise<InvitationResponse> {
  const found = await findInvitationById(deps.sql, invitationId);
  if (!found) throw new AuthError("INVITATION_NOT_FOUND");
  if (actor.kind === "user") {
    const member = await findMember(deps.sql, found.organizationId, actor.user.id);
    if (!member) throw new AuthError("INVITATION_NOT_FOUND");
    if (!hasPermission(deps.config, member.role, { invitation: ["cancel"] })) {
      throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_CANCEL_THIS_INVITATION");
    }
  }
  return transaction(deps.sql, async (tx) => {
    const canceled = await settlePendingInvitation(tx, found, "canceled");
    if (actor.kind === "operator") {
      await recordAuditEvent(tx, {
        action: "organization.invitation_canceled",
        ...auditActorOf(actor),
        targetType: "invitation",
        targetId: canceled.id,
        organizationId: canceled.organizationId,
        details: { email: canceled.email },
      });
    }
    return invitationResponse(canceled);
  });
}

export interface ListInvitationsInput {
  organizationId?: string | null;
  status?: InvitationStatus;
  limit?: number;
  offset?: number;
}

export const DEFAULT_INVITATION_PAGE_SIZE = 100;
export const MAXIMUM_INVITATION_PAGE_SIZE = 1000;

export type InvitationList =
  | { paginated: false; invitations: InvitationResponse[] }
  | {
      paginated: true;
      invitations: InvitationResponse[];
      total: number;
      limit: number;
      offset: number;
    };

/**
 * list-invitations: a user must be a member, reading invitees' addresses needs
 * `invitation:create` too, and invitations granting the creator role are shown only
 * to its holders (as in Better Auth); the operator sees every invitation. Without
 * limit/offset every invitation is answered; with either, one page and the total
 * (never truncated silently).
 */
export async function listInvitations(
  deps: Pick<InvitationDeps, "sql" | "config">,
  actor: Actor,
  input: ListInvitationsInput,
): Promise<InvitationList> {
  const organizationId = namedOrActiveOrganization(actor, input.organizationId);
  if (!organizationId) throw new AuthError("NO_ACTIVE_ORGANIZATION");
  let hiddenRole: string | undefined;
  if (actor.kind === "user") {
    const member = await findMember(deps.sql, organizationId, actor.user.id);
    if (!member) throw new AuthError("YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION");
    if (!hasPermission(deps.config, member.role, { invitation: ["create"] })) {
      throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_LIST_INVITATIONS");
    }
    const { creatorRole } = deps.config.organization;
    hiddenRole = isCreatorRole(deps.config, member.role) ? undefined : creatorRole;
  }
  const filter = { status: input.status, hiddenRole };
  const paginated = input.limit !== undefined || input.offset !== undefined;
  const limit = paginated ? (input.limit ?? DEFAULT_INVITATION_PAGE_SIZE) : null;
  const offset = input.offset ?? 0;
  const page = await listInvitationsPage(deps.sql, organizationId, filter, { limit, offset });
  const invitations = page.invitations.map(invitationResponse);
  if (!paginated) return { paginated: false, invitations };
  return {
    paginated: true,
    invitations,
    total: page.total,
    limit: limit ?? DEFAULT_INVITATION_PAGE_SIZE,
    offset,
  };
}

/**
 * list-user-invitations: the caller's own pending invitations. Reading them by address
 * hands out accept links, so the address must be proven first (as in Better Auth).
 */
export async function listUserInvitations(
  sql: Queryable,
  user: UserRow,
): Promise<Array<InvitationResponse & { organizationName: string }>> {
  if (!user.emailVerified) throw new AuthError("EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION");
  const rows = await listLivePendingInvitationsForEmail(sql, user.email, new Date());
  return rows.map((row) =>
    Object.assign(invitationResponse(row), { organizationName: row.organizationName }),
  );
}

/** What the teams domain calls when a team goes: pending invitations stop naming it. */
export const invitationsOfTeams: InvitationsOfTeams = {
  forgetTeam: async (tx, organizationId, teamId) => {
    await removeTeamFromPendingInvitations(tx, organizationId, teamId);
  },
};
