/**
 * The forgot-password logic without markup: the email, the reset-link request and the
 * "check your inbox" step, which reads the same whether or not the account exists.
 */
import { type FormEvent, useCallback, useState } from "react";
import { useAuthContext } from "../../auth-context.js";
import type { AuthError } from "../../client/request.js";
import { useMessages } from "../../hooks/use-messages.js";
import {
  type FieldErrors,
  fieldsOfValidationError,
  hasErrors,
  looksLikeEmail,
} from "../../ui/form-errors.js";
import { absoluteURL } from "../../ui/urls.js";

export interface UseForgotPasswordOptions {
  /** The app page the mailed link leads to; default the provider's `paths.resetPassword`. */
  resetPasswordPath?: string;
  /** Called once the server accepted the request (it says the same for unknown addresses). */
  onSuccess?: (email: string) => void;
}

export type ForgotPasswordStep = "form" | "sent";

export interface UseForgotPasswordResult {
  step: ForgotPasswordStep;
  email: string;
  setEmail: (value: string) => void;
  fieldErrors: FieldErrors<"email">;
  /** The last error; the alert shows it unless `fieldErrors` already place it. */
  error: AuthError | null;
  pending: boolean;
  /** The address the request was made for, in the "sent" step. */
  sentTo: string;
  submit: (event?: FormEvent) => Promise<void>;
  /** Back to the form, e.g. after a typo in the address. */
  restart: () => void;
}

export function useForgotPassword(options: UseForgotPasswordOptions = {}): UseForgotPasswordResult {
  const { client, paths } = useAuthContext();
  const { common } = useMessages();
  const [step, setStep] = useState<ForgotPasswordStep>("form");
  const [email, setEmail] = useState("");
  const [fieldErrors, setFieldErrors] = useState<FieldErrors<"email">>({});
  const [error, setError] = useState<AuthError | null>(null);
  const [pending, setPending] = useState(false);
  const [sentTo, setSentTo] = useState("");
  const resetPasswordPath = options.resetPasswordPath ?? paths.resetPassword;
  const { onSuccess } = options;

  const submit = useCallback(
    async (event?: FormEvent) => {
      event?.preventDefault();
      const found: FieldErrors<"email"> = {};
      if (!email.trim()) found.email = common.required;
      else if (!looksLikeEmail(email)) found.email = common.invalidEmail;
      setFieldErrors(found);
      setError(null);
      if (hasErrors(found)) return;
      setPending(true);
      const address = email.trim();
      const result = await client.requestPasswordReset({
        email: address,
        redirectTo: absoluteURL(resetPasswordPath),
      });
      setPending(false);
      if (result.error) {
        const fields = fieldsOfValidationError(result.error, ["email"], common.invalidField);
        if (result.error.code === "INVALID_EMAIL") fields.email = common.invalidEmail;
        setFieldErrors(fields);
        setError(result.error);
        return;
      }
      setSentTo(address);
      setStep("sent");
      onSuccess?.(address);
    },
    [client, common, email, resetPasswordPath, onSuccess],
  );

  const restart = useCallback(() => {
    setStep("form");
    setError(null);
    setFieldErrors({});
  }, []);

  return { step, email, setEmail, fieldErrors, error, pending, sentTo, submit, restart };
}
