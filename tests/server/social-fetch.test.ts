/**
 * The requests authd sends to providers' APIs, as a provider's server receives them:
 * a form body where a definition asks for one, JSON otherwise, the token as a Bearer
 * header.
 */
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProviderFetch, DEFAULT_LIMITS } from "../../server/social/fetch.js";

interface Received {
  method: string;
  headers: IncomingHttpHeaders;
  body: string;
}

const received: Received[] = [];
const server = createServer((request, response) => {
  let body = "";
  request.on("data", (chunk) => {
    body += chunk;
  });
  request.on("end", () => {
    received.push({ method: request.method ?? "", headers: request.headers, body });
    response.setHeader("content-type", "application/json");
    response.end(JSON.stringify({ ok: true }));
  });
});
let base = "";

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("provider API requests", () => {
  const fetchJson = createProviderFetch(DEFAULT_LIMITS);

  it("sends a form body as application/x-www-form-urlencoded", async () => {
    received.length = 0;
    const answer = await fetchJson(`${base}/user_info`, {
      method: "POST",
      form: { access_token: "tok en", client_id: "vk-client" },
    });
    expect(answer).toEqual({ ok: true });
    expect(received[0]?.method).toBe("POST");
    expect(received[0]?.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(new URLSearchParams(received[0]?.body)).toEqual(
      new URLSearchParams({ access_token: "tok en", client_id: "vk-client" }),
    );
  });

  it("sends a JSON body, and the access token as a Bearer header", async () => {
    received.length = 0;
    await fetchJson(`${base}/me`, { method: "POST", accessToken: "abc", body: { a: 1 } });
    expect(received[0]?.headers["content-type"]).toBe("application/json");
    expect(received[0]?.headers.authorization).toBe("Bearer abc");
    expect(JSON.parse(received[0]?.body ?? "")).toEqual({ a: 1 });
  });
});
