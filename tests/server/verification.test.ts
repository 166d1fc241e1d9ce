import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuthdConfigInput } from "../../server/config.js";
import { signToken } from "../../server/crypto/jwt.js";
import { setEmailVerified } from "../../server/users/queries.js";
import { createTestApp, TEST_SECRET, type TestApp } from "../helpers/app.js";
import { createClient } from "../helpers/client.js";
import { BAD_JSON, expectNoMailTo, rawPost, UNSUPPORTED } from "../helpers/expectations.js";
import type { ReceivedMail } from "../helpers/smtp.js";

const PASSWORD = "correct horse battery";
const BASE = "http://localhost:3000/api/auth";
const INVALID_EMAIL = { code: "INVALID_EMAIL", message: "Invalid email" };

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
  return `verify${counter}-${Date.now()}@example.com`;
}

async function signUp(app: TestApp = t, email = uniqueEmail()) {
  const client = createClient(app.app);
  const response = await client.post("/sign-up/email", { name: "Ada", email, password: PASSWORD });
  expect(response.statusCode, response.body).toBe(200);
  return { client, email, user: response.json().user as { id: string; email: string } };
}

async function markVerified(app: TestApp, userId: string): Promise<void> {
  await app.db.sql`update "user" set email_verified = true where id = ${userId}`;
}

async function isVerified(app: TestApp, userId: string): Promise<boolean | undefined> {
  const [row] = await app.db.sql<{ emailVerified: boolean }[]>`
    select email_verified from "user" where id = ${userId}`;
  return row?.emailVerified;
}

/** The path under the base path of a mailed link, for the test client. */
function pathOf(link: string): string {
  expect(link.startsWith(`${BASE}/`), link).toBe(true);
  return link.slice(BASE.length);
}

function tokenOf(link: string): string {
  const token = new URL(link).searchParams.get("token");
  expect(token).toBeTruthy();
  return token as string;
}

function claimsOf(jwt: string): Record<string, unknown> {
  const [, payload] = jwt.split(".");
  return JSON.parse(Buffer.from(payload ?? "", "base64url").toString("utf8"));
}

async function verificationMail(app: TestApp, email: string): Promise<ReceivedMail> {
  const mail = await app.smtp.waitFor(email);
  expect(mail.subject).toBe("Verify your email address");
  expect(mail.decoded).toContain(`Please confirm that ${email} is your email address.`);
  expect(mail.decoded).not.toMatch(/\{\{\w+\}\}/);
  return mail;
}

describe("POST /send-verification-email, signed out", () => {
  it("mails a working link to an existing unverified address and answers {status: true}", async () => {
    const { email, user } = await signUp();
    const response = await createClient(t.app).post("/send-verification-email", {
      email: email.toUpperCase(),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: true });
    const mail = await verificationMail(t, email);
    expect(mail.to).toEqual([email]);
    expect(mail.decoded).toContain("The link expires in 1 hour.");
    const link = t.smtp.linkIn(mail, "/verify-email");
    // Without a callbackURL the link answers JSON (no callbackURL parameter).
    expect(new URL(link).searchParams.has("callbackURL")).toBe(false);
    const jwt = tokenOf(link);
    expect(JSON.parse(Buffer.from(jwt.split(".")[0] ?? "", "base64url").toString())).toEqual({
      alg: "HS256",
    });
    const claims = claimsOf(jwt);
    expect(claims).toMatchObject({ email, userId: user.id });
    expect(Number(claims.exp) - Number(claims.iat)).toBe(3600);
    // Sending changes nothing yet.
    expect(await isVerified(t, user.id)).toBe(false);
  });

  it("puts the callbackURL into the mailed link", async () => {
    const { email } = await signUp();
    const response = await createClient(t.app).post("/send-verification-email", {
      email,
      callbackURL: "/welcome?from=mail",
    });
    expect(response.json()).toEqual({ status: true });
    const link = t.smtp.linkIn(await verificationMail(t, email), "/verify-email");
    expect(new URL(link).searchParams.get("callbackURL")).toBe("/welcome?from=mail");
  });

  it("answers the same {status: true} for an unknown address and sends nothing", async () => {
    const email = uniqueEmail();
    const response = await createClient(t.app).post("/send-verification-email", { email });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: true });
    await expectNoMailTo(t, email, "/send-verification-email");
    const users = await t.db.sql`select id from "user" where email = ${email}`;
    expect(users).toHaveLength(0);
  });

  it("answers {status: true} for an already verified address and sends nothing", async () => {
    const { email, user } = await signUp();
    await markVerified(t, user.id);
    const response = await createClient(t.app).post("/send-verification-email", { email });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: true });
    await expectNoMailTo(t, email, "/send-verification-email");
  });

  it("refuses a malformed address with INVALID_EMAIL", async () => {
    for (const email of ["not-an-email", "a@b", "two@@example.com", "sp ace@example.com"]) {
      const response = await createClient(t.app).post("/send-verification-email", { email });
      expect(response.statusCode, email).toBe(400);
      expect(response.json(), email).toEqual(INVALID_EMAIL);
    }
  });

  it("refuses an untrusted callbackURL with 403 and sends nothing", async () => {
    const { email } = await signUp();
    for (const callbackURL of ["https://evil.example/x", "//evil.example", "javascript:alert(1)"]) {
      const response = await createClient(t.app).post("/send-verification-email", {
        email,
        callbackURL,
      });
      expect(response.statusCode, callbackURL).toBe(403);
      expect(response.json(), callbackURL).toEqual({
        code: "INVALID_CALLBACK_URL",
        message: "Invalid callbackURL",
      });
    }
    await expectNoMailTo(t, email, "/send-verification-email");
  });
});

