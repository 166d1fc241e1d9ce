/**
 * The user menu's logic without markup: who is signed in, their organizations and the
 * active one, switching organization and signing out. <UserButton/> is this plus markup.
 */
import { useCallback, useState } from "react";
import { useAuthContext } from "../../auth-context.js";
import type { AuthError } from "../../client/request.js";
import type { Organization, User } from "../../client/types.js";
import { QUERY_KEYS, useListOrganizations } from "../../hooks/organization.js";
import { useAction } from "../../hooks/use-action.js";
import { useSession } from "../../hooks/use-session.js";

export interface UseUserButtonOptions {
  /** List the user's organizations to switch between. Default true. */
  showOrganizations?: boolean;
  /** Where to go after signing out; default the provider's `paths.afterSignOut`. */
  afterSignOutPath?: string;
}

export interface UseUserButtonResult {
  status: "loading" | "signed-out" | "signed-in";
  user: User | null;
  /** The user's organizations; empty while they load or when not shown. */
  organizations: Organization[];
  organizationsPending: boolean;
  activeOrganizationId: string | null;
  switchOrganization: (organizationId: string | null) => Promise<void>;
  /** The organization being switched to ("" for the personal account). */
  switching: string | null;
  signOut: () => Promise<void>;
  signingOut: boolean;
  error: AuthError | null;
}

export function useUserButton(options: UseUserButtonOptions = {}): UseUserButtonResult {
  const { client, navigate, paths } = useAuthContext();
  const session = useSession();
  const showOrganizations = options.showOrganizations ?? true;
  const organizations = useListOrganizations({ enabled: showOrganizations });
  const [switching, setSwitching] = useState<string | null>(null);
  const switchAction = useAction(
    (organizationId: string | null) => client.organization.setActive({ organizationId }),
    {
      invalidates: [QUERY_KEYS.organizations, QUERY_KEYS.fullOrganization, QUERY_KEYS.activeMember],
    },
  );
  const signOutAction = useAction(() => client.signOut());
  const afterSignOut = options.afterSignOutPath ?? paths.afterSignOut;

  const switchOrganization = useCallback(
    async (organizationId: string | null) => {
      setSwitching(organizationId ?? "");
      const result = await switchAction.run(organizationId);
      // The active organization lives on the session: read it again.
      if (!result.error) await session.refetch();
      setSwitching(null);
    },
    [switchAction, session],
  );

  const signOut = useCallback(async () => {
    const result = await signOutAction.run();
    if (!result.error) navigate(afterSignOut);
  }, [signOutAction, navigate, afterSignOut]);

  return {
    status: session.data ? "signed-in" : session.isPending ? "loading" : "signed-out",
    user: session.data?.user ?? null,
    organizations: organizations.data ?? [],
    organizationsPending: organizations.isPending,
    activeOrganizationId: session.data?.session.activeOrganizationId ?? null,
    switchOrganization,
    switching,
    signOut,
    signingOut: signOutAction.isPending,
    error: switchAction.error ?? signOutAction.error,
  };
}
