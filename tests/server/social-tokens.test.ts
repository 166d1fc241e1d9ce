/**
 * A linked account's provider tokens over the API: get-access-token (the stored token
 * while fresh, a refresh when it expires within 5 s), refresh-token (kept or rotated
 * refresh tokens), account-info's provider data, the refusals, and concurrent refreshes.
 * A real OpenID provider on loopback issues refresh tokens; a small token endpoint of
 * our own misbehaves where the tests need it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { AccountRow, StoredProviderTokens } from "../../server/accounts/queries.js";
import { generateId } from "../../server/crypto/random.js";
import { createLogger } from "../../server/logger.js";
import { createTokenCipher } from "../../server/social/token-crypto.js";
import { createSecondInstance, createTestApp, TEST_SECRET, type TestApp } from "../helpers/app.js";
import { type Client, createClient } from "../helpers/client.js";
import { startOidcProvider, type TestOidcProvider } from "../helpers/oidc.js";
import { authdPath, BASE, errorOf, peopleAt, startSocial } from "../helpers/social.js";

/** A token endpoint and userinfo endpoint that behave as a test says. */
interface RogueProvider {
  url: string;
  /** How the token endpoint answers. */
  mode: "ok" | "invalid_grant" | "server_error" | "html" | "malformed" | "no_token" | "silent";
  /** Each refresh answers a new refresh token. */
  rotate: boolean;
  /**
   * A refresh token stops working as soon as a request brings it (needs `rotate`): a
   * second request with it is refused at once, while the first waits `delayMs`.
   */
  strict: boolean;
  /** Milliseconds before the token endpoint answers a refresh it grants. */
  delayMs: number;
  /** userinfo answers 500. */
  profileFails: boolean;
  /** The `expires_in` a granted refresh answers. */
  expiresIn: unknown;
  /** Refresh tokens that work. */
  live: Set<string>;
  requests: Array<{ path: string; form: URLSearchParams; authorization?: string }>;
  issued: number;
  close(): Promise<void>;
}

