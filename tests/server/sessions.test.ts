import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256 } from "../../server/crypto/digest.js";
import { createTestApp, type TestApp } from "../helpers/app.js";
import { createClient } from "../helpers/client.js";

let t: TestApp;
const PASSWORD = "correct horse battery";

beforeAll(async () => {
  t = await createTestApp({
    config: { baseURL: "http://localhost:3000", trustedOrigins: ["http://app.test"] },
  });
});

afterAll(async () => {
  await t?.close();
});

let counter = 0;
function uniqueEmail(): string {
  counter += 1;
  return `user${counter}-${Date.now()}@example.com`;
}

async function signUp(email = uniqueEmail(), extra: Record<string, unknown> = {}) {
  const client = createClient(t.app);
  const response = await client.post("/sign-up/email", {
    name: "Ada",
    email,
    password: PASSWORD,
    ...extra,
  });
  expect(response.statusCode, response.body).toBe(200);
  return { client, email, body: response.json() };
}

describe("sign-up/email", () => {
  it("creates the user with a lowercased email, a credential account and a session", async () => {
    const client = createClient(t.app);
    const email = `Mixed.Case-${Date.now()}@Example.COM`;
    const response = await client.post("/sign-up/email", {
      name: "Ada",
      email,
      password: PASSWORD,
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.user).toMatchObject({
      email: email.toLowerCase(),
      name: "Ada",
      emailVerified: false,
      role: "user",
      banned: false,
    });
    expect(body.user).not.toHaveProperty("password");
    const cookie = client.setCookies(response).get("authd.session_token");
    expect(cookie).toMatch(
      /^authd\.session_token=[^;]+; Max-Age=604800; Path=\/; HttpOnly; SameSite=Lax$/,
    );
    expect(response.headers["cache-control"]).toBe("no-store");
    const [account] = await t.db.sql<{ providerId: string; password: string }[]>`
      select provider_id, password from account where user_id = ${body.user.id}`;
    expect(account?.providerId).toBe("credential");
    expect(account?.password).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    // Only the digest of the token is stored.
    const sessions = await t.db.sql<{ tokenHash: string }[]>`
      select token_hash from session where user_id = ${body.user.id}`;
    expect(sessions).toEqual([{ tokenHash: sha256(body.token) }]);
  });

  it("refuses an address that already has an account", async () => {
    const { email } = await signUp();
    const again = await createClient(t.app).post("/sign-up/email", {
      name: "Other",
      email: email.toUpperCase(),
      password: PASSWORD,
    });
    expect(again.statusCode).toBe(422);
    expect(again.json()).toEqual({ code: "USER_ALREADY_EXISTS", message: "User already exists" });
  });

  it("keeps one user when two sign-ups of one address race", async () => {
    const email = uniqueEmail();
    const responses = await Promise.all(
      [1, 2, 3].map(() =>
        createClient(t.app).post("/sign-up/email", { name: "Race", email, password: PASSWORD }),
      ),
    );
    expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 422, 422]);
    const [row] = await t.db.sql<
      { n: number }[]
    >`select count(*)::int as n from "user" where email = ${email}`;
    expect(row?.n).toBe(1);
  });

  it("checks the password length and the email format before writing", async () => {
    const client = createClient(t.app);
    const email = uniqueEmail();
    const short = await client.post("/sign-up/email", { name: "A", email, password: "short" });
    expect(short.json()).toEqual({
      code: "PASSWORD_TOO_SHORT",
      message: "Password too short",
      details: { minPasswordLength: 8 },
    });
    const long = await client.post("/sign-up/email", {
      name: "A",
      email,
      password: "x".repeat(129),
    });
    expect(long.json().code).toBe("PASSWORD_TOO_LONG");
    const bad = await client.post("/sign-up/email", {
      name: "A",
      email: "nope",
      password: PASSWORD,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ code: "INVALID_EMAIL", message: "Invalid email" });
    const [row] = await t.db.sql<
      { n: number }[]
    >`select count(*)::int as n from "user" where email = ${email}`;
    expect(row?.n).toBe(0);
  });

  it("refuses missing, mistyped, oversized and NUL-carrying fields with 400", async () => {
    const client = createClient(t.app);
    const cases: unknown[] = [
      {},
      { name: "A", email: uniqueEmail() },
      { name: 5, email: uniqueEmail(), password: PASSWORD },
      { name: "x".repeat(256), email: uniqueEmail(), password: PASSWORD },
      { name: "A\u0000B", email: uniqueEmail(), password: PASSWORD },
      { name: "A", email: `${"a".repeat(320)}@example.com`, password: PASSWORD },
    ];
    for (const body of cases) {
      const response = await client.post("/sign-up/email", body);
      expect(response.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(["VALIDATION_ERROR", "INVALID_EMAIL"]).toContain(response.json().code);
    }
  });

  it("accepts unicode names", async () => {
    const { body } = await signUp(uniqueEmail(), { name: "Zoë 李 🚀" });
    expect(body.user.name).toBe("Zoë 李 🚀");
  });
});

