/**
 * An HTTP client over `app.inject` with a cookie jar, as a browser on a trusted origin
 * behaves: cookies come back on later requests, POSTs carry an Origin header.
 */
import type { FastifyInstance, LightMyRequestResponse } from "fastify";

export interface ClientOptions {
  origin?: string;
  basePath?: string;
}

export interface Client {
  cookies: Map<string, string>;
  get(
    path: string,
    options?: { query?: Record<string, string>; headers?: Record<string, string> },
  ): Promise<LightMyRequestResponse>;
  post(
    path: string,
    body?: unknown,
    options?: { headers?: Record<string, string> },
  ): Promise<LightMyRequestResponse>;
  /** Set-Cookie headers of a response, by cookie name. */
  setCookies(response: LightMyRequestResponse): Map<string, string>;
}

function setCookieHeaders(response: LightMyRequestResponse): string[] {
  const header = response.headers["set-cookie"];
  if (!header) return [];
  return Array.isArray(header) ? header : [header];
}

/**
 * Every answer is serialized one way, the compact JSON that JSON.stringify writes:
 * each response a test reads through this client is held to it.
 */
export function assertCompactJson(response: LightMyRequestResponse): void {
  const type = String(response.headers["content-type"] ?? "");
  if (!type.startsWith("application/json") || response.body === "") return;
  const compact = JSON.stringify(JSON.parse(response.body));
  if (compact !== response.body) {
    throw new Error(
      `${response.raw.req.method} ${response.raw.req.url}: answer is not compact JSON:\n${response.body.slice(0, 300)}`,
    );
  }
}

export function createClient(app: FastifyInstance, options: ClientOptions = {}): Client {
  const origin = options.origin ?? "http://localhost:3000";
  const base = options.basePath ?? "/api/auth";
  const cookies = new Map<string, string>();

  const absorb = (response: LightMyRequestResponse) => {
    assertCompactJson(response);
    for (const line of setCookieHeaders(response)) {
      const [pair, ...attributes] = line.split(";");
      const eq = pair?.indexOf("=") ?? -1;
      if (!pair || eq < 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute));
      if (expired || value === "") cookies.delete(name);
      else cookies.set(name, value);
    }
    return response;
  };

  const cookieHeader = () =>
    cookies.size === 0
      ? {}
      : { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join("; ") };

  return {
    cookies,
    async get(path, requestOptions = {}) {
      return absorb(
        await app.inject({
          method: "GET",
          url: `${base}${path}`,
          query: requestOptions.query,
          headers: { ...cookieHeader(), ...requestOptions.headers },
        }),
      );
    },
    async post(path, body = {}, requestOptions = {}) {
      return absorb(
        await app.inject({
          method: "POST",
          url: `${base}${path}`,
          payload: body as Record<string, unknown>,
          headers: { origin, ...cookieHeader(), ...requestOptions.headers },
        }),
      );
    },
    setCookies(response) {
      const result = new Map<string, string>();
      for (const line of setCookieHeaders(response)) {
        const name = line.slice(0, line.indexOf("="));
        result.set(name, line);
      }
      return result;
    },
  };
}
