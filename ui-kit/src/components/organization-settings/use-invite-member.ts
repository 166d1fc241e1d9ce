/**
 * Inviting someone without markup: email, role (only those the signed-in member may
 * give), an optional team, and sending the invitation again when one is pending.
 */
import { type FormEvent, useCallback, useState } from "react";
import { useAuthContext } from "../../auth-context.js";
import type { AuthError } from "../../client/request.js";
import type { Invitation, Team } from "../../client/types.js";
import { useAction } from "../../hooks/use-action.js";
import { useMessages } from "../../hooks/use-messages.js";
import {
  type FieldErrors,
  fieldsOfValidationError,
  hasErrors,
  looksLikeEmail,
} from "../../ui/form-errors.js";
import { assignableRoles, canManage } from "./roles.js";
import {
  ORGANIZATION_CHANGES,
  type OrganizationScope,
  type UseOrganizationScopeOptions,
  useOrganizationScope,
} from "./use-organization-scope.js";

export type InviteMemberField = "email" | "role" | "teamId";

export interface UseInviteMemberOptions extends UseOrganizationScopeOptions {
  onSuccess?: (invitation: Invitation & { url: string }) => void;
}

export interface UseInviteMemberResult {
  scope: OrganizationScope;
  /** Whether the signed-in member may invite at all. */
  canInvite: boolean;
  email: string;
  setEmail: (value: string) => void;
  role: string;
  setRole: (value: string) => void;
  roles: string[];
  /** The organization's teams; null when teams are off on the server. */
  teams: Team[] | null;
  /** The chosen team id, "" for none. */
  teamId: string;
  setTeamId: (value: string) => void;
  fieldErrors: FieldErrors<InviteMemberField>;
  error: AuthError | null;
  /** True when the address already has a pending invitation: offer `resend`. */
  alreadyInvited: boolean;
  /** The address the last invitation went to, null until one was sent. */
  sentTo: string | null;
  /** Whether the last invitation sent was one sent again. */
  resent: boolean;
  pending: boolean;
  submit: (event?: FormEvent) => Promise<void>;
  resend: () => Promise<void>;
}

export function useInviteMember(options: UseInviteMemberOptions = {}): UseInviteMemberResult {
  const { client } = useAuthContext();
  const { common } = useMessages();
  const scope = useOrganizationScope(options);
  const organizationId = scope.organizationId ?? undefined;
  const [email, setEmail] = useState("");
  const [role, setRole] = useState("member");
  const [teamId, setTeamId] = useState("");
  const [fieldErrors, setFieldErrors] = useState<FieldErrors<InviteMemberField>>({});
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [resent, setResent] = useState(false);
  const { onSuccess } = options;

  const invite = useAction(
    (input: { email: string; role: string; teamId?: string; resend?: boolean }) =>
      client.organization.inviteMember({ ...input, organizationId }),
    { invalidates: ORGANIZATION_CHANGES },
  );

  const send = useCallback(
    async (again: boolean) => {
      const found: FieldErrors<InviteMemberField> = {};
      const address = email.trim();
      if (!address) found.email = common.required;
      else if (!looksLikeEmail(address)) found.email = common.invalidEmail;
      if (!role) found.role = common.required;
      setFieldErrors(found);
      setSentTo(null);
      invite.reset();
      if (hasErrors(found)) return;
      const result = await invite.run({
        email: address,
        role,
        ...(teamId ? { teamId } : {}),
        ...(again ? { resend: true } : {}),
      });
      if (result.error) {
        setFieldErrors(
          fieldsOfValidationError(result.error, ["email", "role", "teamId"], common.invalidField),
        );
        return;
      }
      setSentTo(address);
      setResent(again);
      setEmail("");
      onSuccess?.(result.data);
    },
    [common, email, role, teamId, invite.run, invite.reset, onSuccess],
  );

  return {
    scope,
    canInvite: canManage(scope.myRole),
    email,
    setEmail: (value) => {
      setEmail(value);
      setSentTo(null);
    },
    role,
    setRole,
    roles: assignableRoles(scope.myRole),
    teams: scope.organization.data?.teams ?? null,
    teamId,
    setTeamId,
    fieldErrors,
    error: invite.error,
    alreadyInvited: invite.error?.code === "USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION",
    sentTo,
    resent,
    pending: invite.isPending,
    submit: async (event) => {
      event?.preventDefault();
      await send(false);
    },
    resend: () => send(true),
  };
}
