/**
 * Admission control: shed, don't queue. The API serves at most
 * `server.maxConcurrentRequests` requests at once (by default four per database
 * connection); more wait in a first-in, first-out queue of at most
 * `server.maxQueuedRequests`, each for at most `server.queueTimeout` seconds. A request
 * past either bound, or one arriving while the database is unavailable, is answered
 * 503 SERVICE_UNAVAILABLE with Retry-After at once, before any work is done for it, so
 * latency stays bounded however much load arrives and an overloaded instance recovers
 * as soon as the load falls.
 *
 * A request comes to the gate once its body has arrived, so a client still sending holds
 * no slot. Probes and the hosted pages are outside the gate: they never wait for the
 * database.
 */
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
} from "fastify";
import type { AuthdConfig } from "../config.js";
import type { DatabaseAvailability } from "../db/availability.js";
import { AuthError } from "../errors.js";

export type ShedReason = "queue_full" | "queue_timeout" | "database_unavailable";

export interface AdmissionStats {
  /** Requests being served. */
  inFlight: number;
  /** Requests waiting for a turn. */
  waiting: number;
  /** The bound on requests served at once. */
  max: number;
}

export interface Admission {
  stats(): AdmissionStats;
}

const SHED_MESSAGES: Record<ShedReason, string> = {
  queue_full: "The server is busy. Please try again shortly.",
  queue_timeout: "The server is busy. Please try again shortly.",
  database_unavailable: "The database is unavailable. Please try again shortly.",
};

export interface AdmissionOptions {
  database: DatabaseAvailability;
}

/** The 503 a request turned away by the gate is answered with; the reason is counted. */
export class ShedError extends AuthError {
  readonly reason: ShedReason;
  constructor(reason: ShedReason) {
    super("SERVICE_UNAVAILABLE", { message: SHED_MESSAGES[reason] });
    this.reason = reason;
  }
}

interface Waiting {
  request: FastifyRequest;
  reply: FastifyReply;
  done: HookHandlerDoneFunction;
  queuedAt: number;
}

const ADMITTED = Symbol("authd.admitted");

/**
 * Whether the client has gone. The connection, not the request stream: a request whose
 * body has been read is a finished stream (destroyed) while its client still waits.
 */
function clientLeft(request: FastifyRequest): boolean {
  return request.raw.socket?.destroyed === true;
}

type AdmittedRequest = FastifyRequest & { [ADMITTED]?: boolean };

export function maxConcurrentRequests(config: AuthdConfig): number {
  return config.server.maxConcurrentRequests ?? config.database.poolSize * 4;
}

/**
 * Adds the gate's hooks to `api` (the encapsulated scope holding the API routes) and
 * answers its counts.
 */
export function registerAdmission(
  api: FastifyInstance,
  config: AuthdConfig,
  options: AdmissionOptions,
): Admission {
  const max = maxConcurrentRequests(config);
  const maxQueued = config.server.maxQueuedRequests;
  const timeoutMs = config.server.queueTimeout * 1000;
  const retryAfter = String(Math.max(1, Math.ceil(config.server.queueTimeout)));
  const queue: Waiting[] = [];
  let inFlight = 0;
  let sweeper: NodeJS.Timeout | undefined;

  const shed = (reply: FastifyReply, reason: ShedReason, done: HookHandlerDoneFunction) => {
    reply.header("retry-after", reason === "database_unavailable" ? "1" : retryAfter);
    done(new ShedError(reason));
  };

  /** Requests whose wait ran out are answered; those whose client left are dropped. */
  const expire = (now: number) => {
    for (let next = queue[0]; next; next = queue[0]) {
      if (clientLeft(next.request)) {
        queue.shift();
      } else if (now - next.queuedAt >= timeoutMs) {
        queue.shift();
        shed(next.reply, "queue_timeout", next.done);
      } else {
        break;
      }
    }
  };

  const admitNext = () => {
    expire(performance.now());
    while (inFlight < max) {
      const next = queue.shift();
      if (!next) break;
      if (clientLeft(next.request)) continue;
      (next.request as AdmittedRequest)[ADMITTED] = true;
      inFlight++;
      if (!options.database.available) {
        // The database went away while it waited.
        release(next.request as AdmittedRequest);
        shed(next.reply, "database_unavailable", next.done);
        continue;
      }
      next.done();
    }
    if (queue.length === 0 && sweeper) {
      clearInterval(sweeper);
      sweeper = undefined;
    }
  };

  const release = (request: AdmittedRequest) => {
    if (!request[ADMITTED]) return;
    request[ADMITTED] = false;
    inFlight--;
  };

  // Once the body is in: a client still sending (slowly, say) holds no slot.
  api.addHook("preValidation", (request, reply, done) => {
    if (!options.database.available) return shed(reply, "database_unavailable", done);
    if (inFlight < max && queue.length === 0) {
      (request as AdmittedRequest)[ADMITTED] = true;
      inFlight++;
      return done();
    }
    if (queue.length >= maxQueued) return shed(reply, "queue_full", done);
    queue.push({ request, reply, done, queuedAt: performance.now() });
    // Waiting requests time out even when no request finishes to admit them.
    sweeper ??= setInterval(admitNext, Math.max(10, Math.min(100, timeoutMs / 10)));
  });

  // onSend runs for every answer, errors included, even when the client has gone.
  api.addHook("onSend", (request, _reply, payload, done) => {
    if ((request as AdmittedRequest)[ADMITTED]) {
      release(request as AdmittedRequest);
      if (queue.length > 0) admitNext();
    }
    done(null, payload);
  });

  api.addHook("onClose", (_instance, done) => {
    clearInterval(sweeper);
    done();
  });

  return {
    stats: () => ({ inFlight, waiting: queue.length, max }),
  };
}