describe("sign-in/email", () => {
  it("signs in and answers {redirect, token, user}", async () => {
    const { email } = await signUp();
    const client = createClient(t.app);
    const response = await client.post("/sign-in/email", { email, password: PASSWORD });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ redirect: false, user: { email } });
    expect(body).not.toHaveProperty("url");
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const session = await client.get("/get-session");
    expect(session.json().user.email).toBe(email);
  });

  it("follows a callbackURL with redirect: true, url and a Location header", async () => {
    const { email } = await signUp();
    const response = await createClient(t.app).post("/sign-in/email", {
      email,
      password: PASSWORD,
      callbackURL: "/dashboard",
    });
    expect(response.json()).toMatchObject({ redirect: true, url: "/dashboard" });
    expect(response.headers.location).toBe("/dashboard");
  });

  it("answers the same 401 for a wrong password, an unknown email and a user without password", async () => {
    const { email } = await signUp();
    const client = createClient(t.app);
    const wrong = await client.post("/sign-in/email", { email, password: "wrong password!" });
    const unknown = await client.post("/sign-in/email", {
      email: uniqueEmail(),
      password: PASSWORD,
    });
    for (const response of [wrong, unknown]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({
        code: "INVALID_EMAIL_OR_PASSWORD",
        message: "Invalid email or password",
      });
    }
  });

  it("refuses a malformed email with Invalid email", async () => {
    const response = await createClient(t.app).post("/sign-in/email", {
      email: "x@",
      password: PASSWORD,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ code: "INVALID_EMAIL", message: "Invalid email" });
  });

  it("rememberMe: false gives a one-day session with browser-session cookies", async () => {
    const { email } = await signUp();
    const client = createClient(t.app);
    const response = await client.post("/sign-in/email", {
      email,
      password: PASSWORD,
      rememberMe: false,
    });
    const cookies = client.setCookies(response);
    expect(cookies.get("authd.session_token")).not.toContain("Max-Age");
    expect(cookies.get("authd.dont_remember")).toMatch(/^authd\.dont_remember=true\./);
    const session = (await client.get("/get-session")).json().session;
    const lifetime = Date.parse(session.expiresAt) - Date.parse(session.createdAt);
    expect(Math.abs(lifetime - 86400_000)).toBeLessThan(5000);
  });

  it("ends the session the request still carries", async () => {
    const { client, email } = await signUp();
    const before = (await client.get("/get-session")).json().session.id;
    await client.post("/sign-in/email", { email, password: PASSWORD });
    const rows = await t.db.sql`select id from session where id = ${before}`;
    expect(rows).toHaveLength(0);
  });

  it("accepts a form-encoded body", async () => {
    const { email } = await signUp();
    const response = await t.app.inject({
      method: "POST",
      url: "/api/auth/sign-in/email",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({ email, password: PASSWORD, rememberMe: "false" }).toString(),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().user.email).toBe(email);
  });

  it("requires a verified email when configured, and says so", async () => {
    const strict = await createTestApp({
      config: { emailAndPassword: { requireEmailVerification: true } },
    });
    try {
      const client = createClient(strict.app);
      const email = uniqueEmail();
      const signUpResponse = await client.post("/sign-up/email", {
        name: "V",
        email,
        password: PASSWORD,
      });
      expect(signUpResponse.json().token).toBeNull();
      expect(client.cookies.size).toBe(0);
      const response = await client.post("/sign-in/email", { email, password: PASSWORD });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({
        code: "EMAIL_NOT_VERIFIED",
        message: "Email not verified",
      });
      // A duplicate sign-up looks like a success so addresses cannot be probed.
      const duplicate = await client.post("/sign-up/email", {
        name: "V",
        email,
        password: PASSWORD,
      });
      expect(duplicate.statusCode).toBe(200);
      expect(duplicate.json().token).toBeNull();
    } finally {
      await strict.close();
    }
  });
});

