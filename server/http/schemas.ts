/**
 * Building blocks of the request schemas: every string has a maximum length, checked
 * before any hashing or database work, and NUL bytes are refused.
 */
import { z } from "zod";
import { boundedString } from "../bounded-string.js";
import { ERROR_CATALOGUE, type ErrorCode } from "../errors.js";

/** Kept below HTTP (server/bounded-string.ts) so domain request schemas use it too. */
export { boundedString };

/** Booleans as JSON, or as the strings a query or a form carries. */
export const booleanish = z.union([
  z.boolean(),
  z
    .enum(["true", "false", "1", "0", ""])
    .transform((value) => value === "true" || value === "1" || value === ""),
]);

/** A redirect target; its safety is checked by the origin hook (server/http/origin.ts). */
export const callbackUrl = boundedString(2048);

/**
 * RFC 5321 caps an address at 254 characters; the format check is the domain's
 * (requireValidEmail, which every route taking an email calls first), so that a NUL or
 * any other character no address may hold answers INVALID_EMAIL like a bad format.
 */
export const emailInput = z.string().max(320);

/** Display names (names over 255 characters are refused). */
export const nameInput = boundedString(255);

/** Image URLs or data references. */
export const imageInput = boundedString(2048);

export const passwordInput = boundedString(4096);

/*
 * The answers every route shares: the error bodies of server/http/error-handler.ts and the
 * small acknowledgements.
 */

const errorCodes = Object.keys(ERROR_CATALOGUE) as [ErrorCode, ...ErrorCode[]];

/** Every error: a stable code from the catalogue, a message, sometimes details. */
export const errorBody = z
  .object({ code: z.enum(errorCodes), message: z.string(), details: z.unknown().optional() })
  .meta({ id: "Error", description: "An error of the catalogue (server/errors.ts)." });

/** A request part that does not match its schema: which fields, and why. */
export const validationErrorBody = z
  .object({
    code: z.literal("VALIDATION_ERROR"),
    message: z.string(),
    details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .meta({ id: "ValidationError", description: "A request that does not match its schema." });

const badRequestBody = z
  .union([validationErrorBody, errorBody])
  .meta({ id: "BadRequest", description: "A request refused before or by the domain." });

/** The statuses a route may add to the ones every route can answer. */
type ExtraErrorStatus = 401 | 403 | 404 | 409 | 413 | 415 | 422 | 502 | 503;

/**
 * Error answers of a route: 400 (validation or a catalogue error), 429 (rate limit) and 500
 * always, plus the statuses named (401 where a session is required, 403 for permissions or
 * origin checks, 404, 409 for an account linked elsewhere, 422, 502 where a mail must go
 * out or a provider answer).
 */
export function errorResponses<const S extends ExtraErrorStatus>(...statuses: S[]) {
  const extra = Object.fromEntries(statuses.map((status) => [status, errorBody])) as {
    [K in S]: typeof errorBody;
  };
  return { 400: badRequestBody, 429: errorBody, 500: errorBody, ...extra };
}

/**
 * The schema of a route: `request` (its body or query, if any) in, `answer` out, and the
 * error statuses named beside the ones every route can answer.
 */
export function routeSchema<
  Request extends { body?: z.ZodType; querystring?: z.ZodType },
  Answer extends z.ZodType,
  const S extends ExtraErrorStatus,
>(request: Request, answer: Answer, ...statuses: S[]) {
  return { schema: { ...request, response: { 200: answer, ...errorResponses(...statuses) } } };
}

/**
 * The schema of a route where a signed-in caller acts on something that may not exist:
 * `request` (its body or query) in, `answer` out; signed out is 401, not allowed 403,
 * not found 404.
 */
export function actionSchema<
  Request extends { body: z.ZodType } | { querystring: z.ZodType },
  Answer extends z.ZodType,
>(request: Request, answer: Answer) {
  return routeSchema(request, answer, 401, 403, 404);
}

/** `{status: true}`, the acknowledgement of most actions. */
export const statusAnswer = z.object({ status: z.boolean() });

/** `{success: true}`, the acknowledgement of the admin and sign-out actions. */
export const successAnswer = z.object({ success: z.boolean() });

/**
 * A redirect (the Location header says where): no body. The OpenAPI document lists it
 * without content; the serializer never sees it (reply.redirect sends nothing).
 */
export const redirectAnswer = z.undefined().meta({ description: "A redirect (see Location)." });
