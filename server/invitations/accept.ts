/**
 * What the recipient of an invitation does: accept it, reject it, read it, or name it
 * when signing up. Accepting holds the organization's lock, as inviting does, so the
 * membership and team limits hold under any concurrency.
 */
import { generateId } from "../crypto/random.js";
import type { Queryable, Sql } from "../db/connection.js";
import { isUniqueViolation, pipelinedTransaction, transaction } from "../db/transaction.js";
import { AuthError } from "../errors.js";
import { addMemberStep, insertMember, memberResponse } from "../organization/organization.js";
import type { MemberRow } from "../organization/queries.js";
import { activateOrganizationStep, setActiveOrganizationOfSession } from "../sessions/sessions.js";
import type { TeamRow } from "../teams/queries.js";
import { insertTeamMember, lockTeam } from "../teams/teams.js";
import type { UserRow } from "../users/queries.js";
import {
  type InvitationDeps,
  type InvitationResponse,
  invitationResponse,
  isLive,
  settlePendingInvitation,
} from "./invitations.js";
import { assertRoomInTeam, membershipLimitFor, teamIdsOf } from "./invite.js";
import {
  findInvitationById,
  findInvitationDetails,
  type InvitationRow,
  type JoinSteps,
  joinByInvitation,
  lockInvitationWithOrganization,
  settleInvitation,
} from "./queries.js";

/** What accept-invitation's one statement writes beside the invitation. */
const JOIN_STEPS: JoinSteps = { addMember: addMemberStep, activate: activateOrganizationStep };

/** The membership an accepted invitation creates, as clients see it. */
export type MemberResponse = ReturnType<typeof memberResponse>;

/** Only the invited address, compared case-insensitively. */
function requireRecipient(invitation: InvitationRow, user: UserRow): void {
  if (invitation.email.toLowerCase() !== user.email.toLowerCase()) {
    throw new AuthError("YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION");
  }
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
  sql: Sql,
  user: UserRow,
  invitationId: string,
): Promise<{ invitation: InvitationResponse; member: null }> {
  const found = await findInvitationById(sql, invitationId);
  if (found?.status !== "pending") throw new AuthError("INVITATION_NOT_FOUND");
  requireRecipient(found, user);
  const rejected = await transaction(sql, (tx) => settlePendingInvitation(tx, found, "rejected"));
  return { invitation: invitationResponse(rejected), member: null };
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
  return Object.assign(invitationResponse(found), {
    organizationName: found.organizationName,
    organizationSlug: found.organizationSlug,
    inviterEmail: found.inviterEmail,
  });
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
