/**
 * The ban, one rule at a time, each with a test of its own: sign-in refuses a banned
 * user before anything else about the account; no way of issuing a session issues one
 * to a banned user; a live session stops answering once its user is banned; an expired
 * ban lifts itself.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.js";
import { createClient } from "../helpers/client.js";
import { expectNoMailTo } from "../helpers/expectations.js";

const PASSWORD = "ban-rules-pass-1234";
const BASE = "http://localhost:3000/api/auth";
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    config: {
      emailAndPassword: { requireEmailVerification: true },
      emailVerification: {
        sendOnSignUp: false,
        sendOnSignIn: true,
        autoSignInAfterVerification: true,
      },
    },
  });
});

afterAll(async () => {
  await t?.close();
});

let counter = 0;
async function signUp(): Promise<{ id: string; email: string }> {
  counter += 1;
  const email = `ban-${counter}-${Date.now()}@example.com`;
  const response = await createClient(t.app).post("/sign-up/email", {
    name: "B",
    email,
    password: PASSWORD,
  });
  expect(response.statusCode, response.body).toBe(200);
  return { id: response.json().user.id, email };
}

/** Bans directly, as an operator's SQL would: sessions are not touched. */
async function ban(userId: string, expires: Date | null = null): Promise<void> {
  await t.db.sql`
    update "user" set banned = true, ban_reason = 'spam', ban_expires = ${expires}
    where id = ${userId}`;
}

async function sessionsOf(userId: string): Promise<number> {
  const [row] = await t.db.sql<{ count: number }[]>`
    select count(*)::int as count from session where user_id = ${userId}`;
  return row?.count ?? -1;
}

describe("the ban", () => {
  it("sign-in refuses a banned user before the email check, and mails nothing", async () => {
    const user = await signUp();
    await ban(user.id);
    const refused = await createClient(t.app).post("/sign-in/email", {
      email: user.email,
      password: PASSWORD,
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: "BANNED_USER", details: { reason: "spam" } });
    expect(await sessionsOf(user.id)).toBe(0);
    // Unbanned, the same sign-in reaches the email check and mails a link (sendOnSignIn).
    await expectNoMailTo(t, user.email, "/send-verification-email");
  });

  it("no session is issued to a banned user, whatever leads there (the verification link)", async () => {
    const user = await signUp();
    const requested = await createClient(t.app).post("/send-verification-email", {
      email: user.email,
    });
    expect(requested.statusCode).toBe(200);
    const mail = await t.smtp.waitFor(user.email);
    const link = t.smtp.linkIn(mail, "/verify-email");
    await ban(user.id);
    const visitor = createClient(t.app);
    const response = await visitor.get(link.slice(BASE.length));
    expect(response.statusCode).toBe(403);
    expect(response.json().code).toBe("BANNED_USER");
    expect(visitor.cookies.has("authd.session_token")).toBe(false);
    expect(await sessionsOf(user.id)).toBe(0);
  });

  it("a live session stops answering once its user is banned, and answers again when the ban expires", async () => {
    const user = await signUp();
    await t.db.sql`update "user" set email_verified = true where id = ${user.id}`;
    const client = createClient(t.app);
    const signedIn = await client.post("/sign-in/email", { email: user.email, password: PASSWORD });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const fresh = { query: { disableCookieCache: "true" } };
    expect((await client.get("/get-session", fresh)).json()).toMatchObject({
      user: { id: user.id },
    });
    await ban(user.id, new Date(Date.now() + 60_000));
    expect((await client.get("/get-session", fresh)).body).toBe("null");
    expect((await client.get("/list-sessions")).statusCode).toBe(401);
    // The session row stays: only the ban decides.
    expect(await sessionsOf(user.id)).toBe(1);
  });

  it("an expired ban lifts itself: the live session answers and sign-in works", async () => {
    const user = await signUp();
    await t.db.sql`update "user" set email_verified = true where id = ${user.id}`;
    const client = createClient(t.app);
    expect(
      (await client.post("/sign-in/email", { email: user.email, password: PASSWORD })).statusCode,
    ).toBe(200);
    await ban(user.id, new Date(Date.now() - 1000));
    const fresh = { query: { disableCookieCache: "true" } };
    expect((await client.get("/get-session", fresh)).json()).toMatchObject({
      user: { id: user.id },
    });
    const again = await createClient(t.app).post("/sign-in/email", {
      email: user.email,
      password: PASSWORD,
    });
    expect(again.statusCode, again.body).toBe(200);
    const [row] = await t.db.sql<
      { banned: boolean }[]
    >`select banned from "user" where id = ${user.id}`;
    expect(row?.banned).toBe(false);
  });
});
