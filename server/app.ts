/**
 * buildApp: the Fastify instance with every plugin and route, and no listen(), so
 * tests, the benchmark and `authd serve` build it the same way.
 */

import { readFileSync } from "node:fs";
import path from "node:path";
import fastifyCookie from "@fastify/cookie";
import Fastify, { type FastifyInstance, LogController } from "fastify";
import type { Redis } from "ioredis";
import { accountRoutes } from "./accounts/routes.js";
import { adminRoutes } from "./admin/routes.js";
import { type AuthdConfig, secretList } from "./config.js";
import { createPasswordHasher } from "./crypto/password.js";
import { createDatabaseAvailability, type DatabaseAvailability } from "./db/availability.js";
import { poolStats } from "./db/clients.js";
import type { Sql } from "./db/connection.js";
import { packageRoot } from "./db/migrations.js";
import { createDomains } from "./domains.js";
import { emailRoutes } from "./email/routes.js";
import { healthRoutes, type Readiness } from "./health/routes.js";
import { type Admission, registerAdmission } from "./http/admission.js";
import { setAnswerHeaders } from "./http/answer-headers.js";
import type { AuthContext } from "./http/auth-context.js";
import { registerCors } from "./http/cors.js";
import {
  answerClientError,
  answerFrameworkError,
  registerErrorHandling,
} from "./http/error-handler.js";
import { registerFormBodies } from "./http/form-body.js";
import { registerJsonBodies } from "./http/json-body.js";
import { countResponses, serveMetrics } from "./http/metrics.js";
import { registerOpenApi } from "./http/openapi.js";
import { registerOriginChecks } from "./http/origin.js";
import { goAheadWithinLimit } from "./http/oversized-body.js";
import { registerRateLimit } from "./http/rate-limit.js";
import { requestIdFor } from "./http/request-id.js";
import { plainSerializerCompiler } from "./http/serialization.js";
import { cookieNames, createCookieContext } from "./http/session-cookies.js";
import { reissueStaleSessionCookie } from "./http/session-response.js";
import { zodValidatorCompiler } from "./http/validation.js";
import { invitationRoutes } from "./invitations/routes.js";
import { keyRoutes } from "./keys/routes.js";
import { createKeyCache } from "./keys/tokens.js";
import { type Logger, lazyChildLogger, redactUrl, wantsPretty } from "./logger.js";
import { type Mailer, observeDeliveries } from "./mail/mailer.js";
import type { Metrics } from "./metrics/metrics.js";
import { organizationRoutes } from "./organization/routes.js";
import { pageRoutes } from "./pages/routes.js";
import { loadPages, pagesDirectory, servePages } from "./pages/site.js";
import { passwordRoutes } from "./password/routes.js";
import { sessionRoutes } from "./sessions/routes.js";
import { createSessionLookups } from "./sessions/sessions.js";
import { createSocialContext, type SocialOptions } from "./social/context.js";
import { socialRoutes } from "./social/routes.js";
import { teamRoutes } from "./teams/routes.js";
import { userRoutes } from "./users/routes.js";
import { verificationRoutes } from "./verification/routes.js";

export interface AppDependencies {
  sql: Sql;
  mailer: Mailer;
  logger?: Logger;
  /** Shared with the serve loop: flipped to draining when a shutdown starts. */
  readiness?: Readiness;
  /** Shared rate-limit counters across instances. */
  redis?: Redis;
  /** Key prefix of those counters (default "authd-rate-limit:"). */
  rateLimitNamespace?: string;
  /** Social sign-in's catalogue, cipher and request bounds, where not the defaults (tests). */
  social?: SocialOptions;
  /** Where the built pages are read from; by default the package's dist/pages. */
  pagesDirectory?: string;
  /** How long signing keys read from the database are used (default 30 s; tests shorten it). */
  keyRefreshMs?: number;
}

