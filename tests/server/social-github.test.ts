/**
 * The built-in `github` definition end to end, against a GitHub-shaped OAuth 2.0 server
 * on loopback (its endpoints configured as overrides): the authorization URL, the code
 * exchange with PKCE, /user with its numeric id and /user/emails for the address; a
 * returning user, unverified addresses, and a provider that answers garbage or nothing.
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sha256 } from "../../server/crypto/digest.js";
import { createTestApp, type TestApp } from "../helpers/app.js";
import { type Client, createClient } from "../helpers/client.js";
import {
  authdPath,
  BASE,
  errorOf,
  ORIGIN,
  redirectOf,
  setsSession,
  startSocial,
} from "../helpers/social.js";

const CLIENT_ID = "github-client-id";
const CLIENT_SECRET = "github-client-secret-0123456789";

interface GitHubUser {
  id: number;
  login: string;
  name: string | null;
  avatar_url: string;
  email: string | null;
}

interface GitHubEmail {
  email: string;
  primary: boolean;
  verified: boolean;
  visibility: "public" | "private" | null;
}

interface Received {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
}

type TokenMode = "ok" | "html" | "no-access-token" | "form" | "error";
type UserMode = "ok" | "hang";

/**
 * GitHub as authd meets it: codes handed out by `authorize` (standing in for the login
 * page), a token endpoint that answers JSON only when asked for it and checks the client,
 * the redirect URI and PKCE, and the REST API's /user and /user/emails.
 */
interface FakeGitHub {
  origin: string;
  accounts: Map<string, { user: GitHubUser; emails: GitHubEmail[] }>;
  mode: { token: TokenMode; user: UserMode };
  received: Received[];
  /** Signs in as `login` at the authorization URL; answers where GitHub sends the browser. */
  authorize(authorizationUrl: URL, login: string): URL;
  close(): Promise<void>;
}

