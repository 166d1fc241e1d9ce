/**
 * Providers other than a discovered issuer, against a small HTTP server that plays the
 * provider and can misbehave: one configured by its three endpoints, a built-in one
 * (a definition given to the app as its catalogue), timeouts and garbage, an issuer
 * that cannot be discovered, and the configuration check.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ConfigError, configSchema, validateConfig } from "../../server/config.js";
import { sha256 } from "../../server/crypto/digest.js";
import { createLogger } from "../../server/logger.js";
import { providerSourceProblems } from "../../server/social/config-check.js";
import { createSocialContext } from "../../server/social/context.js";
import type { ProviderDefinition } from "../../server/social/provider.js";
import { createTestApp, type TestApp } from "../helpers/app.js";
import { createClient } from "../helpers/client.js";
import { errorOf, ORIGIN, redirectOf, startSocial } from "../helpers/social.js";

interface Received {
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
}

type TokenMode = "ok" | "garbage" | "malformed" | "error" | "hang";
type UserMode = "ok" | "hang" | "array" | "huge" | "500" | "no-email";
const mode: { token: TokenMode; user: UserMode } = { token: "ok", user: "ok" };
const received: Received[] = [];
let server: Server;
let fake: string;

function json(response: import("node:http").ServerResponse, status: number, value: unknown) {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(value));
}

/** A GitHub-like provider: a numeric id, a login, its own profile shape. */
const testhub: ProviderDefinition = {
  id: "testhub",
  name: "TestHub",
  authorizationEndpoint: "https://testhub.invalid/login/oauth/authorize",
  tokenEndpoint: "https://testhub.invalid/login/oauth/access_token",
  userInfoEndpoint: "https://api.testhub.invalid/user",
  scopes: ["read:user"],
  scopeSeparator: ",",
  pkce: false,
  tokenEndpointAuth: "client_secret_post",
  authorizationParams: { allow_signup: "true" },
  clientIdParameter: "client_key",
  callbackTokenParams: ["device_id"],
  tokenRequestHeaders: { "x-testhub-client": "authd-test" },
  async fetchProfile({ tokens, endpoints, fetchJson }) {
    const user = (await fetchJson(endpoints.userInfoEndpoint ?? "", {
      accessToken: tokens.accessToken,
    })) as { id?: unknown; login?: string; email?: string; verified?: boolean };
    if (typeof user.id !== "number") return null;
    const profile = {
      id: String(user.id),
      email: user.email ?? null,
      emailVerified: user.verified === true,
      name: user.login ?? "",
      image: null,
    };
    return { profile, raw: user as Record<string, unknown> };
  },
};

const logLines: string[] = [];
let t: TestApp;
let closedPort: number;

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      const path = (request.url ?? "").split("?")[0] ?? "";
      received.push({ path, headers: request.headers, body });
      if (path === "/token") {
        if (mode.token === "hang") return;
        if (mode.token === "garbage") return response.end("this is not JSON");
        if (mode.token === "malformed") {
          response.writeHead(200, { "content-type": "application/json" });
          return response.end("{not json");
        }
        if (mode.token === "error") return json(response, 400, { error: "invalid_grant" });
        return json(response, 200, {
          access_token: "fake-access-token",
          refresh_token: "fake-refresh-token",
          token_type: "Bearer",
          expires_in: 3600,
        });
      }
      if (mode.user === "hang") return;
      if (mode.user === "500") return json(response, 500, { message: "down" });
      if (mode.user === "array") return json(response, 200, [1, 2, 3]);
      if (mode.user === "huge") return json(response, 200, { sub: "x", pad: "x".repeat(200_000) });
      const email = mode.user === "no-email" ? undefined : "Fake.User@example.com";
      if (path === "/hub/user") {
        return json(response, 200, {
          id: 42,
          login: "octo",
          email: "octo@example.com",
          verified: true,
        });
      }
      return json(response, 200, { sub: "fake-1", email, email_verified: true, name: "Fake User" });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // A port nothing listens on: bound, read, closed.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));

  const logConfig = configSchema.parse({ log: { level: "info", format: "json" } });
  t = await createTestApp({
    config: {
      socialProviders: {
        fake: {
          clientId: "fake-client",
          clientSecret: "fake-client-secret",
          authorizationEndpoint: `${fake}/authorize`,
          tokenEndpoint: `${fake}/token`,
          userInfoEndpoint: `${fake}/userinfo`,
        },
        testhub: {
          clientId: "hub-client",
          clientSecret: "hub-client-secret",
          tokenEndpoint: `${fake}/token`,
          userInfoEndpoint: `${fake}/hub/user`,
        },
        down: { clientId: "c", clientSecret: "s", issuer: `http://127.0.0.1:${closedPort}` },
      },
    },
    social: {
      catalogue: { testhub },
      limits: { timeoutMs: 500, discoveryTimeoutMs: 500, maxBytes: 64 * 1024 },
    },
    logger: createLogger(logConfig, { write: (line: string) => void logLines.push(line) }),
  });
});

