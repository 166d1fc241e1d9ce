/**
 * The origin rules as an app developer meets them: a refused origin is named, with the
 * setting that would trust it, in the answer and in the log; and the loopback names of
 * one machine (localhost, 127.0.0.1, [::1]) are trusted alike on the same scheme and port.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../server/logger.js";
import { createTestApp, type TestApp } from "../helpers/app.js";
import { createClient } from "../helpers/client.js";

const lines: Array<Record<string, unknown>> = [];
let t: TestApp;

beforeAll(async () => {
  const logger = createLogger(
    { log: { level: "info", format: "json", requests: false } },
    { write: (line: string) => void lines.push(JSON.parse(line)) },
  );
  t = await createTestApp({
    logger,
    config: {
      baseURL: "http://localhost:3000",
      trustedOrigins: ["http://localhost:5173", "https://app.example.com"],
    },
  });
});

afterAll(async () => {
  await t?.close();
});

/** A signed-in client whose POSTs carry `origin`. */
async function signedIn(origin: string) {
  const first = createClient(t.app);
  const response = await first.post("/sign-up/email", {
    email: `u${Math.random().toString(36).slice(2, 10)}@example.com`,
    password: "password-1234",
    name: "U",
  });
  expect(response.statusCode, response.body).toBe(200);
  const client = createClient(t.app, { origin });
  for (const [name, value] of first.cookies) client.cookies.set(name, value);
  return client;
}

describe("a refused origin", () => {
  it("is named in the answer, with the setting to change, and logged at warn", async () => {
    const client = await signedIn("https://evil.example");
    lines.length = 0;
    const refused = await client.post("/revoke-other-sessions");
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      code: "INVALID_ORIGIN",
      message:
        "Invalid origin: https://evil.example is not trusted; add it to trustedOrigins (or make it the baseURL)",
      details: { origin: "https://evil.example" },
    });
    const warned = lines.find((line) => line.level === 40);
    expect(warned).toMatchObject({
      msg: refused.json().message,
      origin: "https://evil.example",
      method: "POST",
      path: "/api/auth/revoke-other-sessions",
      reqId: refused.headers["x-request-id"],
    });
  });

  it("without any Origin, the answer and the log say none arrived", async () => {
    const client = await signedIn("http://localhost:3000");
    const cookie = [...client.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    lines.length = 0;
    const missing = await t.app.inject({
      method: "POST",
      url: "/api/auth/revoke-other-sessions",
      headers: { cookie, "content-type": "application/json" },
      payload: "{}",
    });
    expect(missing.statusCode).toBe(403);
    const body = missing.json();
    expect(body.code).toBe("MISSING_OR_NULL_ORIGIN");
    expect(body.message).toMatch(/^Missing or null Origin: .*\(got none\).*trustedOrigins/);
    expect(body.details).toEqual({ origin: null });
    expect(lines.find((line) => line.level === 40)).toMatchObject({ msg: body.message });
  });

  it("shows a huge header cut short, never the whole of it", async () => {
    const huge = `https://${"a".repeat(5000)}.example`;
    const client = await signedIn(huge);
    const refused = await client.post("/revoke-other-sessions");
    expect(refused.statusCode).toBe(403);
    expect(refused.json().details.origin).toHaveLength(200);
  });
});

describe("loopback origins", () => {
  it("trusts 127.0.0.1 and [::1] where baseURL says localhost, on its scheme and port only", async () => {
    for (const origin of [
      "http://localhost:3000",
      "http://127.0.0.1:3000",
      "http://[::1]:3000",
      "http://LOCALHOST:3000",
    ]) {
      const client = await signedIn(origin);
      const answer = await client.post("/revoke-other-sessions");
      expect(answer.statusCode, `${origin}: ${answer.body}`).toBe(200);
    }
    for (const origin of [
      "http://127.0.0.1:3001",
      "https://127.0.0.1:3000",
      "http://[::1]:80",
      "http://127.0.0.2:3000",
      "http://localhost.evil.example:3000",
    ]) {
      const client = await signedIn(origin);
      const answer = await client.post("/revoke-other-sessions");
      expect(answer.statusCode, origin).toBe(403);
      expect(answer.json().code).toBe("INVALID_ORIGIN");
    }
  });

  it("trusts the loopback names of a trusted origin alike, and nothing more", async () => {
    for (const origin of ["http://127.0.0.1:5173", "http://[::1]:5173"]) {
      const answer = await (await signedIn(origin)).post("/revoke-other-sessions");
      expect(answer.statusCode, origin).toBe(200);
    }
    const other = await (await signedIn("http://127.0.0.1:5174")).post("/revoke-other-sessions");
    expect(other.statusCode).toBe(403);
    // A non-loopback origin is compared exactly, as before.
    const trusted = await (await signedIn("https://app.example.com")).post(
      "/revoke-other-sessions",
    );
    expect(trusted.statusCode).toBe(200);
  });

  it("sign-up from the loopback alias of the server's own origin is not refused", async () => {
    const response = await createClient(t.app, { origin: "http://127.0.0.1:3000" }).post(
      "/sign-up/email",
      { email: "loopback@example.com", password: "password-1234", name: "L" },
    );
    expect(response.statusCode, response.body).toBe(200);
  });
});
