/**
 * Error answers from the server's own catalogue, so the mock's statuses and messages
 * cannot drift from what authd answers (only stories import it, never the kit).
 */
import { ERROR_CATALOGUE, type ErrorCode } from "../../../server/errors.js";

export type { ErrorCode };

export interface ErrorAnswer {
  status: number;
  body: { code: string; message: string; details?: unknown };
}

/** authd's answer for `code`, with the endpoint's own status where it differs from the catalogue's. */
export function errorAnswer(code: ErrorCode, details?: unknown, status?: number): ErrorAnswer {
  const { status: catalogueStatus, message } = ERROR_CATALOGUE[code];
  return {
    status: status ?? catalogueStatus,
    body: { code, message, ...(details === undefined ? {} : { details }) },
  };
}
