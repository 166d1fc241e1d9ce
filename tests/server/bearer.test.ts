/**
 * Bearer sessions and CORS, as a native app and a browser app on another origin meet
 * them: the session token (raw, signed, or signed and URL-encoded) in
 * `Authorization: Bearer` stands for the session cookie when `bearer.enabled`, answers
 * that issue a session carry `set-auth-token`, a bearer request needs no Origin, and
 * every refusal is a 401, never a 500. Trusted origins get CORS answers; others none.
 */
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256, signValue } from "../../server/crypto/digest.js";
import { createTestApp, TEST_SECRET, type TestApp } from "../helpers/app.js";
import { assertCompactJson, createClient } from "../helpers/client.js";

const PASSWORD = "correct horse battery";
const TRUSTED = "http://app.test";
const UNTRUSTED = "http://evil.test";

let on: TestApp;
let off: TestApp;

beforeAll(async () => {
  const config = { baseURL: "http://localhost:3000", trustedOrigins: [TRUSTED] };
  [on, off] = await Promise.all([
    createTestApp({
      // The cookie cache is on, to show a bearer client never gets or uses it.
      config: { ...config, bearer: { enabled: true }, session: { cookieCache: { enabled: true } } },
    }),
    createTestApp({ config }),
  ]);
});

afterAll(async () => {
  await Promise.all([on?.close(), off?.close()]);
});

let counter = 0;
function uniqueEmail(): string {
  counter += 1;
  return `bearer${counter}-${Date.now()}@example.com`;
}

/** A request as a native app sends it: no cookies, no Origin, maybe an Authorization header. */
async function call(
  app: FastifyInstance,
  method: "GET" | "POST",
  path: string,
  authorization?: string,
  body?: Record<string, unknown>,
): Promise<LightMyRequestResponse> {
  const response = await app.inject({
    method,
    url: `/api/auth${path}`,
    headers: authorization === undefined ? {} : { authorization },
    ...(method === "POST" ? { payload: body ?? {} } : {}),
  });
  assertCompactJson(response);
  return response;
}

/** The session cookie's value as the browser holds it (decoded), from a response. */
function sessionCookieValue(response: LightMyRequestResponse): string | undefined {
  const header = response.headers["set-cookie"];
  const lines = Array.isArray(header) ? header : header ? [header] : [];
  const line = lines.find((entry) => entry.startsWith("authd.session_token="));
  if (!line) return undefined;
  return decodeURIComponent(line.slice("authd.session_token=".length).split(";")[0] ?? "");
}

/** Signs up a user on `t`, then signs in as a native client would; its token and signed value. */
async function nativeSignIn(t: TestApp) {
  const email = uniqueEmail();
  const signUp = await call(t.app, "POST", "/sign-up/email", undefined, {
    name: "Native",
    email,
    password: PASSWORD,
  });
  expect(signUp.statusCode, signUp.body).toBe(200);
  const response = await call(t.app, "POST", "/sign-in/email", undefined, {
    email,
    password: PASSWORD,
  });
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json() as { token: string; user: { id: string } };
  return {
    email,
    response,
    signUp,
    token: body.token,
    userId: body.user.id,
    signed: signValue(body.token, TEST_SECRET),
  };
}

const bearer = (value: string) => `Bearer ${value}`;

