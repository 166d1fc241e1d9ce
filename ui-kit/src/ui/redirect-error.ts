import type { AuthError } from "../client/request.js";

/**
 * The error authd put in the address when it sent the browser back (a mailed link that
 * failed, a social sign-in that did not sign in), as an error to show. Codes arrive
 * in either case; the messages are keyed in upper case.
 */
export function redirectError(code: string, description?: string | null): AuthError {
  return { code: code.toUpperCase(), message: description ?? "", status: 400 };
}
