/**
 * The database connection: postgres.js against `database.url`, or against
 * an embedded PGlite served on a loopback port when no URL is configured, so every
 * other module has one code path.
 */
import net from "node:net";
import postgres from "postgres";
import { dataPath, type LoadedConfig } from "../config.js";
import type { Logger } from "../logger.js";
import { clientPool, type Sql } from "./clients.js";
import { startEmbeddedPostgres } from "./embedded.js";

export type { Sql };
export type TransactionSql = postgres.TransactionSql<Record<string, never>>;
/** Either the pool or a transaction: what every queries.ts function takes first. */
export type Queryable = Sql | TransactionSql;

export interface Database {
  sql: Sql;
  /** The URL node-pg-migrate connects to (with the password, never logged). */
  url: string;
  embedded: boolean;
  /** host:port/database, for messages (no credentials). */
  label: string;
  close(): Promise<void>;
}

/** The database cannot be reached: the CLI exits 69 (EX_UNAVAILABLE). */
export class DatabaseUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DatabaseUnavailableError";
  }
}

export function describeDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const port = parsed.port || "5432";
    const database = parsed.pathname.replace(/^\//, "") || parsed.username || "postgres";
    return `${parsed.hostname}:${port}/${decodeURIComponent(database)}`;
  } catch {
    return "the configured database";
  }
}

function explainConnectionError(error: unknown, label: string): string {
  const code = (error as { code?: string }).code;
  const where = `PostgreSQL at ${label}`;
  switch (code) {
    case "ECONNREFUSED":
      return `cannot reach ${where}: connection refused (is the server running?)`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `cannot reach ${where}: host name not found`;
    case "ETIMEDOUT":
    case "CONNECT_TIMEOUT":
      return `cannot reach ${where}: connection timed out`;
    case "28P01":
    case "28000":
      return `cannot sign in to ${where}: authentication failed`;
    case "3D000":
      return `cannot open ${where}: the database does not exist`;
    case "NOT_POSTGRES":
      return `cannot connect to ${where}: ${(error as Error).message}`;
    default: {
      const reason = error instanceof Error ? error.message : String(error);
      return `cannot connect to ${where}: ${reason}`;
    }
  }
}

export interface OpenDatabaseOptions {
  logger?: Logger;
  /** Pool size override (the CLI needs only a couple of connections). */
  max?: number;
  /** Seconds a statement may run (the server's `database.statementTimeout`); 0: no limit. */
  statementTimeout?: number;
}

/**
 * Seconds before reconnecting after failed attempts: 50 ms doubling to half a second,
 * with jitter. postgres.js's own backoff grows to 20 s, which kept authd from serving for
 * many seconds after PostgreSQL had returned from a restart.
 */
export function reconnectDelay(failedAttempts: number): number {
  return Math.min(0.05 * 2 ** failedAttempts, 0.5) * (0.5 + Math.random() / 2);
}

/** `max` connections, each its own postgres.js client (see clients.ts for why). */
function connect(url: string, max: number, connectTimeout: number, statementTimeout = 0): Sql {
  return clientPool((onclose) => connectOne(url, connectTimeout, statementTimeout, onclose), {
    size: max,
    // A transaction's connection may have to be made first.
    acquireTimeout: connectTimeout * 1000,
  });
}

function connectOne(
  url: string,
  connectTimeout: number,
  statementTimeout: number,
  onclose: () => void,
): Sql {
  return postgres(url, {
    max: 1,
    onclose,
    // snake_case columns as camelCase fields, and back. Not postgres.camel: it also
    // renames the keys inside json and jsonb values (organization metadata would come back
    // `{"planTier"}` for `{"plan_tier"}`, and a key like "a_" threw).
    transform: { column: { from: postgres.toCamel, to: postgres.fromCamel } },
    connect_timeout: connectTimeout,
    idle_timeout: 60,
    backoff: reconnectDelay,
    onnotice: () => {},
    // JIT compiles a statement whose estimated cost is high, which for authd's short
    // statements costs 100+ ms each time: one user in 40,000 organizations skews the
    // membership estimates enough to trigger it (bench/README.md "Organizations").
    connection: {
      application_name: "authd",
      jit: "off",
      ...(statementTimeout > 0 ? { statement_timeout: statementTimeout * 1000 } : {}),
    },
  }) as unknown as Sql;
}

/**
 * Asks the server at `url` whether it speaks PostgreSQL (an SSLRequest, answered by a
 * single S or N) before postgres.js connects: postgres.js retries a peer that accepts
 * and drops connections in a loop that starves timers, so it must never meet one.
 */
