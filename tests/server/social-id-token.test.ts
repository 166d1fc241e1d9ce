/**
 * Id-token sign-in over HTTP: sign-in/social and link-social with `idToken`, against a
 * small OpenID issuer on loopback (discovery, a key set, a userinfo endpoint) whose
 * tokens jose signs. Every failed check answers 401 INVALID_TOKEN and creates nothing;
 * the linking and sign-up rules answer as errors; a provider without id tokens is 404;
 * Google's definition accepts its own issuer names and reads the profile from the claims.
 */
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  type CryptoKey,
  exportJWK,
  generateKeyPair,
  type JWK,
  type JWTPayload,
  SignJWT,
} from "jose";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { configSchema } from "../../server/config.js";
import { sha256 } from "../../server/crypto/digest.js";
import { createLogger } from "../../server/logger.js";
import type { IdTokenFailure } from "../../server/social/id-token.js";
import type { ProviderDefinition } from "../../server/social/provider.js";
import { google as shippedGoogle } from "../../server/social/providers/google.js";
import { BUILT_IN_PROVIDERS } from "../../server/social/providers/index.js";
import { createTestApp, type TestApp } from "../helpers/app.js";
import { type Client, createClient } from "../helpers/client.js";
import { setsSession } from "../helpers/social.js";

const CLIENT_ID = "acme-client";
const CLIENT_SECRET = "acme-client-secret-0123456789";
const GOOGLE_CLIENT_ID = "google-client.apps.example";
const GOOGLE_ISSUER = "https://accounts.google.com";

interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  jwk: JWK;
}

async function makeKey(kid: string): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
  return {
    kid,
    privateKey,
    jwk: { ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" },
  };
}

/**
 * The issuer: a discovery document, the key set and a userinfo endpoint that knows the
 * access tokens in `userInfo`. Every request is counted by path.
 */
interface Issuer {
  origin: string;
  published: JWK[];
  userInfo: Map<string, Record<string, unknown>>;
  hits: Map<string, number>;
  count(path: string): number;
  close(): Promise<void>;
}

async function startIssuer(): Promise<Issuer> {
  const hits = new Map<string, number>();
  const issuer: Issuer = {
    origin: "",
    published: [],
    userInfo: new Map(),
    hits,
    count: (path) => hits.get(path) ?? 0,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const json = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { "content-type": "application/json" });
    response.end(JSON.stringify(body));
  };
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const { origin } = issuer;
    switch (path) {
      case "/.well-known/openid-configuration":
        return json(response, 200, {
          issuer: origin,
          authorization_endpoint: `${origin}/authorize`,
          token_endpoint: `${origin}/token`,
          userinfo_endpoint: `${origin}/userinfo`,
          jwks_uri: `${origin}/jwks`,
          response_types_supported: ["code"],
          subject_types_supported: ["public"],
          id_token_signing_alg_values_supported: ["RS256"],
        });
      case "/jwks":
        return json(response, 200, { keys: issuer.published });
      case "/userinfo": {
        const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
        const claims = bearer === undefined ? undefined : issuer.userInfo.get(bearer);
        return claims
          ? json(response, 200, claims)
          : json(response, 401, { error: "invalid_token" });
      }
      default:
        return json(response, 404, { error: "not_found" });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  issuer.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return issuer;
}

const now = () => Math.floor(Date.now() / 1000);

let idp: Issuer;
let signingKey: SigningKey;
/** Never published. */
let stranger: SigningKey;
let t: TestApp;
/** An app with account linking switched off. */
let unlinked: TestApp;
const logLines: string[] = [];

let counter = 0;
/** A fresh subject and address at the issuer. */
function person(): { sub: string; email: string } {
  counter += 1;
  return { sub: `acme-${counter}-${Date.now()}`, email: `id${counter}-${Date.now()}@example.com` };
}

/**
 * A token for the acme client from the acme issuer, valid now, with `claims` on top; a
 * claim set to undefined is left out.
 */
