/** `authd serve`: listen, log where, drain on SIGTERM/SIGINT. */
import type { Command } from "commander";
import { loadConfig } from "../../server/config.js";
import { createLogger, type Logger } from "../../server/logger.js";
import { type RunningServer, startServer } from "../../server/serve.js";
import type { GlobalOptions } from "../output.js";
import { parsePort } from "./shared.js";

interface ServeFlags {
  port?: number;
  host?: string;
  migrate?: boolean;
}

/**
 * First signal: drain (readiness 503, finish in-flight requests, close the database)
 * and exit 0. A second signal, or the shutdown timeout, exits 1 at once.
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
      logger.info({ signal }, "shutting down: draining in-flight requests");
      const timer = setTimeout(() => {
        logger.error({ timeoutSeconds }, "shutdown timed out");
        resolve(1);
      }, timeoutSeconds * 1000);
      timer.unref();
      server.close().then(
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

export function registerServe(program: Command): void {
  program
    .command("serve")
    .description("run the auth HTTP server")
    .option("-p, --port <port>", "port to listen on (default 3000, or $PORT)", parsePort)
    .option("--host <host>", "address to bind (default 0.0.0.0, or $HOST)")
    .option("--migrate", "apply pending migrations before listening")
    .action(async (flags: ServeFlags, command: Command) => {
      const globals = command.optsWithGlobals<GlobalOptions>();
      const loaded = await loadConfig({
        configPath: globals.config,
        overrides: { server: { port: flags.port, host: flags.host } },
      });
      const logger = createLogger(loaded.config);
      // The embedded database belongs to authd alone, so its schema follows the binary.
      const migrate = flags.migrate === true || !loaded.config.database.url;
      const server = await startServer(loaded, { logger, migrate });
      logger.info(
        {
          url: `${server.url}${loaded.config.basePath}`,
          database: server.db.label,
          config: loaded.file ?? "defaults",
        },
        "authd listening",
      );
      process.exitCode = await exitOnSignals(server, logger, loaded.config.server.shutdownTimeout);
      // Pino writes synchronously to stdout; nothing else holds the process open.
      if (process.exitCode !== 0) process.exit(process.exitCode);
    });
}