export function probePostgres(url: string, seconds: number): Promise<void> {
  let host: string;
  let port: number;
  try {
    const parsed = new URL(url);
    // Unix sockets and multi-host URLs are left to postgres.js itself.
    if (!parsed.hostname || parsed.hostname.includes(",") || parsed.searchParams.has("host")) {
      return Promise.resolve();
    }
    host = parsed.hostname.replace(/^\[|\]$/g, "");
    port = parsed.port ? Number(parsed.port) : 5432;
  } catch {
    return Promise.resolve();
  }
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    let settled = false;
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      if (error) reject(error);
      else resolve();
    };
    socket.setTimeout(seconds * 1000, () =>
      finish(Object.assign(new Error("timed out"), { code: "CONNECT_TIMEOUT" })),
    );
    socket.on("connect", () => socket.write(Buffer.from([0, 0, 0, 8, 4, 210, 22, 47])));
    socket.on("data", (data: Buffer) => {
      const answer = data[0];
      if (answer === 0x53 || answer === 0x4e) finish();
      else
        finish(
          Object.assign(new Error("the server there does not speak PostgreSQL"), {
            code: "NOT_POSTGRES",
          }),
        );
    });
    socket.on("error", (error) => finish(error));
    socket.on("close", () =>
      finish(
        Object.assign(new Error("the server there closed the connection"), {
          code: "NOT_POSTGRES",
        }),
      ),
    );
  });
}

/** `select 1`, failed with an error of `code` when it takes longer than `ms`. */
export async function selectOneWithin(sql: Sql, ms: number, code: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error(`no answer within ${ms} ms`), { code })),
      ms,
    );
  });
  try {
    await Promise.race([sql`select 1`, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The first query, bounded: postgres.js retries a peer that accepts and drops the
 * connection (an HTTP server on that port, say) forever, restarting connect_timeout.
 */
function firstQuery(sql: Sql, seconds: number): Promise<void> {
  return selectOneWithin(sql, seconds * 1000, "CONNECT_TIMEOUT");
}

export async function openDatabase(
  loaded: LoadedConfig,
  options: OpenDatabaseOptions = {},
): Promise<Database> {
  const { config } = loaded;
  if (config.database.url) {
    const url = config.database.url;
    const label = describeDatabaseUrl(url);
    try {
      await probePostgres(url, config.database.connectTimeout);
    } catch (error) {
      throw new DatabaseUnavailableError(explainConnectionError(error, label));
    }
    const sql = connect(
      url,
      options.max ?? config.database.poolSize,
      config.database.connectTimeout,
      options.statementTimeout,
    );
    try {
      await firstQuery(sql, config.database.connectTimeout + 1);
    } catch (error) {
      await sql.end({ timeout: 0 }).catch(() => {});
      throw new DatabaseUnavailableError(explainConnectionError(error, label));
    }
    return { sql, url, embedded: false, label, close: () => sql.end({ timeout: 5 }) };
  }

  // Embedded PGlite is one database session, so the app uses one connection.
  const embedded = await startEmbeddedPostgres(dataPath(loaded, "pgdata"), options.logger);
  const sql = connect(embedded.url, 1, config.database.connectTimeout, options.statementTimeout);
  try {
    await firstQuery(sql, config.database.connectTimeout + 1);
  } catch (error) {
    await sql.end({ timeout: 0 }).catch(() => {});
    await embedded.stop();
    throw new DatabaseUnavailableError(explainConnectionError(error, "embedded PGlite"));
  }
  return {
    sql,
    url: embedded.url,
    embedded: true,
    label: `embedded PGlite (${embedded.dir})`,
    async close() {
      await sql.end({ timeout: 5 });
      await embedded.stop();
    },
  };
}

/**
 * Another system's PostgreSQL database, opened to be read (`authd import better-auth`):
 * column names come back as they are (no camelCase transform), and every transaction is
 * read-only, so nothing authd runs there can change it.
 */
export interface SourceDatabase {
  /** Rows keyed by the column names (or aliases) the statement gives. */
  sql: postgres.Sql;
  /** host:port/database, for messages (no credentials). */
  label: string;
  close(): Promise<void>;
}

export async function openSourceDatabase(
  url: string,
  connectTimeout: number,
): Promise<SourceDatabase> {
  const label = describeDatabaseUrl(url);
  try {
    await probePostgres(url, connectTimeout);
  } catch (error) {
    throw new DatabaseUnavailableError(explainConnectionError(error, label));
  }
  const sql = postgres(url, {
    max: 2,
    connect_timeout: connectTimeout,
    idle_timeout: 60,
    onnotice: () => {},
    connection: {
      application_name: "authd import",
      default_transaction_read_only: true,
      // The snapshot's transaction waits while each page is written into authd: a server
      // that ends idle transactions would end the import.
      idle_in_transaction_session_timeout: 0,
    },
  });
  try {
    await firstQuery(sql as unknown as Sql, connectTimeout + 1);
  } catch (error) {
    await sql.end({ timeout: 0 }).catch(() => {});
    throw new DatabaseUnavailableError(explainConnectionError(error, label));
  }
  return { sql, label, close: () => sql.end({ timeout: 5 }) };
}
