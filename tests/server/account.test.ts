import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuthdConfigInput } from "../../server/config.js";
import { sha256 } from "../../server/crypto/digest.js";
import { generateId } from "../../server/crypto/random.js";
import type { UserRow } from "../../server/users/queries.js";
import { createTestApp, type TestApp } from "../helpers/app.js";
import { createClient } from "../helpers/client.js";
import {
  expectNoMailTo,
  expectTransportErrors,
  expectValidationError,
  rawPost,
} from "../helpers/expectations.js";

const PASSWORD = "correct horse battery";
const ORIGIN = "http://localhost:3000";
const BASE = `${ORIGIN}/api/auth`;
const UNAUTHORIZED = { code: "UNAUTHORIZED", message: "Unauthorized" };
const INVALID_DELETE_TOKEN = { code: "INVALID_TOKEN", message: "invalid token" };

// Mailed links in their API form (no served page as callback): the tests follow them as API calls.
const API_LINKS = { trustedOrigins: ["http://app.test"], pages: { enabled: false } };

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ config: API_LINKS });
});

afterAll(async () => {
  await t?.close();
});

/** A second app with `config` for a describe block, closed after it. */
function appWith(config: AuthdConfigInput): () => TestApp {
  let app: TestApp | undefined;
  beforeAll(async () => {
    app = await createTestApp({ config: { ...API_LINKS, ...config } });
  });
  afterAll(async () => {
    await app?.close();
  });
  return () => app as TestApp;
}

let counter = 0;
function uniqueEmail(): string {
  counter += 1;
  return `acct${counter}-${Date.now()}@example.com`;
}

async function signUp(app: TestApp = t, email = uniqueEmail()) {
  const client = createClient(app.app);
  const response = await client.post("/sign-up/email", { name: "Ada", email, password: PASSWORD });
  expect(response.statusCode, response.body).toBe(200);
  return { client, email, userId: response.json().user.id as string };
}

type UserState = Pick<
  UserRow,
  "email" | "emailVerified" | "name" | "image" | "role" | "banned" | "updatedAt"
>;

async function userRow(app: TestApp, userId: string): Promise<UserState | undefined> {
  const [row] = await app.db.sql<UserState[]>`
    select email, email_verified, name, image, role, banned, updated_at
    from "user" where id = ${userId}`;
  return row;
}

async function countWhere(app: TestApp, table: string, userId: string): Promise<number> {
  const [row] = await app.db.sql<{ n: number }[]>`
    select count(*)::int as n from ${app.db.sql(table)} where user_id = ${userId}`;
  return row?.n ?? 0;
}

async function markVerified(app: TestApp, userId: string): Promise<void> {
  await app.db.sql`update "user" set email_verified = true where id = ${userId}`;
}

/** Makes every session of the user older than the default freshAge (1 day). */
async function ageSessions(app: TestApp, userId: string): Promise<void> {
  await app.db.sql`
    update session set created_at = now() - interval '2 days' where user_id = ${userId}`;
}

/** A social (github) account row, as social sign-in would have linked it. */
async function insertGithubAccount(app: TestApp, userId: string, accountId = `gh-${generateId()}`) {
  const id = generateId();
  await app.db.sql`
    insert into account (id, user_id, provider_id, account_id, access_token, scope)
    values (${id}, ${userId}, 'github', ${accountId}, 'gho_secret', 'read:user,user:email')`;
  return { id, accountId };
}

async function credentialAccountId(app: TestApp, userId: string): Promise<string> {
  const [row] = await app.db.sql<{ id: string }[]>`
    select id from account where user_id = ${userId} and provider_id = 'credential'`;
  return row?.id as string;
}

function pathOf(link: string): string {
  expect(link.startsWith(`${BASE}/`), link).toBe(true);
  return link.slice(BASE.length);
}

