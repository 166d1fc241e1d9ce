/**
 * The sign-up logic without markup: fields, validation, the email and social calls,
 * and what follows: a session (go on) or a mailed verification link (check the inbox).
 * <SignUp/> is this plus markup.
 */
import { type FormEvent, useCallback, useState } from "react";
import { useAuthContext } from "../../auth-context.js";
import type { AuthError } from "../../client/request.js";
import type { SignUpAnswer, SocialProvider } from "../../client/types.js";
import { useErrorText, useMessages } from "../../hooks/use-messages.js";
import type { QueryResult } from "../../hooks/use-query.js";
import { useSocialProviders } from "../../hooks/use-social-providers.js";
import {
  type FieldErrors,
  fieldsOfValidationError,
  hasErrors,
  looksLikeEmail,
  newPasswordProblem,
  passwordBounds,
  refusedLengthText,
} from "../../ui/form-errors.js";
import { absoluteURL, verificationCallbackURL } from "../../ui/urls.js";

export type SignUpField = "name" | "email" | "password" | "image";

export interface UseSignUpOptions {
  /** Where to go after signing up; default the provider's `paths.afterSignIn`. */
  redirectTo?: string;
  /** Social providers to offer instead of asking the server which are configured. */
  providers?: readonly (string | SocialProvider)[];
  /** The shortest password accepted before asking the server (match authd's setting). Default 8. */
  minPasswordLength?: number;
  /** The longest password accepted before asking the server (match authd's setting). Default 128. */
  maxPasswordLength?: number;
  /** Ask for a profile picture URL too. Default false. */
  showImage?: boolean;
  /** The invitation being answered, so following the mailed link also joins its organization. */
  invitationId?: string;
  /** Called with the server's answer; `token` null means the "check your inbox" step follows. */
  onSuccess?: (answer: SignUpAnswer) => void;
}

export type SignUpStep = "form" | "verify-email";

export interface UseSignUpResult {
  step: SignUpStep;
  name: string;
  setName: (value: string) => void;
  email: string;
  setEmail: (value: string) => void;
  password: string;
  setPassword: (value: string) => void;
  image: string;
  setImage: (value: string) => void;
  showImage: boolean;
  minPasswordLength: number;
  maxPasswordLength: number;
  fieldErrors: FieldErrors<SignUpField>;
  /** The last error; the form's alert shows it unless `fieldErrors` already place it. */
  error: AuthError | null;
  pending: boolean;
  /** The address the verification link went to, in the "verify-email" step. */
  sentTo: string;
  providers: QueryResult<SocialProvider[]>;
  socialPending: string | null;
  submit: (event?: FormEvent) => Promise<void>;
  signInWithProvider: (providerId: string) => Promise<void>;
  /** Back from "check your inbox" to the form, e.g. to use another address. */
  restart: () => void;
}

const FIELDS: readonly SignUpField[] = ["name", "email", "password", "image"];

function isWebURL(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}

export function useSignUp(options: UseSignUpOptions = {}): UseSignUpResult {
  const { client, navigate, paths } = useAuthContext();
  const { common, auth } = useMessages();
  const errorText = useErrorText();
  const providers = useSocialProviders(options.providers);
  const [step, setStep] = useState<SignUpStep>("form");
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [image, setImage] = useState("");
  const [fieldErrors, setFieldErrors] = useState<FieldErrors<SignUpField>>({});
  const [error, setError] = useState<AuthError | null>(null);
  const [pending, setPending] = useState(false);
  const [socialPending, setSocialPending] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState("");
  const redirectTo = options.redirectTo ?? paths.afterSignIn;
  const [minPasswordLength, maxPasswordLength] = passwordBounds(options);
  const showImage = options.showImage ?? false;
  const { onSuccess, invitationId } = options;

  const submit = useCallback(
    async (event?: FormEvent) => {
      event?.preventDefault();
      const found: FieldErrors<SignUpField> = {};
      if (!name.trim()) found.name = common.required;
      if (!email.trim()) found.email = common.required;
      else if (!looksLikeEmail(email)) found.email = common.invalidEmail;
      const passwordProblem = newPasswordProblem(
        password,
        minPasswordLength,
        maxPasswordLength,
        common,
      );
      if (passwordProblem) found.password = passwordProblem;
      if (showImage && image.trim() && !isWebURL(image.trim())) {
        found.image = auth.signUp.invalidImage;
      }
      setFieldErrors(found);
      setError(null);
      if (hasErrors(found)) return;
      setPending(true);
      const address = email.trim();
      const result = await client.signUp.email({
        name: name.trim(),
        email: address,
        password,
        ...(showImage && image.trim() ? { image: image.trim() } : {}),
        ...(invitationId ? { invitationId } : {}),
        // The mailed link lands on the verify-email page, which says whether it worked
        // (a bad or expired link too) and then goes on to redirectTo.
        callbackURL: verificationCallbackURL(paths.verifyEmail, redirectTo),
      });
      setPending(false);
      if (result.error) {
        const { code } = result.error;
        const fields = fieldsOfValidationError(result.error, FIELDS, common.invalidField);
        if (code === "USER_ALREADY_EXISTS" || code === "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL") {
          fields.email = errorText(result.error);
        } else if (code === "INVALID_EMAIL") {
          fields.email = common.invalidEmail;
        } else if (code === "PASSWORD_TOO_SHORT" || code === "PASSWORD_TOO_LONG") {
          fields.password =
            refusedLengthText(result.error, common, minPasswordLength) ?? errorText(result.error);
        }
        setFieldErrors(fields);
        setError(result.error);
        return;
      }
      onSuccess?.(result.data);
      if (result.data.token) {
        navigate(redirectTo);
        return;
      }
      setSentTo(address);
      setStep("verify-email");
    },
    [
      client,
      common,
      auth,
      errorText,
      name,
      email,
      password,
      image,
      showImage,
      minPasswordLength,
      maxPasswordLength,
      invitationId,
      redirectTo,
      paths.verifyEmail,
      navigate,
      onSuccess,
    ],
  );

  const signInWithProvider = useCallback(
    async (providerId: string) => {
      setError(null);
      setSocialPending(providerId);
      const result = await client.signIn.social({
        provider: providerId,
        callbackURL: absoluteURL(redirectTo),
      });
      // On success the browser is on its way to the provider: the button stays busy.
      if (result.error) {
        setSocialPending(null);
        setError(result.error);
      }
    },
    [client, redirectTo],
  );

  const restart = useCallback(() => {
    setStep("form");
    setError(null);
    setFieldErrors({});
  }, []);

  return {
    step,
    name,
    setName,
    email,
    setEmail,
    password,
    setPassword,
    image,
    setImage,
    showImage,
    minPasswordLength,
    maxPasswordLength,
    fieldErrors,
    error,
    pending,
    sentTo,
    providers,
    socialPending,
    submit,
    signInWithProvider,
    restart,
  };
}
