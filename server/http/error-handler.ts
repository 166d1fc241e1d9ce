/**
 * The one place errors become responses, from the one error catalogue: AuthError
 * answers `{code, message}` with its catalogue status; malformed requests answer 4xx
 * with a stable code; a database that is unavailable or too slow answers 503
 * SERVICE_UNAVAILABLE with Retry-After (the outage is logged once, by the database's
 * availability, not once per request); a write refused because a row it names was
 * deleted meanwhile answers as if it had been gone already; anything unexpected
 * answers 500 INTERNAL_SERVER_ERROR with no stack or SQL, and is logged with the
 * request id.
 */
import { type IncomingMessage, STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type {
  ConnectionError,
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
} from "fastify";
import type { DatabaseAvailability, DatabaseFailure } from "../db/availability.js";
import { AuthError, vanishedRowError } from "../errors.js";
import type { Metrics } from "../metrics/metrics.js";
import { ShedError } from "./admission.js";
import { setAnswerHeaders } from "./answer-headers.js";
import { discardRestOfBody } from "./oversized-body.js";
import { InvalidInputError } from "./validation.js";

const VALIDATION_MESSAGES: Record<string, string> = {
  body: "Invalid body parameters",
  querystring: "Invalid query parameters",
  params: "Invalid path parameters",
  headers: "Invalid headers",
};

function fromFrameworkError(error: FastifyError): AuthError | null {
  switch (error.code) {
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return new AuthError("UNSUPPORTED_MEDIA_TYPE", {
        message: 'Content-Type is not allowed. Allowed types: "application/json"',
      });
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
    case "FST_ERR_CTP_INVALID_JSON_BODY":
      return new AuthError("BAD_REQUEST");
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return new AuthError("BAD_REQUEST", { message: "Invalid Content-Length" });
    case "FST_ERR_ASYNC_CONSTRAINT":
    case "FST_ERR_BAD_URL":
      return new AuthError("BAD_REQUEST", { message: "Malformed request" });
    default:
      break;
  }
  // The JSON parser rejects bad syntax and prototype poisoning with a plain 400.
  if (error.statusCode === 400 && (error instanceof SyntaxError || error.name === "SyntaxError")) {
    return new AuthError("BAD_REQUEST");
  }
  if (error.statusCode === 400 && /__proto__|constructor/.test(error.message)) {
    return new AuthError("BAD_REQUEST", { message: "Forbidden property in request body" });
  }
  if (error.statusCode === 429) return new AuthError("TOO_MANY_REQUESTS");
  if (error.statusCode === 503) return new AuthError("SERVICE_UNAVAILABLE");
  if (typeof error.statusCode === "number" && error.statusCode >= 400 && error.statusCode < 500) {
    return new AuthError("BAD_REQUEST", { message: "Malformed request", status: error.statusCode });
  }
  return null;
}

/**
 * Fastify's `frameworkErrors`: the router refuses a few requests (a URL that does not
 * decode) before any route or error handler is reached; they answer from the catalogue
 * like every other error, with the usual headers (no onSend hook runs for them).
 */
export function answerFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const known =
    fromFrameworkError(error) ?? new AuthError("BAD_REQUEST", { message: "Malformed request" });
  setAnswerHeaders(request, reply);
  void reply.code(known.status).type("application/json; charset=utf-8").send(known.toBody());
}

/**
 * Fastify's `clientErrorHandler`: Node refuses some requests before Fastify sees them
 * (headers over its 16 KiB cap, a client past `server.headersTimeout` or
 * `server.requestTimeout`, bytes that are not HTTP) and closes the connection; the answer
 * written first is a catalogue error like every other.
 */
