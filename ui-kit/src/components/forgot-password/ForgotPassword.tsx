import { useRef } from "react";
import { useAuthContext } from "../../auth-context.js";
import { useErrorText, useMessages } from "../../hooks/use-messages.js";
import { Alert } from "../../ui/alert.js";
import { Button, Footer, Form, Header, Text, Title } from "../../ui/elements.js";
import { EmailSent } from "../../ui/email-sent.js";
import { TextField } from "../../ui/fields.js";
import { useFocusOnChange } from "../../ui/focus.js";
import { useFocusOnStep } from "../../ui/focus-step.js";
import { hasErrors } from "../../ui/form-errors.js";
import { Root, type StyleProps } from "../../ui/root.js";
import { type UseForgotPasswordOptions, useForgotPassword } from "./use-forgot-password.js";

export type ForgotPasswordPart =
  | "root"
  | "header"
  | "title"
  | "text"
  | "form"
  | "field"
  | "input"
  | "button"
  | "alert"
  | "footer";

export interface ForgotPasswordProps
  extends UseForgotPasswordOptions,
    StyleProps<ForgotPasswordPart> {}

/** Asks for a password-reset link by email. */
export function ForgotPassword({ className, classNames, ...options }: ForgotPasswordProps) {
  const { Link, paths } = useAuthContext();
  const { common, auth } = useMessages();
  const errorText = useErrorText();
  const state = useForgotPassword(options);
  const form = useRef<HTMLFormElement>(null);
  const alert = useRef<HTMLDivElement>(null);
  const title = useRef<HTMLHeadingElement>(null);
  const fieldsInvalid = hasErrors(state.fieldErrors);
  useFocusOnChange(state.error ?? (fieldsInvalid ? state.fieldErrors : null), form, alert);
  useFocusOnStep(state.step, title);
  const footer = (
    <Footer>
      <Text>
        <Link href={paths.signIn}>{auth.forgotPassword.backToSignIn}</Link>
      </Text>
    </Footer>
  );

  if (state.step === "sent") {
    return (
      <EmailSent
        component="forgot-password"
        state="sent"
        className={className}
        classNames={classNames}
        title={auth.forgotPassword.sentTitle}
        titleRef={title}
        message={auth.forgotPassword.sent({ email: state.sentTo })}
        retryLabel={auth.forgotPassword.useAnotherEmail}
        onRetry={state.restart}
        footer={footer}
      />
    );
  }

  return (
    <Root
      component="forgot-password"
      state={state.pending ? "pending" : state.error ? "error" : undefined}
      className={className}
      classNames={classNames}
    >
      <Header>
        <Title ref={title}>{auth.forgotPassword.title}</Title>
        <Text>{auth.forgotPassword.description}</Text>
      </Header>
      <Form
        ref={form}
        onSubmit={(event) => void state.submit(event)}
        aria-label={auth.forgotPassword.title}
      >
        <TextField
          label={common.email}
          name="email"
          type="email"
          autoComplete="email"
          inputMode="email"
          required
          value={state.email}
          onChange={(event) => state.setEmail(event.target.value)}
          error={state.fieldErrors.email}
        />
        <Alert ref={alert}>{state.error && !fieldsInvalid ? errorText(state.error) : null}</Alert>
        <Button type="submit" pending={state.pending}>
          {auth.forgotPassword.submit}
        </Button>
      </Form>
      {footer}
    </Root>
  );
}
