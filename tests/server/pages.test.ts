/**
 * The pages authd serves itself: what the built app answers (headers, compression,
 * validators, deep links, unknown paths), under another `pages.path` and switched off;
 * the `pages` settings; and the mailed links that open these pages.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AuthdConfigInput, ConfigError, validateConfig } from "../../server/config.js";
import { generateId } from "../../server/crypto/random.js";
import { createLogger } from "../../server/logger.js";
import { insertMember } from "../../server/organization/member-queries.js";
import { insertOrganization } from "../../server/organization/queries.js";
import { PAGES_CSP } from "../../server/pages/site.js";
import { createTestApp, type TestApp } from "../helpers/app.js";
import { createClient } from "../helpers/client.js";

const ORIGIN = "http://localhost:3000";
const PASSWORD = "correct horse battery";
const PAGE_ROUTES = [
  "/",
  "/sign-in",
  "/sign-up",
  "/forgot-password",
  "/reset-password",
  "/verify-email",
  "/accept-invitation/abc",
  "/account",
  "/organization",
  "/organization/new",
];

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    config: {
      emailVerification: { sendOnSignUp: true },
      user: { deleteUser: { enabled: true }, changeEmail: { enabled: true } },
    },
  });
});

afterAll(async () => {
  await t?.close();
});

function get(app: TestApp, url: string, headers: Record<string, string> = {}) {
  return app.app.inject({ method: "GET", url, headers });
}

/** The script and stylesheet URLs index.html names. */
function assetUrls(html: string): string[] {
  return [...html.matchAll(/(?:src|href)="([^"]*\/assets\/[^"]+)"/g)].map(
    (match) => match[1] ?? "",
  );
}

function directives(response: LightMyRequestResponse): string[] {
  return String(response.headers["content-security-policy"]).split("; ");
}

describe("index.html", () => {
  it.each(PAGE_ROUTES)("GET %s answers the app with its headers", async (url) => {
    const response = await get(t, url);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(response.headers["cache-control"]).toBe("no-store");
    expect(response.headers["referrer-policy"]).toBe("no-referrer");
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(response.headers.vary).toBe("accept-encoding");
    expect(response.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(response.body).toContain('<div id="root"></div>');
  });

  it("sends a strict Content-Security-Policy: no inline code, no eval, never framed", async () => {
    const response = await get(t, "/sign-in");
    expect(directives(response)).toEqual([
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self'",
      "img-src 'self' data: https:",
      "connect-src 'self'",
      "font-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
      "form-action 'self'",
      "frame-ancestors 'none'",
    ]);
    expect(response.headers["content-security-policy"]).toBe(PAGES_CSP);
    expect(response.headers["content-security-policy"]).not.toMatch(/unsafe-(inline|eval)/);
    // Nothing inline that the policy would have to allow.
    expect(response.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(response.body).not.toMatch(/\sstyle=/);
    expect(response.body).not.toContain("<style");
  });

  it("carries the runtime settings the app reads, as attributes of <html>", async () => {
    const response = await get(t, "/");
    expect(response.body).toMatch(
      /<html lang="en" data-authd-api-base-path="\/api\/auth" data-authd-pages-path="\/" data-authd-features="organization delete-user change-email" data-authd-password-min-length="8" data-authd-password-max-length="128">/,
    );
  });

  it("names its assets with absolute, hashed URLs, so deep links load them", async () => {
    for (const url of ["/organization/new", "/accept-invitation/abc"]) {
      const html = (await get(t, url)).body;
      const assets = assetUrls(html);
      expect(assets.some((asset) => /^\/assets\/index-[\w-]+\.js$/.test(asset))).toBe(true);
      expect(assets.some((asset) => /^\/assets\/index-[\w-]+\.css$/.test(asset))).toBe(true);
      for (const asset of assets) {
        expect((await get(t, asset)).statusCode, asset).toBe(200);
      }
    }
  });

  it("answers the index with 404 for an unknown page, and the API's 404 under its path", async () => {
    const unknown = await get(t, "/no-such-page/deeper");
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(unknown.headers["content-security-policy"]).toBe(PAGES_CSP);
    expect(unknown.body).toContain('<div id="root"></div>');
    // An invitation link without its id names no invitation.
    const noInvitation = await get(t, "/accept-invitation/");
    expect(noInvitation.statusCode).toBe(404);
    expect(noInvitation.body).toContain('<div id="root"></div>');

    const api = await get(t, "/api/auth/no-such-route");
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ code: "NOT_FOUND", message: "Not found" });
    expect((await get(t, "/api/auth/ok")).json()).toEqual({ ok: true });
  });

  it("leaves the pages out of the OpenAPI document", async () => {
    const document = (await get(t, "/api/auth/openapi.json")).json() as {
      paths: Record<string, unknown>;
    };
    const keys = Object.keys(document.paths);
    expect(keys).toContain("/api/auth/sign-in/email");
    expect(keys).not.toContain("/sign-in");
    expect(keys).not.toContain("/");
    expect(keys.some((key) => key.includes("assets") || key.includes("*"))).toBe(false);
  });
});

