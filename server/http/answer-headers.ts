/** The headers every answer carries, hooked on onSend (and set by answers sent outside it). */
import type { FastifyReply, FastifyRequest } from "fastify";

export function setAnswerHeaders(request: FastifyRequest, reply: FastifyReply): void {
  reply.header("x-request-id", request.id);
  reply.header("x-content-type-options", "nosniff");
  // Auth answers carry sessions, tokens and personal data: never cached by anyone.
  if (!reply.hasHeader("cache-control")) reply.header("cache-control", "no-store");
}
