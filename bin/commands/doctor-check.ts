/** One line of `authd doctor`'s report: what was checked, how it went, and why. */

export type CheckStatus = "ok" | "warn" | "fail";

export interface Check {
  name: string;
  status: CheckStatus;
  detail: string;
}

/** The text of a failure, whatever was thrown. */
export function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