describe("POST /update-user", () => {
  it("changes the name and the image", async () => {
    const { client, userId } = await signUp();
    const before = await userRow(t, userId);
    const response = await client.post("/update-user", {
      name: "Grace Hopper",
      image: "https://img.example.com/grace.png",
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: true });
    const after = await userRow(t, userId);
    expect(after).toMatchObject({
      name: "Grace Hopper",
      image: "https://img.example.com/grace.png",
    });
    expect(after?.updatedAt.getTime()).toBeGreaterThanOrEqual(before?.updatedAt.getTime() ?? 0);
    expect((await client.get("/get-session")).json().user).toMatchObject({
      name: "Grace Hopper",
      image: "https://img.example.com/grace.png",
    });
    // One field at a time leaves the other alone; null clears the image.
    expect((await client.post("/update-user", { name: "Grace" })).json()).toEqual({ status: true });
    expect(await userRow(t, userId)).toMatchObject({
      name: "Grace",
      image: "https://img.example.com/grace.png",
    });
    expect((await client.post("/update-user", { image: null })).json()).toEqual({ status: true });
    expect(await userRow(t, userId)).toMatchObject({ name: "Grace", image: null });
  });

  it("accepts a 255-character and a unicode name", async () => {
    const { client, userId } = await signUp();
    expect((await client.post("/update-user", { name: "n".repeat(255) })).statusCode).toBe(200);
    expect((await userRow(t, userId))?.name).toHaveLength(255);
    expect((await client.post("/update-user", { name: "Zoë 李 🚀" })).statusCode).toBe(200);
    expect((await userRow(t, userId))?.name).toBe("Zoë 李 🚀");
  });

  it("refuses an email with EMAIL_CAN_NOT_BE_UPDATED and writes nothing", async () => {
    const { client, email, userId } = await signUp();
    const before = await userRow(t, userId);
    for (const body of [{ email: uniqueEmail() }, { name: "Changed", email }]) {
      const response = await client.post("/update-user", body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        code: "EMAIL_CAN_NOT_BE_UPDATED",
        message: "Email can not be updated",
      });
    }
    expect(await userRow(t, userId)).toEqual(before);
  });

  it("refuses protected fields with FIELD_NOT_ALLOWED and writes nothing", async () => {
    const { client, userId } = await signUp();
    const before = await userRow(t, userId);
    const cases: Array<[string, unknown]> = [
      ["role", "admin"],
      ["emailVerified", true],
      ["banned", true],
      ["banReason", "x"],
      ["banExpires", "2999-01-01T00:00:00.000Z"],
      ["id", "someone-else"],
      ["createdAt", "2000-01-01T00:00:00.000Z"],
    ];
    for (const [field, value] of cases) {
      const response = await client.post("/update-user", { name: "Changed", [field]: value });
      expect(response.statusCode, field).toBe(400);
      expect(response.json(), field).toEqual({
        code: "FIELD_NOT_ALLOWED",
        message: `${field} is not allowed to be set`,
      });
    }
    expect(await userRow(t, userId)).toEqual(before);
  });

  it("answers NO_FIELDS_TO_UPDATE for an empty body", async () => {
    const { client, userId } = await signUp();
    const before = await userRow(t, userId);
    const response = await client.post("/update-user", {});
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: "NO_FIELDS_TO_UPDATE",
      message: "No fields to update",
    });
    expect(await userRow(t, userId)).toEqual(before);
  });

  it("answers 401 when signed out", async () => {
    const response = await createClient(t.app).post("/update-user", { name: "Nobody" });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(UNAUTHORIZED);
  });

  it("answers 400 for bad input, 415 for other content types, and writes nothing", async () => {
    const { client, userId } = await signUp();
    const before = await userRow(t, userId);
    const cases: Array<[unknown, string]> = [
      [{ name: "x".repeat(256) }, "name"],
      [{ name: 5 }, "name"],
      [{ name: null }, "name"],
      [{ name: "A\u0000B" }, "name"],
      [{ image: 5 }, "image"],
      [{ image: `https://img.example.com/${"x".repeat(2048)}` }, "image"],
    ];
    for (const [body, field] of cases) {
      expectValidationError(await client.post("/update-user", body), field);
    }
    const array = await rawPost(t, client, "/update-user", '["name"]', "application/json");
    expect(array.statusCode).toBe(400);
    expect(array.json().code).toBe("VALIDATION_ERROR");
    await expectTransportErrors(t, client, "/update-user", { name: "Changed" });
    expect(await userRow(t, userId)).toEqual(before);
  });

  describe("with the session cookie cache", () => {
    const cached = appWith({ session: { cookieCache: { enabled: true } } });

    it("refreshes the cached session data", async () => {
      const app = cached();
      const { client } = await signUp(app);
      const before = client.cookies.get("authd.session_data");
      const response = await client.post("/update-user", { name: "Cached Name" });
      expect(response.statusCode).toBe(200);
      expect(client.cookies.get("authd.session_data")).not.toBe(before);
      // The cache (not the database) answers with the new name.
      expect((await client.get("/get-session")).json().user.name).toBe("Cached Name");
    });

    it("keeps the cache of a rememberMe: false login a browser-session cookie", async () => {
      const app = cached();
      const { email } = await signUp(app);
      const client = createClient(app.app);
      await client.post("/sign-in/email", { email, password: PASSWORD, rememberMe: false });
      const response = await client.post("/update-user", { name: "Forgetful" });
      expect(response.statusCode).toBe(200);
      const data = client.setCookies(response).get("authd.session_data");
      expect(data).toMatch(/^authd\.session_data=[^;]+; Path=\/; HttpOnly; SameSite=Lax$/);
    });
  });
});

