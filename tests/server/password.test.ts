import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256 } from "../../server/crypto/digest.js";
import { generateId } from "../../server/crypto/random.js";
import { AuthError } from "../../server/errors.js";
import { setPassword } from "../../server/password/password.js";
import { createTestApp, type TestApp } from "../helpers/app.js";
import { createClient } from "../helpers/client.js";
import {
  expectNoMailTo,
  expectTransportErrors,
  expectValidationError,
} from "../helpers/expectations.js";

const PASSWORD = "correct horse battery";
const NEW_PASSWORD = "a brand new passphrase";
const ORIGIN = "http://localhost:3000";
const BASE = `${ORIGIN}/api/auth`;
const RESET_MESSAGE = "If this email exists in our system, check your email for the reset link";
const INVALID_TOKEN = { code: "INVALID_TOKEN", message: "invalid token" };

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    // Mailed links in their API form (no served page as callback): the tests follow them.
    config: { trustedOrigins: ["http://app.test"], pages: { enabled: false } },
  });
});

afterAll(async () => {
  await t?.close();
});

let counter = 0;
function uniqueEmail(): string {
  counter += 1;
  return `pw${counter}-${Date.now()}@example.com`;
}

async function signUp(app: TestApp = t, email = uniqueEmail()) {
  const client = createClient(app.app);
  const response = await client.post("/sign-up/email", { name: "Ada", email, password: PASSWORD });
  expect(response.statusCode, response.body).toBe(200);
  return { client, email, userId: response.json().user.id as string };
}

async function signIn(app: TestApp, email: string, password: string) {
  return createClient(app.app).post("/sign-in/email", { email, password });
}

async function passwordHash(app: TestApp, userId: string): Promise<string | null | undefined> {
  const [row] = await app.db.sql<{ password: string | null }[]>`
    select password from account where user_id = ${userId} and provider_id = 'credential'`;
  return row?.password;
}

async function resetRows(app: TestApp, userId: string) {
  return app.db.sql<{ identifier: string; value: string; expiresAt: Date }[]>`
    select identifier, value, expires_at from verification
    where value = ${userId} and identifier like 'reset-password:%'`;
}

async function sessionCount(app: TestApp, userId: string): Promise<number> {
  const [row] = await app.db.sql<{ n: number }[]>`
    select count(*)::int as n from session where user_id = ${userId}`;
  return row?.n ?? 0;
}

/** Requests a reset for `email` and answers the token and link of the mail. */
async function requestReset(
  app: TestApp,
  email: string,
  redirectTo?: string,
  path = "/request-password-reset",
) {
  const response = await createClient(app.app).post(path, {
    email,
    ...(redirectTo === undefined ? {} : { redirectTo }),
  });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.json()).toEqual({ status: true, message: RESET_MESSAGE });
  const mail = await app.smtp.waitFor(email);
  expect(mail.subject).toBe("Reset your password");
  expect(mail.decoded).toContain(
    `Someone asked to reset the password of the account for ${email}.`,
  );
  expect(mail.decoded).toContain("The link expires in 1 hour.");
  expect(mail.decoded).not.toMatch(/\{\{\w+\}\}/);
  const link = app.smtp.linkIn(mail, "/reset-password/");
  const match = /^http:\/\/localhost:3000\/api\/auth\/reset-password\/([A-Za-z0-9]{24})\?/.exec(
    link,
  );
  expect(match, link).not.toBeNull();
  return { token: match?.[1] as string, link };
}

