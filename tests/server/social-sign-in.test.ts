/**
 * Social sign-in against a real OpenID provider on loopback (oidc-provider, PKCE
 * required): sign-in/social, the callback for new and returning users, linking by
 * address, sign-up rules and the list of providers. The callback's own checks are in
 * social-callback.test.ts, link-social in social-link.test.ts.
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256 } from "../../server/crypto/digest.js";
import { AuthError } from "../../server/errors.js";
import type { TokenCipher } from "../../server/social/ports.js";
import { createTestApp, type TestApp } from "../helpers/app.js";
import { createClient } from "../helpers/client.js";
import { startOidcProvider, type TestOidcProvider } from "../helpers/oidc.js";
import {
  BASE,
  errorOf,
  ORIGIN,
  peopleAt,
  redirectOf,
  setsSession,
  socialSignIn,
  stateIdentifier,
} from "../helpers/social.js";

const PROVIDER_IDS = ["acme", "acme-trusted", "acme-closed", "acme-invite"];

/** Marks what it stored, so a test sees that tokens went through the cipher. */
const sealing: TokenCipher = {
  encrypt: (plain) => `sealed:${Buffer.from(plain).toString("base64url")}`,
  decrypt: (stored) =>
    stored.startsWith("sealed:") ? Buffer.from(stored.slice(7), "base64url").toString() : null,
};

let idp: TestOidcProvider;
let t: TestApp;
const person = peopleAt(() => idp);

beforeAll(async () => {
  idp = await startOidcProvider({
    redirectUris: PROVIDER_IDS.map((id) => `${BASE}/callback/${id}`),
  });
  const acme = { clientId: idp.clientId, clientSecret: idp.clientSecret, issuer: idp.issuer };
  t = await createTestApp({
    config: {
      trustedOrigins: ["http://app.test"],
      socialProviders: {
        acme,
        "acme-trusted": acme,
        "acme-closed": { ...acme, disableSignUp: true },
        "acme-invite": { ...acme, disableImplicitSignUp: true, name: "Acme by invitation" },
      },
      account: { accountLinking: { trustedProviders: ["acme-trusted"] } },
    },
    social: { cipher: sealing },
  });
});

afterAll(async () => {
  await t?.close();
  await idp?.close();
});

async function signUpWithPassword(email: string) {
  const client = createClient(t.app);
  const response = await client.post("/sign-up/email", {
    name: "Local",
    email,
    password: "correct horse battery",
  });
  expect(response.statusCode, response.body).toBe(200);
  return { client, userId: response.json().user.id as string };
}

async function usersWithEmail(
  email: string,
): Promise<Array<{ id: string; emailVerified: boolean }>> {
  return t.db.sql<Array<{ id: string; emailVerified: boolean }>>`
    select id, email_verified from "user" where email = ${email.toLowerCase()}`;
}

async function accountsOf(providerId: string, accountId: string) {
  return t.db.sql<
    Array<{
      userId: string;
      accessToken: string | null;
      idToken: string | null;
      accessTokenExpiresAt: Date | null;
    }>
  >`select user_id, access_token, id_token, access_token_expires_at from account
    where provider_id = ${providerId} and account_id = ${accountId}`;
}