describe("POST /change-email", () => {
  it("is disabled by default", async () => {
    const { client, email, userId } = await signUp();
    const newEmail = uniqueEmail();
    const response = await client.post("/change-email", { newEmail });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: "CHANGE_EMAIL_DISABLED",
      message: "Change email is disabled",
    });
    expect((await userRow(t, userId))?.email).toBe(email);
    await expectNoMailTo(t, newEmail);
  });

  describe("when enabled", () => {
    const enabled = appWith({ user: { changeEmail: { enabled: true } } });

    it("refuses the current address with 'Email is the same'", async () => {
      const app = enabled();
      const { client, email } = await signUp(app);
      for (const newEmail of [email, email.toUpperCase()]) {
        const response = await client.post("/change-email", { newEmail });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({
          code: "EMAIL_IS_THE_SAME",
          message: "Email is the same",
        });
      }
      await expectNoMailTo(app, email);
    });

    it('refuses an address that has an account with "Couldn\'t update your email"', async () => {
      const app = enabled();
      const { client, email, userId } = await signUp(app);
      const other = await signUp(app);
      const response = await client.post("/change-email", { newEmail: other.email });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        code: "COULD_NOT_UPDATE_EMAIL",
        message: "Couldn't update your email",
      });
      expect((await userRow(app, userId))?.email).toBe(email);
      await expectNoMailTo(app, other.email);
      expect(app.smtp.messages.filter((message) => message.to.includes(email))).toEqual([]);
    });

    it("refuses a malformed address, an untrusted callbackURL, and signed-out callers", async () => {
      const app = enabled();
      const { client } = await signUp(app);
      const malformed = await client.post("/change-email", { newEmail: "not-an-email" });
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json()).toEqual({ code: "INVALID_EMAIL", message: "Invalid email" });
      const newEmail = uniqueEmail();
      const untrusted = await client.post("/change-email", {
        newEmail,
        callbackURL: "https://evil.example/x",
      });
      expect(untrusted.statusCode).toBe(403);
      expect(untrusted.json()).toEqual({
        code: "INVALID_CALLBACK_URL",
        message: "Invalid callbackURL",
      });
      const signedOut = await createClient(app.app).post("/change-email", { newEmail });
      expect(signedOut.statusCode).toBe(401);
      expect(signedOut.json()).toEqual(UNAUTHORIZED);
      await expectNoMailTo(app, newEmail);
    });

    it("an unverified user confirms at the NEW address, which becomes verified", async () => {
      const app = enabled();
      const { client, email, userId } = await signUp(app);
      const newEmail = uniqueEmail();
      const response = await client.post("/change-email", { newEmail: newEmail.toUpperCase() });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: true });
      const mail = await app.smtp.waitFor(newEmail);
      expect(mail.subject).toBe("Confirm your new email address");
      expect(mail.decoded).toContain(`you want to use ${newEmail} as the email address`);
      expect(mail.decoded).not.toMatch(/\{\{\w+\}\}/);
      // Nothing changes before the link is followed, and the old address gets nothing.
      expect(await userRow(app, userId)).toMatchObject({ email, emailVerified: false });
      const link = app.smtp.linkIn(mail, "/verify-email");
      const followed = await createClient(app.app).get(pathOf(link));
      expect(followed.statusCode).toBe(200);
      expect(followed.json()).toMatchObject({
        status: true,
        user: { id: userId, email: newEmail, emailVerified: true },
      });
      expect(await userRow(app, userId)).toMatchObject({ email: newEmail, emailVerified: true });
      expect((await client.get("/get-session")).json().user.email).toBe(newEmail);
      const signIn = await createClient(app.app).post("/sign-in/email", {
        email: newEmail,
        password: PASSWORD,
      });
      expect(signIn.statusCode).toBe(200);
      const oldSignIn = await createClient(app.app).post("/sign-in/email", {
        email,
        password: PASSWORD,
      });
      expect(oldSignIn.statusCode).toBe(401);
      await expectNoMailTo(app, email);
      // The link does not work twice.
      const replay = await createClient(app.app).get(pathOf(link));
      expect(replay.statusCode).toBe(401);
      expect(await userRow(app, userId)).toMatchObject({ email: newEmail, emailVerified: true });
    });

    it("follows the callbackURL of the change", async () => {
      const app = enabled();
      const { client, userId } = await signUp(app);
      const newEmail = uniqueEmail();
      await client.post("/change-email", { newEmail, callbackURL: "/settings?changed=1" });
      const link = app.smtp.linkIn(await app.smtp.waitFor(newEmail), "/verify-email");
      const followed = await createClient(app.app).get(pathOf(link));
      expect(followed.statusCode).toBe(302);
      expect(followed.headers.location).toBe("/settings?changed=1");
      expect(await userRow(app, userId)).toMatchObject({ email: newEmail, emailVerified: true });
    });

    it("a verified user confirms at the CURRENT address; the new one then needs verifying", async () => {
      const app = enabled();
      const { client, email, userId } = await signUp(app);
      await markVerified(app, userId);
      const newEmail = uniqueEmail();
      const response = await client.post("/change-email", { newEmail });
      expect(response.json()).toEqual({ status: true });
      const confirmation = await app.smtp.waitFor(email);
      expect(confirmation.subject).toBe("Confirm your new email address");
      expect(confirmation.decoded).toContain(newEmail);
      await expectNoMailTo(app, newEmail);
      expect(await userRow(app, userId)).toMatchObject({ email, emailVerified: true });

      const followed = await createClient(app.app).get(
        pathOf(app.smtp.linkIn(confirmation, "/verify-email")),
      );
      expect(followed.statusCode).toBe(200);
      expect(followed.json()).toMatchObject({
        status: true,
        user: { id: userId, email: newEmail, emailVerified: false },
      });
      expect(await userRow(app, userId)).toMatchObject({ email: newEmail, emailVerified: false });

      const verification = await app.smtp.waitFor(newEmail);
      expect(verification.subject).toBe("Verify your email address");
      const verified = await createClient(app.app).get(
        pathOf(app.smtp.linkIn(verification, "/verify-email")),
      );
      expect(verified.statusCode).toBe(200);
      expect(await userRow(app, userId)).toMatchObject({ email: newEmail, emailVerified: true });
    });

    it("refuses the change when the new address was taken before the link was followed", async () => {
      const app = enabled();
      const { client, email, userId } = await signUp(app);
      const newEmail = uniqueEmail();
      await client.post("/change-email", { newEmail });
      const link = app.smtp.linkIn(await app.smtp.waitFor(newEmail), "/verify-email");
      await signUp(app, newEmail);
      const followed = await createClient(app.app).get(pathOf(link));
      expect(followed.statusCode).toBe(400);
      expect(followed.json()).toEqual({
        code: "COULD_NOT_UPDATE_EMAIL",
        message: "Couldn't update your email",
      });
      expect(await userRow(app, userId)).toMatchObject({ email, emailVerified: false });
    });

    it("sends the browser back with the error when the link has a callbackURL and the address was taken", async () => {
      const app = enabled();
      const { client, email, userId } = await signUp(app);
      const newEmail = uniqueEmail();
      await client.post("/change-email", { newEmail, callbackURL: "/settings?tab=email" });
      const link = app.smtp.linkIn(await app.smtp.waitFor(newEmail), "/verify-email");
      await signUp(app, newEmail);
      const followed = await createClient(app.app).get(pathOf(link));
      expect(followed.statusCode).toBe(302);
      expect(followed.headers.location).toBe("/settings?tab=email&error=COULD_NOT_UPDATE_EMAIL");
      expect(followed.headers["set-cookie"]).toBeUndefined();
      expect(await userRow(app, userId)).toMatchObject({ email, emailVerified: false });
    });

    it("answers 400 for bad input, 415 for other content types, and mails no one", async () => {
      const app = enabled();
      const { client, email, userId } = await signUp(app);
      const newEmail = uniqueEmail();
      const cases: Array<[unknown, string]> = [
        [{}, "newEmail"],
        [{ newEmail: 5 }, "newEmail"],
        [{ newEmail: [newEmail] }, "newEmail"],
        [{ newEmail: `${"a".repeat(320)}@example.com` }, "newEmail"],
        [{ newEmail, callbackURL: false }, "callbackURL"],
      ];
      for (const [body, field] of cases) {
        expectValidationError(await client.post("/change-email", body), field);
      }
      await expectTransportErrors(app, client, "/change-email", { newEmail });
      expect((await userRow(app, userId))?.email).toBe(email);
      await expectNoMailTo(app, newEmail);
    });
  });
});