describe("POST /send-verification-email, signed in", () => {
  it("mails the caller's own unverified address", async () => {
    const { client, email } = await signUp();
    const response = await client.post("/send-verification-email", { email });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: true });
    await verificationMail(t, email);
  });

  it("refuses another address with EMAIL_MISMATCH and mails no one", async () => {
    const { client, email } = await signUp();
    const other = await signUp();
    const response = await client.post("/send-verification-email", { email: other.email });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ code: "EMAIL_MISMATCH", message: "Email mismatch" });
    const unknown = await client.post("/send-verification-email", { email: uniqueEmail() });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().code).toBe("EMAIL_MISMATCH");
    await expectNoMailTo(t, other.email, "/send-verification-email");
    expect(t.smtp.messages.filter((message) => message.to.includes(email))).toEqual([]);
  });

  it("refuses a verified caller with EMAIL_ALREADY_VERIFIED", async () => {
    const { client, email, user } = await signUp();
    await markVerified(t, user.id);
    const response = await client.post("/send-verification-email", { email });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: "EMAIL_ALREADY_VERIFIED",
      message: "Email is already verified",
    });
    await expectNoMailTo(t, email, "/send-verification-email");
  });

  it("refuses a malformed address with INVALID_EMAIL", async () => {
    const { client } = await signUp();
    const response = await client.post("/send-verification-email", { email: "nope@" });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(INVALID_EMAIL);
  });
});

describe("POST /send-verification-email, bad input", () => {
  it("answers 400 VALIDATION_ERROR for missing, mistyped or oversized fields", async () => {
    const { client, email } = await signUp();
    const cases: Array<[unknown, string]> = [
      [{}, "email"],
      [{ email: 5 }, "email"],
      [{ email: null }, "email"],
      [{ email: ["a@example.com"] }, "email"],
      [{ email: `${"a".repeat(320)}@example.com` }, "email"],
      [{ email, callbackURL: 7 }, "callbackURL"],
      [{ email, callbackURL: `/${"x".repeat(2048)}` }, "callbackURL"],
    ];
    for (const [body, field] of cases) {
      for (const caller of [createClient(t.app), client]) {
        const response = await caller.post("/send-verification-email", body);
        expect(response.statusCode, JSON.stringify(body).slice(0, 60)).toBe(400);
        const json = response.json();
        expect(json.code).toBe("VALIDATION_ERROR");
        expect(json.message).toBe("Invalid body parameters");
        expect(json.details.map((issue: { path: string }) => issue.path)).toContain(field);
      }
    }
    await expectNoMailTo(t, email, "/send-verification-email");
  });

  it("answers 400 for malformed JSON and 415 for other content types", async () => {
    const { client, email } = await signUp();
    for (const caller of [createClient(t.app), client]) {
      const broken = await rawPost(t, caller, "/send-verification-email", "{", "application/json");
      expect(broken.statusCode).toBe(400);
      expect(broken.json()).toEqual(BAD_JSON);
      for (const type of ["text/plain", "application/x-www-form-urlencoded"]) {
        const response = await rawPost(
          t,
          caller,
          "/send-verification-email",
          type === "text/plain" ? JSON.stringify({ email }) : `email=${encodeURIComponent(email)}`,
          type,
        );
        expect(response.statusCode, type).toBe(415);
        expect(response.json(), type).toEqual(UNSUPPORTED);
      }
    }
    await expectNoMailTo(t, email, "/send-verification-email");
  });
});

