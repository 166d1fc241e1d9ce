/**
 * Signed tokens for other services: GET /token signs with the current key, GET /jwks
 * publishes the public keys, and a service verifies with jose against the app listening
 * on a real loopback port, as it would in production. Each algorithm is checked;
 * rotation, grace, tampering and expiry with Ed25519.
 */
import {
  createRemoteJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  type JWTPayload,
  type JWTVerifyGetKey,
  jwtVerify,
} from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ensureSigningKey,
  pruneKeys,
  rotateKeys,
  signingKeySealer,
} from "../../server/keys/keys.js";
import { createSecondInstance, createTestApp, TEST_SECRET, type TestApp } from "../helpers/app.js";
import { type Client, createClient } from "../helpers/client.js";
import { watchStatements } from "../helpers/statements.js";

const PASSWORD = "correct horse battery";
const ORIGIN = "http://localhost:3000";
const PRIVATE_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "k", "oth"];

let counter = 0;
function uniqueEmail(): string {
  counter += 1;
  return `jwt${counter}-${Date.now()}@example.com`;
}

async function signUp(t: TestApp, name = "Ada") {
  const client = createClient(t.app);
  const email = uniqueEmail();
  const response = await client.post("/sign-up/email", { name, email, password: PASSWORD });
  expect(response.statusCode, response.body).toBe(200);
  const user = response.json().user as { id: string; email: string };
  return { client, user };
}

async function tokenOf(client: Client): Promise<string> {
  const response = await client.get("/token");
  expect(response.statusCode, response.body).toBe(200);
  const { token } = response.json() as { token: string };
  expect(typeof token).toBe("string");
  return token;
}

async function listen(t: TestApp): Promise<string> {
  return t.app.listen({ port: 0, host: "127.0.0.1" });
}

/** The key set a service builds; no cooldown, so a new kid is fetched at once. */
function remoteKeys(address: string): JWTVerifyGetKey {
  return createRemoteJWKSet(new URL(`${address}/api/auth/jwks`), { cooldownDuration: 0 });
}

async function jwksOf(address: string) {
  const response = await fetch(`${address}/api/auth/jwks`);
  expect(response.status).toBe(200);
  return {
    cacheControl: response.headers.get("cache-control"),
    keys: ((await response.json()) as { keys: Record<string, string>[] }).keys,
  };
}

