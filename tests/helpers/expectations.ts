/**
 * Assertions the account, password and verification tests share: transport errors
 * (malformed JSON, wrong content types), validation errors, and "no mail was sent".
 */
import type { LightMyRequestResponse } from "fastify";
import { expect } from "vitest";
import type { TestApp } from "./app.js";
import { type Client, createClient } from "./client.js";

export const ORIGIN = "http://localhost:3000";
export const BAD_JSON = { code: "BAD_REQUEST", message: "Invalid JSON in request body" };
export const UNSUPPORTED = {
  code: "UNSUPPORTED_MEDIA_TYPE",
  message: 'Content-Type is not allowed. Allowed types: "application/json"',
};

/** A POST with a raw payload and content type, as the client's cookies and origin. */
export function rawPost(
  app: TestApp,
  client: Client | null,
  path: string,
  payload: string,
  contentType: string,
): Promise<LightMyRequestResponse> {
  const cookie = client
    ? [...client.cookies].map(([name, value]) => `${name}=${value}`).join("; ")
    : "";
  return app.app.inject({
    method: "POST",
    url: `/api/auth${path}`,
    payload,
    headers: { origin: ORIGIN, "content-type": contentType, ...(cookie ? { cookie } : {}) },
  });
}

/** Malformed JSON is 400, a text or form body 415. */
export async function expectTransportErrors(
  app: TestApp,
  client: Client | null,
  path: string,
  body: Record<string, unknown>,
): Promise<void> {
  const broken = await rawPost(app, client, path, '{"a":', "application/json");
  expect(broken.statusCode, path).toBe(400);
  expect(broken.json()).toEqual(BAD_JSON);
  const text = await rawPost(app, client, path, JSON.stringify(body), "text/plain");
  expect(text.statusCode, path).toBe(415);
  expect(text.json()).toEqual(UNSUPPORTED);
  const form = await rawPost(
    app,
    client,
    path,
    new URLSearchParams(body as Record<string, string>).toString(),
    "application/x-www-form-urlencoded",
  );
  expect(form.statusCode, path).toBe(415);
  expect(form.json()).toEqual(UNSUPPORTED);
}

export function expectValidationError(
  response: LightMyRequestResponse,
  field: string,
  message = "Invalid body parameters",
): void {
  expect(response.statusCode, response.body).toBe(400);
  const body = response.json();
  expect(body.code).toBe("VALIDATION_ERROR");
  expect(body.message).toBe(message);
  expect(body.details.map((issue: { path: string }) => issue.path)).toContain(field);
}

const sentinels = new WeakMap<TestApp, Promise<string>>();

/**
 * Asserts no mail went to `address`. Mail goes out in the background, so a mail sent
 * later through `path` to a sentinel user is waited for first (then 150 ms more).
 */
export async function expectNoMailTo(
  app: TestApp,
  address: string,
  path: "/request-password-reset" | "/send-verification-email" = "/request-password-reset",
): Promise<void> {
  let sentinel = sentinels.get(app);
  if (!sentinel) {
    const email = `sentinel-${Date.now()}@example.com`;
    sentinel = createClient(app.app)
      .post("/sign-up/email", { name: "Sentinel", email, password: "sentinel password 1" })
      .then((response) => {
        expect(response.statusCode, response.body).toBe(200);
        return email;
      });
    sentinels.set(app, sentinel);
  }
  const email = await sentinel;
  const response = await createClient(app.app).post(path, { email });
  expect(response.statusCode).toBe(200);
  await app.smtp.waitFor(email);
  await new Promise((resolve) => setTimeout(resolve, 150));
  expect(app.smtp.messages.filter((message) => message.to.includes(address))).toEqual([]);
}