afterAll(async () => {
  await t?.close();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
});

beforeEach(() => {
  mode.token = "ok";
  mode.user = "ok";
  received.length = 0;
});

/** Starts a sign-in and comes back with `code`, as the provider would have sent the browser. */
async function roundTrip(provider: string, code = "the-code", body: Record<string, unknown> = {}) {
  const client = createClient(t.app);
  const { url, state } = await startSocial(client, { provider, ...body });
  const answer = await client.get(`/callback/${provider}`, {
    query: { code, state, device_id: "device-7" },
  });
  return { client, url, state, answer };
}

describe("a provider configured by its three endpoints", () => {
  it("signs up with PKCE, Basic client credentials, a Bearer token and User-Agent authd", async () => {
    const { url, answer, client } = await roundTrip("fake");
    expect(`${url.origin}${url.pathname}`).toBe(`${fake}/authorize`);
    expect(url.searchParams.get("nonce")).toBeNull();
    expect(redirectOf(answer).toString()).toBe(`${ORIGIN}/`);
    expect((await client.get("/get-session")).json().user).toMatchObject({
      email: "fake.user@example.com",
      name: "Fake User",
      emailVerified: true,
    });

    const token = received.find((request) => request.path === "/token");
    const form = new URLSearchParams(token?.body);
    expect(form.get("grant_type")).toBe("authorization_code");
    expect(form.get("code")).toBe("the-code");
    expect(form.get("redirect_uri")).toBe(`${ORIGIN}/api/auth/callback/fake`);
    expect(sha256(form.get("code_verifier") ?? "")).toBe(url.searchParams.get("code_challenge"));
    expect(form.get("client_secret")).toBeNull();
    const basic = Buffer.from("fake-client:fake-client-secret").toString("base64");
    expect(token?.headers.authorization).toBe(`Basic ${basic}`);
    const userInfo = received.find((request) => request.path === "/userinfo");
    expect(userInfo?.headers.authorization).toBe("Bearer fake-access-token");
    expect(userInfo?.headers["user-agent"]).toBe("authd");
    expect(userInfo?.headers.accept).toBe("application/json");
  });

  it("answers invalid_code when the token endpoint fails or answers garbage", async () => {
    for (const tokenMode of ["garbage", "malformed", "error"] as const) {
      mode.token = tokenMode;
      const { answer } = await roundTrip("fake");
      expect(errorOf(answer), tokenMode).toBe("invalid_code");
    }
  });

  it("gives up on a token endpoint that does not answer, within the time limit", async () => {
    mode.token = "hang";
    const started = Date.now();
    const { answer } = await roundTrip("fake");
    expect(errorOf(answer)).toBe("invalid_code");
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("answers unable_to_get_user_info when the profile is slow, not an object, too big or failed", async () => {
    for (const userMode of ["hang", "array", "huge", "500"] as const) {
      mode.user = userMode;
      const { answer } = await roundTrip("fake");
      expect(errorOf(answer), userMode).toBe("unable_to_get_user_info");
    }
  });

  it("answers email_not_found for a profile without an address", async () => {
    mode.user = "no-email";
    expect(errorOf((await roundTrip("fake")).answer)).toBe("email_not_found");
  });

  it("never logs the code, the state, the verifier, a token or the client secret", async () => {
    mode.token = "error";
    const { state } = await roundTrip("fake", "secret-code-value");
    mode.token = "ok";
    await roundTrip("fake", "another-secret-code");
    const log = logLines.join("\n");
    expect(log).toContain("social sign-in: code exchange failed");
    expect(log).toContain("invalid_grant");
    for (const secret of [
      "secret-code-value",
      "another-secret-code",
      state,
      "fake-client-secret",
      "fake-access-token",
      "fake-refresh-token",
    ]) {
      expect(log).not.toContain(secret);
    }
  });
});

describe("a built-in provider (from the app's catalogue)", () => {
  it("uses the definition, with the configured endpoints taking precedence", async () => {
    const { url, answer, client } = await roundTrip("testhub", "hub-code", {
      scopes: ["user:email"],
    });
    expect(`${url.origin}${url.pathname}`).toBe("https://testhub.invalid/login/oauth/authorize");
    expect(url.searchParams.get("client_key")).toBe("hub-client");
    expect(url.searchParams.get("client_id")).toBeNull();
    expect(url.searchParams.get("scope")).toBe("read:user,user:email");
    expect(url.searchParams.get("allow_signup")).toBe("true");
    expect(url.searchParams.get("code_challenge")).toBeNull();
    expect(errorOf(answer)).toBeNull();
    expect((await client.get("/get-session")).json().user.name).toBe("octo");
    const accounts = (await client.get("/list-accounts")).json();
    expect(accounts).toEqual([expect.objectContaining({ provider: "testhub", accountId: "42" })]);

    const form = new URLSearchParams(received.find((request) => request.path === "/token")?.body);
    // The definition's name for the client id holds in the token request too, with the
    // callback parameters and headers it asks for.
    expect(form.get("client_key")).toBe("hub-client");
    expect(form.get("client_id")).toBeNull();
    expect(form.get("client_secret")).toBe("hub-client-secret");
    expect(form.get("device_id")).toBe("device-7");
    const token = received.find((request) => request.path === "/token");
    expect(token?.headers["x-testhub-client"]).toBe("authd-test");
    expect(form.get("code_verifier")).toBeNull();
    const profile = received.find((request) => request.path === "/hub/user");
    expect(profile?.headers.authorization).toBe("Bearer fake-access-token");

    const listed = (await createClient(t.app).get("/social-providers")).json();
    expect(listed).toContainEqual({ id: "testhub", name: "TestHub" });
  });
});

describe("an issuer that cannot be discovered", () => {
  it("answers 502 PROVIDER_UNAVAILABLE", async () => {
    const response = await createClient(t.app).post("/sign-in/social", { provider: "down" });
    expect(response.statusCode).toBe(502);
    expect(response.json().code).toBe("PROVIDER_UNAVAILABLE");
  });
});

describe("the configuration check", () => {
  const credentials = { clientId: "id", clientSecret: "secret" };

  it("wants each provider built in, discovered by its issuer, or given three endpoints", () => {
    const config = validateConfig(
      {
        socialProviders: {
          testhub: credentials,
          oidc: { ...credentials, issuer: "https://id.example.com" },
          manual: {
            ...credentials,
            authorizationEndpoint: "https://x.example/a",
            tokenEndpoint: "https://x.example/t",
            userInfoEndpoint: "https://x.example/u",
          },
          partial: { ...credentials, tokenEndpoint: "https://x.example/t" },
          unknown: credentials,
        },
      },
      "test.json",
    );
    expect(providerSourceProblems(config, { testhub }, "test.json")).toEqual(
      ["partial", "unknown"].map(
        (id) =>
          `test.json: socialProviders.${id}: "${id}" is not a built-in provider: expected an issuer (OpenID Connect discovery) or authorizationEndpoint, tokenEndpoint and userInfoEndpoint`,
      ),
    );
  });

  it("stops an app from being built with such a provider", () => {
    const config = validateConfig(
      { secret: "s".repeat(40), socialProviders: { unknown: credentials } },
      "test",
    );
    expect(() => createSocialContext(config, "s".repeat(40), { catalogue: { testhub } })).toThrow(
      ConfigError,
    );
  });
});