describe.each([
  ["EdDSA", "OKP"],
  ["ES256", "EC"],
  ["RS256", "RSA"],
] as const)("tokens signed with %s", (algorithm, kty) => {
  let t: TestApp;
  let address: string;
  let keys: JWTVerifyGetKey;

  beforeAll(async () => {
    t = await createTestApp({ config: { jwt: { enabled: true, algorithm } }, keyRefreshMs: 0 });
    address = await listen(t);
    keys = remoteKeys(address);
  });

  afterAll(async () => {
    await t?.close();
  });

  it("carries every claim, with the active organization's, and verifies against /jwks", async () => {
    const { client, user } = await signUp(t, "Grace");
    const plain = await jwtVerify(await tokenOf(client), keys, {
      issuer: ORIGIN,
      audience: ORIGIN,
      algorithms: [algorithm],
    });
    expect(plain.protectedHeader).toMatchObject({ alg: algorithm, typ: "JWT" });
    const session = (await client.get("/get-session")).json().session as { id: string };
    expect(plain.payload).toEqual({
      sub: user.id,
      email: user.email,
      email_verified: false,
      name: "Grace",
      sid: session.id,
      iat: expect.any(Number),
      exp: expect.any(Number),
      iss: ORIGIN,
      aud: ORIGIN,
    });
    expect((plain.payload.exp ?? 0) - (plain.payload.iat ?? 0)).toBe(900);

    const slug = `acme-${algorithm.toLowerCase()}-${Date.now()}`;
    const created = await client.post("/organization/create", { name: "Acme", slug });
    expect(created.statusCode, created.body).toBe(200);
    const withOrganization = await jwtVerify(await tokenOf(client), keys, {
      issuer: ORIGIN,
      audience: ORIGIN,
    });
    expect(withOrganization.payload).toMatchObject({
      sub: user.id,
      sid: session.id,
      org_id: created.json().id,
      org_slug: slug,
      org_role: "owner",
    });
  });

  it("publishes only public members, one key per kid, cacheable for five minutes", async () => {
    const { client } = await signUp(t);
    const header = decodeProtectedHeader(await tokenOf(client));
    const { keys: published, cacheControl } = await jwksOf(address);
    expect(cacheControl).toBe("public, max-age=300");
    expect(published.length).toBeGreaterThan(0);
    expect(new Set(published.map((key) => key.kid)).size).toBe(published.length);
    for (const key of published) {
      for (const member of PRIVATE_MEMBERS) expect(key).not.toHaveProperty(member);
      expect(key).toMatchObject({ kty, alg: algorithm, use: "sig" });
    }
    expect(published.map((key) => key.kid)).toContain(header.kid);
  });

  it("stores the private key sealed, never as a key", async () => {
    const rows = await t.db.sql<{ privateKey: string; publicKey: string }[]>`
      select private_key, public_key from jwks`;
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.privateKey).toMatch(/^v1:[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
      expect(() => JSON.parse(row.privateKey)).toThrow();
      expect(row.privateKey).not.toContain("PRIVATE KEY");
      const publicKey = JSON.parse(row.publicKey) as Record<string, unknown>;
      for (const member of PRIVATE_MEMBERS) expect(publicKey).not.toHaveProperty(member);
    }
  });
});

