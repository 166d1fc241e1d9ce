/**
 * link-social against a real OpenID provider on loopback: linking an account to the
 * signed-in user, the refusals (another user's account, another address, linking off),
 * and unlinking down to the last account.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuthdConfigInput } from "../../server/config.js";
import { createTestApp, type TestApp } from "../helpers/app.js";
import { type Client, createClient } from "../helpers/client.js";
import { startOidcProvider, type TestOidcProvider } from "../helpers/oidc.js";
import {
  authdPath,
  BASE,
  errorOf,
  ORIGIN,
  peopleAt,
  redirectOf,
  setsSession,
  socialSignIn,
  startSocial,
  stateIdentifier,
} from "../helpers/social.js";

let idp: TestOidcProvider;
const person = peopleAt(() => idp);
const apps: TestApp[] = [];

async function appWith(config: AuthdConfigInput = {}): Promise<TestApp> {
  const acme = { clientId: idp.clientId, clientSecret: idp.clientSecret, issuer: idp.issuer };
  const app = await createTestApp({
    config: { trustedOrigins: ["http://app.test"], socialProviders: { acme }, ...config },
  });
  apps.push(app);
  return app;
}

let t: TestApp;

beforeAll(async () => {
  idp = await startOidcProvider({ redirectUris: [`${BASE}/callback/acme`] });
  t = await appWith();
});

afterAll(async () => {
  for (const app of apps) await app.close();
  await idp?.close();
});

async function signUpWithPassword(app: TestApp, email: string) {
  const client = createClient(app.app);
  const response = await client.post("/sign-up/email", {
    name: "Local",
    email,
    password: "correct horse battery",
  });
  expect(response.statusCode, response.body).toBe(200);
  return { client, userId: response.json().user.id as string };
}

async function providersOf(client: Client): Promise<string[]> {
  const accounts = (await client.get("/list-accounts")).json() as Array<{ provider: string }>;
  return accounts.map((account) => account.provider).sort();
}

async function link(client: Client, sub: string, body: Record<string, unknown> = {}) {
  return socialSignIn(idp, client, { provider: "acme", ...body }, sub, { path: "/link-social" });
}

describe("POST /link-social", () => {
  it("links the account to the signed-in user and keeps the session", async () => {
    // Linking does not need the provider to vouch: the user proved both sides.
    const { sub, email } = person({ email_verified: false });
    const { client, userId } = await signUpWithPassword(t, email);
    const before = (await client.get("/get-session")).json().session.id;

    const started = await client.post("/link-social", {
      provider: "acme",
      callbackURL: "/settings",
    });
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json()).toEqual({ url: expect.any(String), redirect: true });
    expect(started.headers.location).toBe(started.json().url);
    const state = new URL(started.json().url).searchParams.get("state") as string;
    const [row] = await t.db.sql<Array<{ value: string }>>`
      select value from verification where identifier = ${stateIdentifier(state)}`;
    expect(JSON.parse(row?.value ?? "{}").link).toEqual({ userId, email });

    const back = await idp.authorize(started.json().url, { login: sub });
    const answer = await client.get(authdPath(back));
    expect(redirectOf(answer).toString()).toBe(`${ORIGIN}/settings`);
    expect(setsSession(client, answer)).toBe(false);
    expect((await client.get("/get-session")).json().session.id).toBe(before);
    expect(await providersOf(client)).toEqual(["acme", "credential"]);

    // Linking the same account again refreshes it; there is still one.
    expect(errorOf(await link(client, sub))).toBeNull();
    expect(await providersOf(client)).toEqual(["acme", "credential"]);
  });

  it("refuses another user's account: account_already_linked_to_different_user", async () => {
    const { sub } = person();
    await socialSignIn(idp, createClient(t.app), { provider: "acme" }, sub);
    const other = person();
    const { client } = await signUpWithPassword(t, other.email);
    const answer = await link(client, sub, { errorCallbackURL: "/oops" });
    expect(redirectOf(answer).toString()).toBe(
      `${ORIGIN}/oops?error=account_already_linked_to_different_user`,
    );
    expect(await providersOf(client)).toEqual(["credential"]);
  });

  it("refuses an account with another address: email_does_not_match", async () => {
    const { sub } = person();
    const { client } = await signUpWithPassword(t, person().email);
    const answer = await link(client, sub);
    expect(redirectOf(answer).toString()).toBe(`${BASE}/error?error=email_does_not_match`);
    expect(await providersOf(client)).toEqual(["credential"]);
  });

  it("needs a session, a configured provider and trusted redirect targets", async () => {
    const anonymous = await createClient(t.app).post("/link-social", { provider: "acme" });
    expect(anonymous.statusCode).toBe(401);
    const { client } = await signUpWithPassword(t, person().email);
    const unknown = await client.post("/link-social", { provider: "nope" });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe("PROVIDER_NOT_FOUND");
    const untrusted = await client.post("/link-social", {
      provider: "acme",
      callbackURL: "https://evil.example/",
    });
    expect(untrusted.statusCode).toBe(403);
    expect(untrusted.json().code).toBe("INVALID_CALLBACK_URL");
    const quiet = await client.post("/link-social", { provider: "acme", disableRedirect: true });
    expect(quiet.json()).toEqual({ url: expect.any(String), redirect: false });
    expect(quiet.headers.location).toBeUndefined();
  });
});

describe("unlinking", () => {
  it("keeps a social-only user's last account, and a linked user's last one", async () => {
    const only = person();
    const socialClient = createClient(t.app);
    await socialSignIn(idp, socialClient, { provider: "acme" }, only.sub);
    const refused = await socialClient.post("/unlink-account", { providerId: "acme" });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe("FAILED_TO_UNLINK_LAST_ACCOUNT");

    const both = person();
    const { client, userId } = await signUpWithPassword(t, both.email);
    expect(errorOf(await link(client, both.sub))).toBeNull();
    const unlinked = await client.post("/unlink-account", { providerId: "acme" });
    expect(unlinked.statusCode, unlinked.body).toBe(200);
    expect(await providersOf(client)).toEqual(["credential"]);
    const last = await client.post("/unlink-account", { providerId: "credential" });
    expect(last.statusCode).toBe(400);
    expect(last.json().code).toBe("FAILED_TO_UNLINK_LAST_ACCOUNT");

    // Signing in with the provider again links it back to the same user by address.
    const again = createClient(t.app);
    expect(errorOf(await socialSignIn(idp, again, { provider: "acme" }, both.sub))).toBeNull();
    expect((await again.get("/get-session")).json().user.id).toBe(userId);
  });
});

describe("with account linking off", () => {
  let off: TestApp;
  beforeAll(async () => {
    off = await appWith({ account: { accountLinking: { enabled: false } } });
  });

  it("link-social answers 400 ACCOUNT_LINKING_DISABLED", async () => {
    const { client } = await signUpWithPassword(off, person().email);
    const response = await client.post("/link-social", { provider: "acme" });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: "ACCOUNT_LINKING_DISABLED",
      message: "Account linking is disabled",
    });
  });

  it("a vouched-for address of an existing user is unable_to_link_account", async () => {
    const { sub, email } = person();
    await signUpWithPassword(off, email);
    const client = createClient(off.app);
    const answer = await socialSignIn(idp, client, { provider: "acme" }, sub);
    expect(errorOf(answer)).toBe("unable_to_link_account");
    expect(setsSession(client, answer)).toBe(false);
  });
});

describe("with allowDifferentEmails", () => {
  it("links an account whose address is not the user's", async () => {
    const open = await appWith({ account: { accountLinking: { allowDifferentEmails: true } } });
    const { sub } = person();
    const { client } = await signUpWithPassword(open, person().email);
    const { url } = await startSocial(client, { provider: "acme" }, "/link-social");
    const back = await idp.authorize(url.toString(), { login: sub });
    expect(errorOf(await client.get(authdPath(back)))).toBeNull();
    expect(await providersOf(client)).toEqual(["acme", "credential"]);
  });
});
