/** `authd serve`: listen, log where, drain on SIGTERM/SIGINT. */

import path from "node:path";
import { type Command, InvalidArgumentError, Option } from "commander";
import { dataPath, type LoadedConfig } from "../../server/config.js";
import { createLogger, type Logger, wantsPretty } from "../../server/logger.js";
import { type MigrationsMode, type RunningServer, startServer } from "../../server/serve.js";
import { loadCommandConfig } from "../command-config.js";
import type { GlobalOptions } from "../output.js";
import { parsePort, parseTimeout } from "./shared.js";

interface ServeFlags {
  port?: number;
  host?: string;
  migrate?: boolean;
  migrations?: MigrationsMode;
  basePath?: string;
  shutdownTimeout?: number;
  drainDelay?: number;
  trustProxy?: boolean | number | string[];
  managementPort?: number;
  metrics?: boolean;
  metricsPort?: number;
  logFormat?: "auto" | "json" | "pretty";
}

/** A duration like parseTimeout's, zero allowed: `0`, `5s`, `500ms`. */
function parseDelay(value: string): number {
  if (/^0+(\.0*)?\s*(ms|s|m|h)?$/.test(value.trim())) return 0;
  try {
    return parseTimeout(value);
  } catch {
    throw new InvalidArgumentError("expected a duration like 5s or 500ms, or 0");
  }
}

/** `true`, a hop count, or comma-separated addresses/CIDRs (Fastify's trustProxy). */
function parseTrustProxy(value: string): boolean | number | string[] {
  if (value === "true") return true;
  if (value === "false") return false;
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const address = /^[0-9A-Fa-f.:]+(\/\d{1,3})?$/;
  if (entries.length === 0 || !entries.every((entry) => address.test(entry))) {
    throw new InvalidArgumentError(
      "expected true, false, a hop count, or addresses/CIDRs like 10.0.0.0/8,127.0.0.1",
    );
  }
  return entries;
}

/**
 * First signal: drain (readiness 503 and serving on for the drain delay, then stop
 * accepting, finish in-flight requests, close the database) and exit 0. SIGINT is a
 * person's Ctrl-C, not a load balancer's stop, so it skips the drain delay. A second
 * signal, or the shutdown timeout (which the drain delay counts within), exits 1 at once.
 */
function exitOnSignals(
  server: RunningServer,
  logger: Logger,
  timeoutSeconds: number,
): Promise<number> {
  return new Promise((resolve) => {
    let stopping = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (stopping) {
        logger.warn({ signal }, "second signal: exiting without waiting");
        resolve(1);
        return;
      }
      stopping = true;
      logger.info({ signal }, "shutting down: draining");
      const timer = setTimeout(() => {
        logger.error({ timeoutSeconds }, "shutdown timed out");
        resolve(1);
      }, timeoutSeconds * 1000);
      timer.unref();
      server.close({ skipDrainDelay: signal === "SIGINT" }).then(
        () => {
          clearTimeout(timer);
          logger.info("stopped");
          resolve(0);
        },
        (error: unknown) => {
          clearTimeout(timer);
          logger.error({ err: error }, "error while shutting down");
          resolve(1);
        },
      );
    };
    process.on("SIGTERM", onSignal);
    process.on("SIGINT", onSignal);
  });
}

/** A path as a person reads it: relative when it lies under the working directory. */
function shownPath(file: string, cwd: string): string {
  const relative = path.relative(cwd, file);
  return relative && !relative.startsWith("..") && !path.isAbsolute(relative) ? relative : file;
}

/**
 * What a newcomer needs once the server is up, said once: where it answers, where its
 * data lives, where the secret came from, where mail goes and what to do next. JSON
 * logs carry it as the fields of the "authd listening" line; at a terminal it is a
 * short block.
 */
function announce(loaded: LoadedConfig, server: RunningServer, logger: Logger): void {
  const { config, cwd } = loaded;
  const url = `${server.url}${config.basePath}`;
  const secret =
    server.secretSource.kind === "configured"
      ? "configured"
      : server.secretSource.kind === "generated"
        ? `generated for development in ${server.secretSource.file}`
        : `development secret from ${server.secretSource.file}`;
  const mail =
    server.mail.kind === "smtp"
      ? `sent through ${server.mail.describe}`
      : `written to ${server.mail.describe} (not sent)`;
  // Where a newcomer signs up in the browser, when the pages are served (and built).
  const pagesPrefix = config.pages.path === "/" ? "" : config.pages.path;
  const signUpPath = `${pagesPrefix}/sign-up`;
  const signUpUrl =
    config.pages.enabled && server.app.hasRoute({ method: "GET", url: signUpPath })
      ? `${server.url}${signUpPath}`
      : undefined;
  const fields = {
    url,
    ...(signUpUrl ? { signUpUrl } : {}),
    database: server.db.label,
    config: loaded.file ?? "defaults",
    secretSource: secret,
    mail,
    ...(server.managementPort !== undefined
      ? { managementUrl: `${server.url.replace(/:\d+$/, "")}:${server.managementPort}` }
      : {}),
    ...(config.metrics.enabled
      ? {
          metricsUrl: `${
            server.metricsPort === undefined
              ? server.url
              : `${server.url.replace(/:\d+$/, "")}:${server.metricsPort}`
          }${config.metrics.path}`,
        }
      : {}),
  };
  if (!wantsPretty(config)) {
    logger.info(fields, "authd listening");
    if (signUpUrl) logger.info({ signUpUrl }, `Sign up at ${signUpUrl}`);
    return;
  }
  // Init writes http://localhost:<port>: a person sees the same name here.
  const local = url.replace(/^http:\/\/(127\.0\.0\.1|\[::1\]):/, "http://localhost:");
  const data = server.db.embedded
    ? `embedded PostgreSQL (PGlite) in ${shownPath(dataPath(loaded, "pgdata"), cwd)}`
    : `PostgreSQL at ${server.db.label}`;
  const lines: Array<[string, string]> = [
    ["data", data],
    ["config", loaded.file ? shownPath(loaded.file, cwd) : "none found: every key has its default"],
    [
      "secret",
      server.secretSource.kind === "configured"
        ? "configured"
        : `${server.secretSource.kind === "generated" ? "generated for development and kept" : "development secret"} in ${shownPath(server.secretSource.file, cwd)} (set AUTHD_SECRET in production)`,
    ],
    [
      "mail",
      server.mail.kind === "smtp"
        ? `sent through ${server.mail.describe}`
        : `not sent: written to ${shownPath(server.mail.describe, cwd)}${path.sep} (set SMTP_URL to send)`,
    ],
    ...(fields.managementUrl
      ? ([["probes", `${fields.managementUrl}/readyz`]] as Array<[string, string]>)
      : []),
    ...(fields.metricsUrl ? ([["metrics", fields.metricsUrl]] as Array<[string, string]>) : []),
    [
      "next",
      `curl ${local}/ok, then sign up with POST ${config.basePath}/sign-up/email; Ctrl-C stops (authd --help for the rest)`,
    ],
  ];
  const signUp = signUpUrl
    ? `Sign up at ${signUpUrl.replace(/^http:\/\/(127\.0\.0\.1|\[::1\]):/, "http://localhost:")}\n`
    : "";
  process.stdout.write(
    `authd listening on ${local}\n${lines.map(([label, text]) => `  ${label.padEnd(8)}${text}`).join("\n")}\n${signUp}`,
  );
}