describe("tokens: rotation, tampering, expiry and sessions (EdDSA)", () => {
  let t: TestApp;
  let address: string;
  let keys: JWTVerifyGetKey;
  const verify = (token: string, options: { currentDate?: Date } = {}) =>
    jwtVerify(token, keys, { issuer: ORIGIN, audience: ORIGIN, ...options });

  beforeAll(async () => {
    t = await createTestApp({
      config: { jwt: { enabled: true }, session: { cookieCache: { enabled: true } } },
      keyRefreshMs: 0,
    });
    address = await listen(t);
    keys = remoteKeys(address);
  });

  afterAll(async () => {
    await t?.close();
  });

  it("signs with the new key after a rotation; tokens of the old one still verify", async () => {
    const { client } = await signUp(t);
    const before = await tokenOf(client);
    const oldKid = decodeProtectedHeader(before).kid;
    await verify(before);

    const rotation = await rotateKeys(t.db.sql, t.config, signingKeySealer([TEST_SECRET]), 3600);
    expect(rotation.retired.map((key) => key.kid)).toContain(oldKid);
    const after = await tokenOf(client);
    const newKid = decodeProtectedHeader(after).kid;
    expect(newKid).toBe(rotation.kid);
    expect(newKid).not.toBe(oldKid);
    await verify(after);
    await verify(before);
    const kids = (await jwksOf(address)).keys.map((key) => key.kid);
    expect(kids).toEqual(expect.arrayContaining([oldKid, newKid]));

    // The grace ends: the old key leaves /jwks, and prune deletes it, never the current one.
    await t.db
      .sql`update jwks set expires_at = now() - interval '1 second' where id = ${oldKid as string}`;
    const remaining = (await jwksOf(address)).keys.map((key) => key.kid);
    expect(remaining).not.toContain(oldKid);
    expect(remaining).toContain(newKid);
    const pruned = await pruneKeys(t.db.sql);
    expect(pruned.map((key) => key.kid)).toContain(oldKid);
    expect(pruned.map((key) => key.kid)).not.toContain(newKid);
    const left = await t.db.sql<{ id: string }[]>`select id from jwks`;
    expect(left.map((row) => row.id)).toContain(newKid);
    expect(left.map((row) => row.id)).not.toContain(oldKid);
    await verify(await tokenOf(client));
  });

  it("refuses a tampered token: payload, signature, or alg none", async () => {
    const { client } = await signUp(t);
    const token = await tokenOf(client);
    await verify(token);
    const [header, payload, signature] = token.split(".") as [string, string, string];

    const claims = decodeJwt(token);
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: "someone-else" })).toString(
      "base64url",
    );
    await expect(verify(`${header}.${forged}.${signature}`)).rejects.toThrow();

    const flipped = `${signature.slice(0, -2)}${signature.endsWith("AA") ? "BB" : "AA"}`;
    await expect(verify(`${header}.${payload}.${flipped}`)).rejects.toThrow();

    const none = Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url");
    await expect(verify(`${none}.${payload}.`)).rejects.toThrow();
  });

  it("refuses an expired token", async () => {
    const { client } = await signUp(t);
    const token = await tokenOf(client);
    const { payload } = await verify(token);
    const later = new Date(((payload as JWTPayload).exp ?? 0) * 1000 + 1000);
    await expect(verify(token, { currentDate: later })).rejects.toMatchObject({
      code: "ERR_JWT_EXPIRED",
    });
  });

  it("answers 401 without a session, for a revoked one and for an expired one", async () => {
    const anonymous = await createClient(t.app).get("/token");
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ code: "UNAUTHORIZED" });

    const revoked = await signUp(t);
    const revokedSession = (await revoked.client.get("/get-session")).json().session.id as string;
    await t.db.sql`delete from session where id = ${revokedSession}`;
    expect((await revoked.client.get("/token")).statusCode).toBe(401);

    const expired = await signUp(t);
    const expiredSession = (await expired.client.get("/get-session")).json().session.id as string;
    await t.db.sql`
      update session set expires_at = now() - interval '1 minute' where id = ${expiredSession}`;
    expect((await expired.client.get("/token")).statusCode).toBe(401);
  });

  it("sends set-auth-jwt with get-session, from the database and from the cookie cache", async () => {
    const { client, user } = await signUp(t);
    const slug = `cache-${Date.now()}`;
    const created = await client.post("/organization/create", { name: "Cache", slug });
    expect(created.statusCode, created.body).toBe(200);

    const fromDatabase = await client.get("/get-session", {
      query: { disableCookieCache: "true" },
    });
    const first = String(fromDatabase.headers["set-auth-jwt"]);
    const verified = await verify(first);
    expect(verified.payload).toMatchObject({ sub: user.id, org_slug: slug, org_role: "owner" });

    // The answer comes from the cookie cache: no lookup, the same claims.
    expect(client.cookies.has("authd.session_data")).toBe(true);
    const fromCache = await client.get("/get-session");
    expect(fromCache.statusCode).toBe(200);
    const cached = await verify(String(fromCache.headers["set-auth-jwt"]));
    expect(cached.payload).toMatchObject({
      sub: user.id,
      sid: verified.payload.sid,
      org_id: created.json().id,
      org_slug: slug,
      org_role: "owner",
    });
  });
});

