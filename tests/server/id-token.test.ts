/**
 * Id token verification against a real key set server on loopback, with tokens signed by
 * jose: every refusal is INVALID_TOKEN with a loggable reason, key sets are fetched once,
 * refetched for a rotated key only after the cooldown, and never shared between verifiers.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  type CryptoKey,
  exportJWK,
  generateKeyPair,
  type JWK,
  type JWTPayload,
  SignJWT,
  UnsecuredJWT,
} from "jose";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AuthError } from "../../server/errors.js";
import {
  createIdTokenVerifier,
  type IdTokenCheck,
  IdTokenError,
  type IdTokenFailure,
} from "../../server/social/id-token.js";

const ISSUER = "https://accounts.example.test";
const CLIENT_ID = "authd-client-id";
const MS_TEMPLATE = "https://login.microsoftonline.com/{tenantid}/v2.0";
const TENANT = "72f988bf-86f1-41af-91ab-2d7cd011db47";
const OTHER_TENANT = "9188040d-6c67-4c5b-b112-36a304b66dad";

interface SigningKey {
  kid: string;
  alg: string;
  privateKey: CryptoKey;
  jwk: JWK;
}

async function makeKey(kid: string, alg: string): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid, alg, use: "sig" };
  return { kid, alg, privateKey, jwk };
}

/**
 * The provider's key set endpoint. `/jwks…` paths serve the published keys; the others
 * answer the ways a broken provider does. Every request is counted by path.
 */
interface KeyServer {
  origin: string;
  published: JWK[];
  counts: Map<string, number>;
  count(path: string): number;
  close(): Promise<void>;
}

