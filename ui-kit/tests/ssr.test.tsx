/**
 * Server rendering, in Node without a DOM: the provider and the hooks render to HTML
 * without touching `window` or `document` and without asking the server anything.
 */
import { renderToString } from "react-dom/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { messages as german } from "../src/i18n/locales/de/index.js";
import { AuthProvider, createAuthClient, SignIn, useSession } from "../src/index.js";
import { sessionOf } from "./components/harness.js";

function Who() {
  const { data, isPending } = useSession();
  if (isPending) return <p>loading</p>;
  return <p>{data ? `signed in as ${data.user.name}` : "signed out"}</p>;
}

/** Globals a server render must not read: each read is recorded. */
const BROWSER_GLOBALS = ["window", "document", "localStorage", "sessionStorage"] as const;

describe("server rendering", () => {
  const touched: string[] = [];

  beforeEach(() => {
    touched.length = 0;
    for (const name of BROWSER_GLOBALS) {
      expect(name in globalThis, `${name} exists in the node environment`).toBe(false);
      Object.defineProperty(globalThis, name, {
        configurable: true,
        get: () => {
          touched.push(name);
          return undefined;
        },
      });
    }
  });

  afterEach(() => {
    for (const name of BROWSER_GLOBALS) delete (globalThis as Record<string, unknown>)[name];
  });

  function client() {
    const fetch = vi.fn(async () => Response.json(null));
    return { fetch, client: createAuthClient({ baseURL: "http://auth.test", fetch }) };
  }

  it("renders useSession inside AuthProvider without a window and without requests", () => {
    const { fetch, client: auth } = client();
    const html = renderToString(
      <AuthProvider client={auth} locale="de">
        <Who />
      </AuthProvider>,
    );
    expect(html).toContain("loading");
    expect(touched).toEqual([]);
    expect(fetch).not.toHaveBeenCalled();
  });

  it("renders the session the page already knows", () => {
    const { fetch, client: auth } = client();
    const html = renderToString(
      <AuthProvider client={auth} initialSession={sessionOf()}>
        <Who />
      </AuthProvider>,
    );
    expect(html).toContain("signed in as Ada Lovelace");
    expect(touched).toEqual([]);
    expect(fetch).not.toHaveBeenCalled();
  });

  it("renders a component in a given language, and one still waiting for its language", () => {
    const { client: auth } = client();
    const ready = renderToString(
      <AuthProvider client={auth} locale="de" messages={german}>
        <SignIn />
      </AuthProvider>,
    );
    expect(ready).toContain("Passwort");
    expect(ready).toContain('lang="de"');
    expect(ready).not.toContain("data-authd-locale-pending");
    const waiting = renderToString(
      <AuthProvider client={auth} locale="de">
        <SignIn />
      </AuthProvider>,
    );
    expect(waiting).toContain("data-authd-locale-pending");
    expect(waiting).toContain('aria-busy="true"');
    expect(touched).toEqual([]);
  });
});