describe("tokens: keys shared by instances", () => {
  it("two instances starting together make one signing key", async () => {
    const t = await createTestApp({ config: { jwt: { enabled: true } } });
    const second = await createSecondInstance(t);
    try {
      const { client } = await signUp(t);
      const cookie = [...client.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, index) =>
          (index % 2 === 0 ? t.app : second).inject({
            method: "GET",
            url: "/api/auth/token",
            headers: { cookie },
          }),
        ),
      );
      for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
      const kids = new Set(
        answers.map((answer) => decodeProtectedHeader(answer.json().token as string).kid),
      );
      expect(kids.size).toBe(1);
      const rows = await t.db.sql<{ id: string }[]>`select id from jwks`;
      expect(rows).toHaveLength(1);
    } finally {
      await second.close();
      await t.close();
    }
  });

  it("makes one signing key however many ask for it at once (the key lock)", async () => {
    const t = await createTestApp({ config: { jwt: { enabled: true } } });
    try {
      const sealer = signingKeySealer([TEST_SECRET]);
      const made = await Promise.all(
        Array.from({ length: 8 }, () => ensureSigningKey(t.db.sql, t.config, sealer)),
      );
      expect(new Set(made.map((row) => row.id)).size).toBe(1);
      const rows = await t.db.sql<{ id: string }[]>`select id from jwks`;
      expect(rows).toHaveLength(1);
    } finally {
      await t.close();
    }
  });

  it("an instance signs with a rotated key once its keys are older than the refresh age", async () => {
    const t = await createTestApp({ config: { jwt: { enabled: true } }, keyRefreshMs: 400 });
    try {
      const { client } = await signUp(t);
      const before = decodeProtectedHeader(await tokenOf(client)).kid;
      const rotation = await rotateKeys(t.db.sql, t.config, signingKeySealer([TEST_SECRET]), 900);
      // Within the refresh age the keys read before are still used...
      expect(decodeProtectedHeader(await tokenOf(client)).kid).toBe(before);
      await new Promise((resolve) => setTimeout(resolve, 500));
      // ...then they are read again, and the new key signs.
      expect(decodeProtectedHeader(await tokenOf(client)).kid).toBe(rotation.kid);
    } finally {
      await t.close();
    }
  });
});

describe("tokens: a signing key that cannot be opened", () => {
  it("fails /token, while get-session still answers, without set-auth-jwt", async () => {
    const t = await createTestApp({ config: { jwt: { enabled: true } }, keyRefreshMs: 0 });
    try {
      const { client } = await signUp(t);
      await ensureSigningKey(t.db.sql, t.config, signingKeySealer([TEST_SECRET]));
      // As if sealed under a secret this server does not have (before the app read it).
      await t.db.sql`update jwks set private_key = 'v1:AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA'`;
      expect((await client.get("/token")).statusCode).toBe(500);
      const session = await client.get("/get-session");
      expect(session.statusCode).toBe(200);
      expect(session.json().session).toBeTruthy();
      expect(session.headers).not.toHaveProperty("set-auth-jwt");
    } finally {
      await t.close();
    }
  });
});

