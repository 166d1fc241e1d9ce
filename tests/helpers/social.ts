/**
 * Driving social sign-in in tests: start it on authd (the client's cookie jar keeps the
 * state cookie), follow the provider as a browser, come back to authd's callback, and
 * read where authd sent the browser.
 */
import type { LightMyRequestResponse } from "fastify";
import { expect } from "vitest";
import { sha256 } from "../../server/crypto/digest.js";
import type { Client } from "./client.js";
import type { ProviderBrowser, TestOidcProvider } from "./oidc.js";

export const ORIGIN = "http://localhost:3000";
export const BASE = `${ORIGIN}/api/auth`;

/** The path under the base path of an authd URL, for the client (`/callback/acme?…`). */
export function authdPath(url: URL): string {
  expect(url.origin).toBe(ORIGIN);
  expect(url.pathname.startsWith("/api/auth/")).toBe(true);
  return `${url.pathname.slice("/api/auth".length)}${url.search}`;
}

/** Where a 302 sends the browser. */
export function redirectOf(response: LightMyRequestResponse): URL {
  expect(response.statusCode, response.body).toBe(302);
  const location = response.headers.location;
  expect(typeof location).toBe("string");
  return new URL(String(location));
}

/** The `error` of an error redirect (null on success). */
export function errorOf(response: LightMyRequestResponse): string | null {
  return redirectOf(response).searchParams.get("error");
}

/** The identifier of a state's verification row. */
export function stateIdentifier(state: string): string {
  return `oauth-state:${sha256(state)}`;
}

/** POSTs sign-in/social (or `path`) and answers the authorization URL and its state. */
export async function startSocial(
  client: Client,
  body: Record<string, unknown>,
  path = "/sign-in/social",
): Promise<{ url: URL; state: string }> {
  const response = await client.post(path, body);
  expect(response.statusCode, response.body).toBe(200);
  const url = new URL(response.json().url);
  const state = url.searchParams.get("state");
  expect(state).toMatch(/^[A-Za-z0-9_-]{32}$/);
  return { url, state: state as string };
}

/** The whole flow: start, sign in at the provider as `login`, and the callback's answer. */
export async function socialSignIn(
  idp: TestOidcProvider,
  client: Client,
  body: Record<string, unknown>,
  login: string,
  options: { path?: string; browser?: ProviderBrowser } = {},
): Promise<LightMyRequestResponse> {
  const { url } = await startSocial(client, body, options.path);
  const back = await idp.authorize(url.toString(), { login }, options.browser);
  return client.get(authdPath(back));
}

/** A session cookie was set by this answer. */
export function setsSession(client: Client, response: LightMyRequestResponse): boolean {
  return [...client.setCookies(response).keys()].some((name) => name.endsWith(".session_token"));
}

/**
 * Makes users at the provider (`provider()`: the one started in beforeAll), each with a
 * fresh sub and address, verified unless said otherwise.
 */
export function peopleAt(provider: () => TestOidcProvider) {
  let counter = 0;
  return (overrides: { email?: string | null; email_verified?: boolean } = {}) => {
    counter += 1;
    const sub = `sub-${counter}-${Date.now()}`;
    const email =
      overrides.email === null
        ? undefined
        : (overrides.email ?? `p${counter}-${Date.now()}@example.com`);
    provider().users.set(sub, {
      sub,
      email,
      email_verified: overrides.email_verified ?? true,
      name: "Ada Lovelace",
    });
    return { sub, email: email ?? "" };
  };
}
