/**
 * Invitations: invite, accept, reject, cancel, read and list. Every rule lives here;
 * no Fastify.
 *
 * Locks: a write that depends on counts of an organization (members, pending
 * invitations) first locks the organization row, then the invitation row. Invites and
 * accepts of one organization therefore run one after another, and the limits hold
 * under any concurrency.
 */
import { type Actor, auditActorOf } from "../actor.js";
import { recordAuditEvent } from "../audit/audit.js";
import type { AuthdConfig } from "../config.js";
import { generateId } from "../crypto/random.js";
import type { Queryable, Sql } from "../db/connection.js";
import { isUniqueViolation, pipelinedTransaction, transaction } from "../db/transaction.js";
import { AuthError } from "../errors.js";
import type { Mailer, MailOutcome } from "../mail/mailer.js";
import { describeDuration } from "../mail/templates.js";
import {
  addMemberStep,
  countMembers,
  findMember,
  findMemberByEmail,
  insertMember,
  listMembersPage,
  lockOrganization,
} from "../organization/organization.js";
import { hasPermission, isCreatorRole, requireKnownRoles } from "../organization/permissions.js";
import type { MemberRow, OrganizationRow } from "../organization/queries.js";
import { activateOrganizationsStep, setActiveOrganizationOfSession } from "../sessions/sessions.js";
import type { TeamRow } from "../teams/queries.js";
import {
  countTeamMembers,
  findTeamInOrganization,
  findTeamMember,
  type InvitationsOfTeams,
  insertTeamMember,
  lockTeam,
} from "../teams/teams.js";
import type { UserRow } from "../users/queries.js";
import { findUserById, requireValidEmail } from "../users/users.js";
import type { LinkContext } from "../verification/verification.js";
import {
  countLivePendingInvitations,
  extendInvitation,
  findInvitationById,
  findInvitationDetails,
  type InvitationRow,
  type InvitationStatus,
  insertInvitation,
  type JoinSteps,
  joinByInvitation,
  listInvitationsPage,
  listLivePendingInvitationsForEmail,
  lockInvitationWithOrganization,
  lockPendingInvitation,
  PENDING_EMAIL_INDEX,
  removeTeamFromPendingInvitations,
  settleInvitation,
} from "./queries.js";

/** What other domains use of invitations: pending ones read, written and re-roled. */
export {
  insertInvitation,
  listPendingInvitationsOfOrganizations,
  setInvitationRole,
} from "./queries.js";

/** An invitation lifetime is a whole number of seconds, at least 1. */
export function requireInvitationLifetime(expiresIn: number): number {
  if (!Number.isSafeInteger(expiresIn) || expiresIn < 1) {
    throw new AuthError("VALIDATION_ERROR", {
      message: "an invitation lifetime is a whole number of seconds, at least 1",
    });
  }
  return expiresIn;
}

/** When an invitation made at `now` expires; a time a Date cannot hold is refused. */
export function invitationExpiresAt(now: Date, expiresIn: number): Date {
  const expiresAt = new Date(now.getTime() + expiresIn * 1000);
  if (Number.isNaN(expiresAt.getTime())) {
    throw new AuthError("VALIDATION_ERROR", { message: "the invitation lifetime is too long" });
  }
  return expiresAt;
}

/** What accept-invitation's one statement writes beside the invitation. */
const JOIN_STEPS: JoinSteps = { addMember: addMemberStep, activate: activateOrganizationsStep };

export interface InvitationDeps {
  sql: Sql;
  config: AuthdConfig;
  mailer: Mailer;
}

/** The invitation as clients see it (the shape Better Auth answers). */
export interface InvitationResponse {
  id: string;
  organizationId: string;
  email: string;
  role: string;
  status: InvitationStatus;
  teamId: string | null;
  inviterId: string;
  expiresAt: Date;
  createdAt: Date;
}

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

export interface MemberResponse {
  id: string;
  organizationId: string;
  userId: string;
  role: string;
  createdAt: Date;
}

function memberResponse(row: MemberRow): MemberResponse {
  return {
    id: row.id,
    organizationId: row.organizationId,
    userId: row.userId,
    role: row.role,
    createdAt: row.createdAt,
  };
}

/**
 * The page an invitation link opens: `organization.invitationAcceptURL` with `{id}`
 * replaced, else `/accept-invitation/<id>` on the public origin.
 */
export function invitationAcceptUrl(config: AuthdConfig, baseUrl: string, id: string): string {
  const template = config.organization.invitationAcceptURL;
  const encoded = encodeURIComponent(id);
  if (template) return template.replaceAll("{id}", encoded).replaceAll("%7Bid%7D", encoded);
  return `${new URL(baseUrl).origin}/accept-invitation/${encoded}`;
}

