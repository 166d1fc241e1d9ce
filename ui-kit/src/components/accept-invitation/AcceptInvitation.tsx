import { useEffect, useRef } from "react";
import { useAuthContext } from "../../auth-context.js";
import { useErrorText, useMessages } from "../../hooks/use-messages.js";
import { formatDate } from "../../i18n/format.js";
import { Alert } from "../../ui/alert.js";
import { ConfirmDialog } from "../../ui/confirm-dialog.js";
import { Button, Footer, Header, Loading, Text, Title } from "../../ui/elements.js";
import { usePart } from "../../ui/parts.js";
import { Root, type StyleProps } from "../../ui/root.js";
import { roleLabel } from "../organization-settings/roles.js";
import {
  type AcceptInvitationStatus,
  type UseAcceptInvitationOptions,
  useAcceptInvitation,
} from "./use-accept-invitation.js";

export type AcceptInvitationPart =
  | "root"
  | "header"
  | "title"
  | "text"
  | "button"
  | "link"
  | "alert"
  | "invitation-details"
  | "dialog"
  | "footer";

export interface AcceptInvitationProps
  extends UseAcceptInvitationOptions,
    StyleProps<AcceptInvitationPart> {}

/** States that replace the page after an answer: focus goes to their heading. */
const SETTLED: ReadonlySet<AcceptInvitationStatus> = new Set([
  "accepted",
  "declined",
  "not-found",
  "wrong-recipient",
  "verification-required",
  "already-member",
]);

/** The page an invitation link opens: see the invitation, then accept or decline it. */
export function AcceptInvitation({ className, classNames, ...options }: AcceptInvitationProps) {
  const messages = useMessages();
  const { invitations } = messages;
  const text = invitations.page;
  const { Link, locale } = useAuthContext();
  const errorText = useErrorText();
  const state = useAcceptInvitation(options);
  const title = useRef<HTMLHeadingElement>(null);
  const alert = useRef<HTMLDivElement>(null);
  const detailsPart = usePart("invitation-details");
  const linkPart = usePart("link");
  const { status } = state;
  const organization = state.organization?.name ?? "";

  useEffect(() => {
    if (SETTLED.has(status)) title.current?.focus();
  }, [status]);
  useEffect(() => {
    if (state.error && status === "ready") alert.current?.focus();
  }, [state.error, status]);

  let heading: string = text.title;
  if (status === "signed-out") heading = text.signedOutTitle;
  else if (status === "ready") heading = text.invitedTitle({ organization });
  else if (status === "accepted") heading = text.acceptedTitle({ organization });
  else if (status === "declined") heading = text.declinedTitle;
  else if (status === "not-found") heading = text.notFoundTitle;
  else if (status === "wrong-recipient") heading = text.wrongRecipientTitle;
  else if (status === "verification-required") heading = text.verifyTitle;
  else if (status === "already-member") heading = text.alreadyMemberTitle({ organization });

  return (
    <Root
      component="accept-invitation"
      state={status}
      className={className}
      classNames={classNames}
    >
      <Header>
        <Title ref={title}>{heading}</Title>
      </Header>
      {status === "loading" ? <Loading label={text.loading} /> : null}
      {status === "missing" ? <Alert>{text.missingId}</Alert> : null}
      {status === "signed-out" ? (
        <>
          <Text>{text.signedOut}</Text>
          <Footer>
            <Link href={state.signUpHref} data-variant="secondary" {...linkPart}>
              {text.signUp}
            </Link>
            <Link href={state.signInHref} data-variant="primary" {...linkPart}>
              {text.signIn}
            </Link>
          </Footer>
        </>
      ) : null}
      {status === "ready" && state.invitation ? (
        <>
          <div {...detailsPart}>
            <Text>{text.invitedBy({ inviter: state.invitation.inviterEmail, organization })}</Text>
            <Text>
              {text.role({ role: roleLabel(state.invitation.role, messages.organization) })}
            </Text>
            <Text>{text.expires({ date: formatDate(locale, state.invitation.expiresAt) })}</Text>
          </div>
          <Alert ref={alert}>{state.error ? errorText(state.error) : null}</Alert>
          <Footer>
            <Button variant="secondary" onClick={state.askDecline} disabled={state.acceptPending}>
              {text.decline}
            </Button>
            <Button pending={state.acceptPending} onClick={() => void state.accept()}>
              {text.accept}
            </Button>
          </Footer>
        </>
      ) : null}
      {status === "accepted" ? (
        <>
          <Text>{text.acceptedText}</Text>
          <Footer>
            <Button onClick={state.continueToApp}>{text.continue}</Button>
          </Footer>
        </>
      ) : null}
      {status === "declined" ? <Text>{text.declinedText({ organization })}</Text> : null}
      {status === "not-found" ? <Text>{text.notFoundText}</Text> : null}
      {status === "wrong-recipient" ? (
        <>
          <Text>
            {state.recipientEmail
              ? text.wrongRecipientTo({
                  email: state.recipientEmail,
                  current: state.email ?? "",
                })
              : text.wrongRecipient({ current: state.email ?? "" })}
          </Text>
          <Footer>
            <Button pending={state.signOutPending} onClick={() => void state.signOutAndSignIn()}>
              {text.signOutAndSignIn}
            </Button>
          </Footer>
        </>
      ) : null}
      {status === "verification-required" ? (
        <Alert>{text.verifyText({ email: state.email ?? "" })}</Alert>
      ) : null}
      {status === "already-member" ? (
        <>
          <Text>{text.alreadyMemberText}</Text>
          <Alert>{state.openError ? errorText(state.openError) : null}</Alert>
          <Footer>
            <Button pending={state.openPending} onClick={() => void state.openOrganization()}>
              {text.openOrganization}
            </Button>
          </Footer>
        </>
      ) : null}
      {status === "error" && state.error ? <Alert>{errorText(state.error)}</Alert> : null}
      {state.confirmingDecline && status === "ready" ? (
        <ConfirmDialog
          title={invitations.declineTitle({ organization })}
          description={invitations.declineDescription}
          confirmLabel={invitations.declineConfirm}
          onCancel={state.cancelDecline}
          onConfirm={state.decline}
          pending={state.declinePending}
          error={state.declineError}
        />
      ) : null}
    </Root>
  );
}