async function startKeyServer(): Promise<KeyServer> {
  const counts = new Map<string, number>();
  const state: KeyServer = {
    origin: "",
    published: [],
    counts,
    count: (path) => counts.get(path) ?? 0,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const json = (response: ServerResponse, body: string) => {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(body);
  };
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    if (path.startsWith("/jwks")) return json(response, JSON.stringify({ keys: state.published }));
    switch (path) {
      case "/garbage":
        return json(response, "<html>this is not json{");
      case "/not-a-key-set":
        return json(response, JSON.stringify({ keys: "none today" }));
      case "/empty":
        return json(response, "");
      case "/huge":
        return json(response, JSON.stringify({ keys: state.published, pad: "x".repeat(64_000) }));
      case "/error":
        response.writeHead(500, { "content-type": "application/json" });
        return response.end(JSON.stringify({ keys: state.published }));
      case "/redirect":
        response.writeHead(302, { location: "/jwks" });
        return response.end();
      case "/hang":
        // Headers never come.
        return;
      case "/trickle":
        // Headers and the start of a body, then nothing more.
        response.writeHead(200, { "content-type": "application/json" });
        response.write('{"keys": [');
        return;
      default:
        response.writeHead(404);
        return response.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  state.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

const now = () => Math.floor(Date.now() / 1000);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let keys: KeyServer;
let primary: SigningKey;
let ecKey: SigningKey;
let edKey: SigningKey;
/** Never published. */
let stranger: SigningKey;
/** Published later, to rotate to. */
let rotated: SigningKey;

interface SignOptions {
  key?: SigningKey;
  kid?: string | null;
}

/** A token of `claims` on top of valid defaults; a claim set to undefined is left out. */
async function sign(claims: JWTPayload = {}, options: SignOptions = {}): Promise<string> {
  const key = options.key ?? primary;
  const payload: JWTPayload = {
    iss: ISSUER,
    aud: CLIENT_ID,
    sub: "provider-user-1",
    iat: now(),
    exp: now() + 600,
    ...claims,
  };
  for (const [name, value] of Object.entries(payload)) {
    if (value === undefined) delete payload[name];
  }
  const kid = options.kid === undefined ? key.kid : options.kid;
  return new SignJWT(payload)
    .setProtectedHeader(kid === null ? { alg: key.alg } : { alg: key.alg, kid })
    .sign(key.privateKey);
}

function check(token: string, overrides: Partial<IdTokenCheck> = {}): IdTokenCheck {
  return {
    token,
    jwksUri: `${keys.origin}/jwks`,
    issuer: ISSUER,
    audience: CLIENT_ID,
    ...overrides,
  };
}

/** The verification's refusal: always INVALID_TOKEN, with the reason for logs. */
async function refusal(promise: Promise<unknown>): Promise<IdTokenFailure> {
  const error = await promise.then(
    () => {
      throw new Error("the token was accepted");
    },
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(IdTokenError);
  expect(error).toBeInstanceOf(AuthError);
  expect((error as AuthError).code).toBe("INVALID_TOKEN");
  return (error as IdTokenError).reason;
}

beforeAll(async () => {
  [primary, ecKey, edKey, stranger, rotated] = await Promise.all([
    makeKey("k1", "RS256"),
    makeKey("ec-1", "ES256"),
    makeKey("ed-1", "EdDSA"),
    makeKey("k-stranger", "RS256"),
    makeKey("k2", "RS256"),
  ]);
  keys = await startKeyServer();
});

afterAll(async () => {
  await keys?.close();
});

beforeEach(() => {
  keys.published = [primary.jwk, ecKey.jwk, edKey.jwk];
  keys.counts.clear();
});

describe("a valid id token", () => {
  it("verifies and answers its claims", async () => {
    const verifier = createIdTokenVerifier();
    const token = await sign({ email: "ada@example.com", email_verified: true });
    const claims = await verifier.verify(check(token));
    expect(claims).toMatchObject({
      iss: ISSUER,
      aud: CLIENT_ID,
      sub: "provider-user-1",
      email: "ada@example.com",
      email_verified: true,
    });
    expect(typeof claims.exp).toBe("number");
    expect(typeof claims.iat).toBe("number");
  });

  it("is signed with any asymmetric algorithm the key set offers", async () => {
    const verifier = createIdTokenVerifier();
    for (const key of [ecKey, edKey]) {
      const claims = await verifier.verify(check(await sign({ sub: key.kid }, { key })));
      expect(claims.sub).toBe(key.kid);
    }
    const ps = await makeKey("ps-1", "PS256");
    keys.published = [...keys.published, ps.jwk];
    const fresh = createIdTokenVerifier();
    expect((await fresh.verify(check(await sign({}, { key: ps })))).sub).toBe("provider-user-1");
  });

  it("may list its audience among others, and be checked against several client ids", async () => {
    const verifier = createIdTokenVerifier();
    const token = await sign({ aud: ["another-app", CLIENT_ID] });
    await expect(verifier.verify(check(token))).resolves.toMatchObject({ sub: "provider-user-1" });
    const single = await sign();
    await expect(
      verifier.verify(check(single, { audience: ["web-client", CLIENT_ID] })),
    ).resolves.toMatchObject({ aud: CLIENT_ID });
  });

  it("matches one of several accepted issuers", async () => {
    const verifier = createIdTokenVerifier();
    const token = await sign({ iss: "accounts.example.test" });
    const claims = await verifier.verify(
      check(token, { issuer: [ISSUER, "accounts.example.test"] }),
    );
    expect(claims.iss).toBe("accounts.example.test");
    expect(await refusal(verifier.verify(check(token)))).toBe("wrong_issuer");
  });

  it("is accepted within the clock tolerance, and refused beyond it", async () => {
    const verifier = createIdTokenVerifier();
    const justExpired = await sign({ iat: now() - 600, exp: now() - 2 });
    await expect(verifier.verify(check(justExpired))).resolves.toBeDefined();
    expect(await refusal(verifier.verify(check(justExpired, { clockToleranceSeconds: 0 })))).toBe(
      "expired",
    );
    const slightlyAhead = await sign({ iat: now() + 2, nbf: now() + 2 });
    await expect(verifier.verify(check(slightlyAhead))).resolves.toBeDefined();
    const wellAhead = await sign({ iat: now() + 30 });
    await expect(
      verifier.verify(check(wellAhead, { clockToleranceSeconds: 60 })),
    ).resolves.toBeDefined();
  });
});

describe("refused tokens", () => {
  it("refuses an expired token", async () => {
    const verifier = createIdTokenVerifier();
    const token = await sign({ iat: now() - 3600, exp: now() - 60 });
    expect(await refusal(verifier.verify(check(token)))).toBe("expired");
  });

  it("refuses a token not valid yet, or issued in the future", async () => {
    const verifier = createIdTokenVerifier();
    const notBefore = await sign({ nbf: now() + 120 });
    expect(await refusal(verifier.verify(check(notBefore)))).toBe("not_yet_valid");
    const future = await sign({ iat: now() + 120, exp: now() + 900 });
    expect(await refusal(verifier.verify(check(future)))).toBe("issued_in_future");
  });

  it("refuses a token without the claims every id token carries", async () => {
    const verifier = createIdTokenVerifier();
    for (const claim of ["exp", "iat", "iss", "aud", "sub"]) {
      const token = await sign({ [claim]: undefined });
      expect(await refusal(verifier.verify(check(token))), claim).toBe("missing_claim");
    }
  });

  it("refuses claims of the wrong type", async () => {
    const verifier = createIdTokenVerifier();
    const stringExp = await sign({ exp: String(now() + 600) as unknown as number });
    expect(await refusal(verifier.verify(check(stringExp)))).toBe("invalid_claim");
    const stringIat = await sign({ iat: "yesterday" as unknown as number });
    expect(await refusal(verifier.verify(check(stringIat)))).toBe("invalid_claim");
    const emptySub = await sign({ sub: "" });
    expect(await refusal(verifier.verify(check(emptySub)))).toBe("invalid_claim");
    const numericIss = await sign({ iss: 42 as unknown as string });
    expect(await refusal(verifier.verify(check(numericIss)))).toBe("wrong_issuer");
  });

  it("refuses a token for another client", async () => {
    const verifier = createIdTokenVerifier();
    const token = await sign({ aud: "someone-else" });
    expect(await refusal(verifier.verify(check(token)))).toBe("wrong_audience");
    const several = await sign({ aud: ["someone-else", "and-another"] });
    expect(await refusal(verifier.verify(check(several)))).toBe("wrong_audience");
    // A prefix or a differently cased id is another client.
    const prefix = await sign({ aud: CLIENT_ID.slice(0, -1) });
    expect(await refusal(verifier.verify(check(prefix)))).toBe("wrong_audience");
    const cased = await sign({ aud: CLIENT_ID.toUpperCase() });
    expect(await refusal(verifier.verify(check(cased)))).toBe("wrong_audience");
  });

  it("refuses a token from another issuer", async () => {
    const verifier = createIdTokenVerifier();
    for (const iss of [
      "https://evil.example.test",
      `${ISSUER}/`,
      "https://ACCOUNTS.example.test",
    ]) {
      const token = await sign({ iss });
      expect(await refusal(verifier.verify(check(token))), iss).toBe("wrong_issuer");
    }
  });

  it("checks the nonce when the caller supplies one", async () => {
    const verifier = createIdTokenVerifier();
    const token = await sign({ nonce: "n-0S6_WzA2Mj" });
    await expect(verifier.verify(check(token, { nonce: "n-0S6_WzA2Mj" }))).resolves.toMatchObject({
      nonce: "n-0S6_WzA2Mj",
    });
    expect(await refusal(verifier.verify(check(token, { nonce: "n-other" })))).toBe("wrong_nonce");
    const numeric = await sign({ nonce: 12345 });
    expect(await refusal(verifier.verify(check(numeric, { nonce: "12345" })))).toBe("wrong_nonce");
    const without = await sign();
    expect(await refusal(verifier.verify(check(without, { nonce: "n-0S6_WzA2Mj" })))).toBe(
      "missing_nonce",
    );
    // No nonce asked for: a token with one is accepted as it is.
    await expect(verifier.verify(check(token))).resolves.toMatchObject({ nonce: "n-0S6_WzA2Mj" });
  });

  it("refuses a token signed by a key outside the set", async () => {
    const verifier = createIdTokenVerifier();
    const unknownKid = await sign({}, { key: stranger });
    expect(await refusal(verifier.verify(check(unknownKid)))).toBe("no_matching_key");
    // The stranger's key under a published kid: the published key does not verify it.
    const borrowedKid = await sign({}, { key: stranger, kid: primary.kid });
    expect(await refusal(verifier.verify(check(borrowedKid)))).toBe("bad_signature");
  });

  it("refuses a token whose signature or payload was changed", async () => {
    const verifier = createIdTokenVerifier();
    const [header, payload, signature] = (await sign()).split(".") as [string, string, string];
    const forgedPayload = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, "base64url").toString()), sub: "admin" }),
    ).toString("base64url");
    expect(await refusal(verifier.verify(check(`${header}.${forgedPayload}.${signature}`)))).toBe(
      "bad_signature",
    );
    const flipped = `${signature.slice(0, 10)}${signature[10] === "A" ? "B" : "A"}${signature.slice(11)}`;
    expect(await refusal(verifier.verify(check(`${header}.${payload}.${flipped}`)))).toBe(
      "bad_signature",
    );
  });

  it("refuses alg none and HMAC tokens without fetching the key set", async () => {
    const verifier = createIdTokenVerifier();
    const claims = { iss: ISSUER, aud: CLIENT_ID, sub: "provider-user-1" };
    const unsecured = new UnsecuredJWT(claims).setIssuedAt().setExpirationTime("10m").encode();
    expect(await refusal(verifier.verify(check(unsecured)))).toBe("algorithm_not_allowed");
    // HS256 keyed with the client id (public) or anything else: never accepted.
    const hmac = await new SignJWT(claims)
      .setProtectedHeader({ alg: "HS256", kid: primary.kid })
      .setIssuedAt()
      .setExpirationTime("10m")
      .sign(new TextEncoder().encode(CLIENT_ID));
    expect(await refusal(verifier.verify(check(hmac)))).toBe("algorithm_not_allowed");
    // The RSA key's own public JWK, reused as an HMAC secret (the classic confusion).
    const confused = await new SignJWT(claims)
      .setProtectedHeader({ alg: "HS256", kid: primary.kid })
      .setIssuedAt()
      .setExpirationTime("10m")
      .sign(new TextEncoder().encode(JSON.stringify(primary.jwk)));
    expect(await refusal(verifier.verify(check(confused)))).toBe("algorithm_not_allowed");
    expect(keys.count("/jwks")).toBe(0);
  });

  it("refuses malformed strings without fetching the key set", async () => {
    const verifier = createIdTokenVerifier();
    const [header, payload] = (await sign()).split(".") as [string, string];
    const encoded = (text: string) => Buffer.from(text).toString("base64url");
    for (const token of [
      "",
      "a.b",
      "garbage",
      "a.b.c",
      "....",
      `${header}.${payload}`,
      `${header}.${payload}.c2ln.extra`,
      `${header}.!!!.c2ln`,
      `${header}.${encoded("not json")}.c2ln`,
      `${header}.${encoded("[1,2]")}.c2ln`,
      `${encoded("[]")}.${payload}.c2ln`,
      `${encoded('{"alg":')}.${payload}.c2ln`,
      "x".repeat(70_000),
      `${header}.${payload}.${"A".repeat(70_000)}`,
    ]) {
      expect(await refusal(verifier.verify(check(token))), token.slice(0, 40)).toBe("malformed");
    }
    const notAString = 42 as unknown as string;
    expect(await refusal(verifier.verify(check(notAString)))).toBe("malformed");
    // The header and payload are read before any key: none of these reached the key set.
    expect(keys.count("/jwks")).toBe(0);
  });

  it("refuses a well-formed token whose signature is not base64url", async () => {
    const verifier = createIdTokenVerifier();
    const [header, payload] = (await sign()).split(".") as [string, string];
    expect(await refusal(verifier.verify(check(`${header}.${payload}.!!!`)))).toBe("malformed");
    expect(await refusal(verifier.verify(check(`${header}.${payload}.`)))).toBe("bad_signature");
  });
});

