/**
 * Request ids: an incoming `X-Request-Id` is kept when it is a short token (so a load
 * balancer's id carries through the logs), otherwise a fresh UUID is made. The id is
 * echoed on every response.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdFor(request: IncomingMessage): string {
  const incoming = request.headers["x-request-id"];
  return typeof incoming === "string" && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}
