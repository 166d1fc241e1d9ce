/**
 * buildApp: the Fastify instance with every plugin and route, and no listen(), so
 * tests, the benchmark and `authd serve` build it the same way (DESIGN §1).
 */
import Fastify, { type FastifyInstance } from "fastify";
import type { AuthdConfig } from "./config.js";
import type { Sql } from "./db/connection.js";
import { healthRoutes, type Readiness } from "./health/routes.js";
import { registerErrorHandling } from "./http/error-handler.js";
import { requestIdFor } from "./http/request-id.js";
import { zodValidatorCompiler } from "./http/validation.js";
import type { Logger } from "./logger.js";
import { pageRoutes } from "./pages/routes.js";

export interface AppDependencies {
  sql: Sql;
  logger?: Logger;
  /** Shared with the serve loop: flipped to draining when a shutdown starts. */
  readiness?: Readiness;
}

/** A number means "trust that many proxy hops" (X-Forwarded-For read from the right). */
function trustProxySetting(
  value: AuthdConfig["server"]["trustProxy"],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof value === "number" ? (_address, hop) => hop < value : value;
}

export async function buildApp(
  config: AuthdConfig,
  dependencies: AppDependencies,
): Promise<FastifyInstance> {
  const readiness = dependencies.readiness ?? { draining: false };
  const app = Fastify({
    ...(dependencies.logger ? { loggerInstance: dependencies.logger } : { logger: false }),
    genReqId: requestIdFor,
    requestIdHeader: false,
    bodyLimit: config.server.bodyLimit,
    trustProxy: trustProxySetting(config.server.trustProxy),
    return503OnClosing: true,
    forceCloseConnections: "idle",
    routerOptions: { ignoreTrailingSlash: false, ignoreDuplicateSlashes: false },
  }) as unknown as FastifyInstance;

  app.setValidatorCompiler(zodValidatorCompiler);
  // JSON only for now (api-facts §1): anything else is 415 UNSUPPORTED_MEDIA_TYPE.
  app.removeContentTypeParser("text/plain");
  registerErrorHandling(app);

  app.addHook("onSend", async (request, reply, payload) => {
    reply.header("x-request-id", request.id);
    reply.header("x-content-type-options", "nosniff");
    // While draining, a finished in-flight request must not keep its socket alive.
    if (readiness.draining) reply.header("connection", "close");
    return payload;
  });

  await app.register(healthRoutes(dependencies.sql, readiness));
  await app.register(pageRoutes, { prefix: config.basePath === "/" ? "" : config.basePath });
  return app;
}