describe("GET /verify-email", () => {
  it("verifies with the mailed token and answers {status: true, user} without a callback", async () => {
    const { email, user } = await signUp();
    await createClient(t.app).post("/send-verification-email", { email });
    const link = t.smtp.linkIn(await verificationMail(t, email), "/verify-email");
    const visitor = createClient(t.app);
    const response = await visitor.get(pathOf(link));
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.status).toBe(true);
    expect(body.user).toMatchObject({ id: user.id, email, emailVerified: true });
    expect(body.user).not.toHaveProperty("password");
    expect(await isVerified(t, user.id)).toBe(true);
    // Auto sign-in is off by default: no session for whoever followed the link.
    expect(response.headers["set-cookie"]).toBeUndefined();
    const sessions = await t.db.sql`select id from session where user_id = ${user.id}`;
    expect(sessions).toHaveLength(1); // the sign-up session only
    // Only one visit can be the one that verifies (the update is conditional).
    expect(await setEmailVerified(t.db.sql, user.id)).toBeUndefined();
    // Following it again is harmless.
    const again = await visitor.get(pathOf(link));
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ status: true, user: { emailVerified: true } });
  });

  it("redirects 302 to the callbackURL after verifying", async () => {
    const { email, user } = await signUp();
    await createClient(t.app).post("/send-verification-email", {
      email,
      callbackURL: "/welcome?from=mail",
    });
    const link = t.smtp.linkIn(await verificationMail(t, email), "/verify-email");
    const response = await createClient(t.app).get(pathOf(link));
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe("/welcome?from=mail");
    expect(await isVerified(t, user.id)).toBe(true);
  });

  it("redirects to an absolute callbackURL on a trusted origin", async () => {
    const { email, user } = await signUp();
    const token = await signToken({ email, userId: user.id }, TEST_SECRET, 3600);
    const response = await createClient(t.app).get("/verify-email", {
      query: { token, callbackURL: "http://app.test/verified" },
    });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe("http://app.test/verified");
    expect(await isVerified(t, user.id)).toBe(true);
  });

  it("answers 401 INVALID_TOKEN for a tampered token, or redirects with error=INVALID_TOKEN", async () => {
    const victim = await signUp();
    const attacker = await signUp();
    await createClient(t.app).post("/send-verification-email", { email: attacker.email });
    const jwt = tokenOf(t.smtp.linkIn(await verificationMail(t, attacker.email), "/verify-email"));
    // The attacker's signed token with the victim's address swapped into the payload.
    const [header, , signature] = jwt.split(".");
    const forgedPayload = Buffer.from(
      JSON.stringify({ ...claimsOf(jwt), email: victim.email, userId: victim.user.id }),
    ).toString("base64url");
    const forged = `${header}.${forgedPayload}.${signature}`;
    const otherSecret = await signToken(
      { email: victim.email, userId: victim.user.id },
      "some-other-secret-0123456789-0123456789",
      3600,
    );
    for (const token of [forged, otherSecret, "garbage", `${jwt}x`]) {
      const plain = await createClient(t.app).get("/verify-email", { query: { token } });
      expect(plain.statusCode, token).toBe(401);
      expect(plain.json(), token).toEqual({ code: "INVALID_TOKEN", message: "invalid token" });
      const redirected = await createClient(t.app).get("/verify-email", {
        query: { token, callbackURL: "/done" },
      });
      expect(redirected.statusCode, token).toBe(302);
      expect(redirected.headers.location, token).toBe("/done?error=INVALID_TOKEN");
    }
    const absolute = await createClient(t.app).get("/verify-email", {
      query: { token: forged, callbackURL: "http://app.test/done?step=2" },
    });
    expect(absolute.headers.location).toBe("http://app.test/done?step=2&error=INVALID_TOKEN");
    expect(await isVerified(t, victim.user.id)).toBe(false);
    expect(await isVerified(t, attacker.user.id)).toBe(false);
  });

  it("refuses a token whose userId is not the address's owner", async () => {
    const owner = await signUp();
    const other = await signUp();
    const token = await signToken({ email: owner.email, userId: other.user.id }, TEST_SECRET, 60);
    const response = await createClient(t.app).get("/verify-email", { query: { token } });
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe("INVALID_TOKEN");
    expect(await isVerified(t, owner.user.id)).toBe(false);
  });

  it("answers 401 TOKEN_EXPIRED for an expired token, or redirects with error=token_expired", async () => {
    const { email, user } = await signUp();
    for (const lifetime of [0, -60]) {
      const token = await signToken({ email, userId: user.id }, TEST_SECRET, lifetime);
      const plain = await createClient(t.app).get("/verify-email", { query: { token } });
      expect(plain.statusCode).toBe(401);
      expect(plain.json()).toEqual({ code: "TOKEN_EXPIRED", message: "Token expired" });
      const redirected = await createClient(t.app).get("/verify-email", {
        query: { token, callbackURL: "/done" },
      });
      expect(redirected.statusCode).toBe(302);
      expect(redirected.headers.location).toBe("/done?error=token_expired");
    }
    expect(await isVerified(t, user.id)).toBe(false);
  });

  it("answers 401 USER_NOT_FOUND for a token of an address without an account", async () => {
    const token = await signToken({ email: uniqueEmail() }, TEST_SECRET, 3600);
    const plain = await createClient(t.app).get("/verify-email", { query: { token } });
    expect(plain.statusCode).toBe(401);
    expect(plain.json()).toEqual({ code: "USER_NOT_FOUND", message: "User not found" });
    const redirected = await createClient(t.app).get("/verify-email", {
      query: { token, callbackURL: "/done" },
    });
    expect(redirected.statusCode).toBe(302);
    expect(redirected.headers.location).toBe("/done?error=user_not_found");
  });

  it("refuses an untrusted callbackURL with 403 before using the token", async () => {
    const { email, user } = await signUp();
    const token = await signToken({ email, userId: user.id }, TEST_SECRET, 3600);
    for (const callbackURL of [
      "https://evil.example/x",
      "//evil.example",
      "/\\evil.example",
      "/..//evil.example",
      "javascript:alert(1)",
    ]) {
      const response = await createClient(t.app).get("/verify-email", {
        query: { token, callbackURL },
      });
      expect(response.statusCode, callbackURL).toBe(403);
      expect(response.json(), callbackURL).toEqual({
        code: "INVALID_CALLBACK_URL",
        message: "Invalid callbackURL",
      });
    }
    // Not even a tampered token is redirected to an untrusted place.
    const tampered = await createClient(t.app).get("/verify-email", {
      query: { token: "garbage", callbackURL: "https://evil.example/x" },
    });
    expect(tampered.statusCode).toBe(403);
    expect(await isVerified(t, user.id)).toBe(false);
  });

  it("answers 400 VALIDATION_ERROR for a missing, repeated or oversized token", async () => {
    const { email, user } = await signUp();
    const token = await signToken({ email, userId: user.id }, TEST_SECRET, 3600);
    const missing = await createClient(t.app).get("/verify-email");
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({
      code: "VALIDATION_ERROR",
      message: "Invalid query parameters",
    });
    const repeated = await createClient(t.app).get(`/verify-email?token=${token}&token=${token}`);
    expect(repeated.statusCode).toBe(400);
    expect(repeated.json().code).toBe("VALIDATION_ERROR");
    const oversized = await createClient(t.app).get("/verify-email", {
      query: { token: "x".repeat(4097) },
    });
    expect(oversized.statusCode).toBe(400);
    expect(oversized.json().code).toBe("VALIDATION_ERROR");
    expect(await isVerified(t, user.id)).toBe(false);
  });
});

