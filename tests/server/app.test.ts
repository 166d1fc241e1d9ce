import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { AuthError } from "../../server/errors.js";
import type { ZodTypeProvider } from "../../server/http/validation.js";
import { createTestApp, type TestApp } from "../helpers/app.js";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    config: { server: { bodyLimit: 2048 } },
    // Routes that exercise the HTTP plumbing the real endpoints will stand on.
    extend(app) {
      const typed = app.withTypeProvider<ZodTypeProvider>();
      typed.post(
        "/api/auth/__test/echo",
        {
          schema: {
            body: z.object({ email: z.email(), count: z.number().int().min(1) }),
            querystring: z.object({ mode: z.enum(["a", "b"]).optional() }),
          },
        },
        async (request) => ({ received: request.body, mode: request.query.mode ?? null }),
      );
      typed.get("/api/auth/__test/domain-error", async () => {
        throw new AuthError("ORGANIZATION_NOT_FOUND");
      });
      typed.get("/api/auth/__test/crash", async () => {
        throw new Error('relation "secret_table" does not exist at /srv/app.js:12');
      });
    },
  });
});

afterAll(async () => {
  await t?.close();
});

describe("GET /ok", () => {
  it("answers {ok: true} with safety headers and a request id", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/auth/ok" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true });
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(response.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("keeps a well-formed incoming X-Request-Id and replaces a hostile one", async () => {
    const kept = await t.app.inject({
      method: "GET",
      url: "/api/auth/ok",
      headers: { "x-request-id": "lb-1234.abc" },
    });
    expect(kept.headers["x-request-id"]).toBe("lb-1234.abc");
    const replaced = await t.app.inject({
      method: "GET",
      url: "/api/auth/ok",
      headers: { "x-request-id": "bad id\twith spaces" },
    });
    expect(replaced.headers["x-request-id"]).not.toContain("bad");
  });

  it("is only under the base path, with no trailing-slash alias", async () => {
    expect((await t.app.inject({ method: "GET", url: "/ok" })).statusCode).toBe(404);
    expect((await t.app.inject({ method: "GET", url: "/api/auth/ok/" })).statusCode).toBe(404);
  });
});

describe("GET /error", () => {
  it("shows the code HTML-escaped, in UTF-8 HTML", async () => {
    const response = await t.app.inject({
      method: "GET",
      url: "/api/auth/error",
      query: { error: `<script>alert("x")</script>&'` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(response.body).toContain(
      '<code id="error-code">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;</code>',
    );
    expect(response.body).not.toContain("<script>");
    expect(response.body).toContain('<meta charset="utf-8">');
    expect(response.headers["content-security-policy"]).toContain("default-src 'none'");
  });

  it("escapes the description too, and takes the first of repeated codes", async () => {
    const response = await t.app.inject({
      method: "GET",
      url: "/api/auth/error?error=state_not_found&error=second&error_description=%3Cb%3Ehi%3C%2Fb%3E",
    });
    expect(response.body).toContain('<code id="error-code">state_not_found</code>');
    expect(response.body).toContain("&lt;b&gt;hi&lt;/b&gt;");
    expect(response.body).not.toContain("second");
  });

  it("shows UNKNOWN without a code", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/auth/error" });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<code id="error-code">UNKNOWN</code>');
  });

  it("refuses an absurdly long code with a validation error", async () => {
    const response = await t.app.inject({
      method: "GET",
      url: `/api/auth/error?error=${"x".repeat(600)}`,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: "VALIDATION_ERROR",
      message: "Invalid query parameters",
    });
  });
});

describe("error model", () => {
  const echo = "/api/auth/__test/echo";

  it("passes valid input through", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: `${echo}?mode=a`,
      payload: { email: "a@example.com", count: 2 },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ received: { email: "a@example.com", count: 2 }, mode: "a" });
  });

  it("answers 400 VALIDATION_ERROR naming the offending body fields", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: echo,
      payload: { email: "not-an-email", count: "two" },
    });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.code).toBe("VALIDATION_ERROR");
    expect(body.message).toBe("Invalid body parameters");
    expect(body.details.map((issue: { path: string }) => issue.path).sort()).toEqual([
      "count",
      "email",
    ]);
  });

  it("answers Invalid query parameters for a bad query", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: `${echo}?mode=z`,
      payload: { email: "a@example.com", count: 1 },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: "VALIDATION_ERROR",
      message: "Invalid query parameters",
      details: [{ path: "mode" }],
    });
  });

  it("answers 400 for a body that is not an object", async () => {
    for (const payload of ["[1,2]", "null", '"text"', "42"]) {
      const response = await t.app.inject({
        method: "POST",
        url: echo,
        headers: { "content-type": "application/json" },
        payload,
      });
      expect(response.statusCode, payload).toBe(400);
      expect(response.json().code, payload).toBe("VALIDATION_ERROR");
    }
  });

  it("answers 400 BAD_REQUEST for malformed JSON and an empty JSON body", async () => {
    for (const payload of ['{"email": ', ""]) {
      const response = await t.app.inject({
        method: "POST",
        url: echo,
        headers: { "content-type": "application/json" },
        payload,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        code: "BAD_REQUEST",
        message: "Invalid JSON in request body",
      });
    }
  });

  it("answers 400 for prototype poisoning", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: echo,
      headers: { "content-type": "application/json" },
      payload: '{"email":"a@example.com","count":1,"__proto__":{"admin":true}}',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe("BAD_REQUEST");
  });

  it("answers 415 for a content type other than JSON", async () => {
    for (const type of ["text/plain", "application/xml", "multipart/form-data; boundary=x"]) {
      const response = await t.app.inject({
        method: "POST",
        url: echo,
        headers: { "content-type": type },
        payload: "email=a",
      });
      expect(response.statusCode, type).toBe(415);
      expect(response.json().code, type).toBe("UNSUPPORTED_MEDIA_TYPE");
    }
  });

  it("answers 413 for a body over the configured limit", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: echo,
      payload: { email: "a@example.com", count: 1, padding: "x".repeat(4096) },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().code).toBe("PAYLOAD_TOO_LARGE");
  });

  it("renders a domain AuthError from the catalogue", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/auth/__test/domain-error" });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: "ORGANIZATION_NOT_FOUND",
      message: "Organization not found",
    });
  });

  it("answers 500 INTERNAL_SERVER_ERROR with no stack or SQL", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/auth/__test/crash" });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      code: "INTERNAL_SERVER_ERROR",
      message: "Internal server error",
    });
    expect(response.body).not.toContain("secret_table");
    expect(response.body).not.toContain("app.js");
  });

  it("answers 404 NOT_FOUND as JSON for unknown routes and methods", async () => {
    for (const [method, url] of [
      ["GET", "/api/auth/nope"],
      ["POST", "/api/auth/ok"],
      ["DELETE", "/api/auth/error"],
    ] as const) {
      const response = await t.app.inject({ method, url });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json()).toEqual({ code: "NOT_FOUND", message: "Not found" });
    }
  });
});

describe("probes", () => {
  it("healthz answers without the database; readyz checks it and drains", async () => {
    expect((await t.app.inject({ method: "GET", url: "/healthz" })).json()).toEqual({
      status: "ok",
    });
    const ready = await t.app.inject({ method: "GET", url: "/readyz" });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: "ready" });
    t.readiness.draining = true;
    try {
      const draining = await t.app.inject({ method: "GET", url: "/readyz" });
      expect(draining.statusCode).toBe(503);
      expect(draining.json()).toEqual({ status: "draining" });
    } finally {
      t.readiness.draining = false;
    }
  });
});

describe("base path", () => {
  it("serves the routes under a configured base path", async () => {
    const custom = await createTestApp({ config: { basePath: "/auth/v1" } });
    try {
      expect((await custom.app.inject({ method: "GET", url: "/auth/v1/ok" })).statusCode).toBe(200);
      expect((await custom.app.inject({ method: "GET", url: "/api/auth/ok" })).statusCode).toBe(
        404,
      );
    } finally {
      await custom.close();
    }
  });
});