/** Only a pending, unexpired invitation can be accepted or read. */
function isLive(invitation: InvitationRow, now: Date): boolean {
  return invitation.status === "pending" && invitation.expiresAt.getTime() > now.getTime();
}

/** Only the invited address, compared case-insensitively. */
function requireRecipient(invitation: InvitationRow, user: UserRow): void {
  if (invitation.email.toLowerCase() !== user.email.toLowerCase()) {
    throw new AuthError("YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION");
  }
}

/** A limit setting's value: a number, or what its function answers (at least 0). */
async function resolveLimit(
  name: string,
  value: number | ((...args: never[]) => unknown),
  call: () => unknown,
): Promise<number> {
  if (typeof value === "number") return value;
  const answered = await call();
  if (typeof answered !== "number" || Number.isNaN(answered) || answered < 0) {
    throw new Error(`organization.${name} must return a number of at least 0`);
  }
  return answered;
}

/** `membershipLimit` is a number or a function of (user, organization). */
function membershipLimitFor(
  config: AuthdConfig,
  user: UserRow,
  organization: OrganizationRow,
): Promise<number> {
  const limit = config.organization.membershipLimit;
  return resolveLimit("membershipLimit", limit, () =>
    typeof limit === "function" ? limit(user, organization) : limit,
  );
}

/**
 * The team member limit, `teams.maximumMembersPerTeam`: a number or a function of
 * {teamId, team, organizationId, organization, userId} (as add-team-member calls it),
 * with `userId` the caller; unlimited when unset. Someone already in the team takes no
 * new place. Callers inside a transaction hold the team's row lock (`lockTeam`).
 */
async function assertRoomInTeam(
  sql: Queryable,
  config: AuthdConfig,
  context: {
    team: TeamRow;
    organization: OrganizationRow;
    callerId: string;
    joinerId: string | null;
  },
): Promise<void> {
  const limit = config.organization.teams.maximumMembersPerTeam;
  if (limit === undefined) return;
  const { team, organization } = context;
  const maximum = await resolveLimit("teams.maximumMembersPerTeam", limit, () =>
    typeof limit === "function"
      ? limit({
          teamId: team.id,
          team,
          organizationId: organization.id,
          organization,
          userId: context.callerId,
        })
      : limit,
  );
  if (context.joinerId && (await findTeamMember(sql, team.id, context.joinerId))) return;
  if ((await countTeamMembers(sql, team.id)) >= maximum) {
    throw new AuthError("TEAM_MEMBER_LIMIT_REACHED");
  }
}

function teamIdsOf(teamId: string | readonly string[] | null | undefined): string[] {
  if (!teamId) return [];
  const ids = typeof teamId === "string" ? teamId.split(",") : teamId;
  return [...new Set(ids.map((id) => id.trim()).filter(Boolean))];
}

/** The teams an invitation names: each must be a team of this organization. */
async function requireTeams(
  sql: Queryable,
  config: AuthdConfig,
  organizationId: string,
  teamIds: readonly string[],
): Promise<TeamRow[]> {
  if (teamIds.length === 0) return [];
  // Without teams there is no team to name.
  if (!config.organization.teams.enabled) throw new AuthError("TEAM_NOT_FOUND");
  const teams: TeamRow[] = [];
  for (const id of teamIds) {
    const team = await findTeamInOrganization(sql, organizationId, id);
    if (!team) throw new AuthError("TEAM_NOT_FOUND");
    teams.push(team);
  }
  return teams;
}

export interface InviteMemberInput {
  email: string;
  role: string | readonly string[];
  /** A user's default is their active organization; the operator always names one. */
  organizationId?: string | null;
  /** A live pending invitation to the address is extended instead of refused. */
  resend?: boolean;
  /** Teams the invitee joins on accepting: teams of this organization (teams enabled). */
  teamId?: string | readonly string[] | null;
  /** Default true; false creates the invitation and only answers its link. */
  sendEmail?: boolean;
  /** Lifetime in seconds for this invitation; default `organization.invitationExpiresIn`. */
  expiresIn?: number;
}

export interface InvitedMember {
  invitation: InvitationResponse;
  /** The accept link, whether or not it was mailed. */
  url: string;
  /** How the mail went; null when none was asked for. */
  delivery: MailOutcome | null;
}