describe("POST /delete-user", () => {
  it("is 404 while deletion is disabled (the default), and deletes nothing", async () => {
    const { client, userId } = await signUp();
    const response = await client.post("/delete-user", { password: PASSWORD });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ code: "DELETE_USER_DISABLED", message: "Not found" });
    const callback = await client.get("/delete-user/callback", {
      query: { token: "x".repeat(32) },
    });
    expect(callback.statusCode).toBe(404);
    expect(await userRow(t, userId)).toBeDefined();
    expect(await countWhere(t, "session", userId)).toBe(1);
  });

  describe("with the default email confirmation", () => {
    const enabled = appWith({ user: { deleteUser: { enabled: true } } });

    async function orgMember(app: TestApp, userId: string): Promise<void> {
      const orgId = generateId();
      await app.db.sql`
        insert into organization (id, name, slug) values (${orgId}, 'Org', ${`org-${orgId}`})`;
      await app.db.sql`
        insert into member (id, organization_id, user_id, role)
        values (${generateId()}, ${orgId}, ${userId}, 'owner')`;
    }

    async function deletionMail(app: TestApp, email: string) {
      const mail = await app.smtp.waitFor(email);
      expect(mail.subject).toBe("Confirm the deletion of your account");
      expect(mail.decoded).toContain(`Someone asked to delete the account for ${email}.`);
      expect(mail.decoded).toContain("The link expires in 1 day.");
      expect(mail.decoded).not.toMatch(/\{\{\w+\}\}/);
      const link = app.smtp.linkIn(mail, "/delete-user/callback");
      const token = new URL(link).searchParams.get("token") ?? "";
      expect(token).toMatch(/^[0-9a-z]{32}$/);
      return { link, token };
    }

    async function expectGone(app: TestApp, userId: string): Promise<void> {
      expect(await userRow(app, userId)).toBeUndefined();
      for (const table of ["session", "account", "member"]) {
        expect(await countWhere(app, table, userId), table).toBe(0);
      }
    }

    it("mails a link and deletes nothing until it is followed", async () => {
      const app = enabled();
      const { client, email, userId } = await signUp(app);
      await orgMember(app, userId);
      const before = Date.now();
      const response = await client.post("/delete-user", { password: PASSWORD });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ success: true, message: "Verification email sent" });
      const { link, token } = await deletionMail(app, email);
      expect(await userRow(app, userId)).toBeDefined();
      expect(await countWhere(app, "session", userId)).toBe(1);
      expect(await countWhere(app, "account", userId)).toBe(1);
      expect(await countWhere(app, "member", userId)).toBe(1);
      // Only the token's digest is stored, for a day.
      const rows = await app.db.sql<{ identifier: string; value: string; expiresAt: Date }[]>`
        select identifier, value, expires_at from verification where value = ${userId}`;
      expect(rows.map((row) => row.identifier)).toEqual([`delete-account:${sha256(token)}`]);
      const lifetime = (rows[0]?.expiresAt.getTime() ?? 0) - before;
      expect(Math.abs(lifetime - 86400_000)).toBeLessThan(10_000);

      // Followed from another browser, without a session.
      const followed = await createClient(app.app).get(pathOf(link));
      expect(followed.statusCode).toBe(200);
      expect(followed.json()).toEqual({ success: true, message: "User deleted" });
      await expectGone(app, userId);
      expect(await app.db.sql`select id from verification where value = ${userId}`).toHaveLength(0);
      expect((await client.get("/get-session")).body).toBe("null");
      const signIn = await createClient(app.app).post("/sign-in/email", {
        email,
        password: PASSWORD,
      });
      expect(signIn.statusCode).toBe(401);

      // The token works once.
      const again = await createClient(app.app).get(pathOf(link));
      expect(again.statusCode).toBe(404);
      expect(again.json()).toEqual(INVALID_DELETE_TOKEN);
    });

    it("with a fresh session needs no password; following the link signs the browser out", async () => {
      const app = enabled();
      const { client, email, userId } = await signUp(app);
      const response = await client.post("/delete-user", { callbackURL: "/goodbye" });
      expect(response.json()).toEqual({ success: true, message: "Verification email sent" });
      const { link } = await deletionMail(app, email);
      expect(new URL(link).searchParams.get("callbackURL")).toBe("/goodbye");
      const followed = await client.get(pathOf(link));
      expect(followed.statusCode).toBe(302);
      expect(followed.headers.location).toBe("/goodbye");
      expect(client.setCookies(followed).get("authd.session_token")).toContain("Max-Age=0");
      expect(client.cookies.has("authd.session_token")).toBe(false);
      await expectGone(app, userId);
    });

    it("a new request withdraws the earlier links: only the newest deletes", async () => {
      const app = enabled();
      const { client, email, userId } = await signUp(app);
      await client.post("/delete-user", { password: PASSWORD });
      const first = await deletionMail(app, email);
      await client.post("/delete-user", { password: PASSWORD });
      const second = await deletionMail(app, email);
      expect(second.token).not.toBe(first.token);
      const stale = await createClient(app.app).get(pathOf(first.link));
      expect(stale.statusCode).toBe(404);
      expect(stale.json()).toEqual(INVALID_DELETE_TOKEN);
      expect(await userRow(app, userId)).toBeDefined();
      const followed = await createClient(app.app).get(pathOf(second.link));
      expect(followed.statusCode).toBe(200);
      await expectGone(app, userId);
    });

    it("deletes when the mailed token is posted to /delete-user", async () => {
      const app = enabled();
      const { client, email, userId } = await signUp(app);
      await client.post("/delete-user", { password: PASSWORD });
      const { token } = await deletionMail(app, email);
      const response = await client.post("/delete-user", { token });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ success: true, message: "User deleted" });
      expect(client.setCookies(response).get("authd.session_token")).toContain("Max-Age=0");
      await expectGone(app, userId);
    });

    it("refuses a wrong password with INVALID_PASSWORD and mails nothing", async () => {
      const app = enabled();
      const { client, email, userId } = await signUp(app);
      const response = await client.post("/delete-user", { password: "not the password" });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ code: "INVALID_PASSWORD", message: "Invalid password" });
      expect(await app.db.sql`select id from verification where value = ${userId}`).toHaveLength(0);
      expect(await userRow(app, userId)).toBeDefined();
      await expectNoMailTo(app, email);
    });

    it("without a password, refuses a session older than freshAge with SESSION_EXPIRED", async () => {
      const app = enabled();
      const { client, email, userId } = await signUp(app);
      await ageSessions(app, userId);
      const response = await client.post("/delete-user", {});
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        code: "SESSION_EXPIRED",
        message: "Session expired. Re-authenticate to perform this action.",
      });
      await expectNoMailTo(app, email);
      // The password still proves it is them.
      const withPassword = await client.post("/delete-user", { password: PASSWORD });
      expect(withPassword.json()).toEqual({ success: true, message: "Verification email sent" });
      await deletionMail(app, email);
      expect(await userRow(app, userId)).toBeDefined();
    });

    it("answers CREDENTIAL_ACCOUNT_NOT_FOUND to a password from a user without one", async () => {
      const app = enabled();
      const { client, userId } = await signUp(app);
      await app.db.sql`delete from account where user_id = ${userId}`;
      const response = await client.post("/delete-user", { password: PASSWORD });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        code: "CREDENTIAL_ACCOUNT_NOT_FOUND",
        message: "Credential account not found",
      });
      expect(await userRow(app, userId)).toBeDefined();
    });

    it("refuses an unknown, expired or another user's token with 404 INVALID_TOKEN", async () => {
      const app = enabled();
      const owner = await signUp(app);
      const other = await signUp(app);
      await owner.client.post("/delete-user", { password: PASSWORD });
      const { token, link } = await deletionMail(app, owner.email);

      const unknown = await owner.client.post("/delete-user", { token: "z".repeat(32) });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual(INVALID_DELETE_TOKEN);
      // Signed in as someone else, neither the POST nor the link deletes anyone.
      const posted = await other.client.post("/delete-user", { token });
      expect(posted.statusCode).toBe(404);
      expect(posted.json()).toEqual(INVALID_DELETE_TOKEN);
      const followed = await other.client.get(pathOf(link));
      expect(followed.statusCode).toBe(404);
      expect(followed.json()).toEqual(INVALID_DELETE_TOKEN);
      expect(await userRow(app, owner.userId)).toBeDefined();
      expect(await userRow(app, other.userId)).toBeDefined();
      expect((await other.client.get("/get-session")).json().user.id).toBe(other.userId);

      await app.db.sql`
        update verification set expires_at = now() - interval '1 second'
        where value = ${owner.userId}`;
      const expired = await createClient(app.app).get(pathOf(link));
      expect(expired.statusCode).toBe(404);
      expect(expired.json()).toEqual(INVALID_DELETE_TOKEN);
      expect(await userRow(app, owner.userId)).toBeDefined();
    });

    it("sends the browser back with ?error=INVALID_TOKEN when the link has a callbackURL", async () => {
      const app = enabled();
      const owner = await signUp(app);
      const other = await signUp(app);
      await owner.client.post("/delete-user", {
        password: PASSWORD,
        callbackURL: "/bye?from=mail",
      });
      const { token, link } = await deletionMail(app, owner.email);
      expect(new URL(link).searchParams.get("callbackURL")).toBe("/bye?from=mail");

      const foreign = await other.client.get(pathOf(link));
      expect(foreign.statusCode).toBe(302);
      expect(foreign.headers.location).toBe("/bye?from=mail&error=INVALID_TOKEN");
      const unknown = await createClient(app.app).get("/delete-user/callback", {
        query: { token: "z".repeat(32), callbackURL: "/bye" },
      });
      expect(unknown.headers.location).toBe("/bye?error=INVALID_TOKEN");
      await app.db.sql`
        update verification set expires_at = now() - interval '1 second'
        where value = ${owner.userId}`;
      const expired = await createClient(app.app).get("/delete-user/callback", {
        query: { token, callbackURL: "/bye" },
      });
      expect(expired.headers.location).toBe("/bye?error=INVALID_TOKEN");
      expect(await userRow(app, owner.userId)).toBeDefined();
      expect(await userRow(app, other.userId)).toBeDefined();
      expect((await other.client.get("/get-session")).json().user.id).toBe(other.userId);
    });

    it("refuses untrusted callbackURLs with 403", async () => {
      const app = enabled();
      const { client, email, userId } = await signUp(app);
      const posted = await client.post("/delete-user", {
        password: PASSWORD,
        callbackURL: "https://evil.example/bye",
      });
      expect(posted.statusCode).toBe(403);
      expect(posted.json()).toEqual({
        code: "INVALID_CALLBACK_URL",
        message: "Invalid callbackURL",
      });
      await expectNoMailTo(app, email);
      await client.post("/delete-user", { password: PASSWORD });
      const { token } = await deletionMail(app, email);
      const followed = await createClient(app.app).get("/delete-user/callback", {
        query: { token, callbackURL: "//evil.example" },
      });
      expect(followed.statusCode).toBe(403);
      expect(followed.json().code).toBe("INVALID_CALLBACK_URL");
      expect(await userRow(app, userId)).toBeDefined();
    });

    it("answers 401 when signed out", async () => {
      const app = enabled();
      const response = await createClient(app.app).post("/delete-user", { password: PASSWORD });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual(UNAUTHORIZED);
    });

    it("answers 400 for bad input, 415 for other content types, and deletes nothing", async () => {
      const app = enabled();
      const { client, email, userId } = await signUp(app);
      const cases: Array<[unknown, string]> = [
        [{ password: 12345678 }, "password"],
        [{ password: ["x"] }, "password"],
        [{ token: 5 }, "token"],
        [{ token: "t".repeat(129) }, "token"],
        [{ password: PASSWORD, callbackURL: 1 }, "callbackURL"],
      ];
      for (const [body, field] of cases) {
        expectValidationError(await client.post("/delete-user", body), field);
      }
      await expectTransportErrors(app, client, "/delete-user", { password: PASSWORD });
      const noToken = await client.get("/delete-user/callback");
      expectValidationError(noToken, "token", "Invalid query parameters");
      expect(await userRow(app, userId)).toBeDefined();
      expect(await countWhere(app, "session", userId)).toBe(1);
      expect(await app.db.sql`select id from verification where value = ${userId}`).toHaveLength(0);
      await expectNoMailTo(app, email);
    });
  });

  describe("without email confirmation", () => {
    const immediate = appWith({
      user: { deleteUser: { enabled: true, requireEmailConfirmation: false } },
    });

    it("deletes at once with the password", async () => {
      const app = immediate();
      const { client, email, userId } = await signUp(app);
      const other = createClient(app.app);
      await other.post("/sign-in/email", { email, password: PASSWORD });
      await insertGithubAccount(app, userId);
      const wrong = await client.post("/delete-user", { password: "not the password" });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toEqual({ code: "INVALID_PASSWORD", message: "Invalid password" });
      expect(await userRow(app, userId)).toBeDefined();

      const response = await client.post("/delete-user", { password: PASSWORD });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ success: true, message: "User deleted" });
      expect(client.setCookies(response).get("authd.session_token")).toContain("Max-Age=0");
      expect(await userRow(app, userId)).toBeUndefined();
      expect(await countWhere(app, "session", userId)).toBe(0);
      expect(await countWhere(app, "account", userId)).toBe(0);
      expect((await other.get("/get-session")).body).toBe("null");
      await expectNoMailTo(app, email);
    });

    it("still requires a fresh session without a password", async () => {
      const app = immediate();
      const { client, userId } = await signUp(app);
      await ageSessions(app, userId);
      const response = await client.post("/delete-user", {});
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe("SESSION_EXPIRED");
      expect(await userRow(app, userId)).toBeDefined();
    });
  });
});

