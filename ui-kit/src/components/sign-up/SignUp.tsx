import { useRef } from "react";
import { useAuthContext } from "../../auth-context.js";
import { useErrorText, useMessages } from "../../hooks/use-messages.js";
import { Alert } from "../../ui/alert.js";
import { Button, Divider, Footer, Form, Header, Text, Title } from "../../ui/elements.js";
import { EmailSent } from "../../ui/email-sent.js";
import { PasswordField, TextField } from "../../ui/fields.js";
import { useFocusOnChange } from "../../ui/focus.js";
import { useFocusOnStep } from "../../ui/focus-step.js";
import { hasErrors } from "../../ui/form-errors.js";
import { Root, type StyleProps } from "../../ui/root.js";
import { SocialButtons } from "../social/SocialButtons.js";
import { type UseSignUpOptions, useSignUp } from "./use-sign-up.js";

export type SignUpPart =
  | "root"
  | "header"
  | "title"
  | "text"
  | "form"
  | "field"
  | "input"
  | "hint"
  | "button"
  | "social-button"
  | "alert"
  | "footer";

export interface SignUpProps extends UseSignUpOptions, StyleProps<SignUpPart> {
  /** Hide the link to sign-in. */
  hideSignInLink?: boolean;
}

/** Name, email and password sign-up, with the configured social providers. */
export function SignUp({ hideSignInLink, className, classNames, ...options }: SignUpProps) {
  const { Link, paths } = useAuthContext();
  const { common, auth } = useMessages();
  const errorText = useErrorText();
  const state = useSignUp(options);
  const form = useRef<HTMLFormElement>(null);
  const alert = useRef<HTMLDivElement>(null);
  const title = useRef<HTMLHeadingElement>(null);
  const fieldsInvalid = hasErrors(state.fieldErrors);
  useFocusOnChange(state.error ?? (fieldsInvalid ? state.fieldErrors : null), form, alert);
  useFocusOnStep(state.step, title);
  const providers = state.providers.data ?? [];
  const footer = hideSignInLink ? null : (
    <Footer>
      <Text>
        {auth.signUp.haveAccount} <Link href={paths.signIn}>{auth.signUp.signInLink}</Link>
      </Text>
    </Footer>
  );

  if (state.step === "verify-email") {
    return (
      <EmailSent
        component="sign-up"
        state="verify-email"
        className={className}
        classNames={classNames}
        title={auth.signUp.checkEmailTitle}
        titleRef={title}
        message={auth.signUp.checkEmail({ email: state.sentTo })}
        retryLabel={auth.signUp.useAnotherEmail}
        onRetry={state.restart}
        footer={footer}
      />
    );
  }

  return (
    <Root
      component="sign-up"
      state={state.pending ? "pending" : state.error ? "error" : undefined}
      className={className}
      classNames={classNames}
    >
      <Header>
        <Title ref={title}>{auth.signUp.title}</Title>
        <Text>{auth.signUp.description}</Text>
      </Header>
      {providers.length > 0 ? (
        <>
          <SocialButtons
            providers={providers}
            pending={state.socialPending}
            onSelect={(id) => void state.signInWithProvider(id)}
            disabled={state.pending}
          />
          <Divider>{common.or}</Divider>
        </>
      ) : null}
      <Form
        ref={form}
        onSubmit={(event) => void state.submit(event)}
        aria-label={auth.signUp.title}
      >
        <TextField
          label={common.name}
          name="name"
          autoComplete="name"
          required
          value={state.name}
          onChange={(event) => state.setName(event.target.value)}
          error={state.fieldErrors.name}
        />
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
        <PasswordField
          label={common.password}
          name="password"
          autoComplete="new-password"
          required
          minLength={state.minPasswordLength}
          value={state.password}
          onChange={(event) => state.setPassword(event.target.value)}
          hint={auth.signUp.passwordHint({ min: state.minPasswordLength })}
          error={state.fieldErrors.password}
        />
        {state.showImage ? (
          <TextField
            label={auth.signUp.imageLabel}
            name="image"
            type="url"
            inputMode="url"
            autoComplete="photo"
            value={state.image}
            onChange={(event) => state.setImage(event.target.value)}
            hint={auth.signUp.imageHint}
            error={state.fieldErrors.image}
          />
        ) : null}
        <Alert ref={alert}>{state.error && !fieldsInvalid ? errorText(state.error) : null}</Alert>
        <Button type="submit" pending={state.pending}>
          {auth.signUp.submit}
        </Button>
      </Form>
      {footer}
    </Root>
  );
}
