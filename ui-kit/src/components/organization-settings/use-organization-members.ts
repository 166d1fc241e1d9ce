/**
 * The members list without markup: who is in the organization, which rows the signed-in
 * member may change, role changes and removals (confirmed first).
 */
import { useCallback, useState } from "react";
import { useAuthContext } from "../../auth-context.js";
import type { AuthError } from "../../client/request.js";
import type { MemberWithUser } from "../../client/types.js";
import { useAction } from "../../hooks/use-action.js";
import { assignableRoles, canManageMember, hasRole } from "./roles.js";
import {
  ORGANIZATION_CHANGES,
  type OrganizationScope,
  type UseOrganizationScopeOptions,
  useOrganizationScope,
} from "./use-organization-scope.js";

export type UseOrganizationMembersOptions = UseOrganizationScopeOptions;

export interface UseOrganizationMembersResult {
  scope: OrganizationScope;
  members: MemberWithUser[];
  /** True when nobody but the signed-in user is a member. */
  alone: boolean;
  isMe: (member: MemberWithUser) => boolean;
  /** Whether the signed-in member may change this member's role or remove them. */
  canEdit: (member: MemberWithUser) => boolean;
  /** The roles the signed-in member may give. */
  roles: string[];
  changeRole: (member: MemberWithUser, role: string) => Promise<void>;
  /** The member awaiting confirmation of their removal, null when none. */
  removing: MemberWithUser | null;
  requestRemove: (member: MemberWithUser) => void;
  cancelRemove: () => void;
  confirmRemove: () => Promise<void>;
  /** The member whose change is running, null when none. */
  pendingMemberId: string | null;
  error: AuthError | null;
}

export function useOrganizationMembers(
  options: UseOrganizationMembersOptions = {},
): UseOrganizationMembersResult {
  const { client } = useAuthContext();
  const scope = useOrganizationScope(options);
  const organizationId = scope.organizationId ?? undefined;
  const [removing, setRemoving] = useState<MemberWithUser | null>(null);
  const [pendingMemberId, setPendingMemberId] = useState<string | null>(null);
  const [error, setError] = useState<AuthError | null>(null);
  const members = scope.organization.data?.members ?? [];
  const myId = scope.me?.id;
  const myRole = scope.myRole;

  const updateRole = useAction(
    (memberId: string, role: string) =>
      client.organization.updateMemberRole({ memberId, role, organizationId }),
    { invalidates: ORGANIZATION_CHANGES },
  );
  const removeMember = useAction(
    (memberId: string) =>
      client.organization.removeMember({ memberIdOrEmail: memberId, organizationId }),
    { invalidates: ORGANIZATION_CHANGES },
  );

  const isMe = useCallback((member: MemberWithUser) => member.id === myId, [myId]);
  // Your own row is left alone here: leaving is its own action, and demoting yourself by a slip
  // of the select would lock you out.
  const canEdit = useCallback(
    (member: MemberWithUser) => member.id !== myId && canManageMember(myRole, member.role),
    [myId, myRole],
  );

  const changeRole = useCallback(
    async (member: MemberWithUser, role: string) => {
      if (role === member.role) return;
      setError(null);
      setPendingMemberId(member.id);
      const result = await updateRole.run(member.id, role);
      setPendingMemberId(null);
      if (result.error) setError(result.error);
    },
    [updateRole.run],
  );

  const confirmRemove = useCallback(async () => {
    if (!removing) return;
    setError(null);
    setPendingMemberId(removing.id);
    const result = await removeMember.run(removing.id);
    setPendingMemberId(null);
    setRemoving(null);
    if (result.error) setError(result.error);
  }, [removing, removeMember.run]);

  return {
    scope,
    members,
    alone: members.every((member) => member.id === myId),
    isMe,
    canEdit,
    roles: assignableRoles(myRole),
    changeRole,
    removing,
    requestRemove: (member) => {
      setError(null);
      setRemoving(member);
    },
    cancelRemove: () => setRemoving(null),
    confirmRemove,
    pendingMemberId,
    error,
  };
}

/** Whether a member holds the owner role (for labels and counts). */
export function isOwner(member: MemberWithUser): boolean {
  return hasRole(member.role, "owner");
}
