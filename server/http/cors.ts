/**
 * CORS for the trusted origins: a browser app on another origin may call the API with
 * its cookies (credentials) or a bearer header, and read the headers that carry a
 * session. Any other origin gets no Access-Control-Allow-Origin, so its scripts cannot
 * read an answer. The pages and the probes opt out (`config: { cors: false }`): they
 * are not an API for other origins, and their caching headers stay their own.
 */
import fastifyCors, { type FastifyCorsOptions } from "@fastify/cors";
import type { FastifyInstance } from "fastify";
import type { AuthdConfig } from "../config.js";
import { compileOriginTrust } from "./origin.js";

/** The methods authd's routes answer. */
const METHODS = ["GET", "HEAD", "POST"];
const ALLOWED_HEADERS = ["content-type", "authorization"];
/** Headers a cross-origin script may read: the session token, and the JWT of a session. */
const EXPOSED_HEADERS = ["set-auth-token", "set-auth-jwt"];

export async function registerCors(app: FastifyInstance, config: AuthdConfig): Promise<void> {
  const trusts = compileOriginTrust(config);
  await app.register(fastifyCors, {
    credentials: true,
    methods: METHODS,
    allowedHeaders: ALLOWED_HEADERS,
    exposedHeaders: EXPOSED_HEADERS,
    // A preflight without Access-Control-Request-Method is answered, not refused with
    // the plugin's own plain-text 400, which no authd client knows.
    strictPreflight: false,
    // The configured origins only (baseURL's and trustedOrigins), not the one a request
    // came in on without a baseURL: that one is the page's own, and a same-origin call
    // needs no CORS headers. Options fixed once, so the plugin does not rebuild them for
    // every request, as it does for a per-request delegator (a fifth of the work of a
    // cached /token answer, profiled). The answer varies by Origin either way.
    origin: (origin, callback) => {
      callback(null, typeof origin === "string" && trusts(origin) ? origin : false);
    },
  } satisfies FastifyCorsOptions);
}
