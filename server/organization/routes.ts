/** Being written (issue 4). */
import type { FastifyInstance } from "fastify";
import type { AuthContext } from "../http/auth-context.js";

export function organizationRoutes(_context: AuthContext) {
  return async (_app: FastifyInstance): Promise<void> => {};
}