describe("the key set server misbehaving", () => {
  it("answering garbage, something other than a key set, or nothing", async () => {
    const verifier = createIdTokenVerifier({ timeoutMs: 1_000 });
    const token = await sign();
    for (const path of ["/garbage", "/not-a-key-set", "/empty"]) {
      const reason = await refusal(verifier.verify(check(token, { jwksUri: keys.origin + path })));
      expect(reason, path).toBe("key_set_invalid");
    }
  });

  it("answering 500, a redirect or 404, or not listening", async () => {
    const verifier = createIdTokenVerifier({ timeoutMs: 1_000 });
    const token = await sign();
    for (const path of ["/error", "/redirect", "/missing"]) {
      const reason = await refusal(verifier.verify(check(token, { jwksUri: keys.origin + path })));
      expect(reason, path).toBe("key_set_unavailable");
    }
    // The redirect was not followed.
    expect(keys.count("/jwks")).toBe(0);
    const closed = await startKeyServer();
    const origin = closed.origin;
    await closed.close();
    expect(await refusal(verifier.verify(check(token, { jwksUri: `${origin}/jwks` })))).toBe(
      "key_set_unavailable",
    );
  });

  it("answering more than the size limit", async () => {
    const verifier = createIdTokenVerifier({ maxKeySetBytes: 16_000 });
    const token = await sign();
    expect(await refusal(verifier.verify(check(token, { jwksUri: `${keys.origin}/huge` })))).toBe(
      "key_set_invalid",
    );
    // The same answer within a larger limit is a fine key set.
    const roomy = createIdTokenVerifier({ maxKeySetBytes: 100_000 });
    await expect(
      roomy.verify(check(token, { jwksUri: `${keys.origin}/huge` })),
    ).resolves.toBeDefined();
  });

  it("never answering: refused after the timeout, not hanging", async () => {
    const verifier = createIdTokenVerifier({ timeoutMs: 300 });
    const token = await sign();
    for (const path of ["/hang", "/trickle"]) {
      const started = Date.now();
      const reason = await refusal(verifier.verify(check(token, { jwksUri: keys.origin + path })));
      const elapsed = Date.now() - started;
      expect(reason, path).toBe("key_set_timeout");
      expect(elapsed, path).toBeGreaterThanOrEqual(250);
      expect(elapsed, path).toBeLessThan(3_000);
    }
  });

  it("publishing no keys at all", async () => {
    const verifier = createIdTokenVerifier();
    keys.published = [];
    expect(await refusal(verifier.verify(check(await sign())))).toBe("no_matching_key");
  });

  it("failing: a failed fetch is not cached, the next verification fetches again", async () => {
    const token = await sign();
    const broken = createIdTokenVerifier({ timeoutMs: 1_000 });
    expect(await refusal(broken.verify(check(token, { jwksUri: `${keys.origin}/error` })))).toBe(
      "key_set_unavailable",
    );
    expect(await refusal(broken.verify(check(token, { jwksUri: `${keys.origin}/error` })))).toBe(
      "key_set_unavailable",
    );
    expect(keys.count("/error")).toBe(2);
  });
});

