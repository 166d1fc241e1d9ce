/**
 * CORS for the trusted origins: a browser app on another origin may call the API with
 * its cookies (credentials) or a bearer header, and read the headers that carry a
 * session. Any other origin gets no Access-Control-Allow-Origin, so its scripts cannot
 * read an answer. The pages and the probes opt out (`config: { cors: false }`): they
 * are not an API for other origins, and their caching headers stay their own.
 *
 * Written here rather than taken from @fastify/cors: authd's CORS is one fixed policy
 * (one answer header set, computed once), and the plugin, built for every policy, copied
 * its whole options object and made a closure on every request: 5% of the work of a
 * cross-origin get-session, and in some runs far more (bench/README.md).
 */
import type { FastifyInstance, FastifyReply } from "fastify";
import type { AuthdConfig } from "../config.js";
import { compileOriginTrust } from "./origin.js";

/** The methods authd's routes answer. */
const METHODS = "GET, HEAD, POST";
const ALLOWED_HEADERS = "content-type, authorization";
/** Headers a cross-origin script may read: the session token, and the JWT of a session. */
const EXPOSED_HEADERS = "set-auth-token, set-auth-jwt";
/** Origins whose verdict is remembered; past this the memory starts again. */
const REMEMBERED_ORIGINS = 256;

/** Adds Origin to the answer's Vary header, keeping what is there. */
function varyByOrigin(reply: FastifyReply): void {
  const vary = reply.getHeader("vary");
  if (vary === undefined) {
    reply.header("vary", "Origin");
    return;
  }
  const text = Array.isArray(vary) ? vary.join(", ") : String(vary);
  const names = text.split(",").map((name) => name.trim().toLowerCase());
  if (!names.includes("*") && !names.includes("origin")) reply.header("vary", `${text}, Origin`);
}

export function registerCors(app: FastifyInstance, config: AuthdConfig): void {
  // The configured origins only (baseURL's and trustedOrigins), not the one a request
  // came in on without a baseURL: that one is the page's own, and a same-origin call
  // needs no CORS headers. A verdict depends on the origin alone, so it is remembered.
  const trusts = compileOriginTrust(config);
  const verdicts = new Map<string, boolean>();
  const trusted = (origin: string): boolean => {
    let verdict = verdicts.get(origin);
    if (verdict === undefined) {
      verdict = trusts(origin);
      if (verdicts.size >= REMEMBERED_ORIGINS) verdicts.clear();
      verdicts.set(origin, verdict);
    }
    return verdict;
  };

  // A callback hook (it runs on every request), in onRequest so that a preflight is
  // answered before anything asks for credentials a browser never sends with one.
  app.addHook("onRequest", (request, reply, done) => {
    if ((request.routeOptions.config as { cors?: boolean }).cors === false) {
      done();
      return;
    }
    // Every API answer varies by Origin, so no cache hands a trusted origin's answer to
    // another origin.
    varyByOrigin(reply);
    const origin = request.headers.origin;
    if (origin === undefined || !trusted(origin)) {
      done();
      return;
    }
    reply.header("access-control-allow-origin", origin);
    reply.header("access-control-allow-credentials", "true");
    reply.header("access-control-expose-headers", EXPOSED_HEADERS);
    if (request.method !== "OPTIONS") {
      done();
      return;
    }
    // A preflight, answered whether or not it names a method: a refusal would be a
    // plain-text 400 no authd client knows.
    reply.header("access-control-allow-methods", METHODS);
    reply.header("access-control-allow-headers", ALLOWED_HEADERS);
    reply.code(204).header("content-length", "0").send();
  });

  // Lets Fastify route a preflight at all; a trusted one was answered by the hook, any
  // other finds nothing here.
  app.options("*", (_request, reply) => {
    reply.callNotFound();
  });
}
