/**
 * The page a mailed invitation link opens, without markup: which invitation, whether
 * someone is signed in (and as its recipient), accepting, declining, and where to go
 * afterwards. <AcceptInvitation/> is this plus markup.
 */
import { useCallback, useEffect, useState } from "react";
import { useAuthContext } from "../../auth-context.js";
import type { AuthError, Result } from "../../client/request.js";
import type { Invitation, Member } from "../../client/types.js";
import {
  type InvitationDetails,
  QUERY_KEYS,
  useInvitation,
  useListOrganizations,
} from "../../hooks/organization.js";
import { useAction } from "../../hooks/use-action.js";
import { useSession } from "../../hooks/use-session.js";

export interface UseAcceptInvitationOptions {
  /** The invitation; by default read from the page's address (`…/<id>`, `?invitationId=` or `?id=`). */
  invitationId?: string;
  /** Where "Continue" goes after accepting; default the provider's `paths.organization`. */
  redirectTo?: string;
  onAccept?: (answer: { invitation: Invitation; member: Member }) => void;
  onDecline?: (invitation: Invitation) => void;
}

export type AcceptInvitationStatus =
  | "loading"
  /** The address names no invitation. */
  | "missing"
  | "signed-out"
  | "ready"
  | "already-member"
  | "accepted"
  | "declined"
  /** Expired, canceled, used, or never existed. */
  | "not-found"
  | "wrong-recipient"
  | "verification-required"
  | "error";

export interface UseAcceptInvitationResult {
  status: AcceptInvitationStatus;
  invitationId: string | null;
  invitation: InvitationDetails | null;
  /** The signed-in address. */
  email: string | null;
  /** The address the invitation was sent to, when the server's answer says. */
  recipientEmail: string | null;
  /** The error behind "error" (or an accept that failed while the invitation stays open). */
  error: AuthError | null;
  /** Sign-in and sign-up links that come back to this page. */
  signInHref: string;
  signUpHref: string;
  accept: () => Promise<void>;
  acceptPending: boolean;
  /** True while the decline confirmation is open. */
  confirmingDecline: boolean;
  askDecline: () => void;
  cancelDecline: () => void;
  decline: () => Promise<void>;
  declinePending: boolean;
  declineError: AuthError | null;
  /** After accepting: go on to `redirectTo`. */
  continueToApp: () => void;
  /** Already a member: use up the invitation and open the organization. */
  openOrganization: () => Promise<void>;
  openPending: boolean;
  openError: AuthError | null;
  signOutAndSignIn: () => Promise<void>;
  signOutPending: boolean;
}

const STATUS_OF_ERROR: Readonly<Record<string, AcceptInvitationStatus>> = {
  INVITATION_NOT_FOUND: "not-found",
  YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION: "wrong-recipient",
  EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION: "verification-required",
  USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION: "already-member",
};

const CHANGED_BY_ACCEPT = [
  QUERY_KEYS.organizations,
  QUERY_KEYS.userInvitations,
  QUERY_KEYS.fullOrganization,
  QUERY_KEYS.activeMember,
  QUERY_KEYS.teams,
  QUERY_KEYS.teamMembers,
];

/** `path` with `params` added to its query. */
function withQuery(path: string, params: Record<string, string>): string {
  const query = new URLSearchParams(params).toString();
  return `${path}${path.includes("?") ? "&" : "?"}${query}`;
}

/** The invitation id in the page's address, and the address itself (path and query). */
function readLocation(acceptPath: string): { id: string | null; path: string } | null {
  const { location } = globalThis as { location?: { pathname: string; search: string } };
  if (!location) return null;
  const query = new URLSearchParams(location.search);
  const fromQuery = query.get("invitationId") ?? query.get("id");
  const segments = location.pathname.split("/").filter(Boolean);
  const last = segments[segments.length - 1] ?? null;
  // The accept page's own path without an id is not an id.
  const ownLast = acceptPath.split("/").filter(Boolean).pop();
  const fromPath = last && last !== ownLast ? decodeURIComponent(last) : null;
  return { id: fromQuery || fromPath, path: `${location.pathname}${location.search}` };
}

function emailInDetails(error: AuthError | null): string | null {
  const details = error?.details as { email?: unknown; recipient?: unknown } | undefined;
  const email = details?.email ?? details?.recipient;
  return typeof email === "string" ? email : null;
}