describe("key set caching", () => {
  it("fetches a key set once for many verifications", async () => {
    const verifier = createIdTokenVerifier();
    await verifier.verify(check(await sign()));
    await verifier.verify(check(await sign({ sub: "provider-user-2" })));
    await verifier.verify(check(await sign({}, { key: ecKey })));
    expect(keys.count("/jwks")).toBe(1);
  });

  it("shares one fetch between concurrent verifications", async () => {
    const verifier = createIdTokenVerifier();
    const tokens = await Promise.all([1, 2, 3, 4, 5].map((n) => sign({ sub: `user-${n}` })));
    const claims = await Promise.all(tokens.map((token) => verifier.verify(check(token))));
    expect(claims.map((claim) => claim.sub)).toEqual([
      "user-1",
      "user-2",
      "user-3",
      "user-4",
      "user-5",
    ]);
    expect(keys.count("/jwks")).toBe(1);
  });

  it("picks up a rotated key after the cooldown, and not before", async () => {
    const verifier = createIdTokenVerifier({ cooldownMs: 400 });
    await verifier.verify(check(await sign()));
    expect(keys.count("/jwks")).toBe(1);

    keys.published = [...keys.published, rotated.jwk];
    const newToken = await sign({}, { key: rotated });
    // Just fetched: an unknown kid does not cause another fetch yet.
    expect(await refusal(verifier.verify(check(newToken)))).toBe("no_matching_key");
    expect(await refusal(verifier.verify(check(newToken)))).toBe("no_matching_key");
    expect(keys.count("/jwks")).toBe(1);

    await sleep(500);
    await expect(verifier.verify(check(newToken))).resolves.toMatchObject({ iss: ISSUER });
    expect(keys.count("/jwks")).toBe(2);
    // The old key is still published and still verifies, from the cache.
    await verifier.verify(check(await sign()));
    expect(keys.count("/jwks")).toBe(2);

    // A forged kid right after the refetch is refused without a third fetch.
    expect(await refusal(verifier.verify(check(await sign({}, { key: stranger }))))).toBe(
      "no_matching_key",
    );
    expect(keys.count("/jwks")).toBe(2);
  });

  it("drops a retired key once the cached set is refetched", async () => {
    const verifier = createIdTokenVerifier({ cacheMaxAgeMs: 300 });
    const token = await sign();
    await verifier.verify(check(token));
    keys.published = [rotated.jwk];
    // Still cached: the retired key verifies until the cache expires.
    await verifier.verify(check(token));
    expect(keys.count("/jwks")).toBe(1);
    await sleep(400);
    expect(await refusal(verifier.verify(check(token)))).toBe("no_matching_key");
    expect(keys.count("/jwks")).toBe(2);
  });

  it("keeps at most maxKeySets key sets, dropping the least recently used", async () => {
    const verifier = createIdTokenVerifier({ maxKeySets: 2 });
    const token = await sign();
    const at = (path: string) => check(token, { jwksUri: `${keys.origin}${path}` });
    await verifier.verify(at("/jwks-a"));
    await verifier.verify(at("/jwks-b"));
    await verifier.verify(at("/jwks-a")); // a is now the most recently used
    await verifier.verify(at("/jwks-c")); // drops b
    await verifier.verify(at("/jwks-a"));
    await verifier.verify(at("/jwks-c"));
    expect([keys.count("/jwks-a"), keys.count("/jwks-b"), keys.count("/jwks-c")]).toEqual([
      1, 1, 1,
    ]);
    await verifier.verify(at("/jwks-b")); // fetched again, drops a
    await verifier.verify(at("/jwks-a"));
    expect([keys.count("/jwks-a"), keys.count("/jwks-b"), keys.count("/jwks-c")]).toEqual([
      2, 2, 1,
    ]);
  });

  it("shares nothing between two verifiers", async () => {
    const first = createIdTokenVerifier();
    const second = createIdTokenVerifier();
    const token = await sign();
    await first.verify(check(token));
    await second.verify(check(token));
    await first.verify(check(token));
    await second.verify(check(token));
    expect(keys.count("/jwks")).toBe(2);
  });

  it("uses the fetch it is given", async () => {
    const seen: string[] = [];
    const verifier = createIdTokenVerifier({
      fetch: async (url, init) => {
        seen.push(url);
        expect(init.redirect).toBe("manual");
        expect(init.signal).toBeInstanceOf(AbortSignal);
        return new Response(JSON.stringify({ keys: [primary.jwk] }), { status: 200 });
      },
    });
    await verifier.verify(check(await sign(), { jwksUri: "https://keys.example.test/jwks" }));
    expect(seen).toEqual(["https://keys.example.test/jwks"]);
    expect(keys.count("/jwks")).toBe(0);
  });
});

