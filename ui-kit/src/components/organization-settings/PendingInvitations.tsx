import { useRef } from "react";
import { useErrorText, useMessages } from "../../hooks/use-messages.js";
import { Alert } from "../../ui/alert.js";
import { ConfirmDialog } from "../../ui/confirm-dialog.js";
import { Button, Header, Text, Title } from "../../ui/elements.js";
import { useFocusOnChange } from "../../ui/focus.js";
import { usePart } from "../../ui/parts.js";
import { Root, type StyleProps } from "../../ui/root.js";
import { OrganizationGate } from "./OrganizationGate.js";
import { roleLabel } from "./roles.js";
import {
  type UsePendingInvitationsOptions,
  usePendingInvitations,
} from "./use-pending-invitations.js";

export type PendingInvitationsPart =
  | "root"
  | "header"
  | "title"
  | "text"
  | "list"
  | "invitation"
  | "invitation-email"
  | "invitation-role"
  | "invitation-expiry"
  | "button"
  | "alert"
  | "dialog"
  | "empty";

export interface PendingInvitationsProps
  extends UsePendingInvitationsOptions,
    StyleProps<PendingInvitationsPart> {
  /** "card" (default), or "inline" inside <OrganizationSettings/> (its heading a level lower). */
  variant?: "card" | "inline";
}

/** Invitations sent and not yet answered, each with its role and expiry, and a way to cancel it. */
export function PendingInvitations({
  variant = "card",
  className,
  classNames,
  ...options
}: PendingInvitationsProps) {
  const { common, organization: text } = useMessages();
  const errorText = useErrorText();
  const state = usePendingInvitations(options);
  const alert = useRef<HTMLDivElement>(null);
  useFocusOnChange(state.canceling ? null : state.error, alert, alert);
  const listPart = usePart("list");
  const itemPart = usePart("invitation");
  const emailPart = usePart("invitation-email");
  const rolePart = usePart("invitation-role");
  const expiryPart = usePart("invitation-expiry");
  const emptyPart = usePart("empty");

  // Only those who may invite see invitations: for others the server sends none.
  if (!state.scope.isPending && state.scope.me && !state.canCancel) return null;

  return (
    <Root
      component="pending-invitations"
      variant={variant}
      state={state.pending ? "pending" : state.error ? "error" : undefined}
      className={className}
      classNames={classNames}
    >
      <Header>
        <Title level={variant === "inline" ? 3 : 2}>{text.invitations.title}</Title>
      </Header>
      <OrganizationGate scope={state.scope}>
        <Alert ref={alert}>{state.error ? errorText(state.error) : null}</Alert>
        {state.invitations.length === 0 ? (
          <div data-state="empty" {...emptyPart}>
            <Text>{text.invitations.empty}</Text>
          </div>
        ) : (
          <ul aria-label={text.invitations.title} {...listPart}>
            {state.invitations.map((invitation) => (
              <li key={invitation.id} {...itemPart}>
                <span {...emailPart}>{invitation.email}</span>
                <span {...rolePart}>{roleLabel(invitation.role, text)}</span>
                <span {...expiryPart}>
                  {text.invitations.expires({ date: state.formatDate(invitation.expiresAt) })}
                </span>
                {state.canCancel ? (
                  <Button
                    variant="ghost"
                    aria-label={text.invitations.cancelFor({ email: invitation.email })}
                    onClick={() => state.requestCancel(invitation)}
                  >
                    {text.invitations.cancel}
                  </Button>
                ) : null}
              </li>
            ))}
          </ul>
        )}
        {state.canceling ? (
          <ConfirmDialog
            title={text.invitations.cancelTitle}
            description={text.invitations.cancelDescription({ email: state.canceling.email })}
            cancelLabel={common.back}
            confirmLabel={text.invitations.cancelConfirm}
            onCancel={state.dismissCancel}
            onConfirm={state.confirmCancel}
            pending={state.pending}
          />
        ) : null}
      </OrganizationGate>
    </Root>
  );
}
