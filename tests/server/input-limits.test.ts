/**
 * Fixed hostile cases over a real socket (app.listen on 127.0.0.1): bodies over the
 * limit, answered 413 while the client is still sending; deep nesting and huge arrays;
 * megabyte passwords refused before any hashing; header floods; and clients that send
 * their headers or body too slowly, cut off by the server's timeouts while it goes on
 * answering others.
 */
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PasswordHasher } from "../../server/crypto/password.js";
import { createTestApp, type TestApp } from "../helpers/app.js";
import { createClient } from "../helpers/client.js";

const ORIGIN = "http://localhost:3000";
const PASSWORD = "correct horse battery";
const MiB = 1024 * 1024;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Listening {
  t: TestApp;
  port: number;
  /** Calls of the app's password hasher since the last reset. */
  hashing: { calls: number };
  /** A signed-in user's session cookie header. */
  cookie: string;
}

/** Counts every hash and verification the app's hasher runs. */
function countHashing(passwords: PasswordHasher): { calls: number } {
  const hashing = { calls: 0 };
  const { hash, verify } = passwords;
  passwords.hash = (password) => {
    hashing.calls += 1;
    return hash(password);
  };
  passwords.verify = (stored, password) => {
    hashing.calls += 1;
    return verify(stored, password);
  };
  return hashing;
}

async function listening(config: Parameters<typeof createTestApp>[0] = {}): Promise<Listening> {
  const t = await createTestApp(config);
  await t.app.listen({ host: "127.0.0.1", port: 0 });
  const address = t.app.server.address() as net.AddressInfo;
  const client = createClient(t.app);
  const signUp = await client.post("/sign-up/email", {
    name: "Limits",
    email: `limits-${address.port}@example.test`,
    password: PASSWORD,
  });
  expect(signUp.statusCode, signUp.body).toBe(200);
  const cookie = [...client.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  return { t, port: address.port, hashing: countHashing(t.app.authContext.passwords), cookie };
}

/** What came back on a raw connection: the bytes, and how the connection ended. */
interface Exchange {
  status: number | undefined;
  headers: string;
  body: string;
  /** The socket error the client saw (ECONNRESET, EPIPE), if any. */
  error: string | undefined;
  ms: number;
}

function parse(raw: string, error: string | undefined, ms: number): Exchange {
  const end = raw.indexOf("\r\n\r\n");
  const head = end < 0 ? raw : raw.slice(0, end);
  const status = /^HTTP\/1\.1 (\d{3})/.exec(head)?.[1];
  return {
    status: status === undefined ? undefined : Number(status),
    headers: head,
    body: end < 0 ? "" : raw.slice(end + 4),
    error,
    ms,
  };
}

/**
 * Sends `head` and then `body` in `chunkSize` pieces (chunked transfer coding when
 * `chunked`), without waiting for an answer, and reads until the server closes. As
 * common HTTP clients do, it goes on sending after the server's answer and FIN (a
 * half-closed connection): a server that closes with the body unread resets it. The
 * request must end the connection (Connection: close, or a refusal).
 */
function exchange(
  port: number,
  head: string,
  body: Buffer,
  options: { chunked?: boolean; chunkSize?: number; paceMs?: number } = {},
): Promise<Exchange> {
  const started = performance.now();
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: "127.0.0.1", allowHalfOpen: true });
    let raw = "";
    let error: string | undefined;
    socket.on("data", (chunk: Buffer) => {
      raw += chunk.toString("latin1");
    });
    socket.on("error", (failure: NodeJS.ErrnoException) => {
      error ??= failure.code;
    });
    // The server's FIN: the client closes once it has sent all it meant to.
    let sent = false;
    let ended = false;
    socket.on("end", () => {
      ended = true;
      if (sent) socket.destroy();
    });
    socket.on("close", () => resolve(parse(raw, error, performance.now() - started)));
    socket.once("connect", async () => {
      socket.write(head);
      const size = options.chunkSize ?? 64 * 1024;
      for (let offset = 0; offset < body.length && !socket.destroyed; offset += size) {
        const piece = body.subarray(offset, offset + size);
        const framed = options.chunked
          ? Buffer.concat([
              Buffer.from(`${piece.length.toString(16)}\r\n`),
              piece,
              Buffer.from("\r\n"),
            ])
          : piece;
        if (!socket.write(framed)) {
          await new Promise<void>((resume) => {
            socket.once("drain", resume);
            socket.once("close", resume);
          });
        }
        if (options.paceMs !== undefined) await sleep(options.paceMs);
      }
      if (options.chunked && !socket.destroyed) socket.write("0\r\n\r\n");
      sent = true;
      if (ended) socket.destroy();
    });
  });
}