describe("Microsoft's multi-tenant issuer", () => {
  const msIssuer = (tenant: string) => `https://login.microsoftonline.com/${tenant}/v2.0`;

  it("accepts a token whose issuer names its own tenant", async () => {
    const verifier = createIdTokenVerifier();
    for (const tenant of [TENANT, OTHER_TENANT]) {
      const token = await sign({ iss: msIssuer(tenant), tid: tenant });
      const claims = await verifier.verify(check(token, { issuer: MS_TEMPLATE }));
      expect(claims.tid).toBe(tenant);
    }
    // A template among fixed issuers.
    const token = await sign({ iss: msIssuer(TENANT), tid: TENANT });
    await expect(
      verifier.verify(check(token, { issuer: [ISSUER, MS_TEMPLATE] })),
    ).resolves.toBeDefined();
    await expect(
      verifier.verify(check(await sign(), { issuer: [MS_TEMPLATE, ISSUER] })),
    ).resolves.toBeDefined();
  });

  it("refuses a tenant mismatch, a missing tid, or a tid that is no tenant id", async () => {
    const verifier = createIdTokenVerifier();
    const cases: JWTPayload[] = [
      { iss: msIssuer(TENANT), tid: OTHER_TENANT },
      { iss: msIssuer(TENANT) },
      { iss: msIssuer(TENANT), tid: 42 },
      { iss: msIssuer("{tenantid}"), tid: "{tenantid}" },
      { iss: "https://login.microsoftonline.com/x/y/v2.0", tid: "x/y" },
      { iss: "https://login.microsoftonline.com//v2.0", tid: "" },
      { iss: msIssuer(TENANT).replace("/v2.0", "/v1.0"), tid: TENANT },
      { iss: `https://sts.windows.net/${TENANT}/`, tid: TENANT },
    ];
    for (const claims of cases) {
      const token = await sign(claims);
      const reason = await refusal(verifier.verify(check(token, { issuer: MS_TEMPLATE })));
      expect(reason, JSON.stringify(claims)).toBe("wrong_issuer");
    }
  });

  it("is no template when the issuer is fixed: tid plays no part", async () => {
    const verifier = createIdTokenVerifier();
    const token = await sign({ iss: msIssuer(TENANT), tid: OTHER_TENANT });
    await expect(
      verifier.verify(check(token, { issuer: msIssuer(TENANT) })),
    ).resolves.toBeDefined();
  });
});