describe("GET /list-accounts", () => {
  it("lists the credential account in both generations' shapes", async () => {
    const { client, userId } = await signUp();
    const response = await client.get("/list-accounts");
    expect(response.statusCode).toBe(200);
    const accounts = response.json();
    expect(accounts).toHaveLength(1);
    expect(Object.keys(accounts[0]).sort()).toEqual(
      [
        "accountId",
        "createdAt",
        "id",
        "provider",
        "providerId",
        "scopes",
        "updatedAt",
        "userId",
      ].sort(),
    );
    expect(accounts[0]).toMatchObject({
      id: await credentialAccountId(t, userId),
      provider: "credential",
      providerId: "credential",
      accountId: userId,
      userId,
      scopes: [],
    });
    expect(Number.isNaN(Date.parse(accounts[0].createdAt))).toBe(false);
  });

  it("lists linked accounts with their scopes and never their secrets or other users' accounts", async () => {
    const { client, userId } = await signUp();
    const other = await signUp();
    await insertGithubAccount(t, other.userId);
    const github = await insertGithubAccount(t, userId);
    const response = await client.get("/list-accounts");
    const accounts = response.json();
    expect(accounts.map((account: { providerId: string }) => account.providerId).sort()).toEqual([
      "credential",
      "github",
    ]);
    expect(accounts.find((account: { id: string }) => account.id === github.id)).toMatchObject({
      provider: "github",
      providerId: "github",
      accountId: github.accountId,
      scopes: ["read:user", "user:email"],
    });
    expect(response.body).not.toContain("gho_secret");
    expect(response.body).not.toContain("argon2");
    expect(response.body).not.toContain(other.userId);
  });

  it("answers 401 when signed out", async () => {
    const response = await createClient(t.app).get("/list-accounts");
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(UNAUTHORIZED);
  });
});

