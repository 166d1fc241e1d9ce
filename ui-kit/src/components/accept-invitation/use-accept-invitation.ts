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
  /**
   * The invitation's organization: from the invitation, or, once the server no longer
   * answers for an invitation the visitor has used, from their own organizations.
   */
  organization: { id: string; name: string } | null;
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

/**
 * Set on the address sign-up comes back to: the sign-up's verification link accepts the
 * invitation and makes its organization the active one, which the page then shows.
 */
const SIGNED_UP = "signedUp";

/**
 * This browser's memory of which organization each invitation it has seen belongs to:
 * authd answers nothing for an invitation once it is used, not even to its recipient.
 */
const MEMORY_KEY = "authd:invitation-organizations";
const MEMORY_SIZE = 50;

function storage(): Storage | null {
  try {
    return (globalThis as { localStorage?: Storage }).localStorage ?? null;
  } catch {
    // Storage can be switched off; the page then only knows what the server says.
    return null;
  }
}

function readMemory(): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(storage()?.getItem(MEMORY_KEY) ?? "{}");
    return parsed && typeof parsed === "object" ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}

function rememberedOrganization(invitationId: string): string | null {
  const value = readMemory()[invitationId];
  return typeof value === "string" ? value : null;
}

function rememberOrganization(invitationId: string, organizationId: string): void {
  const memory = readMemory();
  if (memory[invitationId] === organizationId) return;
  delete memory[invitationId];
  memory[invitationId] = organizationId;
  const entries = Object.entries(memory).slice(-MEMORY_SIZE);
  try {
    storage()?.setItem(MEMORY_KEY, JSON.stringify(Object.fromEntries(entries)));
  } catch {
    // A full or refused storage only costs the memory.
  }
}

/** `path` with `params` added to its query. */
function withQuery(path: string, params: Record<string, string>): string {
  const query = new URLSearchParams(params).toString();
  return `${path}${path.includes("?") ? "&" : "?"}${query}`;
}

interface Located {
  id: string | null;
  /** The address (path and query) without the sign-up marker. */
  path: string;
  signedUp: boolean;
}

/** The invitation id in the page's address, and the address itself (path and query). */
function readLocation(acceptPath: string): Located | null {
  const { location } = globalThis as { location?: { pathname: string; search: string } };
  if (!location) return null;
  const query = new URLSearchParams(location.search);
  const fromQuery = query.get("invitationId") ?? query.get("id");
  const segments = location.pathname.split("/").filter(Boolean);
  const last = segments[segments.length - 1] ?? null;
  // The accept page's own path without an id is not an id.
  const ownLast = acceptPath.split("/").filter(Boolean).pop();
  const fromPath = last && last !== ownLast ? decodeURIComponent(last) : null;
  const signedUp = query.get(SIGNED_UP) === "1";
  query.delete(SIGNED_UP);
  const search = query.toString();
  return {
    id: fromQuery || fromPath,
    path: `${location.pathname}${search ? `?${search}` : ""}`,
    signedUp,
  };
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
  const [located, setLocated] = useState<Located | null>(null);
  const [remembered, setRemembered] = useState<{ id: string; organizationId: string | null }>();
  const [outcome, setOutcome] = useState<"accepted" | "declined" | null>(null);
  const [confirmingDecline, setConfirmingDecline] = useState(false);
  const [signOutPending, setSignOutPending] = useState(false);

  // The address is read after hydration, so the server's render and the first client one match.
  useEffect(() => {
    setLocated(readLocation(paths.acceptInvitation) ?? { id: null, path: "", signedUp: false });
  }, [paths.acceptInvitation]);

  const invitationId = options.invitationId ?? located?.id ?? null;
  const currentPath =
    located?.path ||
    (invitationId ? `${paths.acceptInvitation}/${encodeURIComponent(invitationId)}` : "");
  const query = useInvitation(invitationId);
  const organizations = useListOrganizations();

  // Storage is read after hydration too, and again for another invitation.
  useEffect(() => {
    if (invitationId) {
      setRemembered({ id: invitationId, organizationId: rememberedOrganization(invitationId) });
    }
  }, [invitationId]);

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
    rememberOrganization(invitationId, result.data.invitation.organizationId);
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

  // The invitation's organization, when the server no longer shows the invitation: the
  // one this browser remembers for it, or (back from signing up with it, which joined
  // it) the organization the session was switched to. Either counts only if the visitor
  // is a member of it.
  const signedUp = Boolean(located?.signedUp);
  const memory = remembered?.id === invitationId ? remembered.organizationId : null;
  const activeId = session.data?.session.activeOrganizationId ?? null;
  const usedUp = [query.error, acceptAction.error, declineAction.error].some(
    (failure) => failure?.code === "INVITATION_NOT_FOUND",
  );
  const membership = (id: string | null | undefined) =>
    id ? (organizations.data?.find((org) => org.id === id) ?? null) : null;
  const joinedOnSignUp = usedUp && signedUp ? membership(activeId) : null;
  const joinedBefore = usedUp ? membership(invitation?.organizationId ?? memory) : null;
  const organization = invitation
    ? { id: invitation.organizationId, name: invitation.organizationName }
    : joinedOnSignUp
      ? { id: joinedOnSignUp.id, name: joinedOnSignUp.name }
      : joinedBefore
        ? { id: joinedBefore.id, name: joinedBefore.name }
        : null;

  const organizationId = organization?.id ?? null;

  useEffect(() => {
    if (invitationId && organizationId) rememberOrganization(invitationId, organizationId);
  }, [invitationId, organizationId]);

  const openOrganization = useCallback(async () => {
    if (!invitationId || !organizationId) return;
    const result = await openAction.run(invitationId, organizationId);
    if (!result.error) navigate(destination);
  }, [invitationId, organizationId, openAction, navigate, destination]);

  const signInHref = currentPath
    ? withQuery(paths.signIn, { redirectTo: currentPath })
    : paths.signIn;
  const signUpHref = withQuery(paths.signUp, {
    ...(invitationId ? { invitationId } : {}),
    ...(currentPath ? { redirectTo: withQuery(currentPath, { [SIGNED_UP]: "1" }) } : {}),
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

  // Whether the visitor is in the organization is known once theirs have loaded.
  const membershipKnown = organizations.data !== undefined || organizations.error !== null;
  const waitingForMemory = invitationId !== null && remembered?.id !== invitationId;

  let status: AcceptInvitationStatus;
  if (!options.invitationId && !located) status = "loading";
  else if (!invitationId) status = "missing";
  else if (session.isPending && !session.data) status = "loading";
  else if (!session.data) status = "signed-out";
  else if (outcome) status = outcome;
  else if (usedUp && (!membershipKnown || waitingForMemory)) status = "loading";
  else if (joinedOnSignUp) status = "accepted";
  else if (joinedBefore) status = "already-member";
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
    organization,
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