describe("tokens: issuer and audience", () => {
  it("takes iss and aud from the configuration", async () => {
    const t = await createTestApp({
      config: {
        jwt: { enabled: true, issuer: "https://auth.example.test", audience: ["svc-a", "svc-b"] },
      },
    });
    try {
      const address = await listen(t);
      const { client } = await signUp(t);
      const { payload } = await jwtVerify(await tokenOf(client), remoteKeys(address), {
        issuer: "https://auth.example.test",
        audience: "svc-b",
      });
      expect(payload.aud).toEqual(["svc-a", "svc-b"]);
    } finally {
      await t.close();
    }
  });

  it("uses the request's origin without a baseURL", async () => {
    const t = await createTestApp({ config: { baseURL: undefined, jwt: { enabled: true } } });
    try {
      const address = await listen(t);
      const signUpResponse = await fetch(`${address}/api/auth/sign-up/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: address },
        body: JSON.stringify({ name: "Ada", email: uniqueEmail(), password: PASSWORD }),
      });
      expect(signUpResponse.status).toBe(200);
      const cookie = signUpResponse.headers.getSetCookie().map((line) => line.split(";")[0]);
      const response = await fetch(`${address}/api/auth/token`, {
        headers: { cookie: cookie.join("; ") },
      });
      expect(response.status).toBe(200);
      const { token } = (await response.json()) as { token: string };
      const { payload } = await jwtVerify(token, remoteKeys(address), {
        issuer: address,
        audience: address,
      });
      expect(payload.iss).toBe(address);
    } finally {
      await t.close();
    }
  });
});

describe("tokens: disabled", () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });

  afterAll(async () => {
    await t?.close();
  });

  it("has no /token and no /jwks, and get-session sends no set-auth-jwt", async () => {
    const { client } = await signUp(t);
    for (const path of ["/token", "/jwks"]) {
      const response = await client.get(path);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: "NOT_FOUND" });
    }
    const session = await client.get("/get-session");
    expect(session.statusCode).toBe(200);
    expect(session.json().session).toBeTruthy();
    expect(session.headers).not.toHaveProperty("set-auth-jwt");
    const rows = await t.db.sql<{ count: number }[]>`select count(*)::int as count from jwks`;
    expect(rows[0]?.count).toBe(0);
  });
});

describe("tokens: a native app signed in by bearer", () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ config: { jwt: { enabled: true }, bearer: { enabled: true } } });
  });

  afterAll(async () => {
    await t?.close();
  });

  it("gets a token with its bearer session alone, and the token names that session", async () => {
    const { client, user } = await signUp(t);
    const sessionToken = client.cookies.get("authd.session_token") as string;
    const bearer = decodeURIComponent(sessionToken);
    const asked = await t.app.inject({
      method: "GET",
      url: "/api/auth/token",
      headers: { authorization: `Bearer ${bearer}` },
    });
    expect(asked.statusCode, asked.body).toBe(200);
    const address = await listen(t);
    const { payload } = await jwtVerify(asked.json().token, remoteKeys(address), {
      issuer: ORIGIN,
      audience: ORIGIN,
    });
    expect(payload.sub).toBe(user.id);
    const session = await t.app.inject({
      method: "GET",
      url: "/api/auth/get-session",
      headers: { authorization: `Bearer ${bearer}` },
    });
    expect(payload.sid).toBe(session.json().session.id);
    expect(session.headers["set-auth-jwt"]).toEqual(expect.any(String));

    // Signed out: the bearer session no longer gets tokens.
    const out = await t.app.inject({
      method: "POST",
      url: "/api/auth/sign-out",
      headers: { authorization: `Bearer ${bearer}` },
    });
    expect(out.statusCode, out.body).toBe(200);
    const refused = await t.app.inject({
      method: "GET",
      url: "/api/auth/token",
      headers: { authorization: `Bearer ${bearer}` },
    });
    expect(refused.statusCode).toBe(401);
  });
});

describe("tokens: asked again within moments", () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      config: { jwt: { enabled: true }, session: { cookieCache: { enabled: true } } },
    });
  });

  afterAll(async () => {
    await t?.close();
  });

  it("hands out the same token while nothing it says has changed, and a new one after", async () => {
    const { client } = await signUp(t, "Grace");
    const first = await tokenOf(client);
    // Answered from the cookie cache and the token just made: not one statement.
    const watch = watchStatements(t.db.sql);
    try {
      expect(await tokenOf(client)).toBe(first);
    } finally {
      watch.stop();
    }
    expect(watch.statements).toEqual([]);
    // get-session sends the very same token, from the cookie cache and from the database.
    expect((await client.get("/get-session")).headers["set-auth-jwt"]).toBe(first);
    const fromDatabase = await client.get("/get-session", {
      query: { disableCookieCache: "true" },
    });
    expect(fromDatabase.headers["set-auth-jwt"]).toBe(first);

    const renamed = await client.post("/update-user", { name: "Grace Hopper" });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const second = await tokenOf(client);
    expect(second).not.toBe(first);
    expect(decodeJwt(second).name).toBe("Grace Hopper");

    const created = await client.post("/organization/create", {
      name: "Navy",
      slug: `navy-${counter}`,
    });
    expect(created.statusCode, created.body).toBe(200);
    const third = await tokenOf(client);
    expect(decodeJwt(third)).toMatchObject({ org_id: created.json().id, org_role: "owner" });
  });
});
