/**
 * invite-member and its rules: the invitation's lifetime, the teams it names and the
 * room left in them, the membership and invitation limits, and who an operator's
 * invitation names as its inviter. Accepting checks the same limits (accept.ts).
 */
import { type Actor, auditActorOf, namedOrActiveOrganization } from "../actor.js";
import { recordAuditEvent } from "../audit/audit.js";
import type { AuthdConfig } from "../config.js";
import { generateId } from "../crypto/random.js";
import type { Queryable } from "../db/connection.js";
import { isUniqueViolation, transaction } from "../db/transaction.js";
import { AuthError } from "../errors.js";
import type { MailOutcome } from "../mail/mailer.js";
import { describeDuration } from "../mail/templates.js";
import {
  countMembers,
  findMember,
  findMemberByEmail,
  listMembersPage,
  lockOrganization,
} from "../organization/organization.js";
import { hasPermission, isCreatorRole, requireKnownRoles } from "../organization/permissions.js";
import type { MemberRow, OrganizationRow } from "../organization/queries.js";
import type { TeamRow } from "../teams/queries.js";
import { countTeamMembers, findTeamMember, requireTeam } from "../teams/teams.js";
import type { UserRow } from "../users/queries.js";
import { findUserById, requireValidEmail } from "../users/users.js";
import type { LinkContext } from "../verification/verification.js";
import {
  type InvitationDeps,
  type InvitationResponse,
  invitationAcceptUrl,
  invitationResponse,
  isLive,
} from "./invitations.js";
import {
  countLivePendingInvitations,
  extendInvitation,
  type InvitationRow,
  insertInvitation,
  lockPendingInvitation,
  PENDING_EMAIL_INDEX,
  settleInvitation,
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
export function membershipLimitFor(
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
export async function assertRoomInTeam(
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

export function teamIdsOf(teamId: string | readonly string[] | null | undefined): string[] {
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
    const team = await requireTeam(sql, organizationId, id);
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
  const organizationId = namedOrActiveOrganization(actor, input.organizationId);
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
  const now = new Date();
  const expiresAt = invitationExpiresAt(now, expiresIn);
  let written: { invitation: InvitationRow; organization: OrganizationRow; inviter: UserRow };
  try {
    written = await transaction(deps.sql, async (tx) => {
      const organization = await lockOrganization(tx, organizationId);
      if (!organization) throw new AuthError("ORGANIZATION_NOT_FOUND");
      // Read under the organization's lock, under which teams are removed: a team read
      // before it could be gone by the time the invitation names it.
      const teams = await requireTeams(tx, config, organizationId, teamIdsOf(input.teamId));
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