/**
 * invite-member: a user must be a member with `invitation:create`, and only a holder of
 * the creator role hands it out; the operator is not checked, and the organization's
 * oldest owner is recorded as the inviter (the invitation table needs one). For both:
 * the address is valid, the roles exist, the teams are teams of the organization with
 * room left, one pending invitation per address (a resend extends it), the membership
 * and invitation limits hold; the invitation is mailed unless `sendEmail` is false.
 */
export async function inviteMember(
  deps: InvitationDeps,
  link: LinkContext,
  actor: Actor,
  input: InviteMemberInput,
): Promise<InvitedMember> {
  const { config } = deps;
  const email = requireValidEmail(input.email);
  const organizationId =
    input.organizationId ||
    (actor.kind === "user" ? actor.session?.activeOrganizationId : undefined);
  if (!organizationId) throw new AuthError("ORGANIZATION_NOT_FOUND");
  let inviting: MemberRow | undefined;
  if (actor.kind === "user") {
    // Membership first: an organization the caller is not in, existing or not, answers alike.
    inviting = await findMember(deps.sql, organizationId, actor.user.id);
    if (!inviting) throw new AuthError("MEMBER_NOT_FOUND");
    if (!hasPermission(config, inviting.role, { invitation: ["create"] })) {
      throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION");
    }
  }
  const role = requireKnownRoles(config, input.role);
  // Only a holder of the creator role hands it out.
  if (inviting && isCreatorRole(config, role) && !isCreatorRole(config, inviting.role)) {
    throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_INVITE_USER_WITH_THIS_ROLE");
  }
  const expiresIn = requireInvitationLifetime(
    input.expiresIn ?? config.organization.invitationExpiresIn,
  );
  const teams = await requireTeams(deps.sql, config, organizationId, teamIdsOf(input.teamId));
  const now = new Date();
  const expiresAt = invitationExpiresAt(now, expiresIn);
  let written: { invitation: InvitationRow; organization: OrganizationRow; inviter: UserRow };
  try {
    written = await transaction(deps.sql, async (tx) => {
      const organization = await lockOrganization(tx, organizationId);
      if (!organization) throw new AuthError("ORGANIZATION_NOT_FOUND");
      const inviter =
        actor.kind === "user" ? actor.user : await oldestOwner(tx, deps, organization);
      if (await findMemberByEmail(tx, organizationId, email)) {
        throw new AuthError("USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION");
      }
      // A team that is already full now would refuse the accept later (as in Better Auth).
      for (const team of teams) {
        await assertRoomInTeam(tx, config, {
          team,
          organization,
          callerId: inviter.id,
          joinerId: null,
        });
      }
      const pending = await lockPendingInvitation(tx, organizationId, email);
      if (pending && isLive(pending, now)) {
        if (!input.resend) throw new AuthError("USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION");
        const extended = await extendInvitation(tx, pending.id, expiresAt);
        if (!extended) throw new Error("a locked pending invitation could not be extended");
        return { invitation: extended, organization, inviter };
      }
      // An expired invitation can no longer be accepted: it makes room for the new one
      // (the unique index allows one pending invitation per address).
      if (pending) await settleInvitation(tx, pending.id, "canceled");
      const limit = await membershipLimitFor(config, inviter, organization);
      if ((await countMembers(tx, organizationId)) >= limit) {
        throw new AuthError("ORGANIZATION_MEMBERSHIP_LIMIT_REACHED");
      }
      if (
        (await countLivePendingInvitations(tx, organizationId, now)) >=
        config.organization.invitationLimit
      ) {
        throw new AuthError("INVITATION_LIMIT_REACHED");
      }
      const invitation = await insertInvitation(tx, {
        id: generateId(),
        organizationId,
        email,
        role,
        teamId: teams.length > 0 ? teams.map((team) => team.id).join(",") : null,
        inviterId: inviter.id,
        expiresAt,
      });
      if (actor.kind === "operator") {
        // The operator's changes are all on the audit trail (a user's invitation is
        // its own record, with the inviter).
        await recordAuditEvent(tx, {
          action: "organization.invitation_created",
          ...auditActorOf(actor),
          targetType: "invitation",
          targetId: invitation.id,
          organizationId,
          details: { email, role, teamId: invitation.teamId, expiresAt: expiresAt.toISOString() },
        });
      }
      return { invitation, organization, inviter };
    });
  } catch (error) {
    // Belt and braces behind the organization lock: the index has the last word.
    if (isUniqueViolation(error, PENDING_EMAIL_INDEX)) {
      throw new AuthError("USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION");
    }
    throw error;
  }

  const { invitation, organization, inviter } = written;
  const url = invitationAcceptUrl(config, link.baseUrl, invitation.id);
  let delivery: MailOutcome | null = null;
  if (input.sendEmail !== false) {
    delivery = await deps.mailer.send(
      {
        kind: "invitation",
        to: invitation.email,
        url,
        variables: {
          inviterName: inviter.name || inviter.email,
          inviterEmail: inviter.email,
          organizationName: organization.name,
          role: invitation.role,
          expiresIn: describeDuration(expiresIn),
        },
      },
      link.logger,
    );
  }
  return { invitation: invitationResponse(invitation), url, delivery };
}

