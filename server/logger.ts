/**
 * Structured logs (pino). Cookies, authorization headers, passwords and tokens never
 * reach a log line: headers and body fields are redacted by path, and URLs lose the
 * values of token-bearing query parameters and path segments.
 */
import type { FastifyBaseLogger } from "fastify";
import {
  type Bindings,
  type ChildLoggerOptions,
  type DestinationStream,
  type Logger,
  pino,
} from "pino";
import type { AuthdConfig } from "./config.js";

export type { Logger } from "pino";

const SECRET_FIELDS = [
  "password",
  "newPassword",
  "currentPassword",
  "token",
  "secret",
  "accessToken",
  "refreshToken",
  "idToken",
  "clientSecret",
  "codeVerifier",
];

const REDACTED_PATHS = [
  "req.headers.cookie",
  "req.headers.authorization",
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  'res.headers["set-auth-token"]',
  // A secret field at the top of a log object, and one level down (a logged body).
  ...SECRET_FIELDS,
  ...SECRET_FIELDS.map((field) => `*.${field}`),
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

const LEVEL_NAMES: Record<number, string> = {
  10: "TRACE",
  20: "DEBUG",
  30: "INFO",
  40: "WARN",
  50: "ERROR",
  60: "FATAL",
};

/** A value as `key=value` text: strings bare unless they need quotes, the rest as JSON. */
function prettyValue(value: unknown): string {
  if (typeof value === "string") return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value);
}

/**
 * One readable line per entry for a person at a terminal (`log.format: pretty`, or
 * `auto` on a TTY): `12:00:01.234 INFO  message key=value …`, an error's stack below it.
 * Redaction has happened before: the line is made from pino's own JSON.
 */
export function prettyDestination(out: NodeJS.WritableStream): DestinationStream {
  return {
    write(line: string) {
      let entry: Record<string, unknown>;
      try {
        entry = JSON.parse(line);
      } catch {
        out.write(line);
        return;
      }
      const { level, time, msg, pid: _pid, hostname: _hostname, err, ...rest } = entry;
      const clock = new Date(typeof time === "number" ? time : Date.now())
        .toISOString()
        .slice(11, 23);
      const name = (LEVEL_NAMES[Number(level)] ?? String(level)).padEnd(5);
      const fields = Object.entries(rest)
        .map(([key, value]) => `${key}=${prettyValue(value)}`)
        .join(" ");
      const stack =
        err && typeof err === "object" && "stack" in err ? `\n${String(err.stack)}` : "";
      out.write(`${clock} ${name} ${msg ?? ""}${fields ? ` ${fields}` : ""}${stack}\n`);
    },
  };
}

/** pretty for `pretty`, and for `auto` when stdout is a terminal. */
export function wantsPretty(config: Pick<AuthdConfig, "log">): boolean {
  const format = config.log.format ?? "auto";
  return format === "pretty" || (format === "auto" && process.stdout.isTTY === true);
}

export function createLogger(
  config: Pick<AuthdConfig, "log">,
  destination?: DestinationStream,
): Logger {
  const target =
    destination ?? (wantsPretty(config) ? prettyDestination(process.stdout) : undefined);
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
    target,
  );
}

type LogMethod = (...args: unknown[]) => void;

/**
 * Fastify gives every request a child logger. Making a pino child runs the redaction
 * over its bindings, a measurable share of a cheap request (get-session from the cookie
 * cache) that most requests never log anything with. This one makes the child on its
 * first use and forwards to it.
 */
class LazyChildLogger implements FastifyBaseLogger {
  #child: FastifyBaseLogger | undefined;
  readonly #parent: FastifyBaseLogger;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions;

  constructor(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  #logger(): FastifyBaseLogger {
    this.#child ??= this.#parent.child(this.#bindings, this.#options);
    return this.#child;
  }

  #forward(level: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent"): LogMethod {
    return (...args) => (this.#logger()[level] as LogMethod)(...args);
  }

  get level(): string {
    return this.#child?.level ?? this.#options.level ?? this.#parent.level;
  }

  set level(value: string) {
    this.#logger().level = value;
  }

  fatal = this.#forward("fatal");
  error = this.#forward("error");
  warn = this.#forward("warn");
  info = this.#forward("info");
  debug = this.#forward("debug");
  trace = this.#forward("trace");
  silent = this.#forward("silent");

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#logger().child(bindings, options);
  }
}

/** Fastify's `childLoggerFactory`: a request logger made on first use. */
export function lazyChildLogger(
  parent: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new LazyChildLogger(parent, bindings, options);
}

/** The part of a logger that domain code uses (a pino or a Fastify request logger). */
export interface LogSink {
  info(object: object, message?: string): void;
  warn(object: object, message?: string): void;
  error(object: object, message?: string): void;
}