describe("what a refusal carries", () => {
  it("is the catalogue's INVALID_TOKEN on the wire, with the reason kept off it", async () => {
    const verifier = createIdTokenVerifier();
    const token = await sign({ aud: "someone-else", email: "ada@example.com" });
    const error = (await verifier
      .verify(check(token))
      .catch((caught: unknown) => caught)) as IdTokenError;
    expect(error.status).toBe(401);
    expect(error.message).toBe("invalid token");
    expect(error.toBody()).toEqual({ code: "INVALID_TOKEN", message: "invalid token" });
    expect(error.reason).toBe("wrong_audience");
    expect(error.cause).toBeUndefined();
    // What a log line would hold: no part of the token, none of its claims.
    const logged = JSON.stringify({ ...error, message: error.message, stack: error.stack });
    for (const part of token.split(".")) expect(logged).not.toContain(part);
    expect(logged).not.toContain("ada@example.com");
    expect(logged).toContain("wrong_audience");
  });

  it("is a TypeError, not a refused token, when the caller's settings are wrong", async () => {
    const verifier = createIdTokenVerifier();
    const token = await sign();
    await expect(verifier.verify(check(token, { audience: [] }))).rejects.toThrow(TypeError);
    await expect(verifier.verify(check(token, { audience: "" }))).rejects.toThrow(TypeError);
    await expect(verifier.verify(check(token, { issuer: [] }))).rejects.toThrow(TypeError);
    await expect(verifier.verify(check(token, { jwksUri: "not a url" }))).rejects.toThrow(
      TypeError,
    );
    await expect(verifier.verify(check(token, { jwksUri: "file:///etc/passwd" }))).rejects.toThrow(
      TypeError,
    );
    await expect(verifier.verify(check(token, { nonce: "" }))).rejects.toThrow(TypeError);
    await expect(verifier.verify(check(token, { clockToleranceSeconds: -1 }))).rejects.toThrow(
      TypeError,
    );
    expect(() => createIdTokenVerifier({ timeoutMs: 0 })).toThrow(TypeError);
    expect(() => createIdTokenVerifier({ timeoutMs: 1.5 })).toThrow(TypeError);
    expect(() => createIdTokenVerifier({ maxKeySets: 0 })).toThrow(TypeError);
    expect(() => createIdTokenVerifier({ cooldownMs: Number.NaN })).toThrow(TypeError);
  });
});