describe("POST /sign-in/social", () => {
  it("answers the authorization URL with PKCE, a nonce and a state bound to the browser", async () => {
    const client = createClient(t.app);
    const response = await client.post("/sign-in/social", {
      provider: "acme",
      scopes: ["custom:read"],
      loginHint: "ada@example.com",
    });
    expect(response.statusCode, response.body).toBe(200);
    const { url, redirect } = response.json();
    expect(redirect).toBe(true);
    expect(response.headers.location).toBe(url);
    const authorization = new URL(url);
    expect(`${authorization.origin}${authorization.pathname}`).toBe(`${idp.issuer}/auth`);
    const query = authorization.searchParams;
    expect(query.get("response_type")).toBe("code");
    expect(query.get("client_id")).toBe(idp.clientId);
    expect(query.get("redirect_uri")).toBe(`${BASE}/callback/acme`);
    expect(query.get("scope")).toBe("openid email profile custom:read");
    expect(query.get("code_challenge_method")).toBe("S256");
    expect(query.get("login_hint")).toBe("ada@example.com");
    expect(query.get("nonce")).toMatch(/^[A-Za-z0-9]{32}$/);
    const state = query.get("state") as string;
    expect(state).toMatch(/^[A-Za-z0-9_-]{32}$/);

    const cookie = client.setCookies(response).get("authd.state") ?? "";
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Max-Age=600/);

    // The row is named by the state's digest and never holds the state itself.
    const [row] = await t.db.sql<Array<{ value: string; expiresAt: Date }>>`
      select value, expires_at from verification where identifier = ${stateIdentifier(state)}`;
    expect(row).toBeDefined();
    expect(row?.value).not.toContain(state);
    const stored = JSON.parse(row?.value ?? "{}");
    expect(stored.codeVerifier).toMatch(/^[A-Za-z0-9._~-]{128}$/);
    expect(query.get("code_challenge")).toBe(sha256(stored.codeVerifier));
    expect(stored).toMatchObject({ providerId: "acme", callbackURL: "/", requestSignUp: false });
    const lifetime = (row?.expiresAt.getTime() ?? 0) - Date.now();
    expect(lifetime).toBeGreaterThan(590_000);
    expect(lifetime).toBeLessThanOrEqual(600_000);
  });

  it("answers {url, redirect: false} without a Location with disableRedirect", async () => {
    const response = await createClient(t.app).post("/sign-in/social", {
      provider: "acme",
      disableRedirect: true,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ url: expect.any(String), redirect: false });
    expect(response.headers.location).toBeUndefined();
  });

  it("answers 404 PROVIDER_NOT_FOUND for a provider that is not configured", async () => {
    for (const provider of ["nope", "github"]) {
      const response = await createClient(t.app).post("/sign-in/social", { provider });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({
        code: "PROVIDER_NOT_FOUND",
        message: "Provider not found",
      });
    }
  });

  it("refuses redirect targets on untrusted origins with 403, before any state", async () => {
    const before = await t.db.sql`select id from verification`;
    const cases = [
      ["callbackURL", "INVALID_CALLBACK_URL"],
      ["newUserCallbackURL", "INVALID_NEW_USER_CALLBACK_URL"],
      ["errorCallbackURL", "INVALID_ERROR_CALLBACK_URL"],
    ];
    for (const [field, code] of cases) {
      for (const target of ["https://evil.example/x", "//evil.example/x", "javascript:alert(1)"]) {
        const response = await createClient(t.app).post("/sign-in/social", {
          provider: "acme",
          [field as string]: target,
        });
        expect(response.statusCode, `${field} ${target}`).toBe(403);
        expect(response.json().code).toBe(code);
      }
    }
    expect((await t.db.sql`select id from verification`).length).toBe(before.length);
    const trusted = await createClient(t.app).post("/sign-in/social", {
      provider: "acme",
      callbackURL: "http://app.test/after",
    });
    expect(trusted.statusCode).toBe(200);
  });

  it("refuses an id token that is not one with 401 INVALID_TOKEN", async () => {
    const response = await createClient(t.app).post("/sign-in/social", {
      provider: "acme",
      idToken: { token: "header.payload.signature" },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe("INVALID_TOKEN");
    expect(response.body).not.toContain("header.payload");
  });
});

describe("callback: new and returning users", () => {
  it("creates a verified user with the account, signs in and sends the browser on", async () => {
    const { sub, email } = person({ email: `New-${Date.now()}@Example.com` });
    const client = createClient(t.app);
    const body = { provider: "acme", callbackURL: "/home", newUserCallbackURL: "/welcome" };
    const answer = await socialSignIn(idp, client, body, sub);
    expect(redirectOf(answer).toString()).toBe(`${ORIGIN}/welcome`);
    expect(setsSession(client, answer)).toBe(true);
    expect(client.setCookies(answer).get("authd.state")).toMatch(/Max-Age=0/);

    const session = (await client.get("/get-session")).json();
    expect(session.user).toMatchObject({
      email: email.toLowerCase(),
      emailVerified: true,
      name: "Ada Lovelace",
    });
    const accounts = (await client.get("/list-accounts")).json();
    expect(accounts).toEqual([
      expect.objectContaining({ provider: "acme", providerId: "acme", accountId: sub }),
    ]);
    expect(accounts[0].scopes).toEqual(expect.arrayContaining(["openid", "email"]));
    const [account] = await accountsOf("acme", sub);
    expect(account?.accessToken).toMatch(/^sealed:/);
    expect(account?.idToken).toMatch(/^sealed:/);
    expect(account?.accessTokenExpiresAt?.getTime()).toBeGreaterThan(Date.now());
  });

  it("signs a returning user into the same user, with no second user or account", async () => {
    const { sub, email } = person();
    const first = await socialSignIn(idp, createClient(t.app), { provider: "acme" }, sub);
    expect(redirectOf(first).toString()).toBe(`${ORIGIN}/`);
    const client = createClient(t.app);
    const again = await socialSignIn(
      idp,
      client,
      { provider: "acme", callbackURL: "/home", newUserCallbackURL: "/welcome" },
      sub,
    );
    expect(redirectOf(again).toString()).toBe(`${ORIGIN}/home`);
    const [user] = await usersWithEmail(email);
    expect((await client.get("/get-session")).json().user.id).toBe(user?.id);
    expect(await usersWithEmail(email)).toHaveLength(1);
    expect(await accountsOf("acme", sub)).toHaveLength(1);
  });

  it("creates an unverified user when the provider does not vouch for the address", async () => {
    const { sub, email } = person({ email_verified: false });
    expect(
      errorOf(await socialSignIn(idp, createClient(t.app), { provider: "acme" }, sub)),
    ).toBeNull();
    expect(await usersWithEmail(email)).toEqual([
      expect.objectContaining({ emailVerified: false }),
    ]);
  });

  it("sends a banned user to the error page with BANNED_USER and no session", async () => {
    const { sub, email } = person();
    await socialSignIn(idp, createClient(t.app), { provider: "acme" }, sub);
    await t.db.sql`update "user" set banned = true where email = ${email}`;
    const client = createClient(t.app);
    const answer = await socialSignIn(
      idp,
      client,
      { provider: "acme", errorCallbackURL: "/oops" },
      sub,
    );
    const target = redirectOf(answer);
    expect(`${target.origin}${target.pathname}`).toBe(`${ORIGIN}/oops`);
    expect(target.searchParams.get("error")).toBe("BANNED_USER");
    // The ban says why, as the password sign-in's answer does.
    expect(target.searchParams.get("error_description")).toBe(new AuthError("BANNED_USER").message);
    expect(setsSession(client, answer)).toBe(false);
  });

  it("refuses to sign up without an address: email_not_found, nothing created", async () => {
    const { sub } = person({ email: null });
    const client = createClient(t.app);
    const answer = await socialSignIn(idp, client, { provider: "acme" }, sub);
    expect(redirectOf(answer).toString()).toBe(`${BASE}/error?error=email_not_found`);
    expect(setsSession(client, answer)).toBe(false);
    expect(await accountsOf("acme", sub)).toEqual([]);
  });
});

describe("callback: a user with the same address exists", () => {
  it("links when the provider vouches for the address, which becomes verified", async () => {
    const { sub, email } = person();
    const local = await signUpWithPassword(email);
    expect((await usersWithEmail(email))[0]?.emailVerified).toBe(false);
    const client = createClient(t.app);
    const answer = await socialSignIn(idp, client, { provider: "acme", callbackURL: "/home" }, sub);
    expect(redirectOf(answer).toString()).toBe(`${ORIGIN}/home`);
    expect((await client.get("/get-session")).json().user).toMatchObject({
      id: local.userId,
      emailVerified: true,
    });
    const providers = (await client.get("/list-accounts"))
      .json()
      .map((a: { provider: string }) => a.provider);
    expect(providers.sort()).toEqual(["acme", "credential"]);
  });

  it("refuses with unable_to_link_account when the provider neither vouches nor is trusted", async () => {
    const { sub, email } = person({ email_verified: false });
    await signUpWithPassword(email);
    const client = createClient(t.app);
    const answer = await socialSignIn(idp, client, { provider: "acme" }, sub);
    expect(redirectOf(answer).toString()).toBe(`${BASE}/error?error=unable_to_link_account`);
    expect(setsSession(client, answer)).toBe(false);
    expect(await accountsOf("acme", sub)).toEqual([]);
    expect((await usersWithEmail(email))[0]?.emailVerified).toBe(false);
  });

  it("links through a trusted provider that does not vouch, leaving the address unverified", async () => {
    const { sub, email } = person({ email_verified: false });
    const local = await signUpWithPassword(email);
    const client = createClient(t.app);
    const answer = await socialSignIn(idp, client, { provider: "acme-trusted" }, sub);
    expect(errorOf(answer)).toBeNull();
    expect((await accountsOf("acme-trusted", sub))[0]?.userId).toBe(local.userId);
    expect((await usersWithEmail(email))[0]?.emailVerified).toBe(false);
  });
});

describe("callback: sign-up rules", () => {
  it("disableSignUp refuses new users with signup_disabled but lets existing ones in", async () => {
    const stranger = person();
    const answer = await socialSignIn(
      idp,
      createClient(t.app),
      { provider: "acme-closed" },
      stranger.sub,
    );
    expect(errorOf(answer)).toBe("signup_disabled");
    expect(await usersWithEmail(stranger.email)).toEqual([]);

    const known = person();
    await signUpWithPassword(known.email);
    const linked = await socialSignIn(
      idp,
      createClient(t.app),
      { provider: "acme-closed" },
      known.sub,
    );
    expect(errorOf(linked)).toBeNull();
  });

  it("disableImplicitSignUp creates users only when the sign-in asks for it", async () => {
    const { sub, email } = person();
    const implicit = await socialSignIn(idp, createClient(t.app), { provider: "acme-invite" }, sub);
    expect(errorOf(implicit)).toBe("signup_disabled");
    const body = { provider: "acme-invite", requestSignUp: true };
    expect(errorOf(await socialSignIn(idp, createClient(t.app), body, sub))).toBeNull();
    expect(await usersWithEmail(email)).toHaveLength(1);
  });
});

describe("GET /social-providers", () => {
  it("lists the configured providers with their names, never a secret", async () => {
    const response = await createClient(t.app).get("/social-providers");
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([
      { id: "acme", name: "acme" },
      { id: "acme-trusted", name: "acme-trusted" },
      { id: "acme-closed", name: "acme-closed" },
      { id: "acme-invite", name: "Acme by invitation" },
    ]);
    expect(response.body).not.toContain(idp.clientSecret);
    expect(response.headers["cache-control"]).toBe("public, max-age=300");
  });
});