async function startRogue(): Promise<RogueProvider> {
  const sockets = new Set<ServerResponse>();
  const rogue: RogueProvider = {
    url: "",
    mode: "ok",
    rotate: false,
    strict: false,
    delayMs: 0,
    profileFails: false,
    expiresIn: 3600,
    live: new Set(),
    requests: [],
    issued: 0,
    close: async () => undefined,
  };
  const json = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { "content-type": "application/json" });
    response.end(JSON.stringify(body));
  };
  const tokenAnswer = (response: ServerResponse) => {
    switch (rogue.mode) {
      case "silent":
        sockets.add(response);
        return;
      case "server_error":
        return json(response, 500, { error: "server_error" });
      case "html":
        response.writeHead(200, { "content-type": "text/html" });
        response.end("<html>maintenance</html>");
        return;
      case "malformed":
        response.writeHead(200, { "content-type": "application/json" });
        response.end('{"access_token": "half');
        return;
      case "no_token":
        return json(response, 200, { token_type: "Bearer", expires_in: 3600 });
      case "invalid_grant":
        return json(response, 400, { error: "invalid_grant" });
    }
    rogue.issued += 1;
    const n = rogue.issued;
    const answer: Record<string, unknown> = {
      access_token: `rogue-access-${n}`,
      token_type: "Bearer",
      expires_in: rogue.expiresIn,
      scope: "openid email",
    };
    if (rogue.rotate) {
      answer.refresh_token = `rogue-refresh-${n}`;
      rogue.live.add(`rogue-refresh-${n}`);
    }
    json(response, 200, answer);
  };
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      const path = (request.url ?? "").split("?")[0] ?? "";
      const form = new URLSearchParams(body);
      rogue.requests.push({ path, form, authorization: request.headers.authorization });
      if (path === "/userinfo") {
        if (rogue.profileFails) return json(response, 500, { error: "server_error" });
        const bearer = request.headers.authorization ?? "";
        return json(response, 200, {
          sub: "rogue-user",
          email: "rogue@example.com",
          nickname: "rogue",
          seenToken: bearer.replace(/^Bearer /, ""),
        });
      }
      const used = form.get("refresh_token") ?? "";
      if (rogue.mode === "ok" && !rogue.live.has(used)) {
        return json(response, 400, { error: "invalid_grant" });
      }
      if (rogue.mode === "ok" && rogue.rotate && rogue.strict) rogue.live.delete(used);
      setTimeout(() => tokenAnswer(response), rogue.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  rogue.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  rogue.close = async () => {
    for (const response of sockets) response.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return rogue;
}

let idp: TestOidcProvider;
let rotating: TestOidcProvider;
let rogue: RogueProvider;
let t: TestApp;
const logLines: string[] = [];
const person = peopleAt(() => idp);
const rotatingPerson = peopleAt(() => rotating);

beforeAll(async () => {
  idp = await startOidcProvider({
    redirectUris: [`${BASE}/callback/acme`],
    refreshTokens: { rotate: false },
  });
  rotating = await startOidcProvider({
    redirectUris: [`${BASE}/callback/turn`],
    refreshTokens: { rotate: true },
  });
  rogue = await startRogue();
  const logger = createLogger(
    { log: { level: "info", format: "json", requests: true } },
    { write: (line: string) => void logLines.push(line) },
  );
  t = await createTestApp({
    logger,
    config: {
      socialProviders: {
        acme: { clientId: idp.clientId, clientSecret: idp.clientSecret, issuer: idp.issuer },
        turn: {
          clientId: rotating.clientId,
          clientSecret: rotating.clientSecret,
          issuer: rotating.issuer,
        },
        rogue: {
          clientId: "rogue-client",
          clientSecret: "rogue-secret",
          authorizationEndpoint: `${rogue.url}/authorize`,
          tokenEndpoint: `${rogue.url}/token`,
          userInfoEndpoint: `${rogue.url}/userinfo`,
        },
      },
    },
    social: { limits: { timeoutMs: 1000 } },
  });
});

afterAll(async () => {
  await t?.close();
  await idp?.close();
  await rotating?.close();
  await rogue?.close();
});

beforeEach(() => {
  Object.assign(rogue, {
    mode: "ok",
    rotate: false,
    strict: false,
    delayMs: 0,
    profileFails: false,
    expiresIn: 3600,
  });
});

type StoredRow = Pick<AccountRow, "id" | keyof StoredProviderTokens | "updatedAt">;

async function rowOf(id: string): Promise<StoredRow> {
  const [row] = await t.db.sql<StoredRow[]>`
    select id, access_token, refresh_token, id_token, access_token_expires_at,
           refresh_token_expires_at, scope, updated_at
    from account where id = ${id}`;
  if (!row) throw new Error(`no account ${id}`);
  return row;
}

function open(stored: string | null): string | null {
  return stored === null ? null : t.app.authContext.social.cipher.decrypt(stored);
}

function tokenHits(provider: TestOidcProvider): number {
  return provider.hits.filter((path) => path === "/token").length;
}

/**
 * Signs in at `provider` as a new person, asking for offline access (a refresh token)
 * unless told otherwise; answers the client and the account's row id.
 */
async function signInAt(
  providerId: "acme" | "turn",
  options: { offline: boolean } = { offline: true },
): Promise<{ client: Client; accountId: string; userId: string; sub: string }> {
  const provider = providerId === "acme" ? idp : rotating;
  const { sub } = providerId === "acme" ? person() : rotatingPerson();
  const client = createClient(t.app);
  const { url } = await startSocial(client, {
    provider: providerId,
    ...(options.offline ? { scopes: ["offline_access"] } : {}),
  });
  // The provider issues a refresh token for offline_access only on an explicit consent.
  if (options.offline) url.searchParams.set("prompt", "consent");
  const back = await provider.authorize(url.toString(), { login: sub });
  expect(errorOf(await client.get(authdPath(back)))).toBeNull();
  const accounts = (await client.get("/list-accounts")).json() as Array<{
    id: string;
    providerId: string;
    userId: string;
  }>;
  const account = accounts.find((entry) => entry.providerId === providerId);
  if (!account) throw new Error("no account after sign-in");
  return { client, accountId: account.id, userId: account.userId, sub };
}

/** A password user with a rogue account whose tokens are stored as given (encrypted). */
async function rogueUser(tokens: {
  accessToken?: string | null;
  refreshToken?: string | null;
  expiresInMs?: number;
  providerId?: string;
}) {
  const client = createClient(t.app);
  const email = `rogue-${generateId()}@example.com`.toLowerCase();
  const signUp = await client.post("/sign-up/email", {
    name: "Rogue",
    email,
    password: "correct horse battery",
  });
  expect(signUp.statusCode, signUp.body).toBe(200);
  const userId = signUp.json().user.id as string;
  const seal = (value: string | null | undefined) =>
    value ? t.app.authContext.social.cipher.encrypt(value) : null;
  const id = generateId();
  const expiresAt =
    tokens.expiresInMs === undefined ? null : new Date(Date.now() + tokens.expiresInMs);
  await t.db.sql`
    insert into account (id, user_id, provider_id, account_id, access_token, refresh_token,
                         access_token_expires_at, scope)
    values (${id}, ${userId}, ${tokens.providerId ?? "rogue"}, ${`rogue-${id}`},
            ${seal(tokens.accessToken === undefined ? "rogue-access-0" : tokens.accessToken)},
            ${seal(tokens.refreshToken)}, ${expiresAt}, ${"openid,email"})`;
  return { client, accountId: id, userId };
}

/** A fresh refresh token at the rogue provider, live until used (when strict). */
function liveRogueToken(): string {
  const token = `rogue-seed-${generateId()}`;
  rogue.live.add(token);
  return token;
}

describe("POST /get-access-token", () => {
  it("answers the stored token without asking the provider while it is fresh", async () => {
    const { client, accountId } = await signInAt("acme");
    const row = await rowOf(accountId);
    const before = tokenHits(idp);

    const answer = await client.post("/get-access-token", { providerId: "acme" });
    expect(answer.statusCode, answer.body).toBe(200);
    const body = answer.json();
    expect(body).toEqual({
      accessToken: open(row.accessToken),
      accessTokenExpiresAt: row.accessTokenExpiresAt?.toISOString(),
      scopes: expect.arrayContaining(["openid", "offline_access"]),
      idToken: open(row.idToken),
    });
    expect(body.accessToken).toEqual(expect.any(String));
    // At rest the column holds the sealed value, never the token.
    expect(row.accessToken).toMatch(/^v1:/);
    expect(row.accessToken).not.toContain(body.accessToken);

    // The current clients' body names the row id.
    const byId = await client.post("/get-access-token", { accountId });
    expect(byId.statusCode, byId.body).toBe(200);
    expect(byId.json()).toEqual(body);
    expect(tokenHits(idp)).toBe(before);
    expect((await rowOf(accountId)).updatedAt).toEqual(row.updatedAt);
  });

  it("refreshes a token that expires within 5 seconds, and stores the new one sealed", async () => {
    const { client, accountId } = await signInAt("acme");
    await t.db.sql`
      update account set access_token_expires_at = now() + interval '3 seconds'
      where id = ${accountId}`;
    const before = await rowOf(accountId);
    const hits = tokenHits(idp);

    const answer = await client.post("/get-access-token", { accountId });
    expect(answer.statusCode, answer.body).toBe(200);
    const body = answer.json();
    expect(tokenHits(idp)).toBe(hits + 1);
    expect(body.accessToken).not.toBe(open(before.accessToken));
    expect(new Date(body.accessTokenExpiresAt).getTime()).toBeGreaterThan(Date.now() + 60_000);

    const after = await rowOf(accountId);
    expect(open(after.accessToken)).toBe(body.accessToken);
    expect(after.accessToken).not.toContain(body.accessToken);
    expect(after.accessTokenExpiresAt?.toISOString()).toBe(body.accessTokenExpiresAt);
    // This provider does not rotate: the refresh token stays what it was.
    expect(open(after.refreshToken)).toBe(open(before.refreshToken));
    expect(open(after.idToken)).toBe(body.idToken);

    // Fresh again: the next call does not refresh.
    const again = await client.post("/get-access-token", { accountId });
    expect(again.json().accessToken).toBe(body.accessToken);
    expect(tokenHits(idp)).toBe(hits + 1);
  });

  it("answers an expiring token as stored when there is no refresh token", async () => {
    const { client, accountId } = await rogueUser({ refreshToken: null, expiresInMs: 1000 });
    rogue.requests.length = 0;
    const answer = await client.post("/get-access-token", { accountId });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({ accessToken: "rogue-access-0", idToken: null });
    expect(answer.json().scopes).toEqual(["openid", "email"]);
    expect(rogue.requests.filter((request) => request.path === "/token")).toEqual([]);
  });

  it("refuses without a session, for another user's account, and for another userId", async () => {
    const anonymous = await createClient(t.app).post("/get-access-token", { providerId: "acme" });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().code).toBe("UNAUTHORIZED");

    const owner = await signInAt("acme");
    const other = await signInAt("acme");
    for (const path of ["/get-access-token", "/refresh-token"]) {
      const foreign = await other.client.post(path, { accountId: owner.accountId });
      expect(foreign.statusCode).toBe(400);
      expect(foreign.json()).toEqual({ code: "ACCOUNT_NOT_FOUND", message: "Account not found" });
      const olderForm = await other.client.post(path, {
        providerId: "acme",
        accountId: owner.accountId,
      });
      expect(olderForm.json().code).toBe("ACCOUNT_NOT_FOUND");
      const asOwner = await other.client.post(path, {
        providerId: "acme",
        userId: owner.userId,
      });
      expect(asOwner.statusCode).toBe(403);
      expect(asOwner.json().code).toBe("FORBIDDEN");
      expect(asOwner.body).not.toContain("access");
    }
    // Naming oneself is fine.
    const self = await other.client.post("/get-access-token", {
      providerId: "acme",
      userId: other.userId,
    });
    expect(self.statusCode, self.body).toBe(200);
  });

  it("tells the two body forms apart and refuses what names no account", async () => {
    const { client, accountId, sub } = await signInAt("acme");
    const rowId = await client.post("/get-access-token", { accountId });
    const older = await client.post("/get-access-token", { providerId: "acme" });
    const olderById = await client.post("/get-access-token", { providerId: "acme", accountId });
    const olderByProviderId = await client.post("/get-access-token", {
      providerId: "acme",
      accountId: sub,
    });
    for (const answer of [older, olderById, olderByProviderId]) {
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.json()).toEqual(rowId.json());
    }

    const neither = await client.post("/get-access-token", {});
    expect(neither.statusCode).toBe(400);
    expect(neither.json().code).toBe("VALIDATION_ERROR");
    const unknownProvider = await client.post("/get-access-token", { providerId: "nope" });
    expect(unknownProvider.json()).toEqual({
      code: "PROVIDER_NOT_SUPPORTED",
      message: "Provider not supported",
    });
    const notLinked = await client.post("/get-access-token", { providerId: "turn" });
    expect(notLinked.json().code).toBe("ACCOUNT_NOT_FOUND");
    const wrongProvider = await client.post("/get-access-token", {
      providerId: "turn",
      accountId,
    });
    expect(wrongProvider.json().code).toBe("ACCOUNT_NOT_FOUND");
  });

  it("refuses an account whose provider is no longer configured, and the credential account", async () => {
    const gone = await rogueUser({ providerId: "gone" });
    const answer = await gone.client.post("/get-access-token", { accountId: gone.accountId });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().code).toBe("PROVIDER_NOT_SUPPORTED");
    const credential = (
      (await gone.client.get("/list-accounts")).json() as Array<{ id: string; providerId: string }>
    ).find((account) => account.providerId === "credential");
    const refused = await gone.client.post("/get-access-token", { accountId: credential?.id });
    expect(refused.json().code).toBe("PROVIDER_NOT_SUPPORTED");
  });

  it("answers FAILED_TO_GET_ACCESS_TOKEN when the due refresh fails, and changes nothing", async () => {
    const { client, accountId } = await rogueUser({
      refreshToken: liveRogueToken(),
      expiresInMs: 1000,
    });
    rogue.mode = "server_error";
    const before = await rowOf(accountId);
    const answer = await client.post("/get-access-token", { accountId });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({
      code: "FAILED_TO_GET_ACCESS_TOKEN",
      message: "Failed to get a valid access token",
    });
    expect(await rowOf(accountId)).toEqual(before);
  });

  it("answers FAILED_TO_GET_ACCESS_TOKEN when no access token can be had", async () => {
    const { client, accountId } = await rogueUser({ accessToken: null, refreshToken: null });
    const answer = await client.post("/get-access-token", { accountId });
    expect(answer.json().code).toBe("FAILED_TO_GET_ACCESS_TOKEN");
  });
});

