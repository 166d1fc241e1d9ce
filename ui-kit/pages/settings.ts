/**
 * What the server wrote into the page at start-up (attributes of <html>, no inline
 * script): where the API and the pages live, which features are on, and the password
 * bounds a new password must keep.
 */
import { DEFAULT_MAX_PASSWORD_LENGTH, DEFAULT_MIN_PASSWORD_LENGTH } from "../src/ui/form-errors.js";

export interface PageSettings {
  /** The API's base path, e.g. "/api/auth" ("" when mounted at the root). */
  apiBasePath: string;
  /** Where the pages live, without a trailing slash ("" at the root). */
  pagesPrefix: string;
  teams: boolean;
  deleteUser: boolean;
  organization: boolean;
  /** emailAndPassword.minPasswordLength and maxPasswordLength, for the forms' hints and checks. */
  passwordMinLength: number;
  passwordMaxLength: number;
}

function cleanPath(value: string | undefined, fallback: string): string {
  const path = value && /^\/[A-Za-z0-9._~/-]*$/.test(value) ? value : fallback;
  return path === "/" ? "" : path.replace(/\/+$/, "");
}

function positiveInteger(value: string | undefined): number | undefined {
  if (!value || !/^[0-9]+$/.test(value)) return undefined;
  const number = Number(value);
  return Number.isSafeInteger(number) && number > 0 ? number : undefined;
}

/** Each bound as written, else authd's default; a pair that contradicts itself is ignored. */
function passwordBounds(data: DOMStringMap): { min: number; max: number } {
  const min = positiveInteger(data.authdPasswordMinLength) ?? DEFAULT_MIN_PASSWORD_LENGTH;
  const max = positiveInteger(data.authdPasswordMaxLength) ?? DEFAULT_MAX_PASSWORD_LENGTH;
  return min <= max
    ? { min, max }
    : { min: DEFAULT_MIN_PASSWORD_LENGTH, max: DEFAULT_MAX_PASSWORD_LENGTH };
}

export function readSettings(root: HTMLElement): PageSettings {
  const data = root.dataset;
  const features = new Set((data.authdFeatures ?? "").split(" "));
  const password = passwordBounds(data);
  return {
    apiBasePath: cleanPath(data.authdApiBasePath, "/api/auth"),
    pagesPrefix: cleanPath(data.authdPagesPath, "/"),
    teams: features.has("teams"),
    deleteUser: features.has("delete-user"),
    organization: data.authdFeatures === undefined || features.has("organization"),
    passwordMinLength: password.min,
    passwordMaxLength: password.max,
  };
}
