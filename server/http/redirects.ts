/** Building the places authd redirects the browser to. */

/** Appends `?error=` (or `&error=`) to a redirect target. */
export function withQuery(target: string, parameters: Record<string, string>): string {
  const url = new URL(target, "http://authd.invalid");
  for (const [key, value] of Object.entries(parameters)) url.searchParams.set(key, value);
  return target.startsWith("/") ? `${url.pathname}${url.search}${url.hash}` : url.toString();
}