async function sign(
  claims: JWTPayload,
  options: { key?: SigningKey; kid?: string; issuer?: string; audience?: string } = {},
): Promise<string> {
  const key = options.key ?? signingKey;
  const payload: JWTPayload = {
    iss: options.issuer ?? idp.origin,
    aud: options.audience ?? CLIENT_ID,
    iat: now(),
    exp: now() + 600,
    ...claims,
  };
  for (const [name, value] of Object.entries(payload)) {
    if (value === undefined) delete payload[name];
  }
  return new SignJWT(payload)
    .setProtectedHeader({ alg: "RS256", kid: options.kid ?? key.kid })
    .sign(key.privateKey);
}

/** Claims of a user with a verified address. */
function claimsOf(who: { sub: string; email: string }, extra: JWTPayload = {}): JWTPayload {
  return {
    sub: who.sub,
    email: who.email,
    email_verified: true,
    name: "Grace Hopper",
    picture: "https://images.example/grace.png",
    ...extra,
  };
}

function signInWith(client: Client, idToken: Record<string, unknown>, provider = "acme") {
  return client.post("/sign-in/social", { provider, idToken });
}

async function usersWithEmail(app: TestApp, email: string) {
  return app.db.sql<Array<{ id: string; emailVerified: boolean; name: string }>>`
    select id, email_verified, name from "user" where email = ${email.toLowerCase()}`;
}

async function accountsOf(app: TestApp, providerId: string, accountId: string) {
  return app.db.sql<
    Array<{
      userId: string;
      accessToken: string | null;
      refreshToken: string | null;
      idToken: string | null;
      accessTokenExpiresAt: Date | null;
    }>
  >`select user_id, access_token, refresh_token, id_token, access_token_expires_at
    from account where provider_id = ${providerId} and account_id = ${accountId}`;
}

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

/** The answer holds none of the token's three parts. */
function expectNoEcho(body: string, token: string): void {
  for (const part of token.split(".")) expect(body).not.toContain(part);
}

beforeAll(async () => {
  [signingKey, stranger] = await Promise.all([makeKey("acme-1"), makeKey("acme-1-stranger")]);
  idp = await startIssuer();
  idp.published = [signingKey.jwk];
  const acme = { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, issuer: idp.origin };
  // Google's definition as shipped, with its key set (and userinfo, never to be called) here.
  const google: ProviderDefinition = {
    ...shippedGoogle,
    userInfoEndpoint: `${idp.origin}/userinfo`,
    idToken: { issuer: shippedGoogle.idToken?.issuer ?? [], jwksUri: `${idp.origin}/jwks` },
  };
  const logConfig = configSchema.parse({ log: { level: "info", format: "json" } });
  t = await createTestApp({
    config: {
      socialProviders: {
        acme,
        "acme-trusted": acme,
        "acme-closed": { ...acme, disableSignUp: true },
        "acme-invite": { ...acme, disableImplicitSignUp: true },
        github: { clientId: "github-client", clientSecret: "github-client-secret" },
        google: { clientId: GOOGLE_CLIENT_ID, clientSecret: "google-client-secret" },
      },
      account: { accountLinking: { trustedProviders: ["acme-trusted"] } },
    },
    social: { catalogue: { ...BUILT_IN_PROVIDERS, google } },
    logger: createLogger(logConfig, { write: (line: string) => void logLines.push(line) }),
  });
  unlinked = await createTestApp({
    config: {
      socialProviders: { acme },
      account: { accountLinking: { enabled: false } },
    },
  });
});

afterAll(async () => {
  await t?.close();
  await unlinked?.close();
  await idp?.close();
});

beforeEach(() => {
  idp.published = [signingKey.jwk];
});

