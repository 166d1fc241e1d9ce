/**
 * buildApp on a fresh, migrated test database, for `app.inject` tests: real
 * PostgreSQL, real Fastify, no socket.
 */
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../server/app.js";
import { type AuthdConfig, type AuthdConfigInput, validateConfig } from "../../server/config.js";
import { type Database, openDatabase } from "../../server/db/connection.js";
import { runMigrations } from "../../server/db/migrations.js";
import type { Readiness } from "../../server/health/routes.js";
import { createTestDatabase, type TestDatabase } from "./database.js";

export interface TestApp {
  app: FastifyInstance;
  config: AuthdConfig;
  db: Database;
  testDatabase: TestDatabase;
  readiness: Readiness;
  close(): Promise<void>;
}

export const TEST_SECRET = "test-secret-0123456789-0123456789-abcdef";

export interface TestAppOptions {
  config?: AuthdConfigInput;
  /** Called after buildApp and before ready(), e.g. to add routes that exercise plugins. */
  extend?: (app: FastifyInstance) => void | Promise<void>;
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const testDatabase = await createTestDatabase();
  const config = validateConfig(
    { secret: TEST_SECRET, ...options.config, database: { url: testDatabase.url } },
    "test config",
  );
  const loaded = { config, file: null, production: false, envSources: {}, cwd: process.cwd() };
  const db = await openDatabase(loaded, { max: 4 });
  await runMigrations(db, { direction: "up" });
  const readiness: Readiness = { draining: false };
  const app = await buildApp(config, { sql: db.sql, readiness });
  await options.extend?.(app);
  await app.ready();
  return {
    app,
    config,
    db,
    testDatabase,
    readiness,
    async close() {
      await app.close();
      await db.close();
      await testDatabase.drop();
    },
  };
}
