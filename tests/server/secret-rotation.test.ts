/**
 * The server secret rotates: with a list (newest first) everything made under an older
 * secret keeps working, session cookies are signed again under the newest, and once the
 * older secret leaves the list what it signed is refused.
 */
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../server/config.js";
import { sha256, unsignValue } from "../../server/crypto/digest.js";
import { signToken } from "../../server/crypto/jwt.js";
import { createTokenCipher } from "../../server/social/token-crypto.js";
import { createSecondInstance, createTestApp, TEST_SECRET, type TestApp } from "../helpers/app.js";
import { type Client, createClient } from "../helpers/client.js";

const OLD = TEST_SECRET;
const NEW = "rotated-secret-9876543210-9876543210-fedcba";
const PASSWORD = "correct horse battery";
const COOKIE = "authd.session_token";

let t: TestApp;
const apps: FastifyInstance[] = [];

beforeAll(async () => {
  t = await createTestApp({
    config: { session: { cookieCache: { enabled: true } }, pages: { enabled: false } },
  });
});

afterAll(async () => {
  for (const app of apps) await app.close();
  await t?.close();
});

/** Another instance on the same database whose secret setting is `secret`. */
async function instanceWith(secret: string | string[]): Promise<FastifyInstance> {
  const app = await createSecondInstance(t, { secret });
  apps.push(app);
  return app;
}

/** A browser that moves to `app` with the cookies it holds. */
function carry(from: Client, app: FastifyInstance): Client {
  const client = createClient(app);
  for (const [name, value] of from.cookies) client.cookies.set(name, value);
  return client;
}

let counter = 0;
async function signedUp(options: { rememberMe?: boolean } = {}) {
  counter += 1;
  const email = `rotate${counter}-${Date.now()}@example.com`;
  const client = createClient(t.app);
  const up = await client.post("/sign-up/email", { name: "Rota", email, password: PASSWORD });
  expect(up.statusCode, up.body).toBe(200);
  if (options.rememberMe === false) {
    const signIn = await client.post("/sign-in/email", {
      email,
      password: PASSWORD,
      rememberMe: false,
    });
    expect(signIn.statusCode, signIn.body).toBe(200);
  }
  return { client, email };
}

/** The session token a cookie value carries, when `secret` signed it. */
function signedWith(value: string, secret: string): string | null {
  return unsignValue(decodeURIComponent(value), secret);
}

describe("session cookies across a secret rotation", () => {
  it("keeps a cookie signed with the older secret working and signs it again with the newest", async () => {
    const { client } = await signedUp();
    const oldValue = client.cookies.get(COOKIE) as string;
    const token = signedWith(oldValue, OLD);
    expect(token).not.toBeNull();

    const rotating = carry(client, await instanceWith([NEW, OLD]));
    rotating.cookies.delete("authd.session_data");
    const session = await rotating.get("/get-session");
    expect(session.statusCode, session.body).toBe(200);
    expect(session.json()?.user?.email).toMatch(/^rotate/);
    const reissued = rotating.setCookies(session).get(COOKIE);
    expect(reissued, "the answer re-signs the session cookie").toBeDefined();
    const newValue = rotating.cookies.get(COOKIE) as string;
    expect(signedWith(newValue, NEW)).toBe(token);
    expect(signedWith(newValue, OLD)).toBeNull();
    // Same session, same expiry: a remembered login keeps a lifetime on the cookie.
    expect(reissued).toMatch(/Max-Age=\d+/);

    // A second answer has nothing left to re-sign.
    const again = await rotating.get("/get-session");
    expect(rotating.setCookies(again).get(COOKIE)).toBeUndefined();

    // Once the older secret is removed, only the re-signed cookie still works.
    const newOnly = await instanceWith([NEW]);
    const withOld = createClient(newOnly);
    withOld.cookies.set(COOKIE, oldValue);
    expect((await withOld.get("/get-session")).json()).toBeNull();
    const withNew = createClient(newOnly);
    withNew.cookies.set(COOKIE, newValue);
    expect((await withNew.get("/get-session")).json()?.user?.email).toMatch(/^rotate/);
  });

  it("keeps a browser-session login a browser-session cookie when signing it again", async () => {
    const { client } = await signedUp({ rememberMe: false });
    const rotating = carry(client, await instanceWith([NEW, OLD]));
    rotating.cookies.delete("authd.session_data");
    const session = await rotating.get("/get-session");
    expect(session.statusCode, session.body).toBe(200);
    const reissued = rotating.setCookies(session).get(COOKIE);
    expect(reissued).toBeDefined();
    expect(reissued).not.toMatch(/Max-Age/i);
    const marker = rotating.cookies.get("authd.dont_remember") as string;
    expect(signedWith(marker, NEW)).toBe("true");
  });

  it("does not bring back a cookie that sign-out clears", async () => {
    const { client } = await signedUp();
    const rotating = carry(client, await instanceWith([NEW, OLD]));
    const out = await rotating.post("/sign-out");
    expect(out.statusCode, out.body).toBe(200);
    expect(rotating.cookies.has(COOKIE)).toBe(false);
  });

  it("refuses a cookie signed with a secret that is not in the list", async () => {
    const { client } = await signedUp();
    const other = carry(client, await instanceWith("another-secret-0000000000-0000000000-000000"));
    other.cookies.delete("authd.session_data");
    expect((await other.get("/get-session")).json()).toBeNull();
  });

  it("answers from a cookie cache signed with the older secret", async () => {
    const { client } = await signedUp();
    expect(client.cookies.get("authd.session_data")).toBeTruthy();
    const rotating = carry(client, await instanceWith([NEW, OLD]));
    // Delete the session row: only the cookie cache can answer now.
    const token = signedWith(client.cookies.get(COOKIE) as string, OLD) as string;
    await t.db.sql`delete from session where token_hash = ${sha256(token)}`;
    const cached = await rotating.get("/get-session");
    expect(cached.statusCode, cached.body).toBe(200);
    expect(cached.json()?.user?.email).toMatch(/^rotate/);
    const newOnly = carry(client, await instanceWith([NEW]));
    expect((await newOnly.get("/get-session")).json()).toBeNull();
  });
});