function requestHead(
  path: string,
  headers: Record<string, string | number>,
  method = "POST",
): string {
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return `${method} /api/auth${path} HTTP/1.1\r\nHost: localhost\r\n${lines.join("\r\n")}\r\n\r\n`;
}

/** A JSON POST over a fresh connection (Connection: close), read to the end. */
function post(
  target: Listening,
  path: string,
  payload: string | Buffer,
  headers: Record<string, string> = {},
): Promise<Exchange> {
  const body = typeof payload === "string" ? Buffer.from(payload) : payload;
  return exchange(
    target.port,
    requestHead(path, {
      "content-type": "application/json",
      "content-length": body.length,
      origin: ORIGIN,
      connection: "close",
      cookie: target.cookie,
      ...headers,
    }),
    body,
  );
}

async function ok(port: number): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${port}/api/auth/ok`);
  await response.arrayBuffer();
  return response.status;
}

let main: Listening;

beforeAll(async () => {
  main = await listening({
    // Short timeouts, so slow clients are cut off within the test.
    config: { server: { headersTimeout: 1, requestTimeout: 2 } },
  });
});

afterAll(async () => {
  await main?.t.close();
});

describe("bodies over the limit", () => {
  const json = (exchanged: Exchange) => JSON.parse(exchanged.body) as unknown;
  const tooLarge = { code: "PAYLOAD_TOO_LARGE", message: "Request body is too large" };

  it("answers 413 to a body a little over the limit", async () => {
    const response = await post(main, "/sign-in/email", `{"email":"${"a".repeat(70_000)}"}`);
    expect(response.status).toBe(413);
    expect(json(response)).toEqual(tooLarge);
  });

  it("answers every 2 MiB change-password body 413, with Content-Length or chunked", async () => {
    const body = Buffer.from(`{"currentPassword":"${"p".repeat(2 * MiB)}","newPassword":"x"}`);
    const outcomes: string[] = [];
    for (let round = 0; round < 20; round += 1) {
      const chunked = round % 2 === 1;
      const head = requestHead("/change-password", {
        "content-type": "application/json",
        ...(chunked ? { "transfer-encoding": "chunked" } : { "content-length": body.length }),
        origin: ORIGIN,
        cookie: main.cookie,
      });
      // Paced as over a network: the answer comes while most of the body is still to send.
      const response = await exchange(main.port, head, body, {
        chunked,
        chunkSize: 32 * 1024,
        paceMs: 1,
      });
      outcomes.push(
        `${chunked ? "chunked" : "length"}: ${response.status ?? "no answer"} ${response.error ?? ""}`.trim(),
      );
      if (response.status === 413) expect(json(response)).toEqual(tooLarge);
      expect(response.headers).toMatch(/\r\nconnection: close/i);
    }
    expect(outcomes).toEqual(
      Array.from({ length: 20 }, (_, round) => `${round % 2 === 1 ? "chunked" : "length"}: 413`),
    );
    expect(main.hashing.calls).toBe(0);
  });
});

describe("a client that waits for 100 Continue", () => {
  /** Sends `head` only, then the body once the server says "100 Continue". */
  function waitingClient(head: string, body: Buffer): Promise<Exchange & { continued: boolean }> {
    const started = performance.now();
    return new Promise((resolve) => {
      const socket = net.connect({ port: main.port, host: "127.0.0.1" });
      let raw = "";
      let continued = false;
      let error: string | undefined;
      socket.on("data", (chunk: Buffer) => {
        raw += chunk.toString("latin1");
        if (!continued && raw.startsWith("HTTP/1.1 100 Continue\r\n\r\n")) {
          continued = true;
          raw = raw.slice("HTTP/1.1 100 Continue\r\n\r\n".length);
          socket.write(body);
        }
      });
      socket.on("error", (failure: NodeJS.ErrnoException) => {
        error ??= failure.code;
      });
      socket.on("close", () =>
        resolve({ ...parse(raw, error, performance.now() - started), continued }),
      );
      socket.once("connect", () => socket.write(head));
    });
  }
  const head = (length: number) =>
    requestHead("/sign-in/email", {
      "content-type": "application/json",
      "content-length": length,
      expect: "100-continue",
      origin: ORIGIN,
      connection: "close",
    });

  it("is refused 413 at once when the declared body is over the limit, never asked for it", async () => {
    const response = await waitingClient(head(2 * MiB), Buffer.alloc(0));
    expect(response.continued).toBe(false);
    expect(response.status).toBe(413);
    expect(JSON.parse(response.body)).toEqual({
      code: "PAYLOAD_TOO_LARGE",
      message: "Request body is too large",
    });
    expect(response.headers).toMatch(/\r\nconnection: close/i);
    // Not the 2 s request timeout, nor the 10 s a discarded body may take.
    expect(response.ms).toBeLessThan(1_000);
    expect(response.error).toBeUndefined();
    expect(await ok(main.port)).toBe(200);
  });

  it("is told to go ahead when the body is within the limit, and answered", async () => {
    const body = Buffer.from(JSON.stringify({ email: "nobody@example.test", password: "x" }));
    const response = await waitingClient(head(body.length), body);
    expect(response.continued).toBe(true);
    expect(response.status).toBe(401);
    expect((JSON.parse(response.body) as { code: string }).code).toBe("INVALID_EMAIL_OR_PASSWORD");
  });
});

describe("a body past what the server reads to throw away", () => {
  it("is answered and closed at once, and the server keeps serving", async () => {
    // Declared a gigabyte; 6 MiB sent, then nothing: reading stops at 4 MiB.
    const response = await exchange(
      main.port,
      requestHead("/sign-in/email", {
        "content-type": "application/json",
        "content-length": 1024 * MiB,
        origin: ORIGIN,
      }),
      Buffer.alloc(6 * MiB, 0x20),
    );
    // The client may see the 413 or, with its body unread, a reset; never a hang. Well
    // under the 2 s request timeout: the byte bound closed it, not a timer.
    if (response.status !== undefined) expect(response.status).toBe(413);
    expect(response.ms).toBeLessThan(1_500);
    expect(await ok(main.port)).toBe(200);
  });
});

describe("bodies within the limit that are still hostile", () => {
  const code = (exchanged: Exchange) => (JSON.parse(exchanged.body) as { code: string }).code;

  it("refuses 100k open brackets as too large, and 30k nested arrays as too deep", async () => {
    const open = await post(main, "/sign-in/email", "[".repeat(100_000));
    expect(open.status).toBe(413);
    const nested = await post(main, "/sign-in/email", "[".repeat(30_000) + "]".repeat(30_000));
    expect(nested.status).toBe(400);
    expect(JSON.parse(nested.body)).toEqual({
      code: "BAD_REQUEST",
      message: "JSON nested deeper than 64 levels",
    });
    const objects = await post(
      main,
      "/organization/create",
      `{"name":"n","slug":"s","metadata":${'{"a":'.repeat(10_000)}1${"}".repeat(10_000)}}`,
    );
    expect(objects.status).toBe(400);
    expect(code(objects)).toBe("BAD_REQUEST");
  });

  it("refuses huge arrays where strings or objects belong", async () => {
    const items = Array.from({ length: 30_000 }, () => "0").join(",");
    for (const [path, payload] of [
      ["/sign-in/email", `{"email":[${items}],"password":"x"}`],
      ["/sign-up/email", `[${items}]`],
      ["/organization/has-permission", `{"permissions":{"member":[${items}]}}`],
    ] as const) {
      const response = await post(main, path, payload);
      expect(response.status, `${path} ${response.body}`).toBe(400);
      expect(code(response)).toBe("VALIDATION_ERROR");
    }
  });
});

describe("JSON escaping half of a surrogate pair", () => {
  const refused = {
    code: "BAD_REQUEST",
    message: "JSON holds a lone surrogate (\\uD800-\\uDFFF): text must be valid Unicode",
  };

  it("is refused with 400 wherever it stands, and nothing is written", async () => {
    const [before] = await main.t.db.sql<{ users: number; organizations: number }[]>`
      select (select count(*) from "user")::int as users,
             (select count(*) from organization)::int as organizations`;
    // Written as JSON text: `\ud800` in the body, not the character.
    for (const [path, payload] of [
      [
        "/sign-up/email",
        '{"name":"x\\ud800","email":"lone@example.test","password":"a long password"}',
      ],
      ["/update-user", '{"name":"\\udfff"}'],
      ["/organization/create", '{"name":"n","slug":"lone-surrogate","metadata":{"a":"\\uD800"}}'],
      ["/organization/create", '{"name":"n","slug":"lone-surrogate","metadata":{"\\udc00":1}}'],
      ["/organization/create", '{"name":"n","slug":"lone-surrogate","logo":"\\udbff\\u0041"}'],
    ] as const) {
      const response = await post(main, path, payload);
      expect(response.status, `${path} ${payload}`).toBe(400);
      expect(JSON.parse(response.body), payload).toEqual(refused);
    }
    const [after] = await main.t.db.sql<{ users: number; organizations: number }[]>`
      select (select count(*) from "user")::int as users,
             (select count(*) from organization)::int as organizations`;
    expect(after).toEqual(before);
  });

  it("leaves whole pairs and an escaped backslash alone", async () => {
    for (const password of ["\\ud83d\\ude00 a long password", "\\\\ud800 a long password"]) {
      const response = await post(
        main,
        "/sign-in/email",
        `{"email":"nobody@example.test","password":"${password}"}`,
      );
      expect(response.status, password).toBe(401);
    }
  });
});

describe("a megabyte password", () => {
  const megabyte = "p".repeat(MiB);
  const bodies: Array<[string, Record<string, string>]> = [
    ["/sign-up/email", { name: "Big", email: "big@example.test", password: megabyte }],
    ["/sign-in/email", { email: "big@example.test", password: megabyte }],
    ["/change-password", { currentPassword: megabyte, newPassword: "a new password" }],
    ["/change-password", { currentPassword: PASSWORD, newPassword: megabyte }],
  ];
  let roomy: Listening;

  beforeAll(async () => {
    // An operator may raise the body limit: the password's own cap still applies first.
    roomy = await listening({ config: { server: { bodyLimit: 4 * MiB } } });
  });

  afterAll(async () => {
    await roomy?.t.close();
  });

  it("is refused before any hashing: 413 at the default body limit", async () => {
    main.hashing.calls = 0;
    for (const [path, body] of bodies) {
      const response = await post(main, path, JSON.stringify(body));
      expect(response.status, path).toBe(413);
    }
    expect(main.hashing.calls).toBe(0);
  });

  it("is refused before any hashing: 400 under a raised body limit", async () => {
    roomy.hashing.calls = 0;
    for (const [path, body] of bodies) {
      const response = await post(roomy, path, JSON.stringify(body));
      expect(response.status, path).toBe(400);
      expect(JSON.parse(response.body)).toMatchObject({ code: "VALIDATION_ERROR" });
    }
    // One character over the field's cap is refused the same way; at the cap, sign-up
    // refuses the configured maximum (128) without hashing either.
    const over = await post(
      roomy,
      "/sign-in/email",
      JSON.stringify({ email: "big@example.test", password: "p".repeat(4097) }),
    );
    expect(over.status).toBe(400);
    const long = await post(
      roomy,
      "/sign-up/email",
      JSON.stringify({ name: "Big", email: "big@example.test", password: "p".repeat(4096) }),
    );
    expect(JSON.parse(long.body)).toMatchObject({ code: "PASSWORD_TOO_LONG" });
    expect(roomy.hashing.calls).toBe(0);
    // The counter counts: a real sign-in hashes.
    const signIn = await post(
      roomy,
      "/sign-in/email",
      JSON.stringify({ email: `limits-${roomy.port}@example.test`, password: PASSWORD }),
    );
    expect(signIn.status, signIn.body).toBe(200);
    expect(roomy.hashing.calls).toBeGreaterThan(0);
  });
});

describe("header floods", () => {
  it("answers 431 to too many headers and to one huge header, and keeps serving", async () => {
    const many = Array.from({ length: 3_000 }, (_, index) => `x-flood-${index}: v`).join("\r\n");
    const huge = `x-huge: ${"h".repeat(20_000)}`;
    for (const headers of [many, huge]) {
      const response = await exchange(
        main.port,
        `GET /api/auth/ok HTTP/1.1\r\nHost: localhost\r\n${headers}\r\n\r\n`,
        Buffer.alloc(0),
      );
      expect(response.status).toBe(431);
      expect(JSON.parse(response.body)).toEqual({
        code: "BAD_REQUEST",
        message: "Request headers are too large",
      });
    }
    expect(await ok(main.port)).toBe(200);
  });

  it("answers bytes that are not HTTP with 400, and keeps serving", async () => {
    const response = await exchange(main.port, "\u0000\u0001 nonsense\r\n\r\n", Buffer.alloc(0));
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toEqual({
      code: "BAD_REQUEST",
      message: "Malformed request",
    });
    expect(await ok(main.port)).toBe(200);
  });
});

/**
 * A client that sends `head`, then one more byte every `everyMs` (never finishing), until
 * the server closes the connection; others are served meanwhile.
 */
async function trickle(
  port: number,
  head: string,
  everyMs: number,
): Promise<{ cut: Exchange; othersServed: number[] }> {
  const othersServed: number[] = [];
  let done = false;
  const others = (async () => {
    while (!done) {
      othersServed.push(await ok(port));
      await sleep(100);
    }
  })();
  const cut = await new Promise<Exchange>((resolve) => {
    const started = performance.now();
    const socket = net.connect(port, "127.0.0.1");
    let raw = "";
    let error: string | undefined;
    let timer: NodeJS.Timeout | undefined;
    socket.on("data", (chunk: Buffer) => {
      raw += chunk.toString("latin1");
    });
    socket.on("error", (failure: NodeJS.ErrnoException) => {
      error ??= failure.code;
    });
    socket.on("close", () => {
      clearInterval(timer);
      resolve(parse(raw, error, performance.now() - started));
    });
    socket.once("connect", () => {
      socket.write(head);
      timer = setInterval(() => {
        if (!socket.destroyed) socket.write("x");
      }, everyMs);
    });
  });
  done = true;
  await others;
  return { cut, othersServed };
}

describe("slow clients", () => {
  const timedOut = { code: "BAD_REQUEST", message: "Request not received in time" };

  it("cuts off a client sending its headers slowly, and serves others meanwhile", async () => {
    const { cut, othersServed } = await trickle(
      main.port,
      "GET /api/auth/ok HTTP/1.1\r\nHost: localhost\r\nx-slow: ",
      100,
    );
    expect(cut.status).toBe(408);
    expect(JSON.parse(cut.body)).toEqual(timedOut);
    // headersTimeout is 1 s here; the bound leaves room for a busy machine.
    expect(cut.ms).toBeLessThan(6_000);
    expect(othersServed.length).toBeGreaterThan(2);
    expect(othersServed.every((status) => status === 200)).toBe(true);
  });

  it("cuts off a client sending its body slowly, and serves others meanwhile", async () => {
    const { cut, othersServed } = await trickle(
      main.port,
      requestHead("/sign-in/email", {
        "content-type": "application/json",
        "content-length": 10_000,
        origin: ORIGIN,
      }),
      100,
    );
    expect(cut.status).toBe(408);
    expect(JSON.parse(cut.body)).toEqual(timedOut);
    // requestTimeout is 2 s here.
    expect(cut.ms).toBeGreaterThan(1_500);
    expect(cut.ms).toBeLessThan(7_000);
    expect(othersServed.length).toBeGreaterThan(4);
    expect(othersServed.every((status) => status === 200)).toBe(true);
    expect(main.hashing.calls).toBe(0);
  });

  it("serves a client whose headers come in pieces within the timeout", async () => {
    const socket = net.connect(main.port, "127.0.0.1");
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    let raw = "";
    socket.on("data", (chunk: Buffer) => {
      raw += chunk.toString("latin1");
    });
    const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    socket.write("GET /api/auth/ok HTTP/1.1\r\n");
    await sleep(300);
    socket.write("Host: localhost\r\nConnection: close\r\n\r\n");
    await closed;
    expect(parse(raw, undefined, 0).status).toBe(200);
  });
});