describe("get-session", () => {
  it("answers null without a cookie", async () => {
    const response = await createClient(t.app).get("/get-session");
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe("null");
    expect(response.headers["cache-control"]).toBe("no-store");
  });

  it("answers {session, user} with the opaque handle as token", async () => {
    const { client, body } = await signUp();
    const response = await client.get("/get-session");
    const session = response.json();
    expect(session.user).toMatchObject({ id: body.user.id, email: body.user.email });
    expect(session.session.userId).toBe(body.user.id);
    expect(session.session.token).toBe(session.session.id);
    expect(JSON.stringify(session)).not.toContain(body.token);
  });

  it("answers null for a tampered cookie and clears it", async () => {
    const { client } = await signUp();
    const value = client.cookies.get("authd.session_token") ?? "";
    // Served once with the genuine cookie first (remembered as verified)...
    expect((await client.get("/get-session")).json().session).toBeTruthy();
    // ...the altered one is still checked, and refused.
    // Change the first character (to something it is not) so the signature no longer matches.
    client.cookies.set(
      "authd.session_token",
      `${value.startsWith("x") ? "y" : "x"}${value.slice(1)}`,
    );
    const response = await client.get("/get-session");
    expect(response.body).toBe("null");
    expect(client.cookies.has("authd.session_token")).toBe(false);
  });

  it("deletes an expired session it finds", async () => {
    const { client, body } = await signUp();
    await t.db
      .sql`update session set expires_at = now() - interval '1 second' where user_id = ${body.user.id}`;
    expect((await client.get("/get-session")).body).toBe("null");
    const rows = await t.db.sql`select id from session where user_id = ${body.user.id}`;
    expect(rows).toHaveLength(0);
  });

  it("refreshes once updateAge has passed, unless disableRefresh", async () => {
    const { client, body } = await signUp();
    // Pretend the session was last extended two days ago.
    await t.db.sql`
      update session set expires_at = now() + interval '5 days' where user_id = ${body.user.id}`;
    const kept = (await client.get("/get-session", { query: { disableRefresh: "true" } })).json();
    expect(Date.parse(kept.session.expiresAt) - Date.now()).toBeLessThan(5 * 86400_000 + 5000);
    const response = await client.get("/get-session");
    const refreshed = response.json();
    expect(Date.parse(refreshed.session.expiresAt) - Date.now()).toBeGreaterThan(6.9 * 86400_000);
    expect(client.setCookies(response).get("authd.session_token")).toContain("Max-Age=604800");
  });

  it("does not refresh a rememberMe: false session", async () => {
    const { email } = await signUp();
    const client = createClient(t.app);
    await client.post("/sign-in/email", { email, password: PASSWORD, rememberMe: false });
    const before = (await client.get("/get-session")).json().session.expiresAt;
    await t.db
      .sql`update session set expires_at = now() + interval '1 hour' where expires_at = ${before}`;
    const after = (await client.get("/get-session")).json().session.expiresAt;
    expect(Date.parse(after) - Date.now()).toBeLessThan(3600_000 + 5000);
  });
});

