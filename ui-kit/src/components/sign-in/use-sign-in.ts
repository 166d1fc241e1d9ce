/**
 * The sign-in logic without markup: fields, validation, the email and social calls,
 * the unverified-email path and where to go afterwards. <SignIn/> is this plus markup.
 */
import { type FormEvent, useCallback, useEffect, useRef, useState } from "react";
import { useAuthContext } from "../../auth-context.js";
import type { AuthError } from "../../client/request.js";
import type { SignInAnswer, SocialProvider } from "../../client/types.js";
import { useMessages } from "../../hooks/use-messages.js";
import type { QueryResult } from "../../hooks/use-query.js";
import { useSocialProviders } from "../../hooks/use-social-providers.js";
import {
  type FieldErrors,
  fieldsOfValidationError,
  hasErrors,
  looksLikeEmail,
} from "../../ui/form-errors.js";
import { redirectError } from "../../ui/redirect-error.js";
import { useUrlQuery } from "../../ui/url-query.js";
import { absoluteURL, currentPageURL, verificationCallbackURL } from "../../ui/urls.js";

export type SignInField = "email" | "password";

export interface UseSignInOptions {
  /** Where to go after signing in; default the provider's `paths.afterSignIn`. */
  redirectTo?: string;
  /** Social providers to offer instead of asking the server which are configured. */
  providers?: readonly (string | SocialProvider)[];
  onSuccess?: (answer: SignInAnswer) => void;
}

export interface UseSignInResult {
  email: string;
  setEmail: (value: string) => void;
  password: string;
  setPassword: (value: string) => void;
  rememberMe: boolean;
  setRememberMe: (value: boolean) => void;
  fieldErrors: FieldErrors<SignInField>;
  /** An error about the whole form (wrong password, banned, network…), null when none. */
  error: AuthError | null;
  pending: boolean;
  /** True when the account exists but its email is not verified yet. */
  needsVerification: boolean;
  resendVerification: () => Promise<void>;
  /** True while a new verification link is being asked for. */
  resendPending: boolean;
  verificationSent: boolean;
  providers: QueryResult<SocialProvider[]>;
  socialPending: string | null;
  submit: (event?: FormEvent) => Promise<void>;
  signInWithProvider: (providerId: string) => Promise<void>;
}

export function useSignIn(options: UseSignInOptions = {}): UseSignInResult {
  const { client, navigate, paths } = useAuthContext();
  const { common } = useMessages();
  const providers = useSocialProviders(options.providers);
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [rememberMe, setRememberMe] = useState(true);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors<SignInField>>({});
  const [error, setError] = useState<AuthError | null>(null);
  const [pending, setPending] = useState(false);
  const [socialPending, setSocialPending] = useState<string | null>(null);
  const [verificationSent, setVerificationSent] = useState(false);
  const [resendPending, setResendPending] = useState(false);
  // A second click before React re-renders the disabled button must not mail again.
  const resending = useRef(false);
  const redirectTo = options.redirectTo ?? paths.afterSignIn;
  const { onSuccess } = options;
  const query = useUrlQuery();

  // A social sign-in that did not sign in comes back here with the reason in the address.
  useEffect(() => {
    const code = query?.get("error");
    if (code) setError(redirectError(code, query?.get("error_description")));
  }, [query]);

  const submit = useCallback(
    async (event?: FormEvent) => {
      event?.preventDefault();
      const found: FieldErrors<SignInField> = {};
      if (!email.trim()) found.email = common.required;
      else if (!looksLikeEmail(email)) found.email = common.invalidEmail;
      if (!password) found.password = common.required;
      setFieldErrors(found);
      setError(null);
      setVerificationSent(false);
      if (hasErrors(found)) return;
      setPending(true);
      const result = await client.signIn.email({
        email: email.trim(),
        password,
        rememberMe,
        callbackURL: absoluteURL(redirectTo),
      });
      setPending(false);
      if (result.error) {
        setFieldErrors(
          fieldsOfValidationError(result.error, ["email", "password"], common.invalidField),
        );
        setError(result.error);
        return;
      }
      onSuccess?.(result.data);
      if (!result.data.redirect) navigate(redirectTo);
    },
    [client, common, email, password, rememberMe, redirectTo, navigate, onSuccess],
  );

  const signInWithProvider = useCallback(
    async (providerId: string) => {
      setError(null);
      setSocialPending(providerId);
      const result = await client.signIn.social({
        provider: providerId,
        callbackURL: absoluteURL(redirectTo),
        errorCallbackURL: currentPageURL(paths.signIn),
      });
      // On success the browser is on its way to the provider: the button stays busy.
      if (result.error) {
        setSocialPending(null);
        setError(result.error);
      }
    },
    [client, redirectTo, paths.signIn],
  );

  const resendVerification = useCallback(async () => {
    if (resending.current) return;
    resending.current = true;
    setResendPending(true);
    const result = await client.sendVerificationEmail({
      email: email.trim(),
      // The verify-email page shows the outcome (a failed link too), then goes on.
      callbackURL: verificationCallbackURL(paths.verifyEmail, redirectTo),
    });
    resending.current = false;
    setResendPending(false);
    if (result.error) setError(result.error);
    else setVerificationSent(true);
  }, [client, email, redirectTo, paths.verifyEmail]);

  return {
    email,
    setEmail,
    password,
    setPassword,
    rememberMe,
    setRememberMe,
    fieldErrors,
    error,
    pending,
    needsVerification: error?.code === "EMAIL_NOT_VERIFIED",
    resendVerification,
    resendPending,
    verificationSent,
    providers,
    socialPending,
    submit,
    signInWithProvider,
  };
}