declare module "fastify" {
  interface FastifyInstance {
    /**
     * What this app owns (its pool's session lookups, its password hasher, …): one per
     * buildApp, so two apps in one process share nothing. Read by tests.
     */
    readonly authContext: AuthContext;
    /** Whether this app's database answers; /readyz and the admission gate read it. */
    readonly database: DatabaseAvailability;
    /** The API's admission gate: requests served and waiting. */
    readonly admission: Admission;
  }
}

/** A number means "trust that many proxy hops" (X-Forwarded-For read from the right). */
function trustProxySetting(
  value: AuthdConfig["server"]["trustProxy"],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof value === "number" ? (_address, hop) => hop < value : value;
}

function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(path.join(packageRoot(), "package.json"), "utf8"));
  return String((manifest as { version?: unknown }).version ?? "0.0.0");
}

/**
 * What every listener of the server holds a client to (the API's, and `serve`'s
 * management and metrics ports): this long to send its headers, and its whole request,
 * then 408 and close; requests Node refuses before Fastify sees them answer from the
 * catalogue.
 */
export function clientLimits(config: AuthdConfig) {
  return {
    requestTimeout: config.server.requestTimeout * 1000,
    http: {
      headersTimeout: config.server.headersTimeout * 1000,
      // How often Node looks for clients past those timeouts (its default is every 30 s):
      // a tenth of the shorter one, so a client is cut off close to its time.
      connectionsCheckingInterval:
        Math.min(config.server.headersTimeout, config.server.requestTimeout) * 100,
    },
    clientErrorHandler: answerClientError,
  };
}

