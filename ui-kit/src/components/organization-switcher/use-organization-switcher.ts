/**
 * The organization switcher's logic without markup: the user's organizations, the
 * active one, switching (the session follows) and where "Create organization" leads.
 */
import { useCallback, useState } from "react";
import { useAuthContext } from "../../auth-context.js";
import type { AuthError } from "../../client/request.js";
import type { Organization } from "../../client/types.js";
import { QUERY_KEYS, useListOrganizations } from "../../hooks/organization.js";
import { useAction } from "../../hooks/use-action.js";
import { useSession } from "../../hooks/use-session.js";

export interface UseOrganizationSwitcherOptions {
  /** Leave out the "no organization" choice (personal account). */
  hidePersonal?: boolean;
  /** "navigate" (default) goes to `paths.createOrganization`; "dialog" opens <CreateOrganization/> in place. */
  createMode?: "navigate" | "dialog";
  /** Called once the session has switched, with the new active organization (null for none). */
  onSwitch?: (organization: Organization | null) => void;
}

export interface UseOrganizationSwitcherResult {
  organizations: Organization[];
  /** The active organization, null when none is active. */
  active: Organization | null;
  activeId: string | null;
  /** True until the list and the session are known. */
  isLoading: boolean;
  /** True while a switch runs. */
  pending: boolean;
  error: AuthError | null;
  hidePersonal: boolean;
  /** Makes `organizationId` active (null: no organization). */
  select: (organizationId: string | null) => Promise<void>;
  /** Follows the "Create organization" choice. */
  create: () => void;
  createDialogOpen: boolean;
  closeCreateDialog: () => void;
  /** After the dialog created an organization: the session now names it. */
  onCreated: () => Promise<void>;
}

export function useOrganizationSwitcher(
  options: UseOrganizationSwitcherOptions = {},
): UseOrganizationSwitcherResult {
  const { client, navigate, paths } = useAuthContext();
  const session = useSession();
  const list = useListOrganizations();
  const [createDialogOpen, setCreateDialogOpen] = useState(false);
  const { onSwitch, createMode = "navigate" } = options;
  const setActive = useAction(
    (organizationId: string | null) => client.organization.setActive({ organizationId }),
    {
      invalidates: [
        QUERY_KEYS.organizations,
        QUERY_KEYS.fullOrganization,
        QUERY_KEYS.activeMember,
        QUERY_KEYS.teams,
      ],
    },
  );
  const organizations = list.data ?? [];
  const activeId = session.data?.session.activeOrganizationId ?? null;
  const active = organizations.find((organization) => organization.id === activeId) ?? null;

  const select = useCallback(
    async (organizationId: string | null) => {
      if (organizationId === activeId) return;
      const result = await setActive.run(organizationId);
      // The session carries the active organization: every hook keyed on it follows.
      await client.session.refetch();
      if (!result.error) onSwitch?.(result.data);
    },
    [activeId, client, setActive.run, onSwitch],
  );

  const create = useCallback(() => {
    if (createMode === "dialog") setCreateDialogOpen(true);
    else navigate(paths.createOrganization);
  }, [createMode, navigate, paths.createOrganization]);

  const closeCreateDialog = useCallback(() => setCreateDialogOpen(false), []);
  const onCreated = useCallback(async () => {
    setCreateDialogOpen(false);
    await client.session.refetch();
  }, [client]);

  return {
    organizations,
    active,
    activeId,
    // A refetch (after a switch) keeps the button in place, and with it the focus.
    isLoading: (session.isPending && !session.data) || (list.isPending && list.data === undefined),
    pending: setActive.isPending,
    error: setActive.error ?? list.error,
    hidePersonal: Boolean(options.hidePersonal),
    select,
    create,
    createDialogOpen,
    closeCreateDialog,
    onCreated,
  };
}
