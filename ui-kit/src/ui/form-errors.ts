/** Errors of a form: which field each belongs to, and the message for the whole form. */
import type { AuthError } from "../client/request.js";
import type { Messages } from "../i18n/types.js";

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

/** authd's default bounds on a password's length (`emailAndPassword`'s settings). */
export const DEFAULT_MIN_PASSWORD_LENGTH = 8;
export const DEFAULT_MAX_PASSWORD_LENGTH = 128;

type LengthMessages = Pick<Messages["common"], "passwordTooShort" | "passwordTooLong">;

/** A form's bounds on a new password: its options', else authd's defaults. */
export function passwordBounds(options: {
  minPasswordLength?: number;
  maxPasswordLength?: number;
}): [min: number, max: number] {
  return [
    options.minPasswordLength ?? DEFAULT_MIN_PASSWORD_LENGTH,
    options.maxPasswordLength ?? DEFAULT_MAX_PASSWORD_LENGTH,
  ];
}

/**
 * Why a new password is refused before asking the server (missing, too short, too
 * long); undefined if it is not.
 */
export function newPasswordProblem(
  password: string,
  min: number,
  max: number,
  common: LengthMessages & Pick<Messages["common"], "required">,
): string | undefined {
  if (!password) return common.required;
  if (password.length < min) return common.passwordTooShort({ min });
  if (password.length > max) return common.passwordTooLong({ max });
  return undefined;
}

function boundOf(error: AuthError, name: string): number | undefined {
  const details = error.details as Record<string, unknown> | undefined;
  const value = details?.[name];
  return typeof value === "number" ? value : undefined;
}

/**
 * The server's PASSWORD_TOO_SHORT or PASSWORD_TOO_LONG with the bound it names (a too
 * short one without a bound: `fallbackMin`, when given). Null for any other error and
 * for a refusal without a bound to tell: then the server's own words, not a guess.
 */
export function refusedLengthText(
  error: AuthError,
  common: LengthMessages,
  fallbackMin?: number,
): string | null {
  if (error.code === "PASSWORD_TOO_SHORT") {
    const min = boundOf(error, "minPasswordLength") ?? fallbackMin;
    return min === undefined ? null : common.passwordTooShort({ min });
  }
  if (error.code === "PASSWORD_TOO_LONG") {
    const max = boundOf(error, "maxPasswordLength");
    return max === undefined ? null : common.passwordTooLong({ max });
  }
  return null;
}
