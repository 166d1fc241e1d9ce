/**
 * `application/x-www-form-urlencoded` bodies, accepted only where the established API
 * accepts them (Better Auth): sign-in/email, sign-up/email and the OAuth callback, so
 * a plain HTML form can post there. Every other route answers 415 for a form.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { AuthError } from "../errors.js";

const FORM_TYPE = "application/x-www-form-urlencoded";

export function registerFormBodies(app: FastifyInstance, basePath: string): void {
  const base = basePath === "/" ? "" : basePath;
  const allowed = [`${base}/sign-in/email`, `${base}/sign-up/email`, `${base}/callback/:id`];

  app.addContentTypeParser(FORM_TYPE, { parseAs: "string" }, (_request, body, done) => {
    const fields: Record<string, string> = {};
    for (const [key, value] of new URLSearchParams(String(body))) fields[key] = value;
    done(null, fields);
  });

  const refuseFormsHere = async (request: FastifyRequest): Promise<void> => {
    const type = request.headers["content-type"];
    if (typeof type !== "string" || !type.toLowerCase().startsWith(FORM_TYPE)) return;
    throw new AuthError("UNSUPPORTED_MEDIA_TYPE", {
      message: 'Content-Type is not allowed. Allowed types: "application/json"',
    });
  };
  // Routes without a body never parse one, so only the others need the check.
  app.addHook("onRoute", (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.every((method) => method === "GET" || method === "HEAD" || method === "OPTIONS"))
      return;
    if (allowed.includes(route.url)) return;
    const existing = route.preValidation;
    route.preValidation = [
      ...(existing === undefined ? [] : Array.isArray(existing) ? existing : [existing]),
      refuseFormsHere,
    ];
  });
}
