/**
 * Starting and stopping the HTTP server around buildApp: secret, database, schema
 * check (or migration), listen, and a graceful drain on shutdown.
 */
import type { FastifyInstance } from "fastify";
import { buildApp } from "./app.js";
import { recordAuditEvent } from "./audit/audit.js";
import { ensureSecret, type LoadedConfig } from "./config.js";
import type { Queryable } from "./db/connection.js";
import { type Database, openDatabase } from "./db/connection.js";
import { migrationStatus, runMigrations } from "./db/migrations.js";
import type { Readiness } from "./health/routes.js";
import type { Logger } from "./logger.js";
import { createMailer, type Mailer } from "./mail/mailer.js";
import { createMailTransport } from "./mail/transport.js";

/** The schema is behind this version of authd: exit 10, naming the command to run. */
export class SchemaOutOfDateError extends Error {
  readonly pending: string[];
  constructor(pending: string[]) {
    super(
      `the database schema is behind: ${pending.length} pending migration(s) (${pending.join(", ")}). ` +
        "Run `authd migrate`, or start with `authd serve --migrate`.",
    );
    this.name = "SchemaOutOfDateError";
    this.pending = pending;
  }
}

/** The address cannot be bound: exit 71. */
export class ListenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ListenError";
  }
}

/** The mailer authd uses: the configured transport, failures kept in the audit trail. */
export function createMailerFor(loaded: LoadedConfig, sql: Queryable): Mailer {
  return createMailer(loaded.config, createMailTransport(loaded), async (failure) => {
    await recordAuditEvent(sql, {
      action: "mail.delivery_failed",
      actorType: "system",
      targetType: "email",
      targetId: failure.to,
      details: { kind: failure.kind, reason: failure.reason },
    });
  });
}

export interface StartServerOptions {
  logger: Logger;
  /** Apply pending migrations before listening instead of refusing to start. */
  migrate?: boolean;
}

export interface RunningServer {
  app: FastifyInstance;
  db: Database;
  /** The URL the server answers on, e.g. http://127.0.0.1:3000. */
  url: string;
  readiness: Readiness;
  /** Drain: refuse new work, finish in-flight requests, close the database. */
  close(): Promise<void>;
}

export async function startServer(
  loaded: LoadedConfig,
  options: StartServerOptions,
): Promise<RunningServer> {
  const { config } = loaded;
  const { logger } = options;
  await ensureSecret(loaded);
  const db = await openDatabase(loaded, { logger });
  try {
    let status = await migrationStatus(db.sql);
    if (options.migrate && status.pending.length > 0) {
      const ran = await runMigrations(db, { direction: "up", waitForLock: true });
      if (ran.length > 0) logger.info({ migrations: ran }, "applied migrations");
      status = await migrationStatus(db.sql);
    }
    if (status.pending.length > 0) throw new SchemaOutOfDateError(status.pending);
    if (status.unknown.length > 0) {
      logger.warn(
        { unknown: status.unknown },
        "the database has migrations this version of authd does not know (a newer version ran them)",
      );
    }

    const readiness: Readiness = { draining: false };
    const mailer = createMailerFor(loaded, db.sql);
    // ioredis costs ~25 MB resident: loaded only when Redis is configured.
    const redis = config.redis.url
      ? new (await import("ioredis")).Redis(config.redis.url, {
          maxRetriesPerRequest: 1,
          enableOfflineQueue: false,
        })
      : undefined;
    redis?.on("error", (error: Error) => logger.warn({ err: error }, "redis error"));
    const app = await buildApp(config, { sql: db.sql, logger, readiness, mailer, redis });
    app.addHook("onClose", async () => {
      mailer.transport.close();
      redis?.disconnect();
    });
    try {
      await app.listen({ host: config.server.host, port: config.server.port });
    } catch (error) {
      await app.close();
      const code = (error as { code?: string }).code;
      const where = `${config.server.host}:${config.server.port}`;
      if (code === "EADDRINUSE")
        throw new ListenError(`port ${config.server.port} is already in use (${where})`);
      if (code === "EACCES") throw new ListenError(`not permitted to listen on ${where}`);
      if (code === "EADDRNOTAVAIL") throw new ListenError(`address not available: ${where}`);
      throw error;
    }
    const address = app.server.address();
    const port = typeof address === "object" && address ? address.port : config.server.port;
    const host =
      config.server.host === "0.0.0.0" || config.server.host === "::"
        ? "127.0.0.1"
        : config.server.host;
    let closing: Promise<void> | undefined;
    return {
      app,
      db,
      url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
      readiness,
      close() {
        closing ??= (async () => {
          readiness.draining = true;
          await app.close();
          await db.close();
        })();
        return closing;
      },
    };
  } catch (error) {
    await db.close().catch(() => {});
    throw error;
  }
}
