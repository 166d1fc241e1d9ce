/** The organization's pending invitations without markup, and canceling one (confirmed first). */
import { useCallback, useState } from "react";
import { useAuthContext } from "../../auth-context.js";
import type { AuthError } from "../../client/request.js";
import type { Invitation } from "../../client/types.js";
import { useAction } from "../../hooks/use-action.js";
import { canManage } from "./roles.js";
import {
  ORGANIZATION_CHANGES,
  type OrganizationScope,
  type UseOrganizationScopeOptions,
  useOrganizationScope,
} from "./use-organization-scope.js";

export type UsePendingInvitationsOptions = UseOrganizationScopeOptions;

export interface UsePendingInvitationsResult {
  scope: OrganizationScope;
  invitations: Invitation[];
  canCancel: boolean;
  /** The invitation awaiting confirmation of its cancellation, null when none. */
  canceling: Invitation | null;
  requestCancel: (invitation: Invitation) => void;
  dismissCancel: () => void;
  confirmCancel: () => Promise<void>;
  pending: boolean;
  error: AuthError | null;
  /** An expiry date in the page's language. */
  formatDate: (iso: string) => string;
}

export function usePendingInvitations(
  options: UsePendingInvitationsOptions = {},
): UsePendingInvitationsResult {
  const { client, locale } = useAuthContext();
  const scope = useOrganizationScope(options);
  const [canceling, setCanceling] = useState<Invitation | null>(null);
  const cancel = useAction(
    (invitationId: string) => client.organization.cancelInvitation({ invitationId }),
    { invalidates: ORGANIZATION_CHANGES },
  );
  const invitations = (scope.organization.data?.invitations ?? []).filter(
    (invitation) => invitation.status === "pending",
  );

  const confirmCancel = useCallback(async () => {
    if (!canceling) return;
    await cancel.run(canceling.id);
    setCanceling(null);
  }, [canceling, cancel.run]);

  const formatDate = useCallback(
    (iso: string) =>
      new Intl.DateTimeFormat(locale === "pseudo" ? "en" : locale, {
        dateStyle: "medium",
        timeStyle: "short",
      }).format(new Date(iso)),
    [locale],
  );

  return {
    scope,
    invitations,
    canCancel: canManage(scope.myRole),
    canceling,
    requestCancel: (invitation) => {
      cancel.reset();
      setCanceling(invitation);
    },
    dismissCancel: () => setCanceling(null),
    confirmCancel,
    pending: cancel.isPending,
    error: cancel.error,
    formatDate,
  };
}
