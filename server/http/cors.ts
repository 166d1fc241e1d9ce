/**
 * CORS for the trusted origins: a browser app on another origin may call the API with
 * its cookies (credentials) or a bearer header, and read the headers that carry a
 * session. Any other origin gets no Access-Control-Allow-Origin, so its scripts cannot
 * read an answer. The pages and the probes opt out (`config: { cors: false }`): they
 * are not an API for other origins, and their caching headers stay their own.
 */
import fastifyCors, { type FastifyCorsOptions } from "@fastify/cors";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AuthdConfig } from "../config.js";
import { isTrustedOrigin } from "./origin.js";

/** The methods authd's routes answer. */
const METHODS = ["GET", "HEAD", "POST"];
const ALLOWED_HEADERS = ["content-type", "authorization"];
/** Headers a cross-origin script may read: the session token, and the JWT of a session. */
const EXPOSED_HEADERS = ["set-auth-token", "set-auth-jwt"];

export async function registerCors(app: FastifyInstance, config: AuthdConfig): Promise<void> {
  const shared = {
    credentials: true,
    methods: METHODS,
    allowedHeaders: ALLOWED_HEADERS,
    exposedHeaders: EXPOSED_HEADERS,
    // A preflight without Access-Control-Request-Method is answered, not refused with
    // the plugin's own plain-text 400, which no authd client knows.
    strictPreflight: false,
  } satisfies FastifyCorsOptions;
  const refused: FastifyCorsOptions = { ...shared, origin: false };
  await app.register(fastifyCors, {
    // Per request, because trust depends on the request: without a baseURL the server's
    // own origin is the one the request came in on. The answer varies by Origin either way.
    delegator: (request: FastifyRequest, callback) => {
      const origin = request.headers.origin;
      const trusted = typeof origin === "string" && isTrustedOrigin(origin, config, request);
      callback(null, trusted ? { ...shared, origin } : refused);
    },
  });
}
