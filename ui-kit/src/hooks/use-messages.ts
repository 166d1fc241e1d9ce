import { useCallback } from "react";
import { useAuthContext } from "../auth-context.js";
import type { AuthError } from "../client/request.js";
import type { Messages } from "../i18n/types.js";

/** The strings of the provider's language. */
export function useMessages(): Messages {
  return useAuthContext().messages;
}

/** Turns an error into a sentence in the provider's language (the server's text when the code is unknown). */
export function useErrorText(): (error: AuthError) => string {
  const { errors } = useMessages();
  return useCallback(
    (error: AuthError) =>
      (errors as Readonly<Record<string, string>>)[error.code] ??
      (error.message || errors.HTTP_ERROR),
    [errors],
  );
}
