import { useRef } from "react";
import { useAuthContext } from "../../auth-context.js";
import { useErrorText, useMessages } from "../../hooks/use-messages.js";
import { Alert } from "../../ui/alert.js";
import { Button, Divider, Footer, Form, Header, Text, Title } from "../../ui/elements.js";
import { Checkbox, PasswordField, TextField } from "../../ui/fields.js";
import { useFocusOnChange } from "../../ui/focus.js";
import { Root, type StyleProps } from "../../ui/root.js";
import { SocialButtons } from "../social/SocialButtons.js";
import { type UseSignInOptions, useSignIn } from "./use-sign-in.js";

export type SignInPart =
  | "root"
  | "header"
  | "title"
  | "text"
  | "form"
  | "field"
  | "input"
  | "button"
  | "social-button"
  | "alert"
  | "footer";

export interface SignInProps extends UseSignInOptions, StyleProps<SignInPart> {
  /** Hide the "Remember me" box (sessions then last the server's default). */
  hideRememberMe?: boolean;
  /** Hide the link to sign-up, e.g. when the server does not allow it. */
  hideSignUpLink?: boolean;
}

/** Email and password sign-in, with the configured social providers and a forgot-password link. */
export function SignIn({
  hideRememberMe,
  hideSignUpLink,
  className,
  classNames,
  ...options
}: SignInProps) {
  const { Link, paths } = useAuthContext();
  const { common, auth } = useMessages();
  const errorText = useErrorText();
  const state = useSignIn(options);
  const form = useRef<HTMLFormElement>(null);
  const alert = useRef<HTMLDivElement>(null);
  useFocusOnChange(
    state.error ?? (Object.keys(state.fieldErrors).length ? state.fieldErrors : null),
    form,
    alert,
  );
  const providers = state.providers.data ?? [];

  return (
    <Root
      component="sign-in"
      state={state.pending ? "pending" : state.error ? "error" : undefined}
      className={className}
      classNames={classNames}
    >
      <Header>
        <Title>{auth.signIn.title}</Title>
        <Text>{auth.signIn.description}</Text>
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
        aria-label={auth.signIn.title}
      >
        <TextField
          label={common.email}
          name="email"
          type="email"
          autoComplete="username"
          inputMode="email"
          required
          value={state.email}
          onChange={(event) => state.setEmail(event.target.value)}
          error={state.fieldErrors.email}
        />
        <PasswordField
          label={common.password}
          name="password"
          autoComplete="current-password"
          required
          value={state.password}
          onChange={(event) => state.setPassword(event.target.value)}
          error={state.fieldErrors.password}
          labelAside={<Link href={paths.forgotPassword}>{auth.signIn.forgotPassword}</Link>}
        />
        {hideRememberMe ? null : (
          <Checkbox
            label={auth.signIn.rememberMe}
            name="rememberMe"
            checked={state.rememberMe}
            onChange={(event) => state.setRememberMe(event.target.checked)}
          />
        )}
        <Alert ref={alert} tone={state.verificationSent ? "success" : "error"}>
          {state.verificationSent
            ? auth.signIn.verificationSent({ email: state.email.trim() })
            : state.error && !Object.keys(state.fieldErrors).length
              ? state.needsVerification
                ? auth.signIn.emailNotVerified
                : errorText(state.error)
              : null}
        </Alert>
        {state.needsVerification && !state.verificationSent ? (
          <Button
            variant="link"
            pending={state.resendPending}
            disabled={state.pending}
            onClick={() => void state.resendVerification()}
          >
            {auth.signIn.resendVerification}
          </Button>
        ) : null}
        <Button type="submit" pending={state.pending}>
          {auth.signIn.submit}
        </Button>
      </Form>
      {hideSignUpLink ? null : (
        <Footer>
          <Text>
            {auth.signIn.noAccount} <Link href={paths.signUp}>{auth.signIn.signUpLink}</Link>
          </Text>
        </Footer>
      )}
    </Root>
  );
}
