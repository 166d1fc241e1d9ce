/**
 * JSON bodies: Fastify's own parser (it refuses `__proto__` and `constructor.prototype`
 * keys), behind a nesting limit. Within the body limit a body can still nest arrays or
 * objects thousands deep, and recursive code downstream (walking organization metadata,
 * JSON.stringify) would then overflow the stack: such a body is refused before parsing.
 *
 * JSON text may also escape half of a surrogate pair on its own (`"\ud800"`): valid
 * JSON, but not Unicode text, and PostgreSQL refuses it in a jsonb value. Such a body is
 * refused too, like malformed JSON, rather than stored altered.
 */
import type { FastifyInstance } from "fastify";
import { AuthError } from "../errors.js";

/** Deeper than any request authd takes (organization metadata included), far below a stack. */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/** Whether JSON text opens more than `limit` arrays or objects inside each other. */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index += 1;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) {
      inString = true;
    } else if (code === OPEN_BRACKET || code === OPEN_BRACE) {
      depth += 1;
      if (depth > limit) return true;
    } else if (code === CLOSE_BRACKET || code === CLOSE_BRACE) {
      depth -= 1;
    }
  }
  return false;
}

/** A `\uD800`–`\uDFFF` escape: only these can make a parsed string ill-formed. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/** Whether a parsed JSON value holds a lone surrogate in a string or a key, at any depth. */
export function holdsLoneSurrogate(value: unknown): boolean {
  if (typeof value === "string") return !value.isWellFormed();
  if (typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) return value.some(holdsLoneSurrogate);
  return Object.entries(value).some(
    ([key, entry]) => !key.isWellFormed() || holdsLoneSurrogate(entry),
  );
}

export function registerJsonBodies(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    const text = String(body);
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
      done(
        new AuthError("BAD_REQUEST", {
          message: `JSON nested deeper than ${MAX_JSON_DEPTH} levels`,
        }),
        undefined,
      );
      return;
    }
    parse(request, text, (error: Error | null, value?: unknown) => {
      // The scan of the text keeps the walk off every body without such an escape.
      if (!error && SURROGATE_ESCAPE.test(text) && holdsLoneSurrogate(value)) {
        done(
          new AuthError("BAD_REQUEST", {
            message: "JSON holds a lone surrogate (\\uD800-\\uDFFF): text must be valid Unicode",
          }),
          undefined,
        );
        return;
      }
      done(error, value);
    });
  });
}