export function registerServe(program: Command): void {
  program
    .command("serve")
    .description("run the auth HTTP server")
    .option("-p, --port <port>", "port to listen on (default 3000, or $PORT)", parsePort)
    .option("--host <host>", "address to bind (default 0.0.0.0, or $HOST)")
    .option("--base-path <path>", "where the API is mounted (default /api/auth)")
    .addOption(
      new Option(
        "--migrations <mode>",
        "pending migrations: check (refuse to start, exit 10), apply, or ignore (start; /readyz 503 until applied); default check, apply for the embedded database",
      ).choices(["check", "apply", "ignore"]),
    )
    .option("--migrate", "same as --migrations apply")
    .option(
      "--shutdown-timeout <duration>",
      "longest shutdown on SIGTERM, drain delay included, before exit 1, e.g. 30s (default server.shutdownTimeout)",
      parseTimeout,
    )
    .option(
      "--drain-delay <duration>",
      "on SIGTERM, keep serving this long with /readyz at 503 before closing the listener, e.g. 5s or 0 (default server.drainDelay)",
      parseDelay,
    )
    .option(
      "--trust-proxy <value>",
      "trust X-Forwarded-* from: true, a hop count, or addresses/CIDRs (comma-separated)",
      parseTrustProxy,
    )
    .option(
      "--management-port <port>",
      "also serve /healthz and /readyz on this port (for probes kept off the public port)",
      parsePort,
    )
    .option("--metrics", "serve Prometheus metrics at metrics.path (default /metrics)")
    .option(
      "--metrics-port <port>",
      "serve Prometheus metrics on this port instead of the API's (turns them on)",
      parsePort,
    )
    .addOption(
      new Option(
        "--log-format <format>",
        "json lines (log shippers), pretty, or auto: pretty on a terminal (default log.format)",
      ).choices(["auto", "json", "pretty"]),
    )
    .action(async (flags: ServeFlags, command: Command) => {
      const globals = command.optsWithGlobals<GlobalOptions>();
      if (flags.migrate && flags.migrations && flags.migrations !== "apply") {
        throw new InvalidArgumentError(`--migrate contradicts --migrations ${flags.migrations}`);
      }
      const loaded = await loadCommandConfig(globals, {
        overrides: {
          basePath: flags.basePath,
          log: { format: flags.logFormat },
          metrics: {
            enabled: flags.metrics || flags.metricsPort !== undefined ? true : undefined,
            port: flags.metricsPort,
          },
          server: {
            port: flags.port,
            host: flags.host,
            trustProxy: flags.trustProxy,
            shutdownTimeout:
              flags.shutdownTimeout === undefined
                ? undefined
                : Math.max(1, Math.ceil(flags.shutdownTimeout)),
            drainDelay: flags.drainDelay === undefined ? undefined : Math.ceil(flags.drainDelay),
          },
        },
        flagNames: {
          basePath: "--base-path",
          "log.format": "--log-format",
          "metrics.enabled": flags.metrics ? "--metrics" : "--metrics-port",
          "metrics.port": "--metrics-port",
          "server.port": "--port",
          "server.host": "--host",
          "server.trustProxy": "--trust-proxy",
          "server.shutdownTimeout": "--shutdown-timeout",
          "server.drainDelay": "--drain-delay",
        },
      });
      const logger = createLogger(loaded.config);
      // The embedded database belongs to authd alone, so its schema follows the binary.
      const migrations: MigrationsMode =
        flags.migrations ?? (flags.migrate || !loaded.config.database.url ? "apply" : "check");
      const server = await startServer(loaded, {
        logger,
        migrations,
        managementPort: flags.managementPort,
      });
      // Handlers first: whoever reads the lines below may signal at once.
      const stopped = exitOnSignals(server, logger, loaded.config.server.shutdownTimeout);
      announce(loaded, server, logger);
      process.exitCode = await stopped;
      // Pino writes synchronously to stdout; nothing else holds the process open.
      if (process.exitCode !== 0) process.exit(process.exitCode);
    });
}
