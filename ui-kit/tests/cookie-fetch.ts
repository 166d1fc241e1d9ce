/**
 * A fetch for Node that behaves as one browser on a trusted origin: Node's fetch
 * keeps no cookies and sends no Origin, and authd needs both.
 */
import type { FetchLike } from "../src/client/index.js";

export interface CookieFetch {
  fetch: FetchLike;
  cookies: Map<string, string>;
}

export function cookieFetch(origin: string): CookieFetch {
  const cookies = new Map<string, string>();
  const fetch: FetchLike = async (input, init) => {
    const headers = new Headers(init.headers);
    headers.set("origin", origin);
    if (cookies.size > 0) {
      headers.set("cookie", [...cookies].map(([name, value]) => `${name}=${value}`).join("; "));
    }
    // Redirects are the browser's business; the client reads the answer itself.
    const response = await globalThis.fetch(input, { ...init, headers, redirect: "manual" });
    for (const line of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";");
      const eq = pair.indexOf("=");
      if (eq < 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute));
      if (expired || value === "") cookies.delete(name);
      else cookies.set(name, value);
    }
    return response;
  };
  return { fetch, cookies };
}
