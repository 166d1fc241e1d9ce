/**
 * A PostgreSQL server of the test's own, for fault tests that stop and start it: the
 * machine's shared server is never stopped. initdb and pg_ctl from the installed
 * PostgreSQL run as the postgres user (they refuse to run as root) in a scratch folder.
 */
import { execFile } from "node:child_process";
import { chmodSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface OwnPostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  port: number;
  /** Fast shutdown: open connections are terminated, as a restart by an operator does. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and removes its files. */
  remove(): Promise<void>;
}

function binDirectory(): string {
  const root = "/usr/lib/postgresql";
  const newest = readdirSync(root)
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) throw new Error(`no PostgreSQL under ${root}`);
  return path.join(root, newest, "bin");
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function asPostgres(command: string, args: string[]) {
  return run("runuser", ["-u", "postgres", "--", command, ...args], { timeout: 60_000 });
}

export async function startOwnPostgres(): Promise<OwnPostgres> {
  const bin = binDirectory();
  const folder = mkdtempSync(path.join(os.tmpdir(), "authd-own-pg-"));
  chmodSync(folder, 0o777);
  const data = path.join(folder, "data");
  const log = path.join(folder, "log");
  const port = await freePort();
  await asPostgres(path.join(bin, "initdb"), [
    "-D",
    data,
    "-U",
    "postgres",
    "--auth=trust",
    "--no-sync",
    "-E",
    "UTF8",
  ]);
  const pgCtl = path.join(bin, "pg_ctl");
  const options = `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`;
  const start = async () => {
    await asPostgres(pgCtl, ["-D", data, "-l", log, "-o", options, "-w", "-t", "30", "start"]);
  };
  const stop = async () => {
    await asPostgres(pgCtl, ["-D", data, "-m", "fast", "-w", "-t", "30", "stop"]);
  };
  await start();
  let removed = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start,
    stop,
    async remove() {
      if (removed) return;
      removed = true;
      await stop().catch(() => {});
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
