/**
 * The one place errors become responses, from the one error catalogue: AuthError
 * answers `{code, message}` with its catalogue status; malformed requests answer 4xx
 * with a stable code; a database that is unavailable or too slow answers 503
 * SERVICE_UNAVAILABLE with Retry-After (the outage is logged once, by the database's
 * availability, not once per request); anything unexpected answers 500
 * INTERNAL_SERVER_ERROR with no stack or SQL, and is logged with the request id.
 */
import type { FastifyError, FastifyInstance } from "fastify";
import type { DatabaseAvailability, DatabaseFailure } from "../db/availability.js";
import { AuthError } from "../errors.js";
import type { Metrics } from "../metrics/metrics.js";
import { ShedError } from "./admission.js";
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
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return new AuthError("PAYLOAD_TOO_LARGE");
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

export interface ErrorHandlingOptions {
  /** Classifies database errors (503 rather than 500) and learns of outages from them. */
  database?: DatabaseAvailability;
  /** Counts the 503s, by reason, when metrics are on. */
  metrics?: Metrics | null;
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
  { database, metrics }: ErrorHandlingOptions = {},
): void {
  app.setErrorHandler((rawError: FastifyError, request, reply) => {
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
      error = fromFrameworkError(rawError);
    }

    if (!error) {
      request.log.error({ err: rawError }, "unhandled error");
      error = new AuthError("INTERNAL_SERVER_ERROR");
    } else if (error.status >= 500 && databaseFailure === null && error.status !== 503) {
      request.log.error({ err: rawError }, error.message);
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
