/**
 * The organization a settings section works on (the active one, or the one named) and
 * the signed-in user's membership in it, shared by every section through the cache.
 */
import { useAuthContext } from "../../auth-context.js";
import type { FullOrganization, MemberWithUser } from "../../client/types.js";
import { QUERY_KEYS, useActiveMember, useActiveOrganization } from "../../hooks/organization.js";
import type { QueryResult } from "../../hooks/use-query.js";
import { useQuery } from "../../hooks/use-query.js";
import { useSession } from "../../hooks/use-session.js";

export interface UseOrganizationScopeOptions {
  /** The organization to show; default the session's active one. */
  organizationId?: string;
}

export interface OrganizationScope {
  /** Null when no organization is active and none was named. */
  organizationId: string | null;
  organization: QueryResult<FullOrganization | null>;
  /** The signed-in user's membership, null until known. */
  me: MemberWithUser | null;
  /** The signed-in user's role (several joined by commas), "" until known. */
  myRole: string;
  isPending: boolean;
}

export function useOrganizationScope(options: UseOrganizationScopeOptions = {}): OrganizationScope {
  const { client } = useAuthContext();
  const session = useSession();
  const activeId = session.data?.session.activeOrganizationId ?? null;
  const named = options.organizationId && options.organizationId !== activeId;
  const active = useActiveOrganization();
  const activeMember = useActiveMember();
  // Another organization than the active one shares the same key, so both views stay in step.
  const other = useQuery(
    named ? `${QUERY_KEYS.fullOrganization}${options.organizationId}` : null,
    () => client.organization.getFullOrganization({ organizationId: options.organizationId }),
  );
  const organization = named ? other : active;
  const userId = session.data?.user.id;
  const me = named
    ? (other.data?.members.find((member) => member.userId === userId) ?? null)
    : (activeMember.data ??
      active.data?.members.find((member) => member.userId === userId) ??
      null);
  return {
    organizationId: named ? (options.organizationId ?? null) : activeId,
    organization,
    me,
    myRole: me?.role ?? "",
    // A refetch keeps showing what is there; only the first answer shows as loading.
    isPending:
      (session.isPending && !session.data) ||
      (organization.isPending && organization.data === undefined),
  };
}

/** What every change to an organization's members, invitations or details refreshes. */
export const ORGANIZATION_CHANGES = [QUERY_KEYS.fullOrganization, QUERY_KEYS.activeMember] as const;