export function useAcceptInvitation(
  options: UseAcceptInvitationOptions = {},
): UseAcceptInvitationResult {
  const { client, navigate, paths } = useAuthContext();
  const session = useSession();
  const [located, setLocated] = useState<{ id: string | null; path: string } | null>(null);
  const [outcome, setOutcome] = useState<"accepted" | "declined" | null>(null);
  const [confirmingDecline, setConfirmingDecline] = useState(false);
  const [signOutPending, setSignOutPending] = useState(false);

  // The address is read after hydration, so the server's render and the first client one match.
  useEffect(() => {
    setLocated(readLocation(paths.acceptInvitation) ?? { id: null, path: "" });
  }, [paths.acceptInvitation]);

  const invitationId = options.invitationId ?? located?.id ?? null;
  const currentPath =
    located?.path ||
    (invitationId ? `${paths.acceptInvitation}/${encodeURIComponent(invitationId)}` : "");
  const query = useInvitation(invitationId);
  const organizations = useListOrganizations();

  const acceptAction = useAction(
    (id: string) => client.organization.acceptInvitation({ invitationId: id }),
    { invalidates: CHANGED_BY_ACCEPT },
  );
  const declineAction = useAction(
    (id: string) => client.organization.rejectInvitation({ invitationId: id }),
    { invalidates: [QUERY_KEYS.userInvitations] },
  );
  const openAction = useAction(
    async (id: string, organizationId: string): Promise<Result<null>> => {
      // Accepting uses the invitation up and makes the organization active; should it
      // fail, opening the organization still works.
      const accepted = await client.organization.acceptInvitation({ invitationId: id });
      if (!accepted.error) return { data: null, error: null };
      const activated = await client.organization.setActive({ organizationId });
      return activated.error ? activated : { data: null, error: null };
    },
    { invalidates: CHANGED_BY_ACCEPT },
  );
  const { onAccept, onDecline, redirectTo } = options;
  const destination = redirectTo ?? paths.organization;

  const accept = useCallback(async () => {
    if (!invitationId) return;
    declineAction.reset();
    const result = await acceptAction.run(invitationId);
    if (result.error) return;
    setOutcome("accepted");
    onAccept?.(result.data);
  }, [invitationId, acceptAction, declineAction, onAccept]);

  const askDecline = useCallback(() => {
    declineAction.reset();
    setConfirmingDecline(true);
  }, [declineAction]);
  const cancelDecline = useCallback(() => setConfirmingDecline(false), []);
  const decline = useCallback(async () => {
    if (!invitationId) return;
    acceptAction.reset();
    const result = await declineAction.run(invitationId);
    if (result.error) {
      // An answer that settles the page (gone, not yours) replaces the dialog.
      if (STATUS_OF_ERROR[result.error.code]) setConfirmingDecline(false);
      return;
    }
    setConfirmingDecline(false);
    setOutcome("declined");
    onDecline?.(result.data.invitation);
  }, [invitationId, acceptAction, declineAction, onDecline]);

  const continueToApp = useCallback(() => navigate(destination), [navigate, destination]);

  const invitation = query.data ?? null;
  const openOrganization = useCallback(async () => {
    if (!invitationId || !invitation) return;
    const result = await openAction.run(invitationId, invitation.organizationId);
    if (!result.error) navigate(destination);
  }, [invitationId, invitation, openAction, navigate, destination]);

  const signInHref = currentPath
    ? withQuery(paths.signIn, { redirectTo: currentPath })
    : paths.signIn;
  const signUpHref = withQuery(paths.signUp, {
    ...(invitationId ? { invitationId } : {}),
    ...(currentPath ? { redirectTo: currentPath } : {}),
  });

  const signOutAndSignIn = useCallback(async () => {
    setSignOutPending(true);
    await client.signOut();
    setSignOutPending(false);
    navigate(signInHref);
  }, [client, navigate, signInHref]);

  // The error that decides the page: the accept's or decline's, else the invitation's.
  const actionError = declineAction.error ?? acceptAction.error;
  const settling = actionError && STATUS_OF_ERROR[actionError.code] ? actionError : null;
  // A decline's own failure shows in its confirmation, not on the page.
  const error = settling ?? query.error ?? acceptAction.error;

  let status: AcceptInvitationStatus;
  if (!options.invitationId && !located) status = "loading";
  else if (!invitationId) status = "missing";
  else if (session.isPending && !session.data) status = "loading";
  else if (!session.data) status = "signed-out";
  else if (outcome) status = outcome;
  else if (settling) status = STATUS_OF_ERROR[settling.code] ?? "error";
  else if (query.error && !invitation) status = STATUS_OF_ERROR[query.error.code] ?? "error";
  else if (!invitation) status = "loading";
  else if (organizations.data?.some((org) => org.id === invitation.organizationId))
    status = "already-member";
  else status = "ready";

  return {
    status,
    invitationId,
    invitation,
    email: session.data?.user.email ?? null,
    recipientEmail: emailInDetails(error),
    error: status === "ready" || status === "error" ? error : null,
    signInHref,
    signUpHref,
    accept,
    acceptPending: acceptAction.isPending,
    confirmingDecline,
    askDecline,
    cancelDecline,
    decline,
    declinePending: declineAction.isPending,
    declineError: declineAction.error,
    continueToApp,
    openOrganization,
    openPending: openAction.isPending,
    openError: openAction.error,
    signOutAndSignIn,
    signOutPending,
  };
}