describe("assets", () => {
  let script = "";
  let stylesheet = "";
  beforeAll(async () => {
    const assets = assetUrls((await get(t, "/")).body);
    script = assets.find((asset) => asset.endsWith(".js")) ?? "";
    stylesheet = assets.find((asset) => asset.endsWith(".css")) ?? "";
  });

  it("are cached for a year as immutable, which the API's no-store does not override", async () => {
    const js = await get(t, script);
    expect(js.statusCode).toBe(200);
    expect(js.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(js.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(js.headers["x-content-type-options"]).toBe("nosniff");
    expect(js.headers.vary).toBe("accept-encoding");
    const css = await get(t, stylesheet);
    expect(css.headers["content-type"]).toBe("text/css; charset=utf-8");
    expect(css.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  });

  it("an unknown asset is a 404, never the index", async () => {
    for (const url of ["/assets/index-nope.js", "/assets/nested/file.js", "/assets/"]) {
      const response = await get(t, url);
      expect(response.statusCode, url).toBe(404);
      expect(response.headers["content-type"], url).toContain("application/json");
      expect(response.body, url).not.toContain("<html");
    }
  });
});

describe("compression", () => {
  it.each(["/sign-in", "asset"])("serves %s as br, gzip or none, byte for byte", async (which) => {
    const url = which === "asset" ? (assetUrls((await get(t, "/")).body)[0] ?? "") : which;
    const plain = await get(t, url);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    const original = plain.rawPayload;
    expect(Number(plain.headers["content-length"])).toBe(original.length);

    const br = await get(t, url, { "accept-encoding": "gzip, deflate, br" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toBe("accept-encoding");
    expect(br.rawPayload.length).toBeLessThan(original.length);
    expect(brotliDecompressSync(br.rawPayload).equals(original)).toBe(true);

    const gzip = await get(t, url, { "accept-encoding": "gzip" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzip.rawPayload).equals(original)).toBe(true);

    const refused = await get(t, url, { "accept-encoding": "br;q=0, gzip;q=0.5" });
    expect(refused.headers["content-encoding"]).toBe("gzip");
    const identity = await get(t, url, { "accept-encoding": "identity" });
    expect(identity.headers["content-encoding"]).toBeUndefined();
    expect(identity.rawPayload.equals(original)).toBe(true);

    // Each encoding is its own representation: its own ETag.
    expect(new Set([plain, br, gzip].map((response) => response.headers.etag)).size).toBe(3);
  });
});

describe("the encoding each header value asks for", () => {
  it("stays right for many distinct values, asked again and again", async () => {
    // More distinct values than an app remembers choices for, each asked twice.
    const values = Array.from({ length: 80 }, (_, i) =>
      i % 4 === 0
        ? `gzip;q=0.${(i % 9) + 1}, br;q=0`
        : i % 4 === 1
          ? `br;q=0.${(i % 9) + 1}, identity`
          : i % 4 === 2
            ? `identity;q=0.${(i % 9) + 1}`
            : `deflate, *;q=0.${(i % 9) + 1}`,
    );
    const expected = (i: number) => ["gzip", "br", undefined, "br"][i % 4];
    for (const round of [1, 2]) {
      for (const [i, value] of values.entries()) {
        const response = await get(t, "/sign-in", { "accept-encoding": value });
        expect(response.headers["content-encoding"], `${value} (round ${round})`).toBe(expected(i));
      }
    }
  });
});

describe("validators and HEAD", () => {
  it("answers 304 to If-None-Match with the current ETag, 200 otherwise", async () => {
    for (const url of ["/sign-in", assetUrls((await get(t, "/")).body)[0] ?? ""]) {
      const first = await get(t, url, { "accept-encoding": "br" });
      const etag = String(first.headers.etag);
      const again = await get(t, url, { "accept-encoding": "br", "if-none-match": etag });
      expect(again.statusCode, url).toBe(304);
      expect(again.body).toBe("");
      expect(again.headers.etag).toBe(etag);
      expect(again.headers["cache-control"]).toBe(first.headers["cache-control"]);
      const weak = await get(t, url, { "accept-encoding": "br", "if-none-match": `W/${etag}` });
      expect(weak.statusCode).toBe(304);
      const listed = await get(t, url, {
        "accept-encoding": "br",
        "if-none-match": `"other", ${etag}`,
      });
      expect(listed.statusCode).toBe(304);
      // The br ETag does not validate the uncompressed representation.
      const other = await get(t, url, { "if-none-match": etag });
      expect(other.statusCode).toBe(200);
      expect((await get(t, url, { "if-none-match": '"stale"' })).statusCode).toBe(200);
    }
  });

  it("answers HEAD with the headers of GET and no body", async () => {
    for (const url of ["/organization/new", assetUrls((await get(t, "/")).body)[0] ?? ""]) {
      const full = await get(t, url, { "accept-encoding": "gzip" });
      const head = await t.app.inject({
        method: "HEAD",
        url,
        headers: { "accept-encoding": "gzip" },
      });
      expect(head.statusCode).toBe(200);
      expect(head.body).toBe("");
      for (const name of ["content-type", "cache-control", "etag", "vary", "content-encoding"]) {
        expect(head.headers[name], name).toBe(full.headers[name]);
      }
      expect(head.headers["content-length"]).toBe(String(full.rawPayload.length));
    }
  });
});

describe("pages.path and pages.enabled", () => {
  let custom: TestApp;
  let off: TestApp;
  beforeAll(async () => {
    [custom, off] = await Promise.all([
      createTestApp({
        config: {
          pages: { path: "/accounts" },
          basePath: "/auth",
          emailAndPassword: { minPasswordLength: 6, maxPasswordLength: 64 },
        },
      }),
      createTestApp({ config: { pages: { enabled: false } } }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([custom?.close(), off?.close()]);
  });

  it("serves every page and asset under a custom path, and nothing at the root", async () => {
    for (const route of PAGE_ROUTES) {
      const url = route === "/" ? "/accounts" : `/accounts${route}`;
      const response = await get(custom, url);
      expect(response.statusCode, url).toBe(200);
      expect(response.body).toContain(
        'data-authd-api-base-path="/auth" data-authd-pages-path="/accounts"',
      );
      expect(response.body).toContain(
        'data-authd-password-min-length="6" data-authd-password-max-length="64"',
      );
      const assets = assetUrls(response.body);
      expect(assets.length).toBeGreaterThanOrEqual(2);
      for (const asset of assets) expect(asset.startsWith("/accounts/assets/")).toBe(true);
    }
    expect((await get(custom, "/accounts/")).statusCode).toBe(200);
    const asset = assetUrls((await get(custom, "/accounts/sign-in")).body)[0] ?? "";
    expect((await get(custom, asset)).statusCode).toBe(200);
    expect((await get(custom, asset.replace("/accounts", ""))).statusCode).toBe(404);
    const root = await get(custom, "/sign-in");
    expect(root.statusCode).toBe(404);
    expect(root.headers["content-type"]).toContain("application/json");
    expect((await get(custom, "/accounts/unknown")).statusCode).toBe(404);
    expect((await get(custom, "/auth/ok")).json()).toEqual({ ok: true });
  });

  it("serves nothing when pages.enabled is false", async () => {
    for (const url of ["/", "/sign-in", "/organization/new", "/assets/index.js", "/whatever"]) {
      const response = await get(off, url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toEqual({ code: "NOT_FOUND", message: "Not found" });
    }
    expect((await get(off, "/api/auth/ok")).json()).toEqual({ ok: true });
  });

  it("warns once and keeps the API working when the pages were never built", async () => {
    const empty = await mkdtemp(path.join(tmpdir(), "authd-no-pages-"));
    const lines: string[] = [];
    const logger = createLogger(
      { log: { level: "warn", format: "json", requests: false } },
      { write: (line: string) => void lines.push(line) },
    );
    const app = await createTestApp({ pagesDirectory: empty, logger });
    try {
      const warnings = lines.filter((line) => line.includes("pages are not built"));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(path.join(empty, "index.html"));
      expect((await get(app, "/sign-in")).statusCode).toBe(404);
      expect((await get(app, "/api/auth/ok")).json()).toEqual({ ok: true });
    } finally {
      await app.close();
      await rm(empty, { recursive: true, force: true });
    }
  });
});

describe("pages settings", () => {
  function problems(input: AuthdConfigInput): string[] {
    try {
      validateConfig(input, "authd.config.json");
      return [];
    } catch (error) {
      if (error instanceof ConfigError) return error.problems;
      throw error;
    }
  }

  it("default to enabled at the root", () => {
    expect(validateConfig({}, "defaults").pages).toEqual({ enabled: true, path: "/" });
  });

  it.each(["/accounts", "/my/pages", "/a.b~c_d-e"])("take the path %s", (value) => {
    expect(validateConfig({ pages: { path: value } }, "test").pages.path).toBe(value);
  });

  it.each([
    ["accounts", "expected a path starting with /"],
    ["/accounts/", "expected no trailing slash"],
    ["/a/../b", "expected no . or .. segments"],
    ["/a/./b", "expected no . or .. segments"],
    ["/a//b", "expected no empty segments"],
    ["/accounts?x=1", "no query"],
    ["/accounts#top", "no query"],
  ])("refuse the path %s", (value, message) => {
    const found = problems({ pages: { path: value } });
    expect(found).toHaveLength(1);
    expect(found[0]).toContain("authd.config.json: pages.path: ");
    expect(found[0]).toContain(message);
  });

  it.each([
    // [pages.path, basePath]
    ["/api/auth", "/api/auth"],
    ["/api/auth/pages", "/api/auth"],
    ["/", "/"],
    ["/", "/sign-in"],
    ["/", "/assets"],
    ["/", "/organization/api"],
    ["/accounts", "/accounts/account"],
  ])("refuse pages at %s with the API at %s", (pagesPath, basePath) => {
    const found = problems({ basePath, pages: { path: pagesPath } });
    expect(found).toEqual([
      `authd.config.json: pages.path: expected a path apart from the API's basePath "${basePath}": pages at "${pagesPath}" would hide API routes (choose another pages.path or basePath, or set pages.enabled: false)`,
    ]);
  });

  it.each([
    ["/", "/api/auth"],
    ["/accounts", "/"],
    ["/accounts", "/api"],
    ["/", "/accounts"],
  ])("accept pages at %s with the API at %s", (pagesPath, basePath) => {
    expect(problems({ basePath, pages: { path: pagesPath } })).toEqual([]);
  });

  it("do not check the path against the API when the pages are off", () => {
    expect(problems({ basePath: "/api", pages: { enabled: false, path: "/api" } })).toEqual([]);
  });

  it("refuse unknown keys and wrong types", () => {
    expect(problems({ pages: { enabled: "yes" } } as unknown as AuthdConfigInput)).toHaveLength(1);
    expect(problems({ pages: { paht: "/x" } } as unknown as AuthdConfigInput)[0]).toContain(
      'pages.paht: unknown key (did you mean "path"?)',
    );
  });
});

describe("mailed links open the pages", () => {
  let counter = 0;
  function uniqueEmail(): string {
    counter += 1;
    return `pages${counter}-${Date.now()}@example.com`;
  }

  async function signUp(app: TestApp = t) {
    const client = createClient(app.app);
    const email = uniqueEmail();
    const response = await client.post("/sign-up/email", {
      name: "Ada",
      email,
      password: PASSWORD,
    });
    expect(response.statusCode, response.body).toBe(200);
    return { client, email, userId: response.json().user.id as string };
  }

  /** The mailed link's path under the API, for inject. */
  function apiPath(link: string): string {
    const url = new URL(link);
    expect(url.origin).toBe(ORIGIN);
    return `${url.pathname}${url.search}`;
  }

  it("verification: the link verifies and lands on the verify-email page", async () => {
    const { email, userId } = await signUp();
    const link = t.smtp.linkIn(await t.smtp.waitFor(email), "/api/auth/verify-email");
    expect(new URL(link).searchParams.get("callbackURL")).toBe(`${ORIGIN}/verify-email?verified=1`);
    const followed = await get(t, apiPath(link));
    expect(followed.statusCode).toBe(302);
    expect(followed.headers.location).toBe(`${ORIGIN}/verify-email?verified=1`);
    const [row] = await t.db.sql<{ emailVerified: boolean }[]>`
      select email_verified from "user" where id = ${userId}`;
    expect(row?.emailVerified).toBe(true);
    expect((await get(t, "/verify-email?verified=1")).statusCode).toBe(200);

    // A broken token lands on the same page with the reason.
    const broken = new URL(link);
    broken.searchParams.set("token", "not-a-token");
    const failed = await get(t, apiPath(broken.toString()));
    expect(failed.statusCode).toBe(302);
    expect(failed.headers.location).toBe(`${ORIGIN}/verify-email?verified=1&error=INVALID_TOKEN`);
  });

  it("verification: the caller's own callbackURL wins, and a direct call still answers JSON", async () => {
    const { email } = await signUp();
    await t.smtp.waitFor(email);
    const client = createClient(t.app);
    await client.post("/send-verification-email", { email, callbackURL: "/mine" });
    const link = t.smtp.linkIn(await t.smtp.waitFor(email), "/api/auth/verify-email");
    expect(new URL(link).searchParams.get("callbackURL")).toBe("/mine");
    const token = new URL(link).searchParams.get("token") ?? "";
    const direct = await client.get("/verify-email", { query: { token } });
    expect(direct.statusCode).toBe(200);
    expect(direct.json()).toMatchObject({ status: true });
  });

  it("change-email: the confirmation link lands on the verify-email page", async () => {
    const { client, email } = await signUp();
    await t.smtp.waitFor(email);
    const newEmail = uniqueEmail();
    const response = await client.post("/change-email", { newEmail });
    expect(response.statusCode, response.body).toBe(200);
    // An unverified user proves the new address: the link goes there.
    const mail = await t.smtp.waitFor(newEmail);
    const link = t.smtp.linkIn(mail, "/api/auth/verify-email");
    expect(new URL(link).searchParams.get("callbackURL")).toBe(`${ORIGIN}/verify-email?verified=1`);
  });

  it("reset-password: the link lands on the reset-password page with the token", async () => {
    const { email } = await signUp();
    await t.smtp.waitFor(email);
    const client = createClient(t.app);
    const response = await client.post("/request-password-reset", { email });
    expect(response.statusCode).toBe(200);
    const link = t.smtp.linkIn(await t.smtp.waitFor(email), "/reset-password/");
    expect(new URL(link).searchParams.get("callbackURL")).toBe(`${ORIGIN}/reset-password`);
    const token = new URL(link).pathname.split("/").pop() ?? "";
    const followed = await get(t, apiPath(link));
    expect(followed.statusCode).toBe(302);
    expect(followed.headers.location).toBe(`${ORIGIN}/reset-password?token=${token}`);
    expect((await get(t, `/reset-password?token=${token}`)).statusCode).toBe(200);

    await client.post("/request-password-reset", { email, redirectTo: "/own-reset" });
    const own = t.smtp.linkIn(await t.smtp.waitFor(email), "/reset-password/");
    expect(new URL(own).searchParams.get("callbackURL")).toBe("/own-reset");
  });

  it("delete-account: the link deletes and lands on the sign-in page with a notice", async () => {
    const { client, email, userId } = await signUp();
    await t.smtp.waitFor(email);
    const response = await client.post("/delete-user", { password: PASSWORD });
    expect(response.json()).toEqual({ success: true, message: "Verification email sent" });
    const link = t.smtp.linkIn(await t.smtp.waitFor(email), "/delete-user/callback");
    expect(new URL(link).searchParams.get("callbackURL")).toBe(`${ORIGIN}/sign-in?deleted=1`);
    const followed = await client.get(apiPath(link).replace("/api/auth", ""));
    expect(followed.statusCode).toBe(302);
    expect(followed.headers.location).toBe(`${ORIGIN}/sign-in?deleted=1`);
    const rows = await t.db.sql`select id from "user" where id = ${userId}`;
    expect(rows).toHaveLength(0);
  });

  async function invitationLink(
    app: TestApp,
    fragment = "/accept-invitation/",
  ): Promise<{ id: string; link: string }> {
    const owner = await signUp(app);
    const organizationId = generateId();
    await insertOrganization(app.db.sql, {
      id: organizationId,
      name: "Pages Org",
      slug: `pages-${organizationId.slice(0, 10).toLowerCase()}`,
      logo: null,
      metadata: null,
    });
    await insertMember(app.db.sql, {
      id: generateId(),
      organizationId,
      userId: owner.userId,
      role: "owner",
    });
    const invitee = uniqueEmail();
    const response = await owner.client.post("/organization/invite-member", {
      email: invitee,
      role: "member",
      organizationId,
    });
    expect(response.statusCode, response.body).toBe(200);
    const id = response.json().id as string;
    return { id, link: app.smtp.linkIn(await app.smtp.waitFor(invitee), fragment) };
  }

  it("invitation: the link opens the accept-invitation page under pages.path", async () => {
    const atRoot = await invitationLink(t);
    expect(atRoot.link).toBe(`${ORIGIN}/accept-invitation/${atRoot.id}`);
    expect((await get(t, new URL(atRoot.link).pathname)).statusCode).toBe(200);

    const custom = await createTestApp({ config: { pages: { path: "/accounts" } } });
    const configured = await createTestApp({
      config: {
        pages: { path: "/accounts" },
        organization: { invitationAcceptURL: "https://app.example.com/invite/{id}" },
      },
    });
    try {
      const under = await invitationLink(custom);
      expect(under.link).toBe(`${ORIGIN}/accounts/accept-invitation/${under.id}`);
      expect((await get(custom, new URL(under.link).pathname)).statusCode).toBe(200);
      const own = await invitationLink(configured, "/invite/");
      expect(own.link).toBe(`https://app.example.com/invite/${own.id}`);
    } finally {
      await Promise.all([custom.close(), configured.close()]);
    }
  });

  it("with pages.enabled false, every link keeps its API form", async () => {
    const app = await createTestApp({
      config: {
        pages: { enabled: false },
        emailVerification: { sendOnSignUp: true },
        user: { deleteUser: { enabled: true } },
      },
    });
    try {
      const { client, email } = await signUp(app);
      const verify = app.smtp.linkIn(await app.smtp.waitFor(email), "/verify-email");
      expect(new URL(verify).searchParams.has("callbackURL")).toBe(false);
      await createClient(app.app).post("/request-password-reset", { email });
      const reset = app.smtp.linkIn(await app.smtp.waitFor(email), "/reset-password/");
      expect(new URL(reset).searchParams.get("callbackURL")).toBe("");
      await client.post("/delete-user", { password: PASSWORD });
      const deletion = app.smtp.linkIn(await app.smtp.waitFor(email), "/delete-user/callback");
      expect(new URL(deletion).searchParams.has("callbackURL")).toBe(false);
      const invitation = await invitationLink(app);
      expect(invitation.link).toBe(`${ORIGIN}/accept-invitation/${invitation.id}`);
    } finally {
      await app.close();
    }
  });
});
