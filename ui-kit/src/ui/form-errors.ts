/** Errors of a form: which field each belongs to, and the message for the whole form. */
import type { AuthError } from "../client/request.js";

export type FieldErrors<F extends string> = Partial<Record<F, string>>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function looksLikeEmail(value: string): boolean {
  return EMAIL.test(value.trim());
}

/**
 * The fields a VALIDATION_ERROR names (its `details` list paths), each with `message`;
 * the server's own wording stays out of the page since it is not translated.
 */
export function fieldsOfValidationError<F extends string>(
  error: AuthError | null,
  fields: readonly F[],
  message: string,
): FieldErrors<F> {
  if (error?.code !== "VALIDATION_ERROR" || !Array.isArray(error.details)) return {};
  const found: FieldErrors<F> = {};
  for (const issue of error.details as { path?: unknown }[]) {
    const path = typeof issue?.path === "string" ? issue.path.split(".")[0] : undefined;
    const field = fields.find((name) => name === path);
    if (field) found[field] = message;
  }
  return found;
}

/** True when `errors` holds at least one message. */
export function hasErrors(errors: Readonly<Record<string, string | undefined>>): boolean {
  return Object.values(errors).some(Boolean);
}