/** The organization's oldest owner: who an operator's invitation names as its inviter. */
async function oldestOwner(
  tx: Queryable,
  deps: InvitationDeps,
  organization: OrganizationRow,
): Promise<UserRow> {
  const [owner] = (
    await listMembersPage(tx, organization.id, {
      limit: 1,
      offset: 0,
      sortBy: "createdAt",
      sortDirection: "asc",
      role: deps.config.organization.creatorRole,
    })
  ).members;
  const user = owner && (await findUserById(tx, owner.userId));
  if (!user) throw new AuthError("MEMBER_NOT_FOUND");
  return user;
}

export interface AcceptedInvitation {
  invitation: InvitationResponse;
  member: MemberResponse;
  /** What the caller's session now points at (accepting sets the active organization). */
  activeOrganizationId: string;
  activeTeamId: string | null;
}

/**
 * accept-invitation: the recipient joins with the invitation's role, and
 * its teams, in one transaction under the organization's lock, so the membership limit
 * holds however many accept at once; a refused accept leaves the invitation pending.
 */
export async function acceptInvitation(
  deps: Pick<InvitationDeps, "sql" | "config">,
  caller: { user: UserRow; sessionId: string },
  invitationId: string,
): Promise<AcceptedInvitation> {
  const { config } = deps;
  try {
    // Two round trips (pipelinedTransaction): BEGIN with the locks and reads, then the
    // writes with COMMIT.
    return await pipelinedTransaction(
      deps.sql,
      // The invitation's organization and the invitation are locked in that order, and
      // the membership and the count are read under the locks.
      (tx) => lockInvitationWithOrganization(tx, invitationId, caller.user.id),
      async (tx, { organization, invitation, existing, memberCount }) => {
        // Read under the lock: it may have been accepted or canceled meanwhile.
        if (!invitation || !isLive(invitation, new Date())) {
          throw new AuthError("INVITATION_NOT_FOUND");
        }
        requireRecipient(invitation, caller.user);
        if (!organization) throw new AuthError("INVITATION_NOT_FOUND");
        let member: MemberRow;
        let activeTeamId: string | null = null;
        if (existing) {
          // Already in: the invitation is used up and the membership stays as it is.
          member = existing;
        } else {
          const limit = await membershipLimitFor(config, caller.user, organization);
          if (memberCount >= limit) {
            throw new AuthError("ORGANIZATION_MEMBERSHIP_LIMIT_REACHED");
          }
          const memberInput = {
            id: generateId(),
            organizationId: organization.id,
            userId: caller.user.id,
            role: invitation.role,
          };
          const teamIds = config.organization.teams.enabled ? teamIdsOf(invitation.teamId) : [];
          if (teamIds.length === 0) {
            // No team to count under its lock: every write is one statement.
            const sent = joinByInvitation(
              tx,
              { member: memberInput, invitationId: invitation.id, sessionId: caller.sessionId },
              JOIN_STEPS,
            ).then((joined) => {
              if (!joined) throw new AuthError("INVITATION_NOT_FOUND");
              return {
                invitation: invitationResponse(joined.invitation),
                member: memberResponse(joined.member),
                activeOrganizationId: organization.id,
                activeTeamId: null,
              };
            });
            return { sent };
          }
          member = await insertMember(tx, memberInput);
          const teams: TeamRow[] = [];
          for (const teamId of teamIds) {
            // Counted under the team's lock, as add-team-member does. A team removed
            // since the invitation was sent is skipped, not an error.
            const team = await lockTeam(tx, organization.id, teamId);
            if (!team) continue;
            const joinerId = caller.user.id;
            await assertRoomInTeam(tx, config, {
              team,
              organization,
              callerId: joinerId,
              joinerId,
            });
            await insertTeamMember(tx, { id: generateId(), teamId: team.id, userId: joinerId });
            teams.push(team);
          }
          // With exactly one team, it becomes the active team too (as in Better Auth).
          activeTeamId = teams.length === 1 ? (teams[0]?.id ?? null) : null;
        }
        // Settled before COMMIT is sent, so a miss (it cannot happen while the lock is
        // held) rolls back what the paths above wrote.
        const accepted = await settleInvitation(tx, invitation.id, "accepted");
        if (!accepted) throw new AuthError("INVITATION_NOT_FOUND");
        const sent = setActiveOrganizationOfSession(
          tx,
          caller.sessionId,
          organization.id,
          activeTeamId,
        ).then(() => ({
          invitation: invitationResponse(accepted),
          member: memberResponse(member),
          activeOrganizationId: organization.id,
          activeTeamId,
        }));
        return { sent };
      },
    );
  } catch (error) {
    // Another path (add-member) inserted the membership first.
    if (isUniqueViolation(error, "member_organization_user_key")) {
      throw new AuthError("USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION");
    }
    throw error;
  }
}

