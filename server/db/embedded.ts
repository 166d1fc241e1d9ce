/**
 * The zero-setup database: PGlite (PostgreSQL in WebAssembly) with its files under
 * `<dataDir>/pgdata`, served on a random loopback port through pglite-socket so that
 * postgres.js and node-pg-migrate talk to it like to any PostgreSQL server.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Logger } from "../logger.js";

export interface EmbeddedPostgres {
  url: string;
  dir: string;
  stop(): Promise<void>;
}

/** Another live process already has this data directory open. */
export class EmbeddedDatabaseLockedError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `the embedded database at ${dir} is in use by process ${pid}; stop it first, or set DATABASE_URL`,
    );
    this.name = "EmbeddedDatabaseLockedError";
  }
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === "EPERM";
  }
}

/** PGlite files must never be opened by two processes at once: a pid lock file. */
async function lockDataDirectory(dir: string): Promise<() => Promise<void>> {
  const lockFile = path.join(path.dirname(dir), `${path.basename(dir)}.lock`);
  if (existsSync(lockFile)) {
    const pid = Number.parseInt((await readFile(lockFile, "utf8")).trim(), 10);
    if (Number.isInteger(pid) && pid !== process.pid && processIsAlive(pid)) {
      throw new EmbeddedDatabaseLockedError(dir, pid);
    }
  }
  await writeFile(lockFile, `${process.pid}\n`);
  return async () => {
    await rm(lockFile, { force: true });
  };
}

export async function startEmbeddedPostgres(
  dir: string,
  logger?: Logger,
): Promise<EmbeddedPostgres> {
  await mkdir(dir, { recursive: true });
  const unlock = await lockDataDirectory(dir);
  try {
    const { PGlite } = await import("@electric-sql/pglite");
    const { PGLiteSocketServer } = await import("@electric-sql/pglite-socket");
    // PostgreSQL's default 128MB of shared buffers becomes resident WebAssembly memory;
    // 16MB is plenty for an auth workload and saves ~140 MB (bench/README.md).
    const db = await PGlite.create(dir, {
      startParams: [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB"],
    });
    // maxConnections above 1: a short-lived migration connection must coexist.
    const server = new PGLiteSocketServer({ db, host: "127.0.0.1", port: 0, maxConnections: 8 });
    await server.start();
    const address = server.getServerConn();
    logger?.debug({ dir, address }, "embedded PGlite started");
    return {
      url: `postgres://postgres@${address}/postgres?sslmode=disable`,
      dir,
      async stop() {
        await server.stop();
        await db.close();
        await unlock();
      },
    };
  } catch (error) {
    await unlock();
    throw error;
  }
}
