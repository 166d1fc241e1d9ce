/**
 * Closing the listener on shutdown (server/http/drain.ts), on a plain node:http server:
 * which connections it closes, which it leaves to answer, and what answers say.
 */
import http from "node:http";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type ConnectionDrain, trackConnections } from "../../server/http/drain.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let server: http.Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

/**
 * A server answering `ok` after `?wait=<ms>`, with its connections tracked, and when
 * each request reached it (performance.now()).
 */
async function startServer(): Promise<{
  port: number;
  drain: ConnectionDrain;
  arrivals: number[];
}> {
  const arrivals: number[] = [];
  const started = http.createServer((request, response) => {
    arrivals.push(performance.now());
    const wait = Number(new URL(request.url ?? "/", "http://x").searchParams.get("wait") ?? 0);
    setTimeout(() => response.end("ok"), wait);
  });
  const drain = trackConnections(started);
  await new Promise<void>((resolve) => started.listen(0, "127.0.0.1", resolve));
  server = started;
  return { port: (started.address() as net.AddressInfo).port, drain, arrivals };
}

/** The error code a new connection to `port` fails with, if it does. */
function connectError(port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(undefined);
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code));
  });
}

/** Resolves once `received()` matches `pattern`. */
async function until(received: () => string, pattern: RegExp): Promise<void> {
  while (!pattern.test(received())) await sleep(5);
}

/** A raw connection: what it received, and whether the server closed or reset it. */
async function connect(port: number) {
  const socket = net.connect(port, "127.0.0.1");
  await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  let received = "";
  let error: string | undefined;
  socket.on("data", (chunk: Buffer) => {
    received += chunk.toString();
  });
  socket.on("error", (failure: NodeJS.ErrnoException) => {
    error = failure.code;
  });
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  return {
    send(path = "/") {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
    },
    get received() {
      return received;
    },
    get error() {
      return error;
    },
    closed,
  };
}

describe("trackConnections", () => {
  it("answers a request sent on a kept-alive connection after the listener closed", async () => {
    const { port, drain } = await startServer();
    // Between two requests: what Node's own server.close() destroys at once.
    const kept = await connect(port);
    kept.send();
    await until(() => kept.received, /\r\n\r\nok$/);
    const seen = kept.received.length;
    let listenerClosed = () => {};
    const closedListener = new Promise<void>((resolve) => {
      listenerClosed = resolve;
    });
    const closing = drain.close({
      settleMs: 0,
      idleGraceMs: 1000,
      onListenerClosed: () => listenerClosed(),
    });
    await closedListener;
    // Refused from now on, while the connection accepted before is left to send.
    expect(await connectError(port)).toBe("ECONNREFUSED");
    await sleep(50);
    kept.send();
    await closing;
    await kept.closed;
    expect(kept.error).toBeUndefined();
    expect(kept.received.slice(seen)).toMatch(/^HTTP\/1\.1 200 /);
    expect(kept.received.slice(seen).toLowerCase()).toContain("connection: close");
  });

  it("closes a connection idle for the grace period, never one with a request in flight", async () => {
    const { port, drain, arrivals } = await startServer();
    const idle = await connect(port);
    const busy = await connect(port);
    busy.send("/?wait=300");
    // The request is in flight once the server has it, however long that took.
    while (arrivals.length === 0) await sleep(5);
    const arrived = arrivals[0] as number;
    await drain.close({ settleMs: 0, idleGraceMs: 50 });
    // Closing waited for the answer, sent 300 ms after the request arrived.
    expect(performance.now() - arrived).toBeGreaterThanOrEqual(290);
    await idle.closed;
    await busy.closed;
    expect(idle.received).toBe("");
    expect(busy.received).toMatch(/^HTTP\/1\.1 200 /);
    expect(busy.received.toLowerCase()).toContain("connection: close");
    expect(busy.error).toBeUndefined();
  });

  it("keeps answers' connections alive until draining, and again during the settle", async () => {
    const { port, drain } = await startServer();
    const client = await connect(port);
    client.send();
    await until(() => client.received, /\r\n\r\nok$/);
    expect(client.received.toLowerCase()).toContain("connection: keep-alive");
    // Draining: an answer closes its connection.
    const other = await connect(port);
    drain.closeAfterAnswers();
    other.send();
    await other.closed;
    expect(other.received.toLowerCase()).toContain("connection: close");
    let listenerClosed = () => {};
    const closedListener = new Promise<void>((resolve) => {
      listenerClosed = resolve;
    });
    const drained = drain.close({
      settleMs: 1000,
      idleGraceMs: 1000,
      onListenerClosed: () => listenerClosed(),
    });
    // The settle has begun: this answer keeps the connection for the next request.
    let seen = client.received.length;
    client.send();
    await until(() => client.received.slice(seen), /\r\n\r\nok$/);
    expect(client.received.slice(seen).toLowerCase()).toContain("connection: keep-alive");
    // No new connection for 100 ms ends it; the next answer then closes the connection.
    await closedListener;
    seen = client.received.length;
    client.send();
    await drained;
    await client.closed;
    expect(client.received.slice(seen)).toMatch(/^HTTP\/1\.1 200 /);
    expect(client.received.slice(seen).toLowerCase()).toContain("connection: close");
    expect(client.error).toBeUndefined();
  });
});
