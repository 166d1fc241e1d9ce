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

/**
 * A `redirectTo` from the address worth following: a path of this site, never another
 * origin. Browsers drop tabs and newlines from a URL and read a backslash as a slash,
 * so any control character or backslash refuses the target before the other checks.
 */
export function sameSitePath(value: string | null | undefined): string | undefined {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for.
  if (!value || /[\u0000-\u001f\u007f\\]/.test(value)) return undefined;
  if (!value.startsWith("/") || value.startsWith("//")) return undefined;
  return value;
}

/**
 * Where a mailed verification link should land: the verify-email page, which shows that
 * it worked (`verified=1`) or why not (authd adds `error`), then goes on to `next`.
 */
export function verificationCallbackURL(verifyEmailPath: string, next: string): string {
  const page = withQuery(verifyEmailPath, "verified", "1");
  return absoluteURL(withQuery(page, "redirectTo", next));
}