async function startFakeGitHub(): Promise<FakeGitHub> {
  const codes = new Map<
    string,
    { login: string; redirectURI: string; challenge: string | null; clientId: string }
  >();
  const accessTokens = new Map<string, string>();
  const fake: FakeGitHub = {
    origin: "",
    accounts: new Map(),
    mode: { token: "ok", user: "ok" },
    received: [],
    authorize(url, login) {
      const query = url.searchParams;
      const code = randomBytes(10).toString("hex");
      codes.set(code, {
        login,
        redirectURI: query.get("redirect_uri") ?? "",
        challenge: query.get("code_challenge"),
        clientId: query.get("client_id") ?? "",
      });
      const back = new URL(query.get("redirect_uri") ?? "");
      back.searchParams.set("code", code);
      back.searchParams.set("state", query.get("state") ?? "");
      return back;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const json = (response: ServerResponse, status: number, value: unknown) => {
    response.writeHead(status, { "content-type": "application/json; charset=utf-8" });
    response.end(JSON.stringify(value));
  };

  const exchange = (request: IncomingMessage, body: string, response: ServerResponse) => {
    const form = new URLSearchParams(body);
    const grant = codes.get(form.get("code") ?? "");
    codes.delete(form.get("code") ?? "");
    const verifier = form.get("code_verifier");
    const valid =
      grant !== undefined &&
      form.get("client_id") === CLIENT_ID &&
      form.get("client_secret") === CLIENT_SECRET &&
      grant.clientId === CLIENT_ID &&
      form.get("redirect_uri") === grant.redirectURI &&
      (grant.challenge === null || (verifier !== null && sha256(verifier) === grant.challenge));
    const mode = fake.mode.token;
    if (mode === "html") {
      response.writeHead(502, { "content-type": "text/html" });
      return response.end("<html><body>Bad gateway</body></html>");
    }
    // GitHub reports a bad code with 200 and an error field.
    if (!valid || mode === "error") {
      return json(response, 200, {
        error: "bad_verification_code",
        error_description: "The code passed is incorrect or expired.",
      });
    }
    if (mode === "no-access-token") return json(response, 200, { token_type: "bearer" });
    const accessToken = `gho_${randomBytes(12).toString("hex")}`;
    accessTokens.set(accessToken, grant.login);
    const answer = {
      access_token: accessToken,
      token_type: "bearer",
      scope: "read:user,user:email",
    };
    const wantsJson = (request.headers.accept ?? "").includes("application/json");
    if (mode === "form" || !wantsJson) {
      response.writeHead(200, { "content-type": "application/x-www-form-urlencoded" });
      return response.end(new URLSearchParams(answer).toString());
    }
    return json(response, 200, answer);
  };

  const api = (request: IncomingMessage, path: string, response: ServerResponse) => {
    if (!request.headers["user-agent"]) {
      return json(response, 403, { message: "Request forbidden by administrative rules." });
    }
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1] ?? "";
    const account = fake.accounts.get(accessTokens.get(bearer) ?? "");
    if (!account) return json(response, 401, { message: "Requires authentication" });
    if (path === "/user") {
      if (fake.mode.user === "hang") return;
      return json(response, 200, account.user);
    }
    return json(response, 200, account.emails);
  };

  const server: Server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      const path = new URL(request.url ?? "/", "http://localhost").pathname;
      fake.received.push({ method: request.method ?? "", path, headers: request.headers, body });
      if (request.method === "POST" && path === "/login/oauth/access_token") {
        return exchange(request, body, response);
      }
      if (request.method === "GET" && (path === "/user" || path === "/user/emails")) {
        return api(request, path, response);
      }
      return json(response, 404, { message: "Not Found" });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  fake.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

let hub: FakeGitHub;
let t: TestApp;
let counter = 0;

/** A GitHub account with a fresh numeric id, login and addresses (`emails` by default). */
function gitHubPerson(
  emails?: (address: string) => GitHubEmail[],
  user: Partial<GitHubUser> = {},
): { login: string; id: number; address: string } {
  counter += 1;
  const id = 580_000 + counter;
  const login = `octo-${counter}-${Date.now()}`;
  const address = `${login}@example.com`;
  hub.accounts.set(login, {
    user: {
      id,
      login,
      name: "The Octocat",
      avatar_url: `https://avatars.example/u/${id}?v=4`,
      email: null,
      ...user,
    },
    emails: emails
      ? emails(address)
      : [
          { email: `old-${address}`, primary: false, verified: true, visibility: null },
          {
            email: address.replace("octo", "Octo"),
            primary: true,
            verified: true,
            visibility: "private",
          },
          { email: `new-${address}`, primary: false, verified: false, visibility: null },
        ],
  });
  return { login, id, address };
}

/** Starts a GitHub sign-in (or link) on authd, signs in at GitHub as `login`, and comes back. */
async function throughGitHub(
  client: Client,
  login: string,
  body: Record<string, unknown> = {},
  path = "/sign-in/social",
) {
  const { url } = await startSocial(client, { provider: "github", ...body }, path);
  const back = hub.authorize(url, login);
  return client.get(authdPath(back));
}

async function usersWithEmail(email: string) {
  return t.db.sql<Array<{ id: string }>>`
    select id from "user" where email = ${email.toLowerCase()}`;
}

async function githubAccounts(id: number) {
  return t.db.sql<Array<{ userId: string }>>`
    select user_id from account where provider_id = 'github' and account_id = ${String(id)}`;
}

beforeAll(async () => {
  hub = await startFakeGitHub();
  t = await createTestApp({
    config: {
      socialProviders: {
        github: {
          clientId: CLIENT_ID,
          clientSecret: CLIENT_SECRET,
          authorizationEndpoint: `${hub.origin}/login/oauth/authorize`,
          tokenEndpoint: `${hub.origin}/login/oauth/access_token`,
          userInfoEndpoint: `${hub.origin}/user`,
        },
      },
    },
    social: { limits: { timeoutMs: 500, discoveryTimeoutMs: 500 } },
  });
});

afterAll(async () => {
  await t?.close();
  await hub?.close();
});

beforeEach(() => {
  hub.mode.token = "ok";
  hub.mode.user = "ok";
  hub.received.length = 0;
});

describe("starting", () => {
  it("sends the browser to GitHub with the client id, scopes, state and PKCE", async () => {
    const client = createClient(t.app);
    const { url, state } = await startSocial(client, { provider: "github" });
    expect(`${url.origin}${url.pathname}`).toBe(`${hub.origin}/login/oauth/authorize`);
    const query = url.searchParams;
    expect(query.get("response_type")).toBe("code");
    expect(query.get("client_id")).toBe(CLIENT_ID);
    expect(query.get("scope")).toBe("read:user user:email");
    expect(query.get("redirect_uri")).toBe(`${BASE}/callback/github`);
    expect(query.get("state")).toBe(state);
    expect(query.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(query.get("code_challenge_method")).toBe("S256");
    // No id tokens at GitHub: no nonce.
    expect(query.get("nonce")).toBeNull();
    expect(url.toString()).not.toContain(CLIENT_SECRET);
    expect(hub.received).toEqual([]);
  });
});

describe("the callback", () => {
  it("creates the user from /user and the primary verified address of /user/emails", async () => {
    const { login, id, address } = gitHubPerson();
    const client = createClient(t.app);
    const answer = await throughGitHub(client, login, {
      callbackURL: "/home",
      newUserCallbackURL: "/welcome",
    });
    expect(redirectOf(answer).toString()).toBe(`${ORIGIN}/welcome`);
    expect(setsSession(client, answer)).toBe(true);

    const { user } = (await client.get("/get-session")).json();
    expect(user).toMatchObject({
      email: address,
      emailVerified: true,
      name: "The Octocat",
      image: `https://avatars.example/u/${id}?v=4`,
    });
    const accounts = (await client.get("/list-accounts")).json();
    expect(accounts).toEqual([
      expect.objectContaining({ provider: "github", providerId: "github", accountId: String(id) }),
    ]);
    expect(accounts[0].scopes).toEqual(["read:user", "user:email"]);

    // The code exchange: the client in the form (client_secret_post), JSON asked for.
    const token = hub.received.find((request) => request.path === "/login/oauth/access_token");
    expect(token?.headers.accept).toBe("application/json");
    expect(token?.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(token?.headers.authorization).toBeUndefined();
    const form = new URLSearchParams(token?.body);
    expect(form.get("grant_type")).toBe("authorization_code");
    expect(form.get("redirect_uri")).toBe(`${BASE}/callback/github`);
    expect(form.get("code_verifier")).toMatch(/^[A-Za-z0-9._~-]{128}$/);

    // The API, beside the overridden /user: GitHub's media type and a User-Agent, once each.
    for (const path of ["/user", "/user/emails"]) {
      const calls = hub.received.filter((request) => request.path === path);
      expect(calls, path).toHaveLength(1);
      expect(calls[0]?.headers.authorization, path).toMatch(/^Bearer gho_[0-9a-f]{24}$/);
      expect(calls[0]?.headers["user-agent"], path).toBe("authd");
      expect(calls[0]?.headers.accept, path).toBe("application/vnd.github+json");
    }
  });

  it("signs the same GitHub user into the same user again", async () => {
    const { login, id, address } = gitHubPerson();
    const first = await throughGitHub(createClient(t.app), login);
    expect(errorOf(first)).toBeNull();
    const client = createClient(t.app);
    const again = await throughGitHub(client, login, {
      callbackURL: "/home",
      newUserCallbackURL: "/welcome",
    });
    expect(redirectOf(again).toString()).toBe(`${ORIGIN}/home`);
    const users = await usersWithEmail(address);
    expect(users).toHaveLength(1);
    expect((await client.get("/get-session")).json().user.id).toBe(users[0]?.id);
    expect(await githubAccounts(id)).toEqual([{ userId: users[0]?.id }]);
  });

  it("falls back to the login for a user without a name", async () => {
    const { login } = gitHubPerson(undefined, { name: null });
    const client = createClient(t.app);
    expect(errorOf(await throughGitHub(client, login))).toBeNull();
    expect((await client.get("/get-session")).json().user.name).toBe(login);
  });

  it("takes an address GitHub has not verified as unverified, and links no one by it", async () => {
    const unverified = (address: string): GitHubEmail[] => [
      { email: address, primary: true, verified: false, visibility: "private" },
      { email: `other-${address}`, primary: false, verified: false, visibility: null },
    ];
    // A new address: the user is created, unverified.
    const newcomer = gitHubPerson(unverified);
    const client = createClient(t.app);
    expect(errorOf(await throughGitHub(client, newcomer.login))).toBeNull();
    expect((await client.get("/get-session")).json().user).toMatchObject({
      email: newcomer.address,
      emailVerified: false,
    });

    // The address of an existing user: someone registered it at GitHub, unverified, and
    // does not get that user's account.
    const victim = gitHubPerson(unverified);
    const owner = createClient(t.app);
    const signUp = await owner.post("/sign-up/email", {
      name: "Owner",
      email: victim.address,
      password: "correct horse battery",
    });
    expect(signUp.statusCode, signUp.body).toBe(200);
    const attacker = createClient(t.app);
    const answer = await throughGitHub(attacker, victim.login, { errorCallbackURL: "/oops" });
    expect(redirectOf(answer).toString()).toBe(`${ORIGIN}/oops?error=unable_to_link_account`);
    expect(setsSession(attacker, answer)).toBe(false);
    expect(await githubAccounts(victim.id)).toEqual([]);
    expect(await usersWithEmail(victim.address)).toHaveLength(1);
    const accounts = (await owner.get("/list-accounts")).json() as Array<{ provider: string }>;
    expect(accounts.map((account) => account.provider)).toEqual(["credential"]);
  });

  it("answers email_not_found when GitHub has no address for the user", async () => {
    const { login, id } = gitHubPerson(() => []);
    expect(errorOf(await throughGitHub(createClient(t.app), login))).toBe("email_not_found");
    expect(await githubAccounts(id)).toEqual([]);
  });

  it("answers invalid_code when the token endpoint answers garbage or an error", async () => {
    for (const mode of ["html", "no-access-token", "form", "error"] as const) {
      hub.mode.token = mode;
      const { login, id } = gitHubPerson();
      const client = createClient(t.app);
      const answer = await throughGitHub(client, login);
      expect(errorOf(answer), mode).toBe("invalid_code");
      expect(setsSession(client, answer), mode).toBe(false);
      expect(await githubAccounts(id), mode).toEqual([]);
    }
    // Nothing got as far as the API.
    expect(hub.received.filter((request) => request.path.startsWith("/user"))).toEqual([]);
  });

  it("answers invalid_code for a code GitHub does not know", async () => {
    const client = createClient(t.app);
    const { state } = await startSocial(client, { provider: "github" });
    const answer = await client.get("/callback/github", {
      query: { code: "not-a-code-github-gave", state },
    });
    expect(errorOf(answer)).toBe("invalid_code");
  });

  it("answers unable_to_get_user_info when /user does not answer in time", async () => {
    hub.mode.user = "hang";
    const { login, id } = gitHubPerson();
    const client = createClient(t.app);
    const started = Date.now();
    const answer = await throughGitHub(client, login);
    expect(errorOf(answer)).toBe("unable_to_get_user_info");
    expect(Date.now() - started).toBeLessThan(3000);
    expect(setsSession(client, answer)).toBe(false);
    expect(await githubAccounts(id)).toEqual([]);
  });
});