describe("sign-in/social with an id token", () => {
  it("creates the user and account from the claims and starts a session", async () => {
    const who = person();
    const token = await sign(claimsOf(who));
    const client = createClient(t.app);
    const response = await signInWith(client, { token });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    // `url` is absent, as in a password sign-in without a callbackURL.
    expect(Object.keys(body).sort()).toEqual(["redirect", "token", "user"]);
    expect(body).toEqual({
      redirect: false,
      token: expect.any(String),
      user: expect.objectContaining({
        email: who.email,
        emailVerified: true,
        name: "Grace Hopper",
        image: "https://images.example/grace.png",
      }),
    });
    expect(response.headers.location).toBeUndefined();
    expect(setsSession(client, response)).toBe(true);
    expectNoEcho(response.body, token);

    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(client.setCookies(response).get("authd.session_token")).toMatch(/HttpOnly/);
    const session = (await client.get("/get-session")).json();
    expect(session.user.id).toBe(body.user.id);
    // The token answered is the session's: only its digest is stored.
    expect(await t.db.sql`select id from session where token_hash = ${sha256(body.token)}`).toEqual(
      [{ id: session.session.id }],
    );
    expect(await usersWithEmail(t, who.email)).toEqual([
      { id: body.user.id, emailVerified: true, name: "Grace Hopper" },
    ]);
    const [account] = await accountsOf(t, "acme", who.sub);
    expect(account?.userId).toBe(body.user.id);
    // Stored encrypted; no access token was posted, so none is stored.
    expect(account?.idToken).toEqual(expect.any(String));
    expect(account?.idToken).not.toContain(token.split(".")[1]);
    expect(account?.accessToken).toBeNull();
    expect(await providersOf(client)).toEqual(["acme"]);
  });

  it("reads the profile from the claims alone when no access token is posted", async () => {
    const who = person();
    const before = idp.count("/userinfo");
    const response = await signInWith(createClient(t.app), { token: await sign(claimsOf(who)) });
    expect(response.statusCode, response.body).toBe(200);
    expect(idp.count("/userinfo")).toBe(before);
  });

  it("stores the posted tokens, and takes userinfo's answer for the same subject", async () => {
    const who = person();
    const accessToken = `acme-access-${who.sub}`;
    idp.userInfo.set(accessToken, { sub: who.sub, email: who.email, name: "From Userinfo" });
    const expiresAt = Date.now() + 3_600_000;
    const token = await sign(claimsOf(who));
    const response = await signInWith(createClient(t.app), {
      token,
      accessToken,
      refreshToken: "acme-refresh",
      expiresAt,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().user.name).toBe("From Userinfo");
    expect(response.body).not.toContain(accessToken);
    expect(response.body).not.toContain("acme-refresh");
    const [account] = await accountsOf(t, "acme", who.sub);
    expect(account?.accessToken).toEqual(expect.any(String));
    expect(account?.accessToken).not.toBe(accessToken);
    expect(account?.refreshToken).toEqual(expect.any(String));
    expect(account?.accessTokenExpiresAt?.getTime()).toBe(expiresAt);
  });

  it("answers 401 FAILED_TO_GET_USER_INFO when userinfo refuses the access token or names someone else", async () => {
    const who = person();
    const token = await sign(claimsOf(who));
    logLines.length = 0;
    const stray = "stray-access-token-7f3a";
    const refused = await signInWith(createClient(t.app), { token, accessToken: stray });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().code).toBe("FAILED_TO_GET_USER_INFO");
    const logged = logLines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged).toContainEqual(
      expect.objectContaining({ provider: "acme", step: "profile", reason: "HTTP 401" }),
    );
    expect(logLines.join("\n")).not.toContain(stray);

    // A posted access token of another user cannot swap the signed subject for theirs.
    const other = person();
    idp.userInfo.set("someone-elses", { sub: other.sub, email: other.email });
    const swapped = await signInWith(createClient(t.app), { token, accessToken: "someone-elses" });
    expect(swapped.statusCode).toBe(401);
    expect(swapped.json().code).toBe("FAILED_TO_GET_USER_INFO");
    expect(await usersWithEmail(t, who.email)).toEqual([]);
    expect(await usersWithEmail(t, other.email)).toEqual([]);
  });

  it("signs the same subject into the same user again", async () => {
    const who = person();
    const first = await signInWith(createClient(t.app), { token: await sign(claimsOf(who)) });
    expect(first.statusCode, first.body).toBe(200);
    // Another token for the same subject, with another name: the user stays who it was.
    const client = createClient(t.app);
    const again = await signInWith(client, {
      token: await sign(claimsOf(who, { name: "Renamed", jti: "second" })),
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().user.id).toBe(first.json().user.id);
    expect(again.json().token).not.toBe(first.json().token);
    expect((await client.get("/get-session")).json().user.id).toBe(first.json().user.id);
    expect(await usersWithEmail(t, who.email)).toHaveLength(1);
    expect(await accountsOf(t, "acme", who.sub)).toHaveLength(1);
  });

  it("answers 403 BANNED_USER with the ban's reason and end, and no session", async () => {
    const who = person();
    const first = await signInWith(createClient(t.app), { token: await sign(claimsOf(who)) });
    expect(first.statusCode, first.body).toBe(200);
    const until = new Date(Date.now() + 3600_000);
    await t.db.sql`
      update "user" set banned = true, ban_reason = 'spam', ban_expires = ${until}
      where email = ${who.email}`;
    const client = createClient(t.app);
    const banned = await signInWith(client, { token: await sign(claimsOf(who)) });
    expect(banned.statusCode, banned.body).toBe(403);
    expect(banned.json()).toMatchObject({
      code: "BANNED_USER",
      details: { reason: "spam", expiresAt: until.toISOString() },
    });
    expect(String(banned.headers["set-cookie"] ?? "")).not.toContain("session_token=");
  });

  it("accepts the nonce the client sent, and a token with a nonce nobody asked about", async () => {
    const who = person();
    const withNonce = await signInWith(createClient(t.app), {
      token: await sign(claimsOf(who, { nonce: "n-0123456789" })),
      nonce: "n-0123456789",
    });
    expect(withNonce.statusCode, withNonce.body).toBe(200);
    const unasked = await signInWith(createClient(t.app), {
      token: await sign(claimsOf(who, { nonce: "n-0123456789" })),
    });
    expect(unasked.statusCode, unasked.body).toBe(200);
  });

  it("answers 401 INVALID_TOKEN for every failed check, creates nothing, logs no token", async () => {
    type Who = { sub: string; email: string };
    /** What is wrong, the reason logged for it, the token, and the nonce the client sends. */
    const cases: Array<{
      label: string;
      reason: IdTokenFailure;
      make: (who: Who) => Promise<string>;
      nonce?: string;
    }> = [
      {
        label: "expired an hour ago",
        reason: "expired",
        make: (who) => sign(claimsOf(who, { iat: now() - 7200, exp: now() - 3600 })),
      },
      {
        // Past the few seconds of tolerance a posted token gets.
        label: "expired 30 s ago",
        reason: "expired",
        make: (who) => sign(claimsOf(who, { iat: now() - 600, exp: now() - 30 })),
      },
      {
        label: "another audience",
        reason: "wrong_audience",
        make: (who) => sign(claimsOf(who), { audience: "someone-else" }),
      },
      {
        label: "two audiences, neither ours",
        reason: "wrong_audience",
        make: (who) => sign(claimsOf(who, { aud: ["a", "b"] })),
      },
      {
        label: "another issuer",
        reason: "wrong_issuer",
        make: (who) => sign(claimsOf(who), { issuer: "https://evil.example" }),
      },
      {
        label: "Google's issuer",
        reason: "wrong_issuer",
        make: (who) => sign(claimsOf(who), { issuer: GOOGLE_ISSUER }),
      },
      {
        label: "a key outside the set",
        reason: "no_matching_key",
        make: (who) => sign(claimsOf(who), { key: stranger }),
      },
      {
        label: "a key outside the set, under a published kid",
        reason: "bad_signature",
        make: (who) => sign(claimsOf(who), { key: stranger, kid: signingKey.kid }),
      },
      {
        label: "another nonce",
        reason: "wrong_nonce",
        make: (who) => sign(claimsOf(who, { nonce: "theirs" })),
        nonce: "ours",
      },
      {
        label: "no nonce when one was sent",
        reason: "missing_nonce",
        make: (who) => sign(claimsOf(who)),
        nonce: "ours",
      },
      {
        label: "HMAC with the client secret",
        reason: "algorithm_not_allowed",
        make: (who) =>
          new SignJWT(claimsOf(who, { iss: idp.origin, aud: CLIENT_ID }))
            .setProtectedHeader({ alg: "HS256" })
            .setIssuedAt()
            .setExpirationTime("10m")
            .sign(new TextEncoder().encode(CLIENT_SECRET)),
      },
    ];
    for (const { label, reason, make, nonce } of cases) {
      const who = person();
      const token = await make(who);
      logLines.length = 0;
      const client = createClient(t.app);
      const response = await signInWith(client, nonce ? { token, nonce } : { token });
      expect(response.statusCode, label).toBe(401);
      expect(response.json(), label).toEqual({ code: "INVALID_TOKEN", message: "invalid token" });
      expect(setsSession(client, response), label).toBe(false);
      expectNoEcho(response.body, token);
      expect(await usersWithEmail(t, who.email), label).toEqual([]);
      expect(await accountsOf(t, "acme", who.sub), label).toEqual([]);
      // The reason is logged for the operator; the token never is.
      const logged = logLines.map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(logged, label).toContainEqual(
        expect.objectContaining({ provider: "acme", step: "id token check", reason }),
      );
      expectNoEcho(logLines.join("\n"), token);
    }
  });

  it("answers 401 USER_EMAIL_NOT_FOUND for a token without an address", async () => {
    const who = person();
    const response = await signInWith(createClient(t.app), {
      token: await sign(claimsOf(who, { email: undefined, email_verified: undefined })),
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({
      code: "USER_EMAIL_NOT_FOUND",
      message: "User email not found",
    });
    expect(await accountsOf(t, "acme", who.sub)).toEqual([]);
  });

  it("refuses a body whose token is missing or empty", async () => {
    for (const idToken of [{}, { token: "" }, { token: 42 }]) {
      const response = await signInWith(createClient(t.app), idToken);
      expect(response.statusCode, JSON.stringify(idToken)).toBe(400);
      expect(response.json().code).toBe("VALIDATION_ERROR");
    }
  });

  it("refuses an access-token expiry no date can hold, on sign-in and on link, writing nothing", async () => {
    const who = person();
    const token = await sign(claimsOf(who));
    for (const expiresAt of [1e20, 8.64e15 + 1, -1e18, -1]) {
      const response = await signInWith(createClient(t.app), { token, expiresAt });
      expect(response.statusCode, `${expiresAt}: ${response.body}`).toBe(400);
      expect(response.json().code).toBe("VALIDATION_ERROR");
    }
    expect(await usersWithEmail(t, who.email)).toEqual([]);
    const accepted = await signInWith(createClient(t.app), {
      token,
      expiresAt: Date.UTC(2030, 0, 1),
    });
    expect(accepted.statusCode, accepted.body).toBe(200);

    const other = person();
    const { client } = await signUpWithPassword(t, other.email);
    const linked = await client.post("/link-social", {
      provider: "acme",
      idToken: { token: await sign(claimsOf(other)), expiresAt: 1e20 },
    });
    expect(linked.statusCode, linked.body).toBe(400);
    expect(linked.json().code).toBe("VALIDATION_ERROR");
    expect(await accountsOf(t, "acme", other.sub)).toEqual([]);
  });
});

describe("an id token for an address a password user has", () => {
  it("links to that user when the issuer vouches for the address, and verifies it", async () => {
    const who = person();
    const { userId } = await signUpWithPassword(t, who.email);
    expect((await usersWithEmail(t, who.email))[0]?.emailVerified).toBe(false);
    const client = createClient(t.app);
    const response = await signInWith(client, { token: await sign(claimsOf(who)) });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().user).toMatchObject({ id: userId, emailVerified: true, name: "Local" });
    expect(await providersOf(client)).toEqual(["acme", "credential"]);
    expect(await usersWithEmail(t, who.email)).toHaveLength(1);
  });

  it("refuses with 401 ACCOUNT_NOT_LINKED when the issuer does not vouch for it", async () => {
    const who = person();
    const { client: owner } = await signUpWithPassword(t, who.email);
    const client = createClient(t.app);
    const response = await signInWith(client, {
      token: await sign(claimsOf(who, { email_verified: false })),
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ code: "ACCOUNT_NOT_LINKED", message: "Account not linked" });
    expect(setsSession(client, response)).toBe(false);
    expect(await accountsOf(t, "acme", who.sub)).toEqual([]);
    expect(await providersOf(owner)).toEqual(["credential"]);
  });

  it("links an unvouched address for a trusted provider, leaving it unverified", async () => {
    const who = person();
    const { userId } = await signUpWithPassword(t, who.email);
    const response = await signInWith(
      createClient(t.app),
      { token: await sign(claimsOf(who, { email_verified: false })) },
      "acme-trusted",
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().user).toMatchObject({ id: userId, emailVerified: false });
    expect(await accountsOf(t, "acme-trusted", who.sub)).toHaveLength(1);
  });

  it("refuses with 401 ACCOUNT_NOT_LINKED when account linking is off", async () => {
    const who = person();
    await signUpWithPassword(unlinked, who.email);
    const response = await signInWith(createClient(unlinked.app), {
      token: await sign(claimsOf(who)),
    });
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe("ACCOUNT_NOT_LINKED");
    expect(await accountsOf(unlinked, "acme", who.sub)).toEqual([]);
  });
});

describe("sign-up rules", () => {
  it("answers 400 SIGNUP_DISABLED where the provider creates no users", async () => {
    const who = person();
    const response = await signInWith(
      createClient(t.app),
      { token: await sign(claimsOf(who)) },
      "acme-closed",
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe("SIGNUP_DISABLED");
    expect(await usersWithEmail(t, who.email)).toEqual([]);
  });

  it("creates the user of an invitation-only provider only with requestSignUp", async () => {
    const who = person();
    const token = await sign(claimsOf(who));
    const implicit = await signInWith(createClient(t.app), { token }, "acme-invite");
    expect(implicit.statusCode).toBe(400);
    expect(implicit.json().code).toBe("SIGNUP_DISABLED");
    const requested = await createClient(t.app).post("/sign-in/social", {
      provider: "acme-invite",
      idToken: { token },
      requestSignUp: true,
    });
    expect(requested.statusCode, requested.body).toBe(200);
    expect(await usersWithEmail(t, who.email)).toHaveLength(1);
  });
});

describe("link-social with an id token", () => {
  it("links the account to the signed-in user and keeps the session", async () => {
    // Linking does not need the issuer to vouch: the user proved both sides.
    const who = person();
    const { client, userId } = await signUpWithPassword(t, who.email);
    const before = (await client.get("/get-session")).json().session.id;
    const token = await sign(claimsOf(who, { email_verified: false }));
    const response = await client.post("/link-social", { provider: "acme", idToken: { token } });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ url: "", status: true, redirect: false });
    expect(response.headers.location).toBeUndefined();
    expect(setsSession(client, response)).toBe(false);
    expectNoEcho(response.body, token);
    expect((await client.get("/get-session")).json().session.id).toBe(before);
    expect(await providersOf(client)).toEqual(["acme", "credential"]);
    const accounts = (await client.get("/list-accounts")).json();
    expect(accounts).toContainEqual(
      expect.objectContaining({ provider: "acme", accountId: who.sub, userId }),
    );

    // Linking it again refreshes the account; there is still one.
    const again = await client.post("/link-social", {
      provider: "acme",
      idToken: { token: await sign(claimsOf(who, { jti: "again" })) },
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(await accountsOf(t, "acme", who.sub)).toHaveLength(1);
  });

  it("refuses another user's account, another address, a bad token and no session", async () => {
    const taken = person();
    expect(
      (await signInWith(createClient(t.app), { token: await sign(claimsOf(taken)) })).statusCode,
    ).toBe(200);
    const me = person();
    const { client } = await signUpWithPassword(t, me.email);
    const link = async (claims: JWTPayload, options = {}) =>
      client.post("/link-social", {
        provider: "acme",
        idToken: { token: await sign(claims, options) },
      });

    const theirs = await link(claimsOf({ sub: taken.sub, email: me.email }));
    expect(theirs.statusCode).toBe(409);
    expect(theirs.json().code).toBe("SOCIAL_ACCOUNT_ALREADY_LINKED");

    const elsewhere = person();
    const mismatch = await link(claimsOf(elsewhere));
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().code).toBe("EMAIL_MISMATCH");

    const forged = await link(claimsOf({ sub: person().sub, email: me.email }), { key: stranger });
    expect(forged.statusCode).toBe(401);
    expect(forged.json().code).toBe("INVALID_TOKEN");

    expect(await providersOf(client)).toEqual(["credential"]);

    const anonymous = await createClient(t.app).post("/link-social", {
      provider: "acme",
      idToken: { token: await sign(claimsOf(person())) },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().code).toBe("UNAUTHORIZED");
  });

  it("answers 400 ACCOUNT_LINKING_DISABLED when linking is off", async () => {
    const who = person();
    const { client } = await signUpWithPassword(unlinked, who.email);
    const response = await client.post("/link-social", {
      provider: "acme",
      idToken: { token: await sign(claimsOf(who)) },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe("ACCOUNT_LINKING_DISABLED");
    expect(await accountsOf(unlinked, "acme", who.sub)).toEqual([]);
  });
});

describe("a provider without id tokens", () => {
  it("answers 404 ID_TOKEN_NOT_SUPPORTED to sign-in and link, without a request anywhere", async () => {
    const who = person();
    const token = await sign(claimsOf(who), { audience: "github-client" });
    const requests = [...idp.hits.values()].reduce((sum, value) => sum + value, 0);
    const signIn = await signInWith(createClient(t.app), { token }, "github");
    expect(signIn.statusCode).toBe(404);
    expect(signIn.json()).toEqual({
      code: "ID_TOKEN_NOT_SUPPORTED",
      message: "id_token not supported",
    });
    expectNoEcho(signIn.body, token);
    const { client } = await signUpWithPassword(t, who.email);
    const link = await client.post("/link-social", { provider: "github", idToken: { token } });
    expect(link.statusCode).toBe(404);
    expect(link.json().code).toBe("ID_TOKEN_NOT_SUPPORTED");
    expect([...idp.hits.values()].reduce((sum, value) => sum + value, 0)).toBe(requests);
    expect(await accountsOf(t, "github", who.sub)).toEqual([]);
  });
});

describe("Google's definition", () => {
  it("accepts both of Google's issuer names and reads the profile from the claims", async () => {
    for (const issuer of [GOOGLE_ISSUER, "accounts.google.com"]) {
      const who = person();
      const userInfoBefore = idp.count("/userinfo");
      const token = await sign(
        claimsOf(who, { given_name: "Grace", family_name: "Hopper", hd: "example.com" }),
        { issuer, audience: GOOGLE_CLIENT_ID },
      );
      const client = createClient(t.app);
      // An access token too: Google's definition still reads the signed claims, not userinfo.
      const response = await signInWith(client, { token, accessToken: "ya29.unused" }, "google");
      expect(response.statusCode, `${issuer}: ${response.body}`).toBe(200);
      expect(response.json().user).toMatchObject({
        email: who.email,
        emailVerified: true,
        name: "Grace Hopper",
        image: "https://images.example/grace.png",
      });
      expect(idp.count("/userinfo"), issuer).toBe(userInfoBefore);
      expect(await accountsOf(t, "google", who.sub)).toHaveLength(1);
      expect(await providersOf(client)).toEqual(["google"]);
    }
  });

  it("refuses another issuer, another audience, and an address Google does not vouch for", async () => {
    const who = person();
    const acmeIssued = await signInWith(
      createClient(t.app),
      { token: await sign(claimsOf(who), { audience: GOOGLE_CLIENT_ID }) },
      "google",
    );
    expect(acmeIssued.statusCode).toBe(401);
    expect(acmeIssued.json().code).toBe("INVALID_TOKEN");
    const forAcme = await signInWith(
      createClient(t.app),
      { token: await sign(claimsOf(who), { issuer: GOOGLE_ISSUER }) },
      "google",
    );
    expect(forAcme.statusCode).toBe(401);
    expect(forAcme.json().code).toBe("INVALID_TOKEN");

    const owner = person();
    await signUpWithPassword(t, owner.email);
    const unvouched = await signInWith(
      createClient(t.app),
      {
        token: await sign(claimsOf(owner, { email_verified: false }), {
          issuer: GOOGLE_ISSUER,
          audience: GOOGLE_CLIENT_ID,
        }),
      },
      "google",
    );
    expect(unvouched.statusCode).toBe(401);
    expect(unvouched.json().code).toBe("ACCOUNT_NOT_LINKED");
    expect(await accountsOf(t, "google", who.sub)).toEqual([]);
    expect(await accountsOf(t, "google", owner.sub)).toEqual([]);
  });
});
