/**
 * Structured logs (pino). Cookies, authorization headers, passwords and tokens never
 * reach a log line: headers and body fields are redacted by path, and URLs lose the
 * values of token-bearing query parameters and path segments.
 */
import { type DestinationStream, type Logger, pino } from "pino";
import type { AuthdConfig } from "./config.js";

export type { Logger } from "pino";

const REDACTED_PATHS = [
  "req.headers.cookie",
  "req.headers.authorization",
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  "*.password",
  "*.newPassword",
  "*.currentPassword",
  "*.token",
  "*.secret",
  "*.accessToken",
  "*.refreshToken",
  "*.idToken",
  "*.clientSecret",
];

const SECRET_QUERY_KEYS = /^(token|code|state|password|secret|id_token|access_token)$/i;

/** A request URL safe to log: secret query values and reset/delete tokens replaced. */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf("?");
  const pathPart = queryStart === -1 ? url : url.slice(0, queryStart);
  const safePath = pathPart.replace(/\/(reset-password)\/[^/]+/, "/$1/[redacted]");
  if (queryStart === -1) return safePath;
  const params = new URLSearchParams(url.slice(queryStart + 1));
  for (const key of [...params.keys()]) {
    if (SECRET_QUERY_KEYS.test(key)) params.set(key, "[redacted]");
  }
  return `${safePath}?${params.toString()}`;
}

interface LoggedRequest {
  id?: string;
  method?: string;
  url?: string;
  ip?: string;
  headers?: Record<string, unknown>;
}

export function createLogger(
  config: Pick<AuthdConfig, "log">,
  destination?: DestinationStream,
): Logger {
  return pino(
    {
      level: config.log.level,
      redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
      serializers: {
        req(request: LoggedRequest) {
          return {
            id: request.id,
            method: request.method,
            url: request.url ? redactUrl(request.url) : undefined,
            remoteAddress: request.ip,
            userAgent: request.headers?.["user-agent"],
          };
        },
        res(reply: { statusCode?: number }) {
          return { statusCode: reply.statusCode };
        },
        err: pino.stdSerializers.err,
      },
    },
    destination,
  );
}

/** The part of a logger that domain code uses (a pino or a Fastify request logger). */
export interface LogSink {
  info(object: object, message?: string): void;
  warn(object: object, message?: string): void;
  error(object: object, message?: string): void;
}
