/**
 * What the server wrote into the page at start-up (attributes of <html>, no inline
 * script): where the API and the pages live and which features are on.
 */
export interface PageSettings {
  /** The API's base path, e.g. "/api/auth" ("" when mounted at the root). */
  apiBasePath: string;
  /** Where the pages live, without a trailing slash ("" at the root). */
  pagesPrefix: string;
  teams: boolean;
  deleteUser: boolean;
  organization: boolean;
}

function cleanPath(value: string | undefined, fallback: string): string {
  const path = value && /^\/[A-Za-z0-9._~/-]*$/.test(value) ? value : fallback;
  return path === "/" ? "" : path.replace(/\/+$/, "");
}

export function readSettings(root: HTMLElement): PageSettings {
  const data = root.dataset;
  const features = new Set((data.authdFeatures ?? "").split(" "));
  return {
    apiBasePath: cleanPath(data.authdApiBasePath, "/api/auth"),
    pagesPrefix: cleanPath(data.authdPagesPath, "/"),
    teams: features.has("teams"),
    deleteUser: features.has("delete-user"),
    organization: data.authdFeatures === undefined || features.has("organization"),
  };
}
