/**
 * The database connection (DESIGN §2): postgres.js against `database.url`, or against
 * an embedded PGlite served on a loopback port when no URL is configured, so every
 * other module has one code path.
 */
import postgres from "postgres";
import { dataPath, type LoadedConfig } from "../config.js";
import type { Logger } from "../logger.js";
import { startEmbeddedPostgres } from "./embedded.js";

export type Sql = postgres.Sql<Record<string, never>>;
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
}

function connect(url: string, max: number, connectTimeout: number): Sql {
  return postgres(url, {
    max,
    transform: postgres.camel,
    connect_timeout: connectTimeout,
    idle_timeout: 60,
    onnotice: () => {},
    connection: { application_name: "authd" },
  }) as unknown as Sql;
}

export async function openDatabase(
  loaded: LoadedConfig,
  options: OpenDatabaseOptions = {},
): Promise<Database> {
  const { config } = loaded;
  if (config.database.url) {
    const url = config.database.url;
    const label = describeDatabaseUrl(url);
    const sql = connect(
      url,
      options.max ?? config.database.poolSize,
      config.database.connectTimeout,
    );
    try {
      await sql`select 1`;
    } catch (error) {
      await sql.end({ timeout: 0 }).catch(() => {});
      throw new DatabaseUnavailableError(explainConnectionError(error, label));
    }
    return { sql, url, embedded: false, label, close: () => sql.end({ timeout: 5 }) };
  }

  // Embedded PGlite is one database session, so the app uses one connection (DESIGN §2).
  const embedded = await startEmbeddedPostgres(dataPath(loaded, "pgdata"), options.logger);
  const sql = connect(embedded.url, 1, config.database.connectTimeout);
  try {
    await sql`select 1`;
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