describe("set-auth-token", () => {
  it("carries the session cookie's signed value on sign-up and sign-in when enabled", async () => {
    const { response, signUp, token, signed } = await nativeSignIn(on);
    expect(response.headers["set-auth-token"]).toBe(signed);
    expect(sessionCookieValue(response)).toBe(signed);
    expect(signed.startsWith(`${token}.`)).toBe(true);
    const signUpToken = (signUp.json() as { token: string }).token;
    expect(signUp.headers["set-auth-token"]).toBe(signValue(signUpToken, TEST_SECRET));
  });

  it("is not sent when bearer sessions are off", async () => {
    const { response, signUp } = await nativeSignIn(off);
    expect(sessionCookieValue(response)).toBeDefined();
    expect(response.headers["set-auth-token"]).toBeUndefined();
    expect(signUp.headers["set-auth-token"]).toBeUndefined();
  });

  it("carries the new session after change-password revokes the others", async () => {
    const { token } = await nativeSignIn(on);
    const changed = await call(on.app, "POST", "/change-password", bearer(token), {
      currentPassword: PASSWORD,
      newPassword: "another horse battery",
      revokeOtherSessions: true,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const fresh = (changed.json() as { token: string }).token;
    expect(fresh).not.toBe(token);
    expect(changed.headers["set-auth-token"]).toBe(signValue(fresh, TEST_SECRET));
    expect((await call(on.app, "GET", "/list-sessions", bearer(token))).statusCode).toBe(401);
    expect((await call(on.app, "GET", "/list-sessions", bearer(fresh))).statusCode).toBe(200);
  });

  it("comes with get-session's refresh of the session", async () => {
    const { token, signed } = await nativeSignIn(on);
    await on.db.sql`
      update session set expires_at = now() + interval '5 days' where token_hash = ${sha256(token)}`;
    const refreshed = await call(on.app, "GET", "/get-session", bearer(token));
    expect(refreshed.statusCode).toBe(200);
    expect(refreshed.headers["set-auth-token"]).toBe(signed);
    const again = await call(on.app, "GET", "/get-session", bearer(token));
    expect(again.headers["set-auth-token"]).toBeUndefined();
  });
});

describe("a session a bearer client may not extend", () => {
  const DAY = 86400 * 1000;
  type Session = { session: { expiresAt: string; impersonatedBy: string | null } };

  it("stays a rememberMe: false sign-in's one day, through get-session and change-password", async () => {
    const { email } = await nativeSignIn(on);
    const signIn = await call(on.app, "POST", "/sign-in/email", undefined, {
      email,
      password: PASSWORD,
      rememberMe: false,
    });
    const token = (signIn.json() as { token: string }).token;
    expect(signIn.headers["set-auth-token"]).toBe(signValue(token, TEST_SECRET));
    const session = await call(on.app, "GET", "/get-session", bearer(token));
    expect(session.headers["set-auth-token"]).toBeUndefined();
    const expiresAt = Date.parse((session.json() as Session).session.expiresAt);
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(DAY);
    const changed = await call(on.app, "POST", "/change-password", bearer(token), {
      currentPassword: PASSWORD,
      newPassword: "another horse battery",
      revokeOtherSessions: true,
    });
    const fresh = (changed.json() as { token: string }).token;
    const after = await call(on.app, "GET", "/get-session", bearer(fresh));
    expect(after.headers["set-auth-token"]).toBeUndefined();
    const renewed = Date.parse((after.json() as Session).session.expiresAt);
    expect(renewed - Date.now()).toBeLessThanOrEqual(DAY);
  });

  it("stays an impersonation's duration, its token given in set-auth-token", async () => {
    const admin = await nativeSignIn(on);
    await on.db.sql`update "user" set role = 'admin' where id = ${admin.userId}`;
    const target = await nativeSignIn(on);
    const impersonated = await call(
      on.app,
      "POST",
      "/admin/impersonate-user",
      bearer(admin.token),
      {
        userId: target.userId,
      },
    );
    expect(impersonated.statusCode, impersonated.body).toBe(200);
    const value = impersonated.headers["set-auth-token"];
    expect(typeof value).toBe("string");
    const session = await call(on.app, "GET", "/get-session", bearer(String(value)));
    const body = session.json() as Session & { user: { id: string } };
    expect(body.user.id).toBe(target.userId);
    expect(body.session.impersonatedBy).toBe(admin.userId);
    expect(session.headers["set-auth-token"]).toBeUndefined();
    expect(Date.parse(body.session.expiresAt) - Date.now()).toBeLessThanOrEqual(3600 * 1000);
    // However long an impersonation is configured to last, it is never extended.
    const raw = String(value).slice(0, String(value).lastIndexOf("."));
    await on.db.sql`
      update session set expires_at = now() + interval '5 days' where token_hash = ${sha256(raw)}`;
    const later = await call(on.app, "GET", "/get-session", bearer(raw));
    expect(later.headers["set-auth-token"]).toBeUndefined();
    const expiresAt = Date.parse((later.json() as Session).session.expiresAt);
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(5 * DAY);
  });
});

describe("Authorization: Bearer", () => {
  it("answers get-session with the raw token, the signed value and the URL-encoded one", async () => {
    const { token, signed, userId } = await nativeSignIn(on);
    for (const value of [token, signed, encodeURIComponent(signed)]) {
      const response = await call(on.app, "GET", "/get-session", bearer(value));
      expect(response.statusCode, value).toBe(200);
      const body = response.json() as { session: { userId: string }; user: { id: string } };
      expect(body.user.id, value).toBe(userId);
      expect(body.session.userId, value).toBe(userId);
      // The cookie cache is for cookies: a bearer client is neither given nor served one.
      expect(String(response.headers["set-cookie"] ?? ""), value).not.toContain("session_data");
    }
    // The scheme name is case-insensitive.
    const lower = await call(on.app, "GET", "/get-session", `bearer ${token}`);
    expect((lower.json() as { user: { id: string } }).user.id).toBe(userId);
  });

  it("lists sessions and makes state-changing POSTs without an Origin header", async () => {
    const { token, userId } = await nativeSignIn(on);
    const listed = await call(on.app, "GET", "/list-sessions", bearer(token));
    expect(listed.statusCode).toBe(200);
    // The sign-up's session and the sign-in's.
    expect((listed.json() as unknown[]).length).toBe(2);
    const updated = await call(on.app, "POST", "/update-user", bearer(token), { name: "Renamed" });
    expect(updated.statusCode, updated.body).toBe(200);
    const [row] = await on.db.sql<{ name: string }[]>`select name from "user" where id = ${userId}`;
    expect(row?.name).toBe("Renamed");
    const revoked = await call(on.app, "POST", "/revoke-other-sessions", bearer(token));
    expect(revoked.statusCode, revoked.body).toBe(200);
    const left = await call(on.app, "GET", "/list-sessions", bearer(token));
    expect((left.json() as unknown[]).length).toBe(1);
  });

  it("keeps the origin check for a cookie-carrying POST, with or without a bearer header", async () => {
    const { token, signed } = await nativeSignIn(on);
    const cookie = `authd.session_token=${encodeURIComponent(signed)}`;
    for (const headers of [{ cookie }, { cookie, authorization: bearer(token) }]) {
      const refused = await on.app.inject({
        method: "POST",
        url: "/api/auth/update-user",
        headers,
        payload: { name: "Cookie" },
      });
      expect(refused.statusCode).toBe(403);
      expect((refused.json() as { code: string }).code).toBe("MISSING_OR_NULL_ORIGIN");
    }
  });

  it("reads the session cookie first: a bad cookie is not rescued by a good bearer", async () => {
    const { token } = await nativeSignIn(on);
    const response = await on.app.inject({
      method: "GET",
      url: "/api/auth/list-sessions",
      headers: { cookie: "authd.session_token=forged.value", authorization: bearer(token) },
    });
    expect(response.statusCode).toBe(401);
  });

  it("refuses a signed value whose signature is forged", async () => {
    const { token, signed } = await nativeSignIn(on);
    const signature = signed.slice(token.length + 1);
    const forged = [
      `${token}.${"A".repeat(signature.length)}`,
      `${token}.${signValue(token, "another-secret-0123456789-0123456789").slice(token.length + 1)}`,
      `${token}.`,
      `.${signature}`,
    ];
    for (const value of forged) {
      const listed = await call(on.app, "GET", "/list-sessions", bearer(value));
      expect(listed.statusCode, value).toBe(401);
      expect(listed.json(), value).toEqual({ code: "UNAUTHORIZED", message: "Unauthorized" });
      const session = await call(on.app, "GET", "/get-session", bearer(value));
      expect(session.statusCode, value).toBe(200);
      expect(session.json(), value).toBeNull();
    }
  });

  it("ends the session on sign-out, and after revoke-session", async () => {
    const first = await nativeSignIn(on);
    const signedOut = await call(on.app, "POST", "/sign-out", bearer(first.signed));
    expect(signedOut.statusCode, signedOut.body).toBe(200);
    for (const value of [first.token, first.signed]) {
      expect((await call(on.app, "GET", "/list-sessions", bearer(value))).statusCode).toBe(401);
      expect((await call(on.app, "GET", "/get-session", bearer(value))).json()).toBeNull();
    }

    const second = await nativeSignIn(on);
    const other = await call(on.app, "POST", "/sign-in/email", undefined, {
      email: second.email,
      password: PASSWORD,
    });
    const otherToken = (other.json() as { token: string }).token;
    const revoked = await call(on.app, "POST", "/revoke-session", bearer(second.token), {
      token: otherToken,
    });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect((await call(on.app, "GET", "/list-sessions", bearer(otherToken))).statusCode).toBe(401);
    const kept = await call(on.app, "GET", "/list-sessions", bearer(second.token));
    expect(kept.statusCode).toBe(200);
  });

  it("refuses an expired session's token", async () => {
    const { token, signed } = await nativeSignIn(on);
    await on.db.sql`
      update session set expires_at = now() - interval '1 second' where token_hash = ${sha256(token)}`;
    for (const value of [token, signed]) {
      expect((await call(on.app, "GET", "/list-sessions", bearer(value))).statusCode).toBe(401);
    }
  });

  it("refuses a banned user's session", async () => {
    const { token, userId } = await nativeSignIn(on);
    await on.db.sql`update "user" set banned = true where id = ${userId}`;
    expect((await call(on.app, "GET", "/list-sessions", bearer(token))).statusCode).toBe(401);
  });

  it("keeps the freshness rule", async () => {
    const { token } = await nativeSignIn(on);
    // A fresh session gets past the freshness check to the rule after it.
    const fresh = await call(on.app, "POST", "/unlink-account", bearer(token), {
      providerId: "credential",
    });
    expect((fresh.json() as { code: string }).code).toBe("FAILED_TO_UNLINK_LAST_ACCOUNT");
    await on.db.sql`
      update session set created_at = now() - interval '2 days' where token_hash = ${sha256(token)}`;
    const stale = await call(on.app, "POST", "/unlink-account", bearer(token), {
      providerId: "credential",
    });
    expect(stale.statusCode).toBe(403);
    expect(stale.json()).toEqual({ code: "SESSION_NOT_FRESH", message: "Session is not fresh" });
  });

  it("is ignored when bearer sessions are off", async () => {
    const { token, signed } = await nativeSignIn(off);
    for (const value of [token, signed]) {
      const listed = await call(off.app, "GET", "/list-sessions", bearer(value));
      expect(listed.statusCode).toBe(401);
      expect((await call(off.app, "GET", "/get-session", bearer(value))).json()).toBeNull();
      const updated = await call(off.app, "POST", "/update-user", bearer(value), { name: "X" });
      expect(updated.statusCode).toBe(401);
    }
  });

  it("answers garbage with 401, never a 500", async () => {
    const { token } = await nativeSignIn(on);
    const garbage = [
      "Bearer",
      "Bearer ",
      "Bearer  ",
      `Bearer ${"a".repeat(10 * 1024)}`,
      `Bearer ${token.slice(0, 10)}é${token.slice(11)}`,
      "Bearer tökén",
      `Bearer ${token} extra`,
      "Bearer %zz",
      `Bearer ${encodeURIComponent(`${token}\u0000`)}`,
      "Bearer a.b.c",
      "Bearer ...",
      `Basic ${token}`,
      token,
    ];
    for (const value of garbage) {
      const listed = await call(on.app, "GET", "/list-sessions", value);
      expect(listed.statusCode, value.slice(0, 40)).toBe(401);
      expect((listed.json() as { code: string }).code).toBe("UNAUTHORIZED");
      const session = await call(on.app, "GET", "/get-session", value);
      expect(session.statusCode, value.slice(0, 40)).toBe(200);
      expect(session.json()).toBeNull();
      const posted = await call(on.app, "POST", "/revoke-other-sessions", value);
      expect(posted.statusCode, value.slice(0, 40)).toBe(401);
    }
  });
});

describe("CORS", () => {
  it("answers a trusted origin's preflight", async () => {
    const response = await on.app.inject({
      method: "OPTIONS",
      url: "/api/auth/update-user",
      headers: {
        origin: TRUSTED,
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type, authorization",
      },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers["access-control-allow-origin"]).toBe(TRUSTED);
    expect(response.headers["access-control-allow-credentials"]).toBe("true");
    expect(response.headers["access-control-allow-methods"]).toBe("GET, HEAD, POST");
    expect(response.headers["access-control-allow-headers"]).toBe("content-type, authorization");
    expect(response.headers["access-control-expose-headers"]).toBe("set-auth-token, set-auth-jwt");
    expect(String(response.headers.vary)).toMatch(/\bOrigin\b/);
  });

  it("lets a trusted origin read answers and the session headers", async () => {
    const client = createClient(on.app, { origin: TRUSTED });
    const signUp = await client.post("/sign-up/email", {
      name: "Browser",
      email: uniqueEmail(),
      password: PASSWORD,
    });
    expect(signUp.statusCode, signUp.body).toBe(200);
    expect(signUp.headers["access-control-allow-origin"]).toBe(TRUSTED);
    expect(signUp.headers["access-control-allow-credentials"]).toBe("true");
    expect(signUp.headers["access-control-expose-headers"]).toBe("set-auth-token, set-auth-jwt");
    expect(signUp.headers["set-auth-token"]).toBeDefined();
    const session = await client.get("/get-session", { headers: { origin: TRUSTED } });
    expect(session.headers["access-control-allow-origin"]).toBe(TRUSTED);
    expect(String(session.headers.vary)).toMatch(/\bOrigin\b/);
    // CORS does not depend on bearer sessions.
    const plain = await call(off.app, "GET", "/ok");
    expect(plain.headers["access-control-allow-origin"]).toBeUndefined();
    const fromApp = await off.app.inject({
      method: "GET",
      url: "/api/auth/ok",
      headers: { origin: TRUSTED },
    });
    expect(fromApp.headers["access-control-allow-origin"]).toBe(TRUSTED);
  });

  it("gives an untrusted origin no CORS headers", async () => {
    const preflight = await on.app.inject({
      method: "OPTIONS",
      url: "/api/auth/update-user",
      headers: {
        origin: UNTRUSTED,
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type, authorization",
      },
    });
    expect(preflight.statusCode).toBe(404);
    const simple = await on.app.inject({
      method: "GET",
      url: "/api/auth/get-session",
      headers: { origin: UNTRUSTED },
    });
    expect(simple.statusCode).toBe(200);
    for (const response of [preflight, simple]) {
      for (const name of [
        "access-control-allow-origin",
        "access-control-allow-credentials",
        "access-control-allow-methods",
        "access-control-expose-headers",
      ]) {
        expect(response.headers[name], name).toBeUndefined();
      }
    }
    // The answer still varies by Origin, so no cache hands a trusted origin's answer over.
    expect(String(simple.headers.vary)).toMatch(/\bOrigin\b/);
  });

  it("leaves the probes and the pages alone", async () => {
    for (const url of ["/healthz", "/readyz", "/sign-in"]) {
      const response = await on.app.inject({ method: "GET", url, headers: { origin: TRUSTED } });
      expect(response.headers["access-control-allow-origin"], url).toBeUndefined();
      expect(String(response.headers.vary ?? ""), url).not.toMatch(/\bOrigin\b/);
    }
  });
});

describe("the OpenAPI document", () => {
  it("describes the bearer scheme beside the cookie when enabled", async () => {
    type Schemes = Record<string, { type: string; scheme?: string; in?: string; name?: string }>;
    const schemesOf = async (t: TestApp) => {
      const response = await t.app.inject({ method: "GET", url: "/api/auth/openapi.json" });
      return (response.json() as { components: { securitySchemes: Schemes } }).components
        .securitySchemes;
    };
    const enabled = await schemesOf(on);
    expect(enabled.bearerSession).toMatchObject({ type: "http", scheme: "bearer" });
    expect(enabled.sessionCookie).toMatchObject({
      type: "apiKey",
      in: "cookie",
      name: "authd.session_token",
    });
    const disabled = await schemesOf(off);
    expect(disabled.bearerSession).toBeUndefined();
    expect(disabled.sessionCookie).toBeDefined();
  });
});
