import { useRef } from "react";
import { useAuthContext } from "../../auth-context.js";
import { useErrorText, useMessages } from "../../hooks/use-messages.js";
import { Alert } from "../../ui/alert.js";
import { Button, Footer, Header, Loading, Text, Title } from "../../ui/elements.js";
import { useFocusOnChange } from "../../ui/focus.js";
import { useFocusOnStep } from "../../ui/focus-step.js";
import { Root, type StyleProps } from "../../ui/root.js";
import { type UseVerifyEmailOptions, useVerifyEmail } from "./use-verify-email.js";

export type VerifyEmailPart =
  | "root"
  | "header"
  | "title"
  | "text"
  | "button"
  | "alert"
  | "footer"
  | "loading";

export interface VerifyEmailProps extends UseVerifyEmailOptions, StyleProps<VerifyEmailPart> {}

/** The page a mailed verification link lands on, and where a new link can be asked for. */
export function VerifyEmail({ className, classNames, ...options }: VerifyEmailProps) {
  const { Link, paths } = useAuthContext();
  const { auth } = useMessages();
  const errorText = useErrorText();
  const state = useVerifyEmail(options);
  const title = useRef<HTMLHeadingElement>(null);
  const alert = useRef<HTMLDivElement>(null);
  const none = useRef<HTMLElement>(null);
  const { verifyEmail: text } = auth;
  useFocusOnStep(state.step, title);
  useFocusOnChange(state.resendError, none, alert);
  const root = { component: "verify-email", state: state.step, className, classNames };

  if (state.step === "loading") {
    return (
      <Root {...root}>
        <Loading />
      </Root>
    );
  }
  if (state.step === "verifying") {
    return (
      <Root {...root}>
        <Header>
          <Title ref={title}>{text.verifyingTitle}</Title>
        </Header>
        <Loading label={text.verifying} />
      </Root>
    );
  }
  if (state.step === "verified") {
    return (
      <Root {...root}>
        <Header>
          <Title ref={title}>{text.verifiedTitle}</Title>
          <Text>{state.alreadyVerified ? text.alreadyVerified : text.verified}</Text>
        </Header>
        <Alert ref={alert}>{state.error ? errorText(state.error) : null}</Alert>
        <Button onClick={state.continueToApp}>{text.continue}</Button>
      </Root>
    );
  }
  if (state.step === "signed-out") {
    return (
      <Root {...root}>
        <Header>
          <Title ref={title}>{text.unverifiedTitle}</Title>
          <Text>{text.signedOut}</Text>
        </Header>
        <Footer>
          <Text>
            <Link href={paths.signIn}>{text.signIn}</Link>
          </Text>
        </Footer>
      </Root>
    );
  }

  const resend = state.canResend ? (
    <>
      <Alert ref={alert}>{state.resendError ? errorText(state.resendError) : null}</Alert>
      <Button
        variant={state.step === "failed" ? "primary" : "secondary"}
        pending={state.resendPending}
        onClick={() => void state.resend()}
      >
        {text.resend}
      </Button>
    </>
  ) : null;

  if (state.step === "failed") {
    return (
      <Root {...root}>
        <Header>
          <Title ref={title}>{text.failedTitle}</Title>
          <Text>{state.error ? errorText(state.error) : null}</Text>
        </Header>
        {resend}
        {state.canResend ? null : (
          <Footer>
            <Text>
              <Link href={paths.signIn}>{text.signInForNewLink}</Link>
            </Text>
          </Footer>
        )}
      </Root>
    );
  }

  if (state.step === "sent") {
    return (
      <Root {...root}>
        <Header>
          <Title ref={title}>{text.sentTitle}</Title>
          <Text>{text.sent({ email: state.email ?? "" })}</Text>
        </Header>
      </Root>
    );
  }

  return (
    <Root {...root}>
      <Header>
        <Title ref={title}>{text.unverifiedTitle}</Title>
        <Text>{text.unverified({ email: state.email ?? "" })}</Text>
      </Header>
      {resend}
    </Root>
  );
}
