/**
 * Links into the pages authd serves, for mail: a page route (`/verify-email`,
 * `/accept-invitation/<id>`) made absolute on the public origin under `pages.path`.
 */
import type { AuthdConfig } from "../config.js";

/**
 * The absolute URL of page `route` (which starts with `/` and may carry a query), on
 * the origin of `baseUrl`; null when the pages are off, so callers keep their own link.
 */
export function pageUrl(
  config: Pick<AuthdConfig, "pages">,
  baseUrl: string,
  route: string,
): string | null {
  if (!config.pages.enabled) return null;
  const prefix = config.pages.path === "/" ? "" : config.pages.path;
  return `${new URL(baseUrl).origin}${prefix}${route}`;
}
