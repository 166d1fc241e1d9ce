/**
 * Probes for load balancers and orchestrators: `/healthz`
 * answers while the process runs; `/readyz` also needs the database to answer (within a
 * second; at once 503 while it is known to be down) and the
 * schema to be current and the server not to be draining, and turns 503 as soon as a
 * shutdown begins. `serve --management-port` serves them on a port of their own too.
 */
import type { FastifyInstance } from "fastify";
import type { DatabaseAvailability } from "../db/availability.js";

export interface Readiness {
  draining: boolean;
  /**
   * Set when the server started with migrations pending (`serve --migrations ignore`):
   * answers whether they still are, and readiness stays 503 until they are applied.
   */
  schemaPending?: () => Promise<boolean>;
}

export function healthRoutes(database: DatabaseAvailability, readiness: Readiness) {
  // Probes answer orchestrators, not browser apps on other origins: no CORS headers.
  const options = { config: { cors: false } } as const;
  return async (app: FastifyInstance): Promise<void> => {
    app.get("/healthz", options, async () => ({ status: "ok" }));

    app.get("/readyz", options, async (_request, reply) => {
      if (readiness.draining) {
        return reply.code(503).send({ status: "draining" });
      }
      // At once while the database is known to be down, within a second otherwise.
      if (!(await database.check())) {
        return reply.code(503).send({ status: "database unavailable" });
      }
      if (readiness.schemaPending) {
        if (await readiness.schemaPending()) {
          return reply.code(503).send({ status: "migrations pending" });
        }
        // Applied meanwhile (by `authd migrate`): no need to look again.
        readiness.schemaPending = undefined;
      }
      return { status: "ready" };
    });
  };
}