describe("account-info", () => {
  it("answers {user, data, account} for POST {accountId} and GET ?accountId=", async () => {
    const { client, email, userId } = await signUp();
    const id = await credentialAccountId(t, userId);
    const expected = {
      user: { id: userId, name: "Ada", email, image: null, emailVerified: false },
      data: {},
      account: { id, providerId: "credential", accountId: userId },
    };
    const posted = await client.post("/account-info", { accountId: id });
    expect(posted.statusCode).toBe(200);
    expect(posted.json()).toEqual(expected);
    const got = await client.get("/account-info", { query: { accountId: id } });
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(expected);
    // The older clients' provider account id finds the same account.
    expect((await client.post("/account-info", { accountId: userId })).json()).toEqual(expected);
  });

  it("answers PROVIDER_NOT_CONFIGURED for a linked account of a provider not configured", async () => {
    // A configured provider's profile is read (tests/server/social-tokens.test.ts).
    const { client, userId } = await signUp();
    const github = await insertGithubAccount(t, userId);
    const response = await client.get("/account-info", { query: { accountId: github.id } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: "PROVIDER_NOT_CONFIGURED",
      message: "Provider not configured",
    });
    expect(response.body).not.toContain("gho_secret");
  });

  it("answers ACCOUNT_NOT_FOUND for another user's or an unknown account", async () => {
    const { client } = await signUp();
    const other = await signUp();
    const github = await insertGithubAccount(t, other.userId);
    const otherCredential = await credentialAccountId(t, other.userId);
    for (const accountId of [otherCredential, other.userId, github.id, github.accountId, "nope"]) {
      const posted = await client.post("/account-info", { accountId });
      expect(posted.statusCode, accountId).toBe(400);
      expect(posted.json(), accountId).toEqual({
        code: "ACCOUNT_NOT_FOUND",
        message: "Account not found",
      });
      const got = await client.get("/account-info", { query: { accountId } });
      expect(got.statusCode, accountId).toBe(400);
      expect(got.json().code, accountId).toBe("ACCOUNT_NOT_FOUND");
    }
  });

  it("answers 401 when signed out", async () => {
    const { userId } = await signUp();
    const id = await credentialAccountId(t, userId);
    const posted = await createClient(t.app).post("/account-info", { accountId: id });
    expect(posted.statusCode).toBe(401);
    expect(posted.json()).toEqual(UNAUTHORIZED);
    const got = await createClient(t.app).get("/account-info", { query: { accountId: id } });
    expect(got.statusCode).toBe(401);
  });

  it("answers 400 for bad input and 415 for other content types", async () => {
    const { client, userId } = await signUp();
    for (const [body, field] of [
      [{}, "accountId"],
      [{ accountId: 5 }, "accountId"],
      [{ accountId: "" }, "accountId"],
      [{ accountId: "a".repeat(256) }, "accountId"],
    ] as Array<[unknown, string]>) {
      expectValidationError(await client.post("/account-info", body), field);
    }
    expectValidationError(
      await client.get("/account-info"),
      "accountId",
      "Invalid query parameters",
    );
    expectValidationError(
      await client.get("/account-info", { query: { accountId: "" } }),
      "accountId",
      "Invalid query parameters",
    );
    await expectTransportErrors(t, client, "/account-info", { accountId: userId });
  });
});