describe("verification settings", () => {
  async function withApp(config: AuthdConfigInput, run: (app: TestApp) => Promise<void>) {
    const app = await createTestApp({ config: { pages: { enabled: false }, ...config } });
    try {
      await run(app);
    } finally {
      await app.close();
    }
  }

  it("sends no mail on sign-up by default", async () => {
    const { email } = await signUp();
    await expectNoMailTo(t, email, "/send-verification-email");
  });

  it("autoSignInAfterVerification signs in whoever follows the link", async () => {
    await withApp({ emailVerification: { autoSignInAfterVerification: true } }, async (app) => {
      const email = uniqueEmail();
      const signUpResponse = await createClient(app.app).post("/sign-up/email", {
        name: "Auto",
        email,
        password: PASSWORD,
      });
      const userId = signUpResponse.json().user.id;
      await createClient(app.app).post("/send-verification-email", { email });
      const link = app.smtp.linkIn(await verificationMail(app, email), "/verify-email");
      const visitor = createClient(app.app);
      const response = await visitor.get(pathOf(link));
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ status: true, user: { id: userId } });
      expect(visitor.setCookies(response).get("authd.session_token")).toMatch(
        /^authd\.session_token=[^;]+; Max-Age=604800; Path=\/; HttpOnly; SameSite=Lax$/,
      );
      expect(response.headers["cache-control"]).toBe("no-store");
      const session = (await visitor.get("/get-session")).json();
      expect(session.user).toMatchObject({ id: userId, email, emailVerified: true });
      const sessions = await app.db.sql`select id from session where user_id = ${userId}`;
      expect(sessions).toHaveLength(2); // sign-up's and the verification's
      // A replayed link verifies nothing new and is no login link: no further session.
      const replayer = createClient(app.app);
      const replay = await replayer.get(pathOf(link));
      expect(replay.statusCode).toBe(200);
      expect(replay.json()).toMatchObject({ status: true, user: { id: userId } });
      expect(replay.headers["set-cookie"]).toBeUndefined();
      expect((await replayer.get("/get-session")).body).toBe("null");
      expect(await app.db.sql`select id from session where user_id = ${userId}`).toHaveLength(2);
      // Two visits at once: only the one that verifies signs in.
      const racer = await signUp(app);
      await createClient(app.app).post("/send-verification-email", { email: racer.email });
      const raceLink = app.smtp.linkIn(await verificationMail(app, racer.email), "/verify-email");
      const visits = await Promise.all(
        [1, 2, 3].map(() => createClient(app.app).get(pathOf(raceLink))),
      );
      expect(visits.map((visit) => visit.statusCode)).toEqual([200, 200, 200]);
      expect(visits.filter((visit) => visit.headers["set-cookie"] !== undefined)).toHaveLength(1);
      expect(
        await app.db.sql`select id from session where user_id = ${racer.user.id}`,
      ).toHaveLength(2);
      // A failed verification signs no one in.
      const failed = createClient(app.app);
      const bad = await failed.get("/verify-email", { query: { token: "garbage" } });
      expect(bad.statusCode).toBe(401);
      expect(bad.headers["set-cookie"]).toBeUndefined();
    });
  });

  it("requireEmailVerification sends the mail on sign-up; the link unlocks sign-in", async () => {
    await withApp({ emailAndPassword: { requireEmailVerification: true } }, async (app) => {
      const email = uniqueEmail();
      const client = createClient(app.app);
      const signUpResponse = await client.post("/sign-up/email", {
        name: "Strict",
        email,
        password: PASSWORD,
        callbackURL: "/verified",
      });
      expect(signUpResponse.statusCode).toBe(200);
      expect(signUpResponse.json().token).toBeNull();
      const userId = signUpResponse.json().user.id;
      const link = app.smtp.linkIn(await verificationMail(app, email), "/verify-email");
      expect(new URL(link).searchParams.get("callbackURL")).toBe("/verified");
      const refused = await client.post("/sign-in/email", { email, password: PASSWORD });
      expect(refused.statusCode).toBe(403);
      const followed = await createClient(app.app).get(pathOf(link));
      expect(followed.statusCode).toBe(302);
      expect(followed.headers.location).toBe("/verified");
      expect(await isVerified(app, userId)).toBe(true);
      const signIn = await client.post("/sign-in/email", { email, password: PASSWORD });
      expect(signIn.statusCode).toBe(200);
      expect(signIn.json().user).toMatchObject({ id: userId, emailVerified: true });
    });
  });

  it("emailVerification.sendOnSignUp: false overrides requireEmailVerification", async () => {
    await withApp(
      {
        emailAndPassword: { requireEmailVerification: true },
        emailVerification: { sendOnSignUp: false },
      },
      async (app) => {
        const email = uniqueEmail();
        const response = await createClient(app.app).post("/sign-up/email", {
          name: "Quiet",
          email,
          password: PASSWORD,
        });
        expect(response.statusCode).toBe(200);
        await expectNoMailTo(app, email, "/send-verification-email");
      },
    );
  });
});