describe("provider tokens while the secret rotates", () => {
  it("answers tokens sealed under the older secret and seals them again under the newest", async () => {
    const newest = "rotated-secret-9876543210-9876543210-fedcba";
    const { client, accountId } = await rogueUser({
      accessToken: "rogue-access-rotating",
      refreshToken: "rogue-refresh-rotating",
      expiresInMs: 3_600_000,
    });
    const before = await rowOf(accountId);
    const rotated = await createSecondInstance(t, { secret: [newest, TEST_SECRET] });
    try {
      const there = createClient(rotated);
      for (const [name, value] of client.cookies) there.cookies.set(name, value);
      const answer = await there.post("/get-access-token", { accountId });
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.json().accessToken).toBe("rogue-access-rotating");
      const after = await rowOf(accountId);
      expect(after.accessToken).not.toBe(before.accessToken);
      const newestOnly = createTokenCipher(newest);
      expect(newestOnly.decrypt(after.accessToken as string)).toBe("rogue-access-rotating");
      expect(newestOnly.decrypt(after.refreshToken as string)).toBe("rogue-refresh-rotating");
      expect(newestOnly.decrypt(before.accessToken as string)).toBeNull();
    } finally {
      await rotated.close();
    }
  });
});

describe("POST /refresh-token", () => {
  it("refreshes now and keeps a refresh token the provider does not rotate", async () => {
    const { client, accountId, sub } = await signInAt("acme");
    const before = await rowOf(accountId);
    const hits = tokenHits(idp);

    const answer = await client.post("/refresh-token", { accountId });
    expect(answer.statusCode, answer.body).toBe(200);
    const body = answer.json();
    expect(tokenHits(idp)).toBe(hits + 1);
    expect(body).toEqual({
      accessToken: expect.any(String),
      refreshToken: open(before.refreshToken),
      accessTokenExpiresAt: expect.any(String),
      refreshTokenExpiresAt: null,
      scope: expect.stringContaining("offline_access"),
      idToken: expect.any(String),
      providerId: "acme",
      accountId: sub,
    });
    expect(body.accessToken).not.toBe(open(before.accessToken));
    const after = await rowOf(accountId);
    expect(open(after.accessToken)).toBe(body.accessToken);
    expect(open(after.refreshToken)).toBe(body.refreshToken);
    expect(after.refreshToken).not.toContain(body.refreshToken);
    expect(open(after.idToken)).toBe(body.idToken);
  });

  it("stores the refresh token a rotating provider hands out, and uses it next time", async () => {
    const { client, accountId } = await signInAt("turn");
    const first = open((await rowOf(accountId)).refreshToken);
    expect(first).toEqual(expect.any(String));

    const once = await client.post("/refresh-token", { providerId: "turn" });
    expect(once.statusCode, once.body).toBe(200);
    const rotated = once.json().refreshToken;
    expect(rotated).not.toBe(first);
    expect(open((await rowOf(accountId)).refreshToken)).toBe(rotated);

    // The provider took only the rotated token now: a second refresh works with it.
    const twice = await client.post("/refresh-token", { accountId });
    expect(twice.statusCode, twice.body).toBe(200);
    expect(twice.json().refreshToken).not.toBe(rotated);
    expect(open((await rowOf(accountId)).refreshToken)).toBe(twice.json().refreshToken);
  });

  it("stores no expiry when the provider answers a lifetime no date can hold", async () => {
    for (const expiresIn of [1e20, "99999999999999999999", 200 * 365 * 24 * 3600]) {
      rogue.expiresIn = expiresIn;
      const { client, accountId } = await rogueUser({ refreshToken: liveRogueToken() });
      const answer = await client.post("/refresh-token", { accountId });
      expect(answer.statusCode, `${expiresIn}: ${answer.body}`).toBe(200);
      expect(answer.json().accessTokenExpiresAt).toBeNull();
      const row = await rowOf(accountId);
      expect(open(row.accessToken)).toBe(answer.json().accessToken);
      expect(row.accessTokenExpiresAt).toBeNull();
    }
  });

  it("answers REFRESH_TOKEN_NOT_FOUND without a refresh token", async () => {
    const { client, accountId } = await signInAt("acme", { offline: false });
    expect((await rowOf(accountId)).refreshToken).toBeNull();
    const answer = await client.post("/refresh-token", { accountId });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({
      code: "REFRESH_TOKEN_NOT_FOUND",
      message: "Refresh token not found",
    });
    // The stored access token still serves.
    expect((await client.post("/get-access-token", { accountId })).statusCode).toBe(200);
  });

  it("sends the refresh grant with the client's credentials", async () => {
    const refreshToken = liveRogueToken();
    const { client, accountId } = await rogueUser({ refreshToken });
    rogue.requests.length = 0;
    const answer = await client.post("/refresh-token", { accountId });
    expect(answer.statusCode, answer.body).toBe(200);
    const [request] = rogue.requests;
    expect(request?.path).toBe("/token");
    expect(Object.fromEntries(request?.form ?? [])).toEqual({
      grant_type: "refresh_token",
      refresh_token: refreshToken,
    });
    const basic = Buffer.from("rogue-client:rogue-secret").toString("base64");
    expect(request?.authorization).toBe(`Basic ${basic}`);
    expect(answer.json()).toMatchObject({
      accessToken: expect.stringMatching(/^rogue-access-/),
      refreshToken,
      scope: "openid,email",
      idToken: null,
      providerId: "rogue",
    });
    // The answer hands the tokens out; the log never has them.
    const logged = logLines.join("\n");
    expect(logged).toContain("/refresh-token");
    expect(logged).not.toContain(answer.json().accessToken);
    expect(logged).not.toContain(refreshToken);
  });

  it.each([
    ["refuses the grant", "invalid_grant"],
    ["fails", "server_error"],
    ["answers HTML", "html"],
    ["answers malformed JSON", "malformed"],
    ["answers no access token", "no_token"],
    ["does not answer in time", "silent"],
  ] as const)(
    "answers FAILED_TO_REFRESH_ACCESS_TOKEN when the provider %s, and changes nothing",
    async (_label, mode) => {
      const refreshToken = liveRogueToken();
      const { client, accountId } = await rogueUser({ refreshToken, expiresInMs: 60_000 });
      rogue.mode = mode;
      const before = await rowOf(accountId);
      const logged = logLines.length;
      const answer = await client.post("/refresh-token", { accountId });
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toEqual({
        code: "FAILED_TO_REFRESH_ACCESS_TOKEN",
        message: "Failed to refresh access token",
      });
      expect(answer.body).not.toContain(refreshToken);
      expect(await rowOf(accountId)).toEqual(before);
      expect(logLines.join("\n")).not.toContain(refreshToken);
      // The reason is logged: a status, the provider's error code or a time-out.
      const warning = logLines
        .slice(logged)
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .find((entry) => entry.step === "token refresh");
      expect(warning).toMatchObject({ provider: "rogue", reason: expect.any(String) });
    },
  );

  it("answers TOKEN_REFRESH_NOT_SUPPORTED for a provider that has no refresh", async () => {
    // Facebook issues no refresh tokens; an imported one is still not sent there.
    const app = await createTestApp({
      config: { socialProviders: { facebook: { clientId: "fb", clientSecret: "fb-secret" } } },
    });
    try {
      const client = createClient(app.app);
      const signUp = await client.post("/sign-up/email", {
        name: "Fb",
        email: "fb@example.com",
        password: "correct horse battery",
      });
      const id = generateId();
      await app.db.sql`
        insert into account (id, user_id, provider_id, account_id, access_token, refresh_token)
        values (${id}, ${signUp.json().user.id}, 'facebook', 'fb-1', 'fb-access', 'fb-refresh')`;
      const answer = await client.post("/refresh-token", { providerId: "facebook" });
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toEqual({
        code: "TOKEN_REFRESH_NOT_SUPPORTED",
        message: "Token refresh not supported",
      });
      // get-access-token hands out the stored (imported, unsealed) token without a refresh.
      const token = await client.post("/get-access-token", { accountId: id });
      expect(token.json().accessToken).toBe("fb-access");
    } finally {
      await app.close();
    }
  });

  it("needs a session", async () => {
    const answer = await createClient(t.app).post("/refresh-token", { accountId: "x" });
    expect(answer.statusCode).toBe(401);
  });
});