describe("POST /unlink-account", () => {
  it("refuses to unlink the only account", async () => {
    const { client, userId } = await signUp();
    for (const body of [
      { providerId: "credential" },
      { accountId: await credentialAccountId(t, userId) },
    ]) {
      const response = await client.post("/unlink-account", body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        code: "FAILED_TO_UNLINK_LAST_ACCOUNT",
        message: "You can't unlink your last account",
      });
    }
    expect(await countWhere(t, "account", userId)).toBe(1);
    const audit = await t.db.sql`
      select 1 from audit_event where action = 'account.unlinked' and target_id = ${userId}`;
    expect(audit).toHaveLength(0);
  });

  it("unlinks a second account by {providerId}", async () => {
    const { client, userId } = await signUp();
    await insertGithubAccount(t, userId);
    const response = await client.post("/unlink-account", { providerId: "github" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: true });
    const rows = await t.db.sql<{ providerId: string }[]>`
      select provider_id from account where user_id = ${userId}`;
    expect(rows).toEqual([{ providerId: "credential" }]);
    const listed = (await client.get("/list-accounts")).json();
    expect(listed.map((account: { providerId: string }) => account.providerId)).toEqual([
      "credential",
    ]);
    // Audited by the user, in the unlink's transaction.
    const audit = await t.db.sql<{ actorType: string; actorId: string; details: unknown }[]>`
      select actor_type, actor_id, details from audit_event
      where action = 'account.unlinked' and target_id = ${userId}`;
    expect(audit).toEqual([
      {
        actorType: "user",
        actorId: userId,
        details: { providerId: "github", accountId: expect.any(String) },
      },
    ]);
  });

  it("unlinks by the row id {accountId} and by the older clients' {providerId, accountId}", async () => {
    const { client, userId } = await signUp();
    const first = await insertGithubAccount(t, userId);
    const second = await insertGithubAccount(t, userId);
    const byRow = await client.post("/unlink-account", { accountId: first.id });
    expect(byRow.json()).toEqual({ status: true });
    const bySpec = await client.post("/unlink-account", {
      providerId: "github",
      accountId: second.accountId,
    });
    expect(bySpec.json()).toEqual({ status: true });
    expect(await countWhere(t, "account", userId)).toBe(1);
    // The credential account may go once a social one remains.
    const github = await insertGithubAccount(t, userId);
    const credential = await client.post("/unlink-account", { providerId: "credential" });
    expect(credential.json()).toEqual({ status: true });
    const rows = await t.db.sql<{ id: string }[]>`select id from account where user_id = ${userId}`;
    expect(rows).toEqual([{ id: github.id }]);
  });

  it("requires a fresh session: SESSION_NOT_FRESH", async () => {
    const { client, userId } = await signUp();
    const github = await insertGithubAccount(t, userId);
    await ageSessions(t, userId);
    const response = await client.post("/unlink-account", { accountId: github.id });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ code: "SESSION_NOT_FRESH", message: "Session is not fresh" });
    expect(await countWhere(t, "account", userId)).toBe(2);
  });

  it("answers ACCOUNT_NOT_FOUND for another user's account or an unlinked provider", async () => {
    const { client, userId } = await signUp();
    await insertGithubAccount(t, userId);
    const other = await signUp();
    const otherGithub = await insertGithubAccount(t, other.userId);
    for (const body of [
      { accountId: otherGithub.id },
      { accountId: otherGithub.accountId },
      { providerId: "github", accountId: otherGithub.accountId },
      { providerId: "google" },
    ]) {
      const response = await client.post("/unlink-account", body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json()).toEqual({ code: "ACCOUNT_NOT_FOUND", message: "Account not found" });
    }
    expect(await countWhere(t, "account", userId)).toBe(2);
    expect(await countWhere(t, "account", other.userId)).toBe(2);
  });

  it("answers 401 when signed out", async () => {
    const response = await createClient(t.app).post("/unlink-account", { providerId: "github" });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(UNAUTHORIZED);
  });

  it("answers 400 for bad input, 415 for other content types, and unlinks nothing", async () => {
    const { client, userId } = await signUp();
    await insertGithubAccount(t, userId);
    for (const [body, field] of [
      [{}, "providerId"],
      [{ providerId: 5 }, "providerId"],
      [{ providerId: "" }, "providerId"],
      [{ accountId: ["x"] }, "accountId"],
      [{ providerId: "github", accountId: "" }, "accountId"],
    ] as Array<[unknown, string]>) {
      expectValidationError(await client.post("/unlink-account", body), field);
    }
    await expectTransportErrors(t, client, "/unlink-account", { providerId: "github" });
    expect(await countWhere(t, "account", userId)).toBe(2);
  });

  describe("with accountLinking.allowUnlinkingAll", () => {
    const lenient = appWith({ account: { accountLinking: { allowUnlinkingAll: true } } });

    it("unlinks the last account too", async () => {
      const app = lenient();
      const { client, userId } = await signUp(app);
      const response = await client.post("/unlink-account", { providerId: "credential" });
      expect(response.json()).toEqual({ status: true });
      expect(await countWhere(app, "account", userId)).toBe(0);
    });
  });
});
