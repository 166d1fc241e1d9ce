/**
 * Metrics over HTTP: the hook that counts every answered request under its route
 * pattern, and GET <metrics.path> with the exposition, on the main listener or on the
 * metrics port. Added only when metrics are on.
 */
import type { FastifyInstance } from "fastify";
import type { Metrics } from "../metrics/metrics.js";

export function countResponses(app: FastifyInstance, metrics: Metrics): void {
  // A callback hook, not an async one: it runs on every response.
  app.addHook("onResponse", (request, reply, done) => {
    // The route pattern, never the URL: one series per route whatever tokens and ids
    // the URLs carry, and one for everything no route matched.
    metrics.countResponse(
      request.method,
      request.routeOptions.url ?? "unmatched",
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    done();
  });
}

export function serveMetrics(app: FastifyInstance, metrics: Metrics, path: string): void {
  // For the scraper: no CORS (not an API for browser apps), and never rate limited.
  const options = { config: { cors: false, rateLimit: false } } as const;
  app.get(path, options, async (_request, reply) => {
    const text = await metrics.exposition();
    return reply.type(metrics.contentType).send(text);
  });
}
