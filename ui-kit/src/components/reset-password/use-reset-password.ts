/**
 * The reset-password logic without markup: the token from the mailed link (a prop or
 * the page's `?token=`), the new password twice, the reset call and what follows.
 * <ResetPassword/> is this plus markup.
 */
import { type FormEvent, useCallback, useState } from "react";
import { useAuthContext } from "../../auth-context.js";
import type { AuthError } from "../../client/request.js";
import { useErrorText, useMessages } from "../../hooks/use-messages.js";
import {
  type FieldErrors,
  fieldsOfValidationError,
  hasErrors,
  newPasswordProblem,
  passwordBounds,
  refusedLengthText,
} from "../../ui/form-errors.js";
import { useUrlQuery } from "../../ui/url-query.js";

export type ResetPasswordField = "password" | "confirmPassword";

export interface UseResetPasswordOptions {
  /** The reset token; by default the page's `?token=` query parameter. */
  token?: string;
  /** Go here after the reset; without it a success step links to sign-in. */
  redirectTo?: string;
  /** The shortest password accepted before asking the server (match authd's setting). Default 8. */
  minPasswordLength?: number;
  /** The longest password accepted before asking the server (match authd's setting). Default 128. */
  maxPasswordLength?: number;
  onSuccess?: () => void;
}

/**
 * "loading" until the page's address is read; "invalid-link" when there is no token,
 * authd sent the visitor back with `?error=`, or the server refused the token.
 */
export type ResetPasswordStep = "loading" | "form" | "invalid-link" | "done";

export interface UseResetPasswordResult {
  step: ResetPasswordStep;
  password: string;
  setPassword: (value: string) => void;
  confirmPassword: string;
  setConfirmPassword: (value: string) => void;
  minPasswordLength: number;
  maxPasswordLength: number;
  fieldErrors: FieldErrors<ResetPasswordField>;
  /** The last error; the alert shows it unless `fieldErrors` already place it. */
  error: AuthError | null;
  /** Why the link does not work, in the "invalid-link" step (null: no token at all). */
  linkError: AuthError | null;
  pending: boolean;
  submit: (event?: FormEvent) => Promise<void>;
}

const LINK_ERRORS = new Set(["INVALID_TOKEN", "TOKEN_EXPIRED"]);

/** The error authd put in the address when it sent the visitor back from a bad link. */
function redirectError(code: string): AuthError {
  const upper = code.toUpperCase();
  return { code: upper === "TOKEN_EXPIRED" ? upper : "INVALID_TOKEN", message: code, status: 400 };
}

export function useResetPassword(options: UseResetPasswordOptions = {}): UseResetPasswordResult {
  const { client, navigate } = useAuthContext();
  const { common, auth } = useMessages();
  const errorText = useErrorText();
  const query = useUrlQuery();
  const [password, setPassword] = useState("");
  const [confirmPassword, setConfirmPassword] = useState("");
  const [fieldErrors, setFieldErrors] = useState<FieldErrors<ResetPasswordField>>({});
  const [error, setError] = useState<AuthError | null>(null);
  const [refused, setRefused] = useState<AuthError | null>(null);
  const [pending, setPending] = useState(false);
  const [done, setDone] = useState(false);
  const [minPasswordLength, maxPasswordLength] = passwordBounds(options);
  const { redirectTo, onSuccess } = options;

  const urlError = query?.get("error");
  const token = options.token ?? query?.get("token") ?? undefined;
  const linkError = refused ?? (urlError ? redirectError(urlError) : null);

  let step: ResetPasswordStep;
  if (done) step = "done";
  else if (linkError) step = "invalid-link";
  else if (token) step = "form";
  else step = query === null ? "loading" : "invalid-link";

  const submit = useCallback(
    async (event?: FormEvent) => {
      event?.preventDefault();
      if (!token) return;
      const found: FieldErrors<ResetPasswordField> = {};
      const passwordProblem = newPasswordProblem(
        password,
        minPasswordLength,
        maxPasswordLength,
        common,
      );
      if (passwordProblem) found.password = passwordProblem;
      if (!confirmPassword) found.confirmPassword = common.required;
      else if (password && confirmPassword !== password) {
        found.confirmPassword = auth.resetPassword.mismatch;
      }
      setFieldErrors(found);
      setError(null);
      if (hasErrors(found)) return;
      setPending(true);
      const result = await client.resetPassword({ newPassword: password, token });
      setPending(false);
      if (result.error) {
        const { code } = result.error;
        if (LINK_ERRORS.has(code)) {
          setRefused(result.error);
          return;
        }
        // The server names the field `newPassword`; here it is the first password input.
        const invalid = fieldsOfValidationError(result.error, ["newPassword"], common.invalidField);
        const mapped: FieldErrors<ResetPasswordField> = invalid.newPassword
          ? { password: invalid.newPassword }
          : {};
        if (code === "PASSWORD_TOO_SHORT" || code === "PASSWORD_TOO_LONG") {
          mapped.password =
            refusedLengthText(result.error, common, minPasswordLength) ?? errorText(result.error);
        }
        setFieldErrors(mapped);
        setError(result.error);
        return;
      }
      setDone(true);
      onSuccess?.();
      if (redirectTo) navigate(redirectTo);
    },
    [
      client,
      common,
      auth,
      errorText,
      token,
      password,
      confirmPassword,
      minPasswordLength,
      maxPasswordLength,
      redirectTo,
      navigate,
      onSuccess,
    ],
  );

  return {
    step,
    password,
    setPassword,
    confirmPassword,
    setConfirmPassword,
    minPasswordLength,
    maxPasswordLength,
    fieldErrors,
    error,
    linkError,
    pending,
    submit,
  };
}