export function answerClientError(error: ConnectionError, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const answer =
    error.code === "ERR_HTTP_REQUEST_TIMEOUT"
      ? new AuthError("BAD_REQUEST", { message: "Request not received in time", status: 408 })
      : error.code === "HPE_HEADER_OVERFLOW"
        ? new AuthError("BAD_REQUEST", { message: "Request headers are too large", status: 431 })
        : new AuthError("BAD_REQUEST", { message: "Malformed request" });
  const body = JSON.stringify(answer.toBody());
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\n` +
        "Connection: close\r\nContent-Type: application/json; charset=utf-8\r\n" +
        "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n" +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

export interface ErrorHandlingOptions {
  /** Classifies database errors (503 rather than 500) and learns of outages from them. */
  database?: DatabaseAvailability;
  /** Counts the 503s, by reason, when metrics are on. */
  metrics?: Metrics | null;
  /** Requests that expected 100-continue and were not given it: no body is coming. */
  withoutGoAhead?: WeakSet<IncomingMessage>;
}

/** Why a 503 SERVICE_UNAVAILABLE was answered, for the shed counter. */
function shedReason(rawError: unknown, databaseFailure: DatabaseFailure | null): string {
  if (rawError instanceof ShedError) return rawError.reason;
  if (databaseFailure === "unavailable") return "database_unavailable";
  if (databaseFailure === "timeout") return "statement_timeout";
  return "unavailable";
}

export function registerErrorHandling(
  app: FastifyInstance,
  { database, metrics, withoutGoAhead }: ErrorHandlingOptions = {},
): void {
  app.setErrorHandler((rawError: FastifyError, request, reply) => {
    if (rawError.code === "FST_ERR_CTP_BODY_TOO_LARGE") {
      // Answered once the client has sent the rest (bounded), so it reads the 413; at
      // once to a client still waiting for 100 Continue, which sends nothing more.
      const tooLarge = new AuthError("PAYLOAD_TOO_LARGE");
      const bodySent = withoutGoAhead?.has(request.raw) !== true;
      return (bodySent ? discardRestOfBody(request.raw) : Promise.resolve()).then(() => {
        void reply
          .code(tooLarge.status)
          .header("connection", "close")
          .type("application/json; charset=utf-8");
        return tooLarge.toBody();
      });
    }
    let error: AuthError | null = null;
    const databaseFailure = database?.classify(rawError) ?? null;
    if (rawError instanceof AuthError) {
      error = rawError;
    } else if (databaseFailure !== null) {
      if (databaseFailure === "timeout") {
        request.log.warn("a statement ran past database.statementTimeout: answered 503");
      }
      error = new AuthError("SERVICE_UNAVAILABLE");
    } else if (rawError instanceof InvalidInputError) {
      const context = rawError.validationContext ?? "body";
      error = new AuthError("VALIDATION_ERROR", {
        message: VALIDATION_MESSAGES[context] ?? "Invalid parameters",
        details: rawError.issues,
      });
    } else {
      error = vanishedRowError(rawError) ?? fromFrameworkError(rawError);
    }

    if (!error) {
      request.log.error({ err: rawError }, "unhandled error");
      error = new AuthError("INTERNAL_SERVER_ERROR");
    } else if (error.status >= 500 && databaseFailure === null && error.status !== 503) {
      request.log.error({ err: rawError }, error.message);
    }
    if (error.code === "TOO_MANY_REQUESTS") {
      // Better Auth's client reads X-Retry-After; the rate limiter set Retry-After.
      const retryAfter = reply.getHeader("retry-after");
      if (retryAfter !== undefined) reply.header("x-retry-after", retryAfter);
    }
    if (error.code === "SERVICE_UNAVAILABLE") {
      // Turned away for want of capacity or of the database: shed, and told when to retry.
      if (!reply.hasHeader("retry-after")) reply.header("retry-after", "1");
      metrics?.shed(shedReason(rawError, databaseFailure));
    }
    void reply.code(error.status).type("application/json; charset=utf-8").send(error.toBody());
  });

  app.setNotFoundHandler((_request, reply) => {
    const error = new AuthError("NOT_FOUND");
    void reply.code(error.status).send(error.toBody());
  });
}