describe("mailed tokens across a secret rotation", () => {
  it("accepts a verification link signed with the older secret while it is listed", async () => {
    const { email } = await signedUp();
    const [user] = await t.db.sql<{ id: string }[]>`select id from "user" where email = ${email}`;
    const token = await signToken({ email, userId: user?.id }, OLD, 3600);

    const newOnly = createClient(await instanceWith([NEW]));
    const refused = await newOnly.get("/verify-email", { query: { token } });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().code).toBe("INVALID_TOKEN");

    const rotating = createClient(await instanceWith([NEW, OLD]));
    const accepted = await rotating.get("/verify-email", { query: { token } });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const [row] = await t.db.sql<{ emailVerified: boolean }[]>`
      select email_verified from "user" where email = ${email}`;
    expect(row?.emailVerified).toBe(true);
  });

  it("still tells an expired link from a forged one", async () => {
    const expired = await signToken({ email: "x@example.com" }, OLD, -10);
    const rotating = createClient(await instanceWith([NEW, OLD]));
    const answer = await rotating.get("/verify-email", { query: { token: expired } });
    expect(answer.json().code).toBe("TOKEN_EXPIRED");
  });
});

describe("provider tokens across a secret rotation", () => {
  it("opens a value sealed under the older secret and seals it again under the newest", () => {
    const sealedOld = createTokenCipher(OLD).encrypt("provider-access-token");
    const rotating = createTokenCipher([NEW, OLD]);
    expect(rotating.decrypt(sealedOld)).toBe("provider-access-token");
    const resealed = rotating.reseal(sealedOld);
    expect(resealed).not.toBeNull();
    expect(createTokenCipher(NEW).decrypt(resealed as string)).toBe("provider-access-token");
    expect(createTokenCipher(NEW).decrypt(sealedOld)).toBeNull();
    // Under the newest already, or not sealed by authd at all: nothing to do.
    expect(rotating.reseal(resealed as string)).toBeNull();
    expect(rotating.reseal("plain-imported-token")).toBeNull();
  });
});

describe("the secret setting", () => {
  it("reads several secrets from AUTHD_SECRET, newest first", async () => {
    const loaded = await loadConfig({
      cwd: process.cwd(),
      configPath: undefined,
      env: { AUTHD_SECRET: `${NEW}, ${OLD}` },
    });
    expect(loaded.config.secret).toEqual([NEW, OLD]);
  });

  it("holds every listed secret to the minimum length", async () => {
    await expect(
      loadConfig({ cwd: process.cwd(), env: { AUTHD_SECRET: `${NEW},short` } }),
    ).rejects.toThrow(/secret/);
  });
});