export async function buildApp(
  config: AuthdConfig,
  dependencies: AppDependencies,
): Promise<FastifyInstance> {
  const secrets = secretList(config);
  if (secrets.length === 0) throw new Error("buildApp needs config.secret (see ensureSecret)");
  const secret = secrets[0] as string;
  const readiness = dependencies.readiness ?? { draining: false };
  const prettyRequests = dependencies.logger !== undefined && wantsPretty(config);
  const app = Fastify({
    ...(dependencies.logger
      ? { loggerInstance: dependencies.logger, childLoggerFactory: lazyChildLogger }
      : { logger: false }),
    genReqId: requestIdFor,
    requestIdHeader: false,
    // A person at a terminal reads one compact line per request (below); JSON logs keep
    // Fastify's two entries with every field.
    logController: new LogController({
      disableRequestLogging: !config.log.requests || prettyRequests,
    }),
    bodyLimit: config.server.bodyLimit,
    ...clientLimits(config),
    // A URL that does not decode is refused by the router itself: answered from the catalogue.
    frameworkErrors: answerFrameworkError,
    trustProxy: trustProxySetting(config.server.trustProxy),
    // A safety net: `serve` closes every connection before app.close() (server/http/drain.ts).
    return503OnClosing: true,
    forceCloseConnections: "idle",
    routerOptions: { ignoreTrailingSlash: false, ignoreDuplicateSlashes: false },
  }) as unknown as FastifyInstance;

  // The API's admission gate, made below with the API's scope; the metrics read it.
  let admission: Admission | undefined;
  // Loaded and registered only when on: with metrics off no hook runs and nothing counts.
  const metrics: Metrics | null = config.metrics.enabled
    ? (await import("./metrics/registry.js")).createMetrics({
        load: () => admission?.stats() ?? { inFlight: 0, waiting: 0, max: 0 },
        pool: () => poolStats(dependencies.sql),
      })
    : null;
  if (metrics) {
    // The event-loop monitor and the GC observer stop with the app.
    app.addHook("onClose", async () => metrics.close());
    countResponses(app, metrics);
  }

  app.setValidatorCompiler(zodValidatorCompiler);
  // Response schemas are zod too; routes whose answers are hot pick fast-json-stringify.
  app.setSerializerCompiler(plainSerializerCompiler);
  // JSON everywhere, forms where Better Auth accepts them; anything else is 415.
  app.removeContentTypeParser("text/plain");
  registerJsonBodies(app);
  registerFormBodies(app, config.basePath);
  const database = createDatabaseAvailability(dependencies.sql, app.log);
  app.decorate("database", database);
  app.addHook("onClose", (_instance, done) => {
    database.close();
    done();
  });
  const withoutGoAhead = goAheadWithinLimit(app.server, config.server.bodyLimit);
  registerErrorHandling(app, { database, metrics, withoutGoAhead });
  await app.register(fastifyCookie);
  await registerRateLimit(app, config, {
    redis: dependencies.redis,
    namespace: dependencies.rateLimitNamespace,
    metrics,
  });
  registerOriginChecks(app, config);
  registerCors(app, config);

  // A callback hook, not an async one: it runs on every response.
  app.addHook("onSend", (request, reply, payload, done) => {
    setAnswerHeaders(request, reply);
    done(null, payload);
  });

  if (prettyRequests && config.log.requests) {
    // `GET /api/auth/ok 200 1.4 ms reqId=…`: method, path, status, time, request id.
    app.addHook("onResponse", (request, reply, done) => {
      request.log.info(
        `${request.method} ${redactUrl(request.url)} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)} ms`,
      );
      done();
    });
  }

  const context: AuthContext = {
    config,
    secret,
    secrets,
    sql: dependencies.sql,
    mailer: metrics
      ? observeDeliveries(dependencies.mailer, (kind, outcome) => metrics.countMail(kind, outcome))
      : dependencies.mailer,
    cookies: createCookieContext(config, secrets),
    passwords: createPasswordHasher(),
    sessionLookups: createSessionLookups(dependencies.sql),
    domains: createDomains(dependencies.sql, config),
    social: createSocialContext(config, secrets, dependencies.social),
    keys: config.jwt.enabled
      ? createKeyCache(dependencies.sql, config, secrets, dependencies.keyRefreshMs)
      : null,
    metrics,
    sessionOfRequest: new WeakMap(),
  };
  app.decorate("authContext", context);
  // Only while secrets rotate: with one secret no cookie can be stale, and no hook runs.
  if (secrets.length > 1) app.addHook("preHandler", reissueStaleSessionCookie(context));
  const prefix = config.basePath === "/" ? "" : config.basePath;

  await app.register(healthRoutes(database, readiness));
  // With a port of their own, `serve` puts the metrics on that listener instead.
  if (metrics && config.metrics.port === undefined) serveMetrics(app, metrics, config.metrics.path);
  if (config.pages.enabled) {
    // Read once, owned by this app; before the OpenAPI hook, which documents the API only.
    const directory = dependencies.pagesDirectory ?? pagesDirectory();
    const pages = loadPages(config, directory);
    if (pages) servePages(app, config, pages);
    else {
      app.log.warn(
        `the sign-in pages are not built (no ${path.join(directory, "index.html")}): run \`npm run build\`, or set pages.enabled: false; the API works without them`,
      );
    }
  }
  // The probes and the metrics (not under the base path, and served on ports of their
  // own too) are left out of the OpenAPI document: it covers what registers from here on.
  registerOpenApi(app, {
    prefix,
    version: packageVersion(),
    auth: {
      cookieName: cookieNames(config, false).sessionToken,
      bearer: config.bearer.enabled,
    },
  });
  await app.register(pageRoutes, { prefix });
  // The API in one scope, behind the admission gate (the probes and pages are outside).
  await app.register(async (api) => {
    admission = registerAdmission(api, config, { database });
    for (const routes of [
      sessionRoutes,
      userRoutes,
      verificationRoutes,
      passwordRoutes,
      emailRoutes,
      accountRoutes,
      socialRoutes,
      organizationRoutes,
      invitationRoutes,
      teamRoutes,
      adminRoutes,
      keyRoutes,
    ]) {
      await api.register(routes(context), { prefix });
    }
  });
  app.decorate("admission", admission as Admission);
  return app;
}