describe("concurrent refreshes", () => {
  it("share one request to the provider within an instance; the rotated token stays usable", async () => {
    const { client, accountId } = await signInAt("turn");
    const hits = tokenHits(rotating);
    // The provider answers slowly, so that every request finds the refresh under way.
    rotating.tokenDelayMs = 300;
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => client.post("/refresh-token", { accountId })),
    ).finally(() => {
      rotating.tokenDelayMs = 0;
    });
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    const bodies = answers.map((answer) => answer.json());
    expect(new Set(bodies.map((body) => body.refreshToken)).size).toBe(1);
    expect(tokenHits(rotating)).toBe(hits + 1);
    const row = await rowOf(accountId);
    expect(open(row.refreshToken)).toBe(bodies[0].refreshToken);
    expect(open(row.accessToken)).toBe(bodies[0].accessToken);
    // Reusing a rotated-away token would have revoked the grant: the next refresh works.
    const next = await client.post("/refresh-token", { accountId });
    expect(next.statusCode, next.body).toBe(200);
  });

  describe("across instances", () => {
    let second: FastifyInstance;
    beforeAll(async () => {
      second = await createSecondInstance(t);
    });
    afterAll(async () => {
      await second?.close();
    });

    function twin(client: Client): Client {
      const other = createClient(second);
      for (const [name, value] of client.cookies) other.cookies.set(name, value);
      return other;
    }

    it("keep the winner's set, which also answers the refused one", async () => {
      // The loser is refused before the winner has its answer, let alone stored it.
      rogue.rotate = true;
      rogue.strict = true;
      rogue.delayMs = 150;
      const { client, accountId } = await rogueUser({ refreshToken: liveRogueToken() });
      const [a, b] = await Promise.all([
        client.post("/refresh-token", { accountId }),
        twin(client).post("/refresh-token", { accountId }),
      ]);
      expect(a.statusCode, a.body).toBe(200);
      expect(b.statusCode, b.body).toBe(200);
      expect(b.json()).toEqual(a.json());
      const row = await rowOf(accountId);
      expect(open(row.refreshToken)).toBe(a.json().refreshToken);
      expect(rogue.live.has(a.json().refreshToken)).toBe(true);
    });

    it("keep one whole set when both refreshes succeed", async () => {
      rogue.rotate = true;
      rogue.delayMs = 150;
      const { client, accountId } = await rogueUser({ refreshToken: liveRogueToken() });
      const [a, b] = await Promise.all([
        client.post("/refresh-token", { accountId }),
        twin(client).post("/refresh-token", { accountId }),
      ]);
      expect(a.statusCode, a.body).toBe(200);
      expect(b.statusCode, b.body).toBe(200);
      // The access and refresh token stored came from one answer of the provider.
      const row = await rowOf(accountId);
      const access = open(row.accessToken) as string;
      const refresh = open(row.refreshToken) as string;
      expect(access.replace("access", "refresh")).toBe(refresh);
      expect(b.json()).toEqual(a.json());
      expect(a.json().refreshToken).toBe(refresh);
    });
  });
});

