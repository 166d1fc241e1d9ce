/**
 * buildApp on a fresh, migrated test database, for `app.inject` tests: real
 * PostgreSQL, real Fastify, no socket.
 */
import { Writable } from "node:stream";
import type { FastifyInstance } from "fastify";
import type { Redis } from "ioredis";
import pino from "pino";
import { buildApp } from "../../server/app.js";
import { type AuthdConfig, type AuthdConfigInput, validateConfig } from "../../server/config.js";
import { type Database, openDatabase } from "../../server/db/connection.js";
import { runMigrations } from "../../server/db/migrations.js";
import type { Readiness } from "../../server/health/routes.js";
import type { Logger } from "../../server/logger.js";
import type { Mailer } from "../../server/mail/mailer.js";
import { createMailerFor } from "../../server/serve.js";
import type { SocialOptions } from "../../server/social/context.js";
import { createTestDatabase, type TestDatabase } from "./database.js";
import { type SmtpSink, startSmtpSink } from "./smtp.js";

export interface TestApp {
  app: FastifyInstance;
  config: AuthdConfig;
  db: Database;
  testDatabase: TestDatabase;
  readiness: Readiness;
  /** The SMTP sink mail goes to (absent when a mailer was given). */
  smtp: SmtpSink;
  close(): Promise<void>;
}

export const TEST_SECRET = "test-secret-0123456789-0123456789-abcdef";

export interface TestAppOptions {
  mailer?: Mailer;
  /** The SMTP sink holds each message this long (a slow mail server). */
  smtpDelayMs?: number;
  redis?: Redis;
  /** Key prefix for shared rate-limit counters, so parallel test files do not collide. */
  redisNamespace?: string;
  config?: AuthdConfigInput;
  /** Where the app logs (default: nowhere). */
  logger?: Logger;
  /** Social sign-in's catalogue and request bounds, where a test needs its own. */
  social?: SocialOptions;
  /** Where the built pages are read from (default the package's dist/pages). */
  pagesDirectory?: string;
  /** How long the app uses the signing keys it read (buildApp's default 30 s). */
  keyRefreshMs?: number;
  /** Called after buildApp and before ready(), e.g. to add routes that exercise plugins. */
  extend?: (app: FastifyInstance) => void | Promise<void>;
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const testDatabase = await createTestDatabase();
  const smtp =
    options.mailer || options.config?.mail?.smtpUrl
      ? undefined
      : await startSmtpSink(options.smtpDelayMs ? { delayMs: options.smtpDelayMs } : {});
  const config = validateConfig(
    {
      secret: TEST_SECRET,
      // The origin the test client (tests/helpers/client.ts) sends.
      baseURL: "http://localhost:3000",
      // Most tests send many sign-ins from one address; rate-limit tests turn it on.
      rateLimit: { enabled: false },
      ...options.config,
      mail: { timeout: 5, ...options.config?.mail, ...(smtp ? { smtpUrl: smtp.url } : {}) },
      database: { ...options.config?.database, url: testDatabase.url },
    },
    "test config",
  );
  const loaded = { config, file: null, production: false, envSources: {}, cwd: process.cwd() };
  const db = await openDatabase(loaded, {
    max: 4,
    // As `serve` sets it, where a test asks for one.
    statementTimeout: options.config?.database?.statementTimeout,
  });
  await runMigrations(db, { direction: "up" });
  const readiness: Readiness = { draining: false };
  const mailer = options.mailer ?? createMailerFor({ ...loaded, config }, db.sql);
  const app = await buildApp(config, {
    sql: db.sql,
    readiness,
    mailer,
    redis: options.redis,
    rateLimitNamespace: options.redisNamespace,
    logger: options.logger,
    social: options.social,
    pagesDirectory: options.pagesDirectory,
    keyRefreshMs: options.keyRefreshMs,
  });
  await options.extend?.(app);
  await app.ready();
  return {
    app,
    config,
    db,
    testDatabase,
    readiness,
    smtp: smtp as SmtpSink,
    async close() {
      await app.close();
      mailer.transport.close();
      await smtp?.close();
      await db.close();
      await testDatabase.drop();
    },
  };
}

/**
 * A second authd instance on `first`'s database, as another server behind the same load
 * balancer: its own process state (caches, memos), the same data, and the same settings
 * but for `changes` (e.g. another secret list). Close it when done.
 */
export async function createSecondInstance(
  first: TestApp,
  changes: Partial<AuthdConfig> = {},
): Promise<FastifyInstance> {
  const config = { ...first.config, ...changes };
  const loaded = {
    config,
    file: null,
    production: false,
    envSources: {},
    cwd: process.cwd(),
  };
  const app = await buildApp(config, {
    sql: first.db.sql,
    mailer: createMailerFor(loaded, first.db.sql),
  });
  await app.ready();
  return app;
}

/**
 * A logger at level error that keeps the last `keep` lines it is given, so a test that
 * meets a 5xx can show what the app logged about it.
 */
export function errorLogger(keep = 20): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const logger = pino(
    { level: "error" },
    new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        if (lines.length > keep) lines.shift();
        done();
      },
    }),
  );
  return { logger, lines };
}
