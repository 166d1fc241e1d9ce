/**
 * The social sign-in callback against a real OpenID provider on loopback: the state is
 * used once, expires, is bound to its browser and provider, the issuer names itself;
 * provider errors pass on; a form_post comes back by GET.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomString } from "../../server/crypto/random.js";
import { createTestApp, type TestApp } from "../helpers/app.js";
import { createClient } from "../helpers/client.js";
import { ProviderBrowser, startOidcProvider, type TestOidcProvider } from "../helpers/oidc.js";
import {
  authdPath,
  BASE,
  errorOf,
  ORIGIN,
  peopleAt,
  redirectOf,
  setsSession,
  startSocial,
  stateIdentifier,
} from "../helpers/social.js";

let idp: TestOidcProvider;
let t: TestApp;
const person = peopleAt(() => idp);

beforeAll(async () => {
  idp = await startOidcProvider({
    redirectUris: ["acme", "acme-other"].map((id) => `${BASE}/callback/${id}`),
  });
  const acme = { clientId: idp.clientId, clientSecret: idp.clientSecret, issuer: idp.issuer };
  t = await createTestApp({ config: { socialProviders: { acme, "acme-other": acme } } });
});

afterAll(async () => {
  await t?.close();
  await idp?.close();
});

async function usersWithEmail(email: string): Promise<Array<{ id: string }>> {
  return t.db.sql<Array<{ id: string }>>`select id from "user" where email = ${email}`;
}

describe("callback: the state", () => {
  it("works once: a replay, even with a fresh code, is state_not_found", async () => {
    const { sub } = person();
    const client = createClient(t.app);
    const browser = new ProviderBrowser();
    const { url } = await startSocial(client, { provider: "acme" });
    const back = await idp.authorize(url.toString(), { login: sub }, browser);
    expect(errorOf(await client.get(authdPath(back)))).toBeNull();

    const replay = await client.get(authdPath(back));
    expect(redirectOf(replay).toString()).toBe(`${BASE}/error?error=state_not_found`);
    expect(setsSession(client, replay)).toBe(false);

    const again = await idp.authorize(url.toString(), { login: sub }, browser);
    expect(again.searchParams.get("code")).not.toBe(back.searchParams.get("code"));
    expect(errorOf(await client.get(authdPath(again)))).toBe("state_not_found");
  });

  it("refuses an expired state", async () => {
    const { sub, email } = person();
    const client = createClient(t.app);
    const { url, state } = await startSocial(client, {
      provider: "acme",
      errorCallbackURL: "/oops",
    });
    await t.db.sql`
      update verification set expires_at = now() - interval '1 minute'
      where identifier = ${stateIdentifier(state)}`;
    const back = await idp.authorize(url.toString(), { login: sub });
    const answer = await client.get(authdPath(back));
    expect(redirectOf(answer).toString()).toBe(`${ORIGIN}/oops?error=state_not_found`);
    expect(await usersWithEmail(email)).toEqual([]);
  });

  it("refuses a made-up or altered state, and the real one still works", async () => {
    const { sub } = person();
    const client = createClient(t.app);
    const { url, state } = await startSocial(client, { provider: "acme" });
    const back = await idp.authorize(url.toString(), { login: sub });
    const code = back.searchParams.get("code") as string;
    const altered = `${state.slice(0, -1)}${state.endsWith("a") ? "b" : "a"}`;
    for (const fake of [randomString(32), altered, "short"]) {
      const answer = await client.get("/callback/acme", { query: { code, state: fake } });
      expect(redirectOf(answer).toString()).toBe(`${BASE}/error?error=state_not_found`);
    }
    expect(errorOf(await client.get(authdPath(back)))).toBeNull();
  });

  it("answers state_not_found without a state and no_code without a code", async () => {
    const client = createClient(t.app);
    expect(errorOf(await client.get("/callback/acme", { query: { code: "abc" } }))).toBe(
      "state_not_found",
    );
    const { state } = await startSocial(client, { provider: "acme", errorCallbackURL: "/oops" });
    const answer = await client.get("/callback/acme", { query: { state } });
    expect(redirectOf(answer).toString()).toBe(`${ORIGIN}/oops?error=no_code`);
  });

  it("refuses a callback from another browser (no state cookie), which spends the state", async () => {
    const { sub } = person();
    const starter = createClient(t.app);
    const { url } = await startSocial(starter, { provider: "acme" });
    const back = await idp.authorize(url.toString(), { login: sub });
    const other = createClient(t.app);
    const answer = await other.get(authdPath(back));
    expect(errorOf(answer)).toBe("please_restart_the_process");
    expect(setsSession(other, answer)).toBe(false);
    expect(errorOf(await starter.get(authdPath(back)))).toBe("state_not_found");
  });

  it("refuses a state made for another provider, and an unknown provider", async () => {
    const { sub } = person();
    const client = createClient(t.app);
    const { url } = await startSocial(client, { provider: "acme" });
    const back = await idp.authorize(url.toString(), { login: sub });
    const unknown = await client.get(`/callback/nope${back.search}`);
    expect(redirectOf(unknown).toString()).toBe(`${BASE}/error?error=oauth_provider_not_found`);
    expect(errorOf(await client.get(`/callback/acme-other${back.search}`))).toBe("state_not_found");
  });

  it("refuses a response naming another issuer, or none where the issuer always names itself", async () => {
    const { sub } = person();
    for (const iss of ["http://evil.example", null]) {
      const client = createClient(t.app);
      const { url } = await startSocial(client, { provider: "acme" });
      const back = await idp.authorize(url.toString(), { login: sub });
      if (iss === null) back.searchParams.delete("iss");
      else back.searchParams.set("iss", iss);
      expect(errorOf(await client.get(authdPath(back)))).toBe("invalid_callback_request");
    }
  });
});

describe("callback: provider errors", () => {
  it("passes the provider's error on, to errorCallbackURL or the error page", async () => {
    const client = createClient(t.app);
    const { url } = await startSocial(client, { provider: "acme", errorCallbackURL: "/oops" });
    const back = await idp.authorize(url.toString(), { abort: true });
    expect(back.searchParams.get("error")).toBe("access_denied");
    const target = redirectOf(await client.get(authdPath(back)));
    expect(`${target.origin}${target.pathname}`).toBe(`${ORIGIN}/oops`);
    expect(target.searchParams.get("error")).toBe("access_denied");
    expect(target.searchParams.get("error_description")).toBe("End-User aborted interaction");

    const plain = createClient(t.app);
    const started = await startSocial(plain, { provider: "acme" });
    const aborted = await idp.authorize(started.url.toString(), { abort: true });
    const page = redirectOf(await plain.get(authdPath(aborted)));
    expect(`${page.origin}${page.pathname}`).toBe(`${BASE}/error`);
    expect(page.searchParams.get("error")).toBe("access_denied");
    const html = await plain.get(authdPath(page));
    expect(html.statusCode).toBe(200);
    expect(html.body).toContain("access_denied");
  });

  it("does not pass on an error value that is not an error code", async () => {
    const client = createClient(t.app);
    const { state } = await startSocial(client, { provider: "acme" });
    const answer = await client.get("/callback/acme", {
      query: { state, error: "<script>alert(1)</script>" },
    });
    expect(errorOf(answer)).toBe("invalid_callback_request");
  });
});

describe("POST /callback/{id} (form_post)", () => {
  it("answers 302 to the GET form with the same parameters, whatever the origin", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/auth/callback/acme",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: "https://provider.example",
        cookie: "other=1",
      },
      payload: "code=c0de&state=st4te&iss=https%3A%2F%2Fprovider.example&extra=dropped",
    });
    const target = redirectOf(response);
    expect(`${target.origin}${target.pathname}`).toBe(`${BASE}/callback/acme`);
    expect([...target.searchParams]).toEqual([
      ["code", "c0de"],
      ["state", "st4te"],
      ["iss", "https://provider.example"],
    ]);
  });

  it("takes the fields from the query when there is no body", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/auth/callback/acme?code=c0de&state=st4te",
    });
    const target = redirectOf(response);
    expect(`${target.origin}${target.pathname}`).toBe(`${BASE}/callback/acme`);
    expect([...target.searchParams]).toEqual([
      ["code", "c0de"],
      ["state", "st4te"],
    ]);
  });

  it("finishes the sign-in once the browser comes back by GET", async () => {
    const { sub } = person();
    const client = createClient(t.app);
    const { url } = await startSocial(client, { provider: "acme", callbackURL: "/home" });
    const back = await idp.authorize(url.toString(), { login: sub });
    const posted = await t.app.inject({
      method: "POST",
      url: "/api/auth/callback/acme",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: back.searchParams.toString(),
    });
    const answer = await client.get(authdPath(redirectOf(posted)));
    expect(redirectOf(answer).toString()).toBe(`${ORIGIN}/home`);
    expect(setsSession(client, answer)).toBe(true);
  });
});
