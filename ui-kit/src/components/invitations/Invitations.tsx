import { useRef } from "react";
import { useAuthContext } from "../../auth-context.js";
import { useErrorText, useMessages } from "../../hooks/use-messages.js";
import { formatDate } from "../../i18n/format.js";
import { Alert } from "../../ui/alert.js";
import { ConfirmDialog } from "../../ui/confirm-dialog.js";
import { Button, Header, Loading, Text, Title } from "../../ui/elements.js";
import { useFocusOnChange } from "../../ui/focus.js";
import { usePart } from "../../ui/parts.js";
import { Root, type StyleProps } from "../../ui/root.js";
import { roleLabel } from "../organization-settings/roles.js";
import { type UseUserInvitationsOptions, useUserInvitations } from "./use-user-invitations.js";

export type InvitationsPart =
  | "root"
  | "header"
  | "title"
  | "text"
  | "button"
  | "alert"
  | "list"
  | "list-item"
  | "invitation-organization"
  | "invitation-details"
  | "invitation-actions"
  | "badge"
  | "dialog"
  | "footer";

export interface InvitationsProps extends UseUserInvitationsOptions, StyleProps<InvitationsPart> {}

/** The signed-in user's pending invitations, to accept or decline. */
export function Invitations({ className, classNames, ...options }: InvitationsProps) {
  const messages = useMessages();
  const { invitations: text, common } = messages;
  const { locale } = useAuthContext();
  const errorText = useErrorText();
  const state = useUserInvitations(options);
  const root = useRef<HTMLDivElement>(null);
  const alert = useRef<HTMLDivElement>(null);
  // The accepted or declined row leaves the list: focus goes to the news instead of nowhere.
  useFocusOnChange(state.outcome ?? state.acceptError, root, alert);
  const listPart = usePart("list");
  const itemPart = usePart("list-item");
  const organizationPart = usePart("invitation-organization");
  const detailsPart = usePart("invitation-details");
  const actionsPart = usePart("invitation-actions");
  const badgePart = usePart("badge");

  return (
    <Root
      component="invitations"
      state={state.status}
      className={className}
      classNames={classNames}
      as="section"
    >
      <Header>
        <Title>{text.title}</Title>
        <Text>{text.description}</Text>
      </Header>
      <Alert ref={alert} tone={state.outcome ? "success" : "error"}>
        {state.outcome
          ? state.outcome.kind === "accepted"
            ? text.accepted({ organization: state.outcome.organizationName })
            : text.declined({ organization: state.outcome.organizationName })
          : state.acceptError
            ? errorText(state.acceptError)
            : null}
      </Alert>
      {state.status === "loading" ? <Loading label={text.loading} /> : null}
      {state.status === "signed-out" ? <Text>{text.signedOut}</Text> : null}
      {state.status === "verification-required" ? (
        <>
          <Alert>{text.verificationRequired}</Alert>
          {state.email ? <Text>{text.verificationHint({ email: state.email })}</Text> : null}
        </>
      ) : null}
      {state.status === "error" && state.error ? (
        <>
          <Alert>{errorText(state.error)}</Alert>
          <Button variant="secondary" onClick={() => void state.retry()}>
            {common.retry}
          </Button>
        </>
      ) : null}
      {state.status === "empty" ? <Text>{text.empty}</Text> : null}
      {state.status === "ready" ? (
        <>
          <Text>{text.count({ count: state.invitations.length })}</Text>
          <ul aria-label={text.title} {...listPart}>
            {state.invitations.map((invitation) => {
              const organization = invitation.organizationName;
              return (
                <li
                  key={invitation.id}
                  data-state={invitation.expired ? "expired" : "pending"}
                  {...itemPart}
                >
                  <strong {...organizationPart}>{organization}</strong>
                  <span {...badgePart}>
                    {text.role({ role: roleLabel(invitation.role, messages.organization) })}
                  </span>
                  <span {...detailsPart}>
                    {invitation.inviterEmail
                      ? `${text.invitedBy({ email: invitation.inviterEmail })} · `
                      : null}
                    {invitation.expired
                      ? text.expired
                      : text.expires({ date: formatDate(locale, invitation.expiresAt) })}
                  </span>
                  {invitation.expired ? (
                    <Text>{text.expiredHint}</Text>
                  ) : (
                    <div {...actionsPart}>
                      <Button
                        aria-label={text.acceptFor({ organization })}
                        pending={state.accepting === invitation.id}
                        disabled={state.accepting !== null}
                        onClick={() => void state.accept(invitation)}
                      >
                        {text.accept}
                      </Button>
                      <Button
                        variant="secondary"
                        aria-label={text.declineFor({ organization })}
                        disabled={state.accepting !== null}
                        onClick={() => state.askDecline(invitation)}
                      >
                        {text.decline}
                      </Button>
                    </div>
                  )}
                </li>
              );
            })}
          </ul>
        </>
      ) : null}
      {state.declining ? (
        <ConfirmDialog
          title={text.declineTitle({ organization: state.declining.organizationName })}
          description={text.declineDescription}
          confirmLabel={text.declineConfirm}
          onCancel={state.cancelDecline}
          onConfirm={state.confirmDecline}
          pending={state.declinePending}
          error={state.declineError}
        />
      ) : null}
    </Root>
  );
}