describe("cookie cache", () => {
  it("serves the signed cache, bound to its token, and skips it on request", async () => {
    const cached = await createTestApp({ config: { session: { cookieCache: { enabled: true } } } });
    try {
      const client = createClient(cached.app);
      const email = uniqueEmail();
      const signUpResponse = await client.post("/sign-up/email", {
        name: "C",
        email,
        password: PASSWORD,
      });
      const data = client.setCookies(signUpResponse).get("authd.session_data");
      expect(data).toMatch(/; Max-Age=300; Path=\/; HttpOnly; SameSite=Lax$/);
      // Revoked in the database: the cache still answers until it expires...
      await cached.db.sql`delete from session`;
      expect((await client.get("/get-session")).json().user.email).toBe(email);
      // ...but not when the caller asks for the database.
      expect(
        (await client.get("/get-session", { query: { disableCookieCache: "true" } })).body,
      ).toBe("null");
    } finally {
      await cached.close();
    }
  });

  it("stops answering from a cache cookie once it expires, also after serving it", async () => {
    const cached = await createTestApp({
      config: { session: { cookieCache: { enabled: true, maxAge: 1 } } },
    });
    try {
      const client = createClient(cached.app);
      const email = uniqueEmail();
      await client.post("/sign-up/email", { name: "E", email, password: PASSWORD });
      await cached.db.sql`delete from session`;
      // Served twice from the cookie (the second time from the verified-cookie memo)...
      expect((await client.get("/get-session")).json().user.email).toBe(email);
      expect((await client.get("/get-session")).json().user.email).toBe(email);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      // ...then the database answers: the session is gone.
      expect((await client.get("/get-session")).body).toBe("null");
    } finally {
      await cached.close();
    }
  });

  it("ignores a cache cookie copied next to another session's token", async () => {
    const cached = await createTestApp({ config: { session: { cookieCache: { enabled: true } } } });
    try {
      const a = createClient(cached.app);
      await a.post("/sign-up/email", { name: "A", email: uniqueEmail(), password: PASSWORD });
      const b = createClient(cached.app);
      const emailB = uniqueEmail();
      await b.post("/sign-up/email", { name: "B", email: emailB, password: PASSWORD });
      b.cookies.set("authd.session_data", a.cookies.get("authd.session_data") ?? "");
      expect((await b.get("/get-session")).json().user.email).toBe(emailB);
      // A's cache next to an altered token (A's signature kept): neither cache nor session.
      const signedA = decodeURIComponent(a.cookies.get("authd.session_token") ?? "");
      const dot = signedA.lastIndexOf(".");
      const altered = `${signedA.slice(0, dot - 1)}${signedA[dot - 1] === "A" ? "B" : "A"}${signedA.slice(dot)}`;
      a.cookies.set("authd.session_token", encodeURIComponent(altered));
      expect((await a.get("/get-session")).body).toBe("null");
    } finally {
      await cached.close();
    }
  });

  it("does not cache data over 4093 characters, and drops a stale cache", async () => {
    const cached = await createTestApp({ config: { session: { cookieCache: { enabled: true } } } });
    try {
      const client = createClient(cached.app);
      const email = uniqueEmail();
      const signUpResponse = await client.post("/sign-up/email", {
        name: "Big",
        email,
        password: PASSWORD,
      });
      const id = signUpResponse.json().user.id;
      expect(client.cookies.has("authd.session_data")).toBe(true);
      await cached.db
        .sql`update "user" set image = ${`https://img.example.com/${"x".repeat(4000)}`} where id = ${id}`;
      // Signing in again caches the new data: too large, so the old cache is removed.
      const response = await client.post("/sign-in/email", { email, password: PASSWORD });
      expect(response.json().user.image).toHaveLength(4024);
      expect(client.setCookies(response).get("authd.session_data")).toContain("Max-Age=0");
      expect((await client.get("/get-session")).json().user.image).toHaveLength(4024);
      expect(client.cookies.has("authd.session_data")).toBe(false);
    } finally {
      await cached.close();
    }
  });
});

describe("sessions management", () => {
  it("lists sessions without their secrets and revokes by handle", async () => {
    const { client, email } = await signUp();
    const other = createClient(t.app);
    const otherSignIn = await other.post("/sign-in/email", { email, password: PASSWORD });
    const list = await client.get("/list-sessions");
    expect(list.statusCode).toBe(200);
    const sessions = list.json();
    expect(sessions).toHaveLength(2);
    expect(JSON.stringify(sessions)).not.toContain(otherSignIn.json().token);
    const otherId = (await other.get("/get-session")).json().session.id;
    const revoked = await client.post("/revoke-session", { token: otherId });
    expect(revoked.json()).toEqual({ status: true });
    expect((await other.get("/get-session")).body).toBe("null");
    expect((await client.get("/get-session")).json()).not.toBeNull();
  });

  it("never revokes another user's session", async () => {
    const alice = await signUp();
    const bob = await signUp();
    const bobSession = (await bob.client.get("/get-session")).json().session.id;
    const response = await alice.client.post("/revoke-session", { token: bobSession });
    expect(response.json()).toEqual({ status: true });
    expect((await bob.client.get("/get-session")).json()).not.toBeNull();
  });

  it("revoke-other-sessions keeps the caller's; revoke-sessions ends all", async () => {
    const { client, email } = await signUp();
    const second = createClient(t.app);
    await second.post("/sign-in/email", { email, password: PASSWORD });
    expect((await client.post("/revoke-other-sessions")).json()).toEqual({ status: true });
    expect((await second.get("/get-session")).body).toBe("null");
    expect((await client.get("/get-session")).json()).not.toBeNull();
    const third = createClient(t.app);
    await third.post("/sign-in/email", { email, password: PASSWORD });
    expect((await client.post("/revoke-sessions")).json()).toEqual({ status: true });
    expect((await client.get("/get-session")).body).toBe("null");
    expect((await third.get("/get-session")).body).toBe("null");
  });

  it("sign-out ends the session and expires the cookies, with or without one", async () => {
    const { client } = await signUp();
    const response = await client.post("/sign-out");
    expect(response.json()).toEqual({ success: true });
    const cleared = client.setCookies(response);
    expect(cleared.get("authd.session_token")).toContain("Max-Age=0");
    expect((await client.get("/get-session")).body).toBe("null");
    const anonymous = await createClient(t.app).post("/sign-out");
    expect(anonymous.statusCode).toBe(200);
  });

  it("answers 401 UNAUTHORIZED to session calls without a session", async () => {
    const client = createClient(t.app);
    for (const path of ["/revoke-sessions", "/revoke-other-sessions"]) {
      const response = await client.post(path);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ code: "UNAUTHORIZED", message: "Unauthorized" });
    }
    expect((await client.get("/list-sessions")).statusCode).toBe(401);
  });
});

