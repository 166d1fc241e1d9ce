/**
 * Closing the HTTP listener without resetting a request a client has already sent.
 *
 * Two races lose such requests. Node's `server.close()` (and Fastify's
 * `forceCloseConnections: "idle"`) destroys every kept-alive connection between two
 * requests at that instant, but that only means the server has not read the next
 * request yet: one a client wrote a moment earlier is lost. And closing a listening
 * socket makes the kernel reset the connections it completed but the server had not
 * yet accepted, with the requests already written on them. So:
 *
 * - while draining, every answer carries `Connection: close` and Node closes its
 *   connection after it, which sends kept-alive clients elsewhere;
 * - before the listener closes, answers keep their connections alive for a moment (the
 *   settle), until no new connection has arrived for a while: a client still sending
 *   then reuses its connection instead of waiting in the kernel's queue;
 * - the listener closes without touching the connections (net.Server's close, not
 *   http.Server's), answers carry `Connection: close` again, and a connection is closed
 *   by the server only once it has no request in flight and has been idle for a grace
 *   period: one accepted just before the close has its request on the way, while one
 *   left unused through the whole drain delay is one its client set aside.
 */
import type { Server, ServerResponse } from "node:http";
import net, { type Socket } from "node:net";

/** A settle ends once no connection has been accepted for this long. */
const QUIET_MS = 100;

interface ConnectionState {
  /** Answers not yet finished (more than one only when a client pipelines). */
  inFlight: Set<ServerResponse>;
  /** When the connection was accepted or its last answer went out (performance.now()). */
  idleSince: number;
}

export interface CloseOptions {
  /** Longest time to wait for new connections to stop arriving; 0 closes at once. */
  settleMs: number;
  /** How long a connection must have been idle before the server closes it. */
  idleGraceMs: number;
  /** Called the moment the listener has closed (no connection is accepted any more). */
  onListenerClosed?: (openConnections: number) => void;
}

export interface ConnectionDrain {
  /** From now on every answer carries `Connection: close`. */
  closeAfterAnswers(): void;
  /** Settles, closes the listener, then each connection as described above. */
  close(options: CloseOptions): Promise<void>;
}

/** Starts watching the server's connections and requests; call before it listens. */
export function trackConnections(server: Server): ConnectionDrain {
  const connections = new Map<Socket, ConnectionState>();
  let closeAnswers = false;
  let lastAccepted = performance.now();
  server.on("connection", (socket: Socket) => {
    lastAccepted = performance.now();
    connections.set(socket, { inFlight: new Set(), idleSince: lastAccepted });
    socket.once("close", () => connections.delete(socket));
  });
  // Before the app's own listener, so the header is set before anything is written.
  server.prependListener("request", (request, response) => {
    if (closeAnswers) response.setHeader("connection", "close");
    const state = connections.get(request.socket);
    if (!state) return;
    state.inFlight.add(response);
    response.once("close", () => {
      state.inFlight.delete(response);
      state.idleSince = performance.now();
    });
  });
  const closeAfterAnswers = () => {
    closeAnswers = true;
    // Requests read before now are answered with it too, unless their answer began.
    for (const state of connections.values()) {
      for (const response of state.inFlight) {
        if (!response.headersSent) response.setHeader("connection", "close");
      }
    }
  };

  const settle = async (settleMs: number) => {
    const until = performance.now() + settleMs;
    closeAnswers = false;
    do {
      await new Promise((resolve) => setTimeout(resolve, 10));
      // Judged right after the event loop's poll phase, which accepted every
      // connection waiting: after a stall, a timer runs before the waiting ones are
      // accepted and would take them for a quiet moment.
      await new Promise((resolve) => setImmediate(resolve));
    } while (performance.now() < until && performance.now() - lastAccepted < QUIET_MS);
  };

  let closing: Promise<void> | undefined;
  return {
    closeAfterAnswers,
    close(options) {
      closing ??= (async () => {
        if (options.settleMs > 0) await settle(options.settleMs);
        else await new Promise((resolve) => setImmediate(resolve));
        closeAfterAnswers();
        await new Promise<void>((resolve) => {
          const closeIdle = () => {
            const now = performance.now();
            for (const [socket, state] of connections) {
              if (state.inFlight.size === 0 && now - state.idleSince >= options.idleGraceMs) {
                socket.destroy();
              }
            }
          };
          const timer = setInterval(closeIdle, 10);
          // Its callback runs once the last connection has closed.
          net.Server.prototype.close.call(server, () => {
            clearInterval(timer);
            resolve();
          });
          options.onListenerClosed?.(connections.size);
          closeIdle();
        });
      })();
      return closing;
    },
  };
}
