/**
 * A body over the limit is answered 413 once the rest of it has been read and thrown
 * away. Answering and closing while the client is still sending makes the server's
 * kernel reset the connection (unread data at close), and a client that reads its answer
 * only after sending then gets ECONNRESET instead of the 413. Reading is bounded: past
 * DISCARD_MAX_BYTES, or DISCARD_MAX_MS, the answer goes out at once and the connection
 * closes with whatever is left unread.
 */
import type { IncomingMessage, Server } from "node:http";

/** The most of an oversized body read only to be thrown away. */
export const DISCARD_MAX_BYTES = 4 * 1024 * 1024;
/** The longest an oversized body is waited for. */
export const DISCARD_MAX_MS = 10_000;

/** Resolves once the request's body has ended, or a bound is passed, or it is gone. */
export function discardRestOfBody(request: IncomingMessage): Promise<void> {
  if (request.complete || request.readableEnded || request.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let discarded = 0;
    const finish = () => {
      clearTimeout(timer);
      request.off("data", onData);
      request.off("end", finish);
      request.off("close", finish);
      request.off("error", finish);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > DISCARD_MAX_BYTES) finish();
    };
    const timer = setTimeout(finish, DISCARD_MAX_MS);
    request.on("data", onData);
    request.once("end", finish);
    request.once("close", finish);
    request.once("error", finish);
    request.resume();
  });
}

/**
 * `Expect: 100-continue`: the client waits for a go-ahead before it sends its body.
 * Node gives it to every request, so a body the limit refuses was sent in full only to
 * be read and thrown away. Here the go-ahead goes only to a body the limit allows by
 * its declared length; a longer one is routed without it (and answered 413 at once, see
 * the error handler). Answers the requests left waiting, so that no body is waited for.
 */
export function goAheadWithinLimit(server: Server, bodyLimit: number): WeakSet<IncomingMessage> {
  const withoutGoAhead = new WeakSet<IncomingMessage>();
  server.on("checkContinue", (request: IncomingMessage, response) => {
    const declared = Number(request.headers["content-length"]);
    if (Number.isFinite(declared) && declared > bodyLimit) withoutGoAhead.add(request);
    else response.writeContinue();
    // With this listener Node no longer emits "request" for these: the app's turn.
    server.emit("request", request, response);
  });
  return withoutGoAhead;
}