/**
 * reject-invitation: the recipient declines a pending invitation; one that expired
 * while pending can still be declined (as in Better Auth).
 */
export async function rejectInvitation(
  sql: Queryable,
  user: UserRow,
  invitationId: string,
): Promise<{ invitation: InvitationResponse; member: null }> {
  const found = await findInvitationById(sql, invitationId);
  if (found?.status !== "pending") throw new AuthError("INVITATION_NOT_FOUND");
  requireRecipient(found, user);
  const rejected = await settleInvitation(sql, invitationId, "rejected");
  if (!rejected) throw new AuthError("INVITATION_NOT_FOUND");
  return { invitation: invitationResponse(rejected), member: null };
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
  if (actor.kind === "user") {
    const found = await findInvitationById(deps.sql, invitationId);
    if (!found) throw new AuthError("INVITATION_NOT_FOUND");
    const member = await findMember(deps.sql, found.organizationId, actor.user.id);
    if (!member) throw new AuthError("INVITATION_NOT_FOUND");
    if (!hasPermission(deps.config, member.role, { invitation: ["cancel"] })) {
      throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_CANCEL_THIS_INVITATION");
    }
    const canceled = await settleInvitation(deps.sql, invitationId, "canceled");
    if (!canceled) throw new AuthError("INVITATION_NOT_FOUND");
    return invitationResponse(canceled);
  }
  return transaction(deps.sql, async (tx) => {
    const canceled = await settleInvitation(tx, invitationId, "canceled");
    if (!canceled) throw new AuthError("INVITATION_NOT_FOUND");
    await recordAuditEvent(tx, {
      action: "organization.invitation_canceled",
      ...auditActorOf(actor),
      targetType: "invitation",
      targetId: canceled.id,
      organizationId: canceled.organizationId,
      details: { email: canceled.email },
    });
    return invitationResponse(canceled);
  });
}

export interface InvitationDetails extends InvitationResponse {
  organizationName: string;
  organizationSlug: string;
  inviterEmail: string;
}

/** get-invitation: the recipient reads a pending, unexpired invitation. */
export async function getInvitation(
  sql: Queryable,
  user: UserRow,
  invitationId: string,
): Promise<InvitationDetails> {
  const found = await findInvitationDetails(sql, invitationId);
  if (!found || !isLive(found, new Date())) throw new AuthError("INVITATION_NOT_FOUND");
  requireRecipient(found, user);
  if (!found.inviterIsMember) {
    throw new AuthError("INVITER_IS_NO_LONGER_A_MEMBER_OF_THE_ORGANIZATION");
  }
  return {
    ...invitationResponse(found),
    organizationName: found.organizationName,
    organizationSlug: found.organizationSlug,
    inviterEmail: found.inviterEmail,
  };
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
  const organizationId =
    input.organizationId ||
    (actor.kind === "user" ? actor.session?.activeOrganizationId : undefined);
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
  return rows.map((row) => ({
    ...invitationResponse(row),
    organizationName: row.organizationName,
  }));
}

/**
 * The invitation a sign-up names, when it is pending, unexpired and
 * addressed to the new account's email; otherwise nothing (a sign-up never tells
 * whether an invitation id exists).
 */
export async function findInvitationForSignUp(
  sql: Queryable,
  invitationId: string,
  email: string,
): Promise<InvitationRow | undefined> {
  const found = await findInvitationById(sql, invitationId);
  if (!found || !isLive(found, new Date())) return undefined;
  return found.email === email.toLowerCase() ? found : undefined;
}

/** What the teams domain calls when a team goes: pending invitations stop naming it. */
export const invitationsOfTeams: InvitationsOfTeams = {
  forgetTeam: async (tx, organizationId, teamId) => {
    await removeTeamFromPendingInvitations(tx, organizationId, teamId);
  },
};
