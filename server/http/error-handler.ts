/**
 * The one place errors become responses, from the one error catalogue: AuthError
 * answers `{code, message}` with its catalogue status; malformed requests answer 4xx
 * with a stable code; anything unexpected answers 500 INTERNAL_SERVER_ERROR with no
 * stack or SQL, and is logged with the request id.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { AuthError } from "../errors.js";
import { setAnswerHeaders } from "./answer-headers.js";
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

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((rawError: FastifyError, request, reply) => {
    let error: AuthError | null = null;
    if (rawError instanceof AuthError) {
      error = rawError;
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
    } else if (error.status >= 500) {
      request.log.error({ err: rawError }, error.message);
    }
    void reply.code(error.status).type("application/json; charset=utf-8").send(error.toBody());
  });

  app.setNotFoundHandler((_request, reply) => {
    const error = new AuthError("NOT_FOUND");
    void reply.code(error.status).send(error.toBody());
  });
}