describe("origin checks", () => {
  it("refuses cookie-carrying POSTs from an untrusted or missing origin", async () => {
    const { client } = await signUp();
    const evil = await client.post(
      "/revoke-sessions",
      {},
      { headers: { origin: "https://evil.example" } },
    );
    expect(evil.statusCode).toBe(403);
    expect(evil.json().code).toBe("INVALID_ORIGIN");
    const cookie = [...client.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    const missing = await t.app.inject({
      method: "POST",
      url: "/api/auth/revoke-sessions",
      headers: { cookie, "content-type": "application/json" },
      payload: "{}",
    });
    expect(missing.statusCode).toBe(403);
    expect(missing.json().code).toBe("MISSING_OR_NULL_ORIGIN");
    const referer = await t.app.inject({
      method: "POST",
      url: "/api/auth/revoke-other-sessions",
      headers: { cookie, referer: "http://app.test/settings", "content-type": "application/json" },
      payload: "{}",
    });
    expect(referer.statusCode).toBe(200);
    // Still signed in: nothing was revoked by the refused calls.
    expect((await client.get("/get-session")).json()).not.toBeNull();
  });

  it("blocks login CSRF from a cross-site navigation or an untrusted origin", async () => {
    const { email } = await signUp();
    const navigation = await t.app.inject({
      method: "POST",
      url: "/api/auth/sign-in/email",
      headers: { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate" },
      payload: { email, password: PASSWORD },
    });
    expect(navigation.statusCode).toBe(403);
    expect(navigation.json().code).toBe("CROSS_SITE_NAVIGATION_LOGIN_BLOCKED");
    const evil = await t.app.inject({
      method: "POST",
      url: "/api/auth/sign-in/email",
      headers: { origin: "https://evil.example" },
      payload: { email, password: PASSWORD },
    });
    expect(evil.statusCode).toBe(403);
  });

  it("refuses unsafe callback URLs with 403", async () => {
    const { email } = await signUp();
    const unsafe = [
      "//evil.example",
      "/\\evil.example",
      "https://evil.example/x",
      "javascript:alert(1)",
      "/..//evil.example",
      "/a/%2F%2Fevil",
      "/a/%5Cevil",
      "/./x",
      "/x\u0007",
      "https://user:pass@localhost:3000/x",
      "http://app.test.evil.example/",
    ];
    for (const callbackURL of unsafe) {
      const response = await createClient(t.app).post("/sign-in/email", {
        email,
        password: PASSWORD,
        callbackURL,
      });
      expect(response.statusCode, callbackURL).toBe(403);
      expect(response.json().code, callbackURL).toBe("INVALID_CALLBACK_URL");
    }
    for (const callbackURL of [
      "/dashboard?tab=1#x",
      "http://app.test/welcome",
      "http://localhost:3000/",
    ]) {
      const response = await createClient(t.app).post("/sign-in/email", {
        email,
        password: PASSWORD,
        callbackURL,
      });
      expect(response.statusCode, callbackURL).toBe(200);
    }
  });
});
