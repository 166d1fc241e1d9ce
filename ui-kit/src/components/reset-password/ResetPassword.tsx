import { useRef } from "react";
import { useAuthContext } from "../../auth-context.js";
import { useErrorText, useMessages } from "../../hooks/use-messages.js";
import { Alert } from "../../ui/alert.js";
import { Button, Footer, Form, Header, Loading, Text, Title } from "../../ui/elements.js";
import { PasswordField } from "../../ui/fields.js";
import { useFocusOnChange } from "../../ui/focus.js";
import { useFocusOnStep } from "../../ui/focus-step.js";
import { hasErrors } from "../../ui/form-errors.js";
import { Root, type StyleProps } from "../../ui/root.js";
import { type UseResetPasswordOptions, useResetPassword } from "./use-reset-password.js";

export type ResetPasswordPart =
  | "root"
  | "header"
  | "title"
  | "text"
  | "form"
  | "field"
  | "input"
  | "hint"
  | "button"
  | "alert"
  | "footer"
  | "loading";

export interface ResetPasswordProps
  extends UseResetPasswordOptions,
    StyleProps<ResetPasswordPart> {}

/** The page a password-reset link lands on: a new password, twice. */
export function ResetPassword({ className, classNames, ...options }: ResetPasswordProps) {
  const { Link, paths } = useAuthContext();
  const { auth } = useMessages();
  const errorText = useErrorText();
  const state = useResetPassword(options);
  const form = useRef<HTMLFormElement>(null);
  const alert = useRef<HTMLDivElement>(null);
  const title = useRef<HTMLHeadingElement>(null);
  const fieldsInvalid = hasErrors(state.fieldErrors);
  useFocusOnChange(state.error ?? (fieldsInvalid ? state.fieldErrors : null), form, alert);
  useFocusOnStep(state.step, title);
  const root = { component: "reset-password", className, classNames };

  if (state.step === "loading") {
    return (
      <Root {...root} state="loading">
        <Loading />
      </Root>
    );
  }

  if (state.step === "invalid-link") {
    return (
      <Root {...root} state="invalid-link">
        <Header>
          <Title ref={title}>{auth.resetPassword.invalidTitle}</Title>
          <Text>
            {state.linkError?.code === "TOKEN_EXPIRED"
              ? auth.resetPassword.expired
              : auth.resetPassword.invalid}
          </Text>
        </Header>
        <Footer>
          <Text>
            <Link href={paths.forgotPassword}>{auth.resetPassword.requestNew}</Link>
          </Text>
        </Footer>
      </Root>
    );
  }

  if (state.step === "done") {
    return (
      <Root {...root} state="done">
        <Header>
          <Title ref={title}>{auth.resetPassword.doneTitle}</Title>
          <Text>{auth.resetPassword.done}</Text>
        </Header>
        <Footer>
          <Text>
            <Link href={paths.signIn}>{auth.resetPassword.signIn}</Link>
          </Text>
        </Footer>
      </Root>
    );
  }

  return (
    <Root {...root} state={state.pending ? "pending" : state.error ? "error" : undefined}>
      <Header>
        <Title ref={title}>{auth.resetPassword.title}</Title>
        <Text>{auth.resetPassword.description}</Text>
      </Header>
      <Form
        ref={form}
        onSubmit={(event) => void state.submit(event)}
        aria-label={auth.resetPassword.title}
      >
        <PasswordField
          label={auth.resetPassword.newPassword}
          name="password"
          autoComplete="new-password"
          required
          minLength={state.minPasswordLength}
          value={state.password}
          onChange={(event) => state.setPassword(event.target.value)}
          hint={auth.signUp.passwordHint({ min: state.minPasswordLength })}
          error={state.fieldErrors.password}
        />
        <PasswordField
          label={auth.resetPassword.confirmPassword}
          name="confirmPassword"
          autoComplete="new-password"
          required
          value={state.confirmPassword}
          onChange={(event) => state.setConfirmPassword(event.target.value)}
          error={state.fieldErrors.confirmPassword}
        />
        <Alert ref={alert}>{state.error && !fieldsInvalid ? errorText(state.error) : null}</Alert>
        <Button type="submit" pending={state.pending}>
          {auth.resetPassword.submit}
        </Button>
      </Form>
    </Root>
  );
}