describe.each(["/request-password-reset", "/forget-password"])("POST %s", (path) => {
  it("mails a 24-character single-use link and stores only its digest", async () => {
    const { email, userId } = await signUp();
    const before = Date.now();
    const { token, link } = await requestReset(t, email, "/reset", path);
    expect(new URL(link).searchParams.get("callbackURL")).toBe("/reset");
    const rows = await resetRows(t, userId);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.identifier).toBe(`reset-password:${sha256(token)}`);
    expect(rows[0]?.value).toBe(userId);
    const lifetime = (rows[0]?.expiresAt.getTime() ?? 0) - before;
    expect(Math.abs(lifetime - 3600_000)).toBeLessThan(10_000);
    const all = await t.db.sql<{ identifier: string; value: string }[]>`
      select identifier, value from verification`;
    for (const row of all) {
      expect(row.identifier).not.toContain(token);
      expect(row.value).not.toContain(token);
    }
  });

  it("accepts the address in any case and leaves callbackURL empty without redirectTo", async () => {
    const { email } = await signUp();
    const response = await createClient(t.app).post(path, { email: email.toUpperCase() });
    expect(response.json()).toEqual({ status: true, message: RESET_MESSAGE });
    const link = t.smtp.linkIn(await t.smtp.waitFor(email), "/reset-password/");
    expect(new URL(link).search).toBe("?callbackURL=");
  });

  it("answers the same for an unknown address and sends and stores nothing", async () => {
    const email = uniqueEmail();
    const [before] = await t.db.sql<{ n: number }[]>`select count(*)::int as n from verification`;
    const response = await createClient(t.app).post(path, { email, redirectTo: "/reset" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: true, message: RESET_MESSAGE });
    const [after] = await t.db.sql<{ n: number }[]>`select count(*)::int as n from verification`;
    expect(after?.n).toBe(before?.n);
    await expectNoMailTo(t, email);
  });

  it("refuses a malformed address with INVALID_EMAIL", async () => {
    for (const email of ["nope", "a@b", "a@@example.com"]) {
      const response = await createClient(t.app).post(path, { email });
      expect(response.statusCode, email).toBe(400);
      expect(response.json(), email).toEqual({ code: "INVALID_EMAIL", message: "Invalid email" });
    }
  });

  it("refuses an untrusted redirectTo with 403 and sends nothing", async () => {
    const { email, userId } = await signUp();
    for (const redirectTo of ["https://evil.example/reset", "//evil.example", "/a/%2F%2Fevil"]) {
      const response = await createClient(t.app).post(path, { email, redirectTo });
      expect(response.statusCode, redirectTo).toBe(403);
      expect(response.json(), redirectTo).toEqual({
        code: "INVALID_REDIRECT_URL",
        message: "Invalid redirectURL",
      });
    }
    expect(await resetRows(t, userId)).toHaveLength(0);
    await expectNoMailTo(t, email);
  });

  it("withdraws the earlier link when a second one is requested", async () => {
    const { email, userId } = await signUp();
    const first = await requestReset(t, email, "/reset", path);
    const second = await requestReset(t, email, "/reset", path);
    expect(second.token).not.toBe(first.token);
    const rows = await resetRows(t, userId);
    expect(rows.map((row) => row.identifier)).toEqual([`reset-password:${sha256(second.token)}`]);
    const stale = await createClient(t.app).get(`/reset-password/${first.token}`, {
      query: { callbackURL: "/reset" },
    });
    expect(stale.headers.location).toBe(`${ORIGIN}/reset?error=INVALID_TOKEN`);
    const refused = await createClient(t.app).post("/reset-password", {
      token: first.token,
      newPassword: NEW_PASSWORD,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual(INVALID_TOKEN);
    const accepted = await createClient(t.app).post("/reset-password", {
      token: second.token,
      newPassword: NEW_PASSWORD,
    });
    expect(accepted.json()).toEqual({ status: true });
  });

  it("answers 400 for bad input, 415 for other content types, and writes nothing", async () => {
    const { email, userId } = await signUp();
    const cases: Array<[unknown, string]> = [
      [{}, "email"],
      [{ email: 5 }, "email"],
      [{ email: { address: email } }, "email"],
      [{ email: `${"a".repeat(320)}@example.com` }, "email"],
      [{ email, redirectTo: 5 }, "redirectTo"],
      [{ email, redirectTo: `/${"x".repeat(2048)}` }, "redirectTo"],
    ];
    for (const [body, field] of cases) {
      expectValidationError(await createClient(t.app).post(path, body), field);
    }
    // A NUL is a character no address holds: the email's own error.
    const nul = await createClient(t.app).post(path, { email: `${email}\u0000` });
    expect(nul.statusCode).toBe(400);
    expect(nul.json().code).toBe("INVALID_EMAIL");
    await expectTransportErrors(t, null, path, { email });
    expect(await resetRows(t, userId)).toHaveLength(0);
    await expectNoMailTo(t, email);
  });
});

describe("password reset with email and password disabled", () => {
  it("answers RESET_PASSWORD_DISABLED on both paths and sends nothing", async () => {
    const disabled = await createTestApp({ config: { emailAndPassword: { enabled: false } } });
    try {
      const email = uniqueEmail();
      await disabled.db
        .sql`insert into "user" (id, email, name) values (${generateId()}, ${email}, 'X')`;
      for (const path of ["/request-password-reset", "/forget-password"]) {
        const response = await createClient(disabled.app).post(path, { email });
        expect(response.statusCode, path).toBe(400);
        expect(response.json(), path).toEqual({
          code: "RESET_PASSWORD_DISABLED",
          message: "Reset password isn't enabled",
        });
      }
      expect(await disabled.db.sql`select id from verification`).toHaveLength(0);
    } finally {
      await disabled.close();
    }
  });
});

describe("GET /reset-password/{token}", () => {
  it("redirects to the mailed callback with the token, as an absolute URL on the base origin", async () => {
    const { email } = await signUp();
    const { token, link } = await requestReset(t, email, "/account/reset?step=2");
    const response = await createClient(t.app).get(link.slice(BASE.length));
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(`${ORIGIN}/account/reset?step=2&token=${token}`);
    // Looking does not use the token up.
    const reset = await createClient(t.app).post("/reset-password", {
      token,
      newPassword: NEW_PASSWORD,
    });
    expect(reset.json()).toEqual({ status: true });
  });

  it("keeps an absolute callback on a trusted origin", async () => {
    const { email } = await signUp();
    const { token } = await requestReset(t, email);
    const response = await createClient(t.app).get(`/reset-password/${token}`, {
      query: { callbackURL: "http://app.test/reset" },
    });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(`http://app.test/reset?token=${token}`);
  });

  it("redirects with error=INVALID_TOKEN for an unknown, malformed or expired token", async () => {
    const { email, userId } = await signUp();
    const { token } = await requestReset(t, email);
    for (const candidate of ["A".repeat(24), "short", "not-alphanumeric-token!!"]) {
      const response = await createClient(t.app).get(
        `/reset-password/${encodeURIComponent(candidate)}`,
        { query: { callbackURL: "/reset" } },
      );
      expect(response.statusCode, candidate).toBe(302);
      expect(response.headers.location, candidate).toBe(`${ORIGIN}/reset?error=INVALID_TOKEN`);
    }
    await t.db.sql`
      update verification set expires_at = now() - interval '1 second'
      where value = ${userId} and identifier like 'reset-password:%'`;
    const expired = await createClient(t.app).get(`/reset-password/${token}`, {
      query: { callbackURL: "http://app.test/reset" },
    });
    expect(expired.statusCode).toBe(302);
    expect(expired.headers.location).toBe("http://app.test/reset?error=INVALID_TOKEN");
  });

  it("redirects to the error page with error=no_callback_url without a callbackURL", async () => {
    const { email } = await signUp();
    const { token, link } = await requestReset(t, email);
    // The mailed link of a request without redirectTo carries an empty callbackURL.
    for (const path of [`/reset-password/${token}`, link.slice(BASE.length)]) {
      const response = await createClient(t.app).get(path);
      expect(response.statusCode, path).toBe(302);
      expect(response.headers.location, path).toBe(`${BASE}/error?error=no_callback_url`);
    }
  });

  it("refuses an untrusted callbackURL with 403", async () => {
    const { email } = await signUp();
    const { token } = await requestReset(t, email);
    for (const callbackURL of ["https://evil.example/reset", "//evil.example", "/\\evil.example"]) {
      const response = await createClient(t.app).get(`/reset-password/${token}`, {
        query: { callbackURL },
      });
      expect(response.statusCode, callbackURL).toBe(403);
      expect(response.json(), callbackURL).toEqual({
        code: "INVALID_CALLBACK_URL",
        message: "Invalid callbackURL",
      });
    }
  });
});

describe("POST /reset-password", () => {
  it("sets the new password with the body token; the old one stops working", async () => {
    const { email, userId, client } = await signUp();
    const oldHash = await passwordHash(t, userId);
    const { token } = await requestReset(t, email, "/reset");
    const response = await createClient(t.app).post("/reset-password", {
      token,
      newPassword: NEW_PASSWORD,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: true });
    const newHash = await passwordHash(t, userId);
    expect(newHash).not.toBe(oldHash);
    expect(newHash).toMatch(/^\$argon2id\$/);
    expect(await resetRows(t, userId)).toHaveLength(0);
    const old = await signIn(t, email, PASSWORD);
    expect(old.statusCode).toBe(401);
    expect(old.json().code).toBe("INVALID_EMAIL_OR_PASSWORD");
    expect((await signIn(t, email, NEW_PASSWORD)).statusCode).toBe(200);
    // By default existing sessions stay.
    expect((await client.get("/get-session")).json()?.user.id).toBe(userId);
  });

  it("accepts the token as ?token= in the query", async () => {
    const { email } = await signUp();
    const { token } = await requestReset(t, email);
    const response = await createClient(t.app).post(`/reset-password?token=${token}`, {
      newPassword: NEW_PASSWORD,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: true });
    expect((await signIn(t, email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it("uses the token once: a second use is 400 INVALID_TOKEN", async () => {
    const { email } = await signUp();
    const { token } = await requestReset(t, email);
    const first = await createClient(t.app).post("/reset-password", {
      token,
      newPassword: NEW_PASSWORD,
    });
    expect(first.json()).toEqual({ status: true });
    const second = await createClient(t.app).post("/reset-password", {
      token,
      newPassword: "yet another passphrase",
    });
    expect(second.statusCode).toBe(400);
    expect(second.json()).toEqual(INVALID_TOKEN);
    expect((await signIn(t, email, NEW_PASSWORD)).statusCode).toBe(200);
    const page = await createClient(t.app).get(`/reset-password/${token}`, {
      query: { callbackURL: "/reset" },
    });
    expect(page.headers.location).toBe(`${ORIGIN}/reset?error=INVALID_TOKEN`);
  });

  it("does not use the token up on PASSWORD_TOO_SHORT or PASSWORD_TOO_LONG", async () => {
    const { email, userId } = await signUp();
    const oldHash = await passwordHash(t, userId);
    const { token } = await requestReset(t, email);
    const short = await createClient(t.app).post("/reset-password", {
      token,
      newPassword: "1234567",
    });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toEqual({
      code: "PASSWORD_TOO_SHORT",
      message: "Password too short",
      details: { minPasswordLength: 8 },
    });
    const long = await createClient(t.app).post("/reset-password", {
      token,
      newPassword: "x".repeat(129),
    });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toEqual({
      code: "PASSWORD_TOO_LONG",
      message: "Password too long",
      details: { maxPasswordLength: 128 },
    });
    expect(await passwordHash(t, userId)).toBe(oldHash);
    expect(await resetRows(t, userId)).toHaveLength(1);
    const ok = await createClient(t.app).post("/reset-password", {
      token,
      newPassword: "x".repeat(128),
    });
    expect(ok.json()).toEqual({ status: true });
    expect((await signIn(t, email, "x".repeat(128))).statusCode).toBe(200);
  });

  it("refuses a missing, unknown or expired token with 400 INVALID_TOKEN", async () => {
    const { email, userId } = await signUp();
    const oldHash = await passwordHash(t, userId);
    const { token } = await requestReset(t, email);
    for (const body of [
      { newPassword: NEW_PASSWORD },
      { newPassword: NEW_PASSWORD, token: "" },
      { newPassword: NEW_PASSWORD, token: "B".repeat(24) },
      {
        newPassword: NEW_PASSWORD,
        token: `${token.slice(0, -1)}${token.endsWith("a") ? "b" : "a"}`,
      },
    ]) {
      const response = await createClient(t.app).post("/reset-password", body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json()).toEqual(INVALID_TOKEN);
    }
    await t.db.sql`
      update verification set expires_at = now() - interval '1 second'
      where value = ${userId} and identifier like 'reset-password:%'`;
    const expired = await createClient(t.app).post("/reset-password", {
      token,
      newPassword: NEW_PASSWORD,
    });
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toEqual(INVALID_TOKEN);
    expect(await passwordHash(t, userId)).toBe(oldHash);
  });

  it("gives a user without a credential account one", async () => {
    const email = uniqueEmail();
    const userId = generateId();
    await t.db.sql`insert into "user" (id, email, name) values (${userId}, ${email}, 'Social')`;
    await t.db.sql`
      insert into account (id, user_id, provider_id, account_id)
      values (${generateId()}, ${userId}, 'github', ${`gh-${userId}`})`;
    const { token } = await requestReset(t, email);
    const response = await createClient(t.app).post("/reset-password", {
      token,
      newPassword: NEW_PASSWORD,
    });
    expect(response.json()).toEqual({ status: true });
    expect(await passwordHash(t, userId)).toMatch(/^\$argon2id\$/);
    expect((await signIn(t, email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it("answers 400 for bad input, 415 for other content types, and keeps the token", async () => {
    const { email, userId } = await signUp();
    const oldHash = await passwordHash(t, userId);
    const { token } = await requestReset(t, email);
    const cases: Array<[unknown, string]> = [
      [{ token }, "newPassword"],
      [{ token, newPassword: 12345678 }, "newPassword"],
      [{ token, newPassword: null }, "newPassword"],
      [{ token, newPassword: "x".repeat(4097) }, "newPassword"],
      [{ token, newPassword: `${NEW_PASSWORD}\u0000` }, "newPassword"],
      [{ token: 5, newPassword: NEW_PASSWORD }, "token"],
      [{ token: [token], newPassword: NEW_PASSWORD }, "token"],
    ];
    for (const [body, field] of cases) {
      expectValidationError(await createClient(t.app).post("/reset-password", body), field);
    }
    await expectTransportErrors(t, null, "/reset-password", { token, newPassword: NEW_PASSWORD });
    expect(await passwordHash(t, userId)).toBe(oldHash);
    expect(await resetRows(t, userId)).toHaveLength(1);
    const ok = await createClient(t.app).post("/reset-password", {
      token,
      newPassword: NEW_PASSWORD,
    });
    expect(ok.json()).toEqual({ status: true });
  });

  it("ends every session when revokeSessionsOnPasswordReset is on", async () => {
    const strict = await createTestApp({
      config: { emailAndPassword: { revokeSessionsOnPasswordReset: true } },
    });
    try {
      const { email, userId, client } = await signUp(strict);
      const second = createClient(strict.app);
      expect((await second.post("/sign-in/email", { email, password: PASSWORD })).statusCode).toBe(
        200,
      );
      expect(await sessionCount(strict, userId)).toBe(2);
      const { token } = await requestReset(strict, email);
      const response = await createClient(strict.app).post("/reset-password", {
        token,
        newPassword: NEW_PASSWORD,
      });
      expect(response.json()).toEqual({ status: true });
      expect(await sessionCount(strict, userId)).toBe(0);
      expect((await client.get("/get-session")).body).toBe("null");
      expect((await second.get("/get-session")).body).toBe("null");
      expect((await signIn(strict, email, NEW_PASSWORD)).statusCode).toBe(200);
    } finally {
      await strict.close();
    }
  });
});

describe("POST /change-password", () => {
  it("answers {token: null, user}, keeps other sessions and swaps the password", async () => {
    const { client, email, userId } = await signUp();
    const other = createClient(t.app);
    await other.post("/sign-in/email", { email, password: PASSWORD });
    const response = await client.post("/change-password", {
      currentPassword: PASSWORD,
      newPassword: NEW_PASSWORD,
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.token).toBeNull();
    expect(body.user).toMatchObject({ id: userId, email });
    expect(body.user).not.toHaveProperty("password");
    expect(response.headers["set-cookie"]).toBeUndefined();
    expect(await sessionCount(t, userId)).toBe(2);
    expect((await client.get("/get-session")).json().user.id).toBe(userId);
    expect((await other.get("/get-session")).json().user.id).toBe(userId);
    expect((await signIn(t, email, PASSWORD)).statusCode).toBe(401);
    expect((await signIn(t, email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it("revokeOtherSessions ends every other session and moves the caller to a new one", async () => {
    const { client, email, userId } = await signUp();
    const other = createClient(t.app);
    await other.post("/sign-in/email", { email, password: PASSWORD });
    const oldCookie = client.cookies.get("authd.session_token") ?? "";
    const response = await client.post("/change-password", {
      currentPassword: PASSWORD,
      newPassword: NEW_PASSWORD,
      revokeOtherSessions: true,
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.user).toMatchObject({ id: userId, email });
    expect(response.headers["cache-control"]).toBe("no-store");
    const newCookie = client.cookies.get("authd.session_token") ?? "";
    expect(newCookie).not.toBe(oldCookie);
    expect(decodeURIComponent(newCookie).startsWith(`${body.token}.`)).toBe(true);
    const sessions = await t.db.sql<{ tokenHash: string }[]>`
      select token_hash from session where user_id = ${userId}`;
    expect(sessions).toEqual([{ tokenHash: sha256(body.token) }]);
    expect((await client.get("/get-session")).json().user.id).toBe(userId);
    expect((await other.get("/get-session")).body).toBe("null");
    const stale = createClient(t.app);
    stale.cookies.set("authd.session_token", oldCookie);
    expect((await stale.get("/get-session")).body).toBe("null");
    expect((await signIn(t, email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it("revokeOtherSessions keeps a rememberMe: false login a browser-session login", async () => {
    const { email, userId } = await signUp();
    const client = createClient(t.app);
    await client.post("/sign-in/email", { email, password: PASSWORD, rememberMe: false });
    const response = await client.post("/change-password", {
      currentPassword: PASSWORD,
      newPassword: NEW_PASSWORD,
      revokeOtherSessions: true,
    });
    expect(response.statusCode).toBe(200);
    const cookie = client.setCookies(response).get("authd.session_token");
    expect(cookie).toMatch(/^authd\.session_token=[^;]+; Path=\/; HttpOnly; SameSite=Lax$/);
    expect(client.cookies.get("authd.dont_remember")).toMatch(/^true\./);
    const [session] = await t.db.sql<{ expiresAt: Date; createdAt: Date }[]>`
      select expires_at, created_at from session where user_id = ${userId}`;
    const lifetime = (session?.expiresAt.getTime() ?? 0) - (session?.createdAt.getTime() ?? 0);
    expect(Math.abs(lifetime - 86400_000)).toBeLessThan(5000);
  });

  it("runs two resets with one token at once: exactly one wins", async () => {
    const { email } = await signUp();
    const { token } = await requestReset(t, email);
    const responses = await Promise.all(
      ["first passphrase!", "second passphrase"].map((newPassword) =>
        createClient(t.app).post("/reset-password", { token, newPassword }),
      ),
    );
    expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 400]);
  });

  it("refuses a wrong current password with INVALID_PASSWORD and changes nothing", async () => {
    const { client, email, userId } = await signUp();
    const oldHash = await passwordHash(t, userId);
    const response = await client.post("/change-password", {
      currentPassword: "not the password",
      newPassword: NEW_PASSWORD,
      revokeOtherSessions: true,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ code: "INVALID_PASSWORD", message: "Invalid password" });
    expect(await passwordHash(t, userId)).toBe(oldHash);
    expect(await sessionCount(t, userId)).toBe(1);
    expect((await signIn(t, email, PASSWORD)).statusCode).toBe(200);
  });

  it("checks the new password's length", async () => {
    const { client, userId } = await signUp();
    const oldHash = await passwordHash(t, userId);
    const short = await client.post("/change-password", {
      currentPassword: PASSWORD,
      newPassword: "short",
    });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toEqual({
      code: "PASSWORD_TOO_SHORT",
      message: "Password too short",
      details: { minPasswordLength: 8 },
    });
    const long = await client.post("/change-password", {
      currentPassword: PASSWORD,
      newPassword: "x".repeat(129),
    });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toEqual({
      code: "PASSWORD_TOO_LONG",
      message: "Password too long",
      details: { maxPasswordLength: 128 },
    });
    expect(await passwordHash(t, userId)).toBe(oldHash);
  });

  it("answers 401 when signed out", async () => {
    const response = await createClient(t.app).post("/change-password", {
      currentPassword: PASSWORD,
      newPassword: NEW_PASSWORD,
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ code: "UNAUTHORIZED", message: "Unauthorized" });
  });

  it("answers CREDENTIAL_ACCOUNT_NOT_FOUND for a user without a password", async () => {
    const { client, userId } = await signUp();
    await t.db.sql`delete from account where user_id = ${userId}`;
    const response = await client.post("/change-password", {
      currentPassword: PASSWORD,
      newPassword: NEW_PASSWORD,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: "CREDENTIAL_ACCOUNT_NOT_FOUND",
      message: "Credential account not found",
    });
    expect(await t.db.sql`select id from account where user_id = ${userId}`).toHaveLength(0);
  });

  it("answers 400 for bad input, 415 for other content types, and changes nothing", async () => {
    const { client, userId } = await signUp();
    const oldHash = await passwordHash(t, userId);
    const cases: Array<[unknown, string]> = [
      [{ newPassword: NEW_PASSWORD }, "currentPassword"],
      [{ currentPassword: PASSWORD }, "newPassword"],
      [{ currentPassword: PASSWORD, newPassword: 123456789 }, "newPassword"],
      [{ currentPassword: true, newPassword: NEW_PASSWORD }, "currentPassword"],
      [{ currentPassword: PASSWORD, newPassword: "y".repeat(4097) }, "newPassword"],
      [
        { currentPassword: PASSWORD, newPassword: NEW_PASSWORD, revokeOtherSessions: "yes" },
        "revokeOtherSessions",
      ],
    ];
    for (const [body, field] of cases) {
      expectValidationError(await client.post("/change-password", body), field);
    }
    await expectTransportErrors(t, client, "/change-password", {
      currentPassword: PASSWORD,
      newPassword: NEW_PASSWORD,
    });
    expect(await passwordHash(t, userId)).toBe(oldHash);
    expect(await sessionCount(t, userId)).toBe(1);
  });
});

describe("set-password (server-only)", () => {
  it("is not routed over HTTP", async () => {
    const { client, userId } = await signUp();
    const oldHash = await passwordHash(t, userId);
    for (const caller of [client, createClient(t.app)]) {
      const response = await caller.post("/set-password", { newPassword: NEW_PASSWORD });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ code: "NOT_FOUND", message: "Not found" });
    }
    expect(await passwordHash(t, userId)).toBe(oldHash);
  });

  it("refuses a user who already has a password with PASSWORD_ALREADY_SET", async () => {
    const { email, userId } = await signUp();
    const oldHash = await passwordHash(t, userId);
    const error = await setPassword(t.db.sql, t.config, userId, NEW_PASSWORD).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(AuthError);
    expect(error).toMatchObject({
      code: "PASSWORD_ALREADY_SET",
      status: 400,
      message: "user already has a password",
    });
    expect(await passwordHash(t, userId)).toBe(oldHash);
    expect((await signIn(t, email, PASSWORD)).statusCode).toBe(200);
  });

  it("sets a password for a user without a credential account", async () => {
    const email = uniqueEmail();
    const userId = generateId();
    await t.db.sql`insert into "user" (id, email, name) values (${userId}, ${email}, 'Social')`;
    await t.db.sql`
      insert into account (id, user_id, provider_id, account_id)
      values (${generateId()}, ${userId}, 'github', ${`gh-${userId}`})`;
    expect((await signIn(t, email, NEW_PASSWORD)).statusCode).toBe(401);
    const short = await setPassword(t.db.sql, t.config, userId, "short").catch(
      (caught: unknown) => caught,
    );
    expect(short).toMatchObject({ code: "PASSWORD_TOO_SHORT" });
    expect(await passwordHash(t, userId)).toBeUndefined();
    await setPassword(t.db.sql, t.config, userId, NEW_PASSWORD);
    const accounts = await t.db.sql<{ providerId: string; accountId: string }[]>`
      select provider_id, account_id from account where user_id = ${userId} order by provider_id`;
    expect(accounts).toEqual([
      { providerId: "credential", accountId: userId },
      { providerId: "github", accountId: `gh-${userId}` },
    ]);
    expect(await passwordHash(t, userId)).toMatch(/^\$argon2id\$/);
    expect((await signIn(t, email, NEW_PASSWORD)).statusCode).toBe(200);
    const again = await setPassword(t.db.sql, t.config, userId, "another passphrase").catch(
      (caught: unknown) => caught,
    );
    expect(again).toMatchObject({ code: "PASSWORD_ALREADY_SET" });
  });

  it("answers USER_NOT_FOUND for an unknown user", async () => {
    const error = await setPassword(t.db.sql, t.config, generateId(), NEW_PASSWORD).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ code: "USER_NOT_FOUND" });
  });
});
