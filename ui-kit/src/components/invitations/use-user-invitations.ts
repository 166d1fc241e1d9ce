/**
 * The signed-in user's pending invitations without markup: listing them, accepting
 * (and switching to the joined organization or staying where they were) and declining.
 * <Invitations/> is this plus markup.
 */
import { useCallback, useState } from "react";
import { useAuthContext } from "../../auth-context.js";
import type { AuthError } from "../../client/request.js";
import type { Invitation, Member } from "../../client/types.js";
import { QUERY_KEYS } from "../../hooks/organization.js";
import { useAction } from "../../hooks/use-action.js";
import { useQuery } from "../../hooks/use-query.js";
import { useSession } from "../../hooks/use-session.js";

/** What list-user-invitations answers for one invitation; `inviterEmail` when the server adds it. */
export type UserInvitation = Invitation & { organizationName: string; inviterEmail?: string };

export interface UserInvitationEntry extends UserInvitation {
  /** Expired while the page was open: it can no longer be accepted. */
  expired: boolean;
}

export interface UseUserInvitationsOptions {
  /**
   * Make the joined organization the active one (default true). With false the
   * session goes back to the organization that was active before accepting.
   */
  activateOnAccept?: boolean;
  onAccept?: (answer: { invitation: Invitation; member: Member }) => void;
  onDecline?: (invitation: Invitation) => void;
}

export type UserInvitationsStatus =
  | "loading"
  | "signed-out"
  /** The server lists invitations only to verified addresses. */
  | "verification-required"
  | "error"
  | "empty"
  | "ready";

export interface InvitationOutcome {
  kind: "accepted" | "declined";
  organizationName: string;
}

export interface UseUserInvitationsResult {
  status: UserInvitationsStatus;
  invitations: UserInvitationEntry[];
  /** Why the list could not load. */
  error: AuthError | null;
  /** The signed-in address, for the verification hint. */
  email: string | null;
  retry: () => Promise<void>;
  accept: (invitation: UserInvitation) => Promise<void>;
  /** The invitation whose accept is under way. */
  accepting: string | null;
  /** The invitation waiting for the decline confirmation. */
  declining: UserInvitation | null;
  askDecline: (invitation: UserInvitation) => void;
  cancelDecline: () => void;
  confirmDecline: () => Promise<void>;
  declinePending: boolean;
  /** Why the last accept failed. */
  acceptError: AuthError | null;
  /** Why the last decline failed (shown in its confirmation). */
  declineError: AuthError | null;
  /** What the last accept or decline did. */
  outcome: InvitationOutcome | null;
}

const CHANGED_BY_ACCEPT = [
  QUERY_KEYS.organizations,
  QUERY_KEYS.userInvitations,
  QUERY_KEYS.fullOrganization,
  QUERY_KEYS.activeMember,
  QUERY_KEYS.teams,
  QUERY_KEYS.teamMembers,
];

export function useUserInvitations(
  options: UseUserInvitationsOptions = {},
): UseUserInvitationsResult {
  const { client } = useAuthContext();
  const session = useSession();
  const userId = session.data?.user.id ?? null;
  const activateOnAccept = options.activateOnAccept ?? true;
  const list = useQuery(userId && `${QUERY_KEYS.userInvitations}${userId}`, () =>
    client.organization.listUserInvitations(),
  );
  const [accepting, setAccepting] = useState<string | null>(null);
  const [declining, setDeclining] = useState<UserInvitation | null>(null);
  const [outcome, setOutcome] = useState<InvitationOutcome | null>(null);
  const previousActive = session.data?.session.activeOrganizationId ?? null;

  const acceptAction = useAction(
    async (invitationId: string) => {
      const result = await client.organization.acceptInvitation({ invitationId });
      if (result.error) return result;
      const joined = result.data.member.organizationId;
      // Accepting makes the organization active on the server; the option decides whether it stays so.
      if (activateOnAccept) await client.organization.setActive({ organizationId: joined });
      else if (previousActive !== joined) {
        await client.organization.setActive({ organizationId: previousActive });
      }
      await client.session.refetch();
      return result;
    },
    { invalidates: CHANGED_BY_ACCEPT },
  );
  const declineAction = useAction(
    (invitationId: string) => client.organization.rejectInvitation({ invitationId }),
    { invalidates: [QUERY_KEYS.userInvitations] },
  );
  const { onAccept, onDecline } = options;

  const accept = useCallback(
    async (invitation: UserInvitation) => {
      setOutcome(null);
      declineAction.reset();
      setAccepting(invitation.id);
      const result = await acceptAction.run(invitation.id);
      setAccepting(null);
      if (result.error) return;
      setOutcome({ kind: "accepted", organizationName: invitation.organizationName });
      onAccept?.(result.data);
    },
    [acceptAction, declineAction, onAccept],
  );

  const askDecline = useCallback(
    (invitation: UserInvitation) => {
      declineAction.reset();
      setDeclining(invitation);
    },
    [declineAction],
  );
  const cancelDecline = useCallback(() => setDeclining(null), []);
  const confirmDecline = useCallback(async () => {
    if (!declining) return;
    setOutcome(null);
    acceptAction.reset();
    const result = await declineAction.run(declining.id);
    if (result.error) return;
    setOutcome({ kind: "declined", organizationName: declining.organizationName });
    setDeclining(null);
    onDecline?.(result.data.invitation);
  }, [declining, declineAction, acceptAction, onDecline]);

  const now = Date.now();
  const invitations = (list.data ?? []).map((invitation) => ({
    ...invitation,
    expired: new Date(invitation.expiresAt).getTime() <= now,
  }));

  let status: UserInvitationsStatus;
  if (!userId) status = session.isPending ? "loading" : "signed-out";
  else if (list.error?.code === "EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION")
    status = "verification-required";
  else if (list.data) status = invitations.length ? "ready" : "empty";
  else if (list.error) status = "error";
  else status = "loading";

  return {
    status,
    invitations,
    error: status === "error" || status === "verification-required" ? list.error : null,
    email: session.data?.user.email ?? null,
    retry: list.refetch,
    accept,
    accepting,
    declining,
    askDecline,
    cancelDecline,
    confirmDecline,
    declinePending: declineAction.isPending,
    acceptError: acceptAction.error,
    declineError: declineAction.error,
    outcome,
  };
}
