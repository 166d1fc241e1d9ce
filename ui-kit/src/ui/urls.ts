/**
 * An app path as the absolute URL the server needs for links it mails or redirects
 * to; unchanged outside a browser or when already absolute.
 */
export function absoluteURL(path: string): string {
  const { location } = globalThis as { location?: { origin?: string } };
  if (!location?.origin || /^[a-z][a-z0-9+.-]*:/i.test(path)) return path;
  return new URL(path, location.origin).toString();
}