describe("account-info of a provider account", () => {
  it("answers the provider's own fields as data, read with the stored token", async () => {
    const { client, accountId, sub, userId } = await signInAt("acme");
    const post = await client.post("/account-info", { accountId });
    expect(post.statusCode, post.body).toBe(200);
    expect(post.json()).toEqual({
      user: expect.objectContaining({ id: userId }),
      data: expect.objectContaining({ sub, name: "Ada Lovelace", email_verified: true }),
      account: { id: accountId, providerId: "acme", accountId: sub },
    });
    const get = await client.get("/account-info", { query: { accountId } });
    expect(get.statusCode, get.body).toBe(200);
    expect(get.json().data).toEqual(post.json().data);
  });

  it("refreshes a token about to expire before reading the profile", async () => {
    const refreshToken = liveRogueToken();
    const { client, accountId } = await rogueUser({ refreshToken, expiresInMs: 1000 });
    const answer = await client.post("/account-info", { accountId });
    expect(answer.statusCode, answer.body).toBe(200);
    const seen = answer.json().data.seenToken as string;
    expect(seen).toMatch(/^rogue-access-[0-9]+$/);
    expect(open((await rowOf(accountId)).accessToken)).toBe(seen);
    expect(answer.json().data).toMatchObject({ sub: "rogue-user", nickname: "rogue" });
  });

  it("keeps data empty for the credential account", async () => {
    const { client } = await rogueUser({});
    const accounts = (await client.get("/list-accounts")).json() as Array<{
      id: string;
      providerId: string;
    }>;
    const credential = accounts.find((account) => account.providerId === "credential");
    const answer = await client.post("/account-info", { accountId: credential?.id });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().data).toEqual({});
  });

  it("answers the refusals: not found, not configured, no token, no profile", async () => {
    const owner = await signInAt("acme");
    const { client, accountId } = await rogueUser({ accessToken: null, refreshToken: null });
    const foreign = await client.post("/account-info", { accountId: owner.accountId });
    expect(foreign.json().code).toBe("ACCOUNT_NOT_FOUND");

    const noToken = await client.post("/account-info", { accountId });
    expect(noToken.statusCode).toBe(400);
    expect(noToken.json()).toEqual({
      code: "ACCESS_TOKEN_NOT_FOUND",
      message: "Access token not found",
    });

    const gone = await rogueUser({ providerId: "gone" });
    const notConfigured = await gone.client.post("/account-info", { accountId: gone.accountId });
    expect(notConfigured.statusCode).toBe(400);
    expect(notConfigured.json()).toEqual({
      code: "PROVIDER_NOT_CONFIGURED",
      message: "Provider not configured",
    });

    rogue.profileFails = true;
    const failing = await rogueUser({});
    const noProfile = await failing.client.post("/account-info", {
      accountId: failing.accountId,
    });
    expect(noProfile.statusCode).toBe(401);
    expect(noProfile.json()).toEqual({
      code: "FAILED_TO_GET_USER_INFO",
      message: "Failed to get user info",
    });
    expect(noProfile.body).not.toContain("rogue-access");
  });

  it("answers FAILED_TO_GET_ACCESS_TOKEN when the due refresh fails", async () => {
    const { client, accountId } = await rogueUser({
      refreshToken: liveRogueToken(),
      expiresInMs: 1000,
    });
    rogue.mode = "invalid_grant";
    const answer = await client.post("/account-info", { accountId });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().code).toBe("FAILED_TO_GET_ACCESS_TOKEN");
  });
});
