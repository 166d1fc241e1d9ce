/**
 * An app path as the absolute URL the server needs for links it mails or redirects
 * to; unchanged outside a browser or when already absolute.
 */
export function absoluteURL(path: string): string {
  const { location } = globalThis as { location?: { origin?: string } };
  if (!location?.origin || /^[a-z][a-z0-9+.-]*:/i.test(path)) return path;
  return new URL(path, location.origin).toString();
}

/** `path` with one query parameter set, keeping the rest of its query and its hash. */
export function withQuery(path: string, name: string, value: string): string {
  const url = new URL(path, "http://placeholder.invalid");
  url.searchParams.set(name, value);
  const absolute = /^[a-z][a-z0-9+.-]*:/i.test(path);
  return absolute ? url.toString() : `${url.pathname}${url.search}${url.hash}`;
}

/** The page the browser is on, without its query (for "come back here" URLs); `fallback` outside a browser. */
export function currentPageURL(fallback: string): string {
  const { location } = globalThis as { location?: { origin?: string; pathname?: string } };
  if (!location?.origin) return absoluteURL(fallback);
  return `${location.origin}${location.pathname ?? "/"}`;
}
