#!/usr/bin/env node
/**
 * Seeding benchmark: generates a seed file of N users (default 10,000) that
 * all have a password, and times `authd db seed FILE --json` end to end on a fresh,
 * migrated PostgreSQL database per mode:
 *
 *   distinct   password {fromEnv: SEED_PASSWORD}: one salted argon2id hash per user (default)
 *   shared     the same file with --share-password-hashes: one hash for the one password
 *   prehashed  one precomputed {hash} written into the file for every user (no hashing)
 *   continue   like shared, with --continue-on-error (chunked transactions)
 *
 *   node bench/seed.mjs                                  # every mode, 10,000 users
 *   node bench/seed.mjs --only shared,prehashed --users 10000
 *   AUTHD_BENCH_BIN=dist-x/bin/authd.cjs node bench/seed.mjs --only distinct
 *
 * Admin connection: $TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres.
 * Wall time, CPU time (user + system) and peak RSS come from GNU time (/usr/bin/time)
 * when it is installed; otherwise only wall time is reported. Prints one JSON line per
 * mode on stdout and a table on stderr.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { Algorithm, hash as argon2Hash } from "@node-rs/argon2";
import postgres from "postgres";

const ROOT = path.resolve(import.meta.dirname, "..");
const BIN = path.resolve(ROOT, process.env.AUTHD_BENCH_BIN ?? "dist/bin/authd.cjs");
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const MODES = ["distinct", "shared", "prehashed", "continue"];
const PASSWORD = "Bench-Seed-Pa55word";

const { values } = parseArgs({
  options: {
    users: { type: "string", default: "10000" },
    only: { type: "string", default: MODES.join(",") },
  },
});
const USERS = Number(values.users);
const only = values.only.split(",").map((mode) => mode.trim());
for (const mode of only) {
  if (!MODES.includes(mode)) {
    console.error(`unknown mode ${mode}: use ${MODES.join(", ")}`);
    process.exit(2);
  }
}
if (!existsSync(BIN)) {
  console.error(`${BIN} does not exist: run npm run build (or set AUTHD_BENCH_BIN)`);
  process.exit(2);
}

function databaseUrl(name) {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs `node BIN ...args` (under GNU time when available); answers timings and output. */
function runAuthd(args, env) {
  const timed = existsSync("/usr/bin/time");
  const command = timed ? "/usr/bin/time" : process.execPath;
  const argv = timed ? ["-f", "TIME %e %U %S %M", process.execPath, BIN, ...args] : [BIN, ...args];
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(command, argv, {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const wallMs = performance.now() - t0;
      const match = /^TIME ([\d.]+) ([\d.]+) ([\d.]+) (\d+)$/m.exec(stderr);
      resolve({
        code,
        stdout,
        stderr: stderr.replace(/^TIME .*\n?/m, ""),
        wallSeconds: Math.round(wallMs / 100) / 10,
        cpuSeconds: match ? Math.round((Number(match[2]) + Number(match[3])) * 10) / 10 : null,
        peakRssMiB: match ? Math.round(Number(match[4]) / 1024) : null,
      });
    });
  });
}

async function seedFile(dir, password) {
  const users = Array.from({ length: USERS }, (_, index) => ({
    email: `seed-user-${index}@bench.example`,
    name: `Seed User ${index}`,
    password,
  }));
  const file = path.join(dir, "seed.json");
  await writeFile(file, JSON.stringify({ version: 1, users }));
  return file;
}

async function runMode(mode, dir) {
  const name = `authd_bench_seed_${mode}_${process.pid}`;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists "${name}" with (force)`);
  await admin.unsafe(`create database "${name}"`);
  const env = { DATABASE_URL: databaseUrl(name), SEED_PASSWORD: PASSWORD, LOG_LEVEL: "warn" };
  try {
    const migrated = await runAuthd(["migrate"], env);
    if (migrated.code !== 0) throw new Error(`migrate failed:\n${migrated.stderr}`);
    const password =
      mode === "prehashed"
        ? {
            hash: await argon2Hash(PASSWORD, {
              algorithm: Algorithm.Argon2id,
              memoryCost: 19456,
              timeCost: 2,
              parallelism: 1,
            }),
          }
        : { fromEnv: "SEED_PASSWORD" };
    const file = await seedFile(dir, password);
    const flags =
      mode === "shared"
        ? ["--share-password-hashes"]
        : mode === "continue"
          ? ["--share-password-hashes", "--continue-on-error"]
          : [];
    const run = await runAuthd(["db", "seed", file, "--json", ...flags], env);
    if (run.code !== 0) throw new Error(`db seed exited ${run.code}:\n${run.stderr}`);
    const report = JSON.parse(run.stdout);
    const created = Object.values(report.users).filter((e) => e.status === "created").length;
    const check = postgres(databaseUrl(name), { max: 1, onnotice: () => {} });
    const [{ hashes }] = await check`select count(distinct password)::int as hashes from account`;
    await check.end();
    return {
      mode,
      users: created,
      distinctHashes: hashes,
      wallSeconds: run.wallSeconds,
      cpuSeconds: run.cpuSeconds,
      peakRssMiB: run.peakRssMiB,
      flags: flags.join(" "),
    };
  } finally {
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.end();
  }
}

const dir = await mkdtemp(path.join(os.tmpdir(), "authd-bench-seed-"));
const results = [];
try {
  for (const mode of only) {
    console.error(`${mode}: seeding ${USERS} users...`);
    const result = await runMode(mode, dir);
    results.push(result);
    process.stdout.write(`${JSON.stringify(result)}\n`);
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
console.error(
  `\nmachine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, node ${process.version}`,
);
console.error("mode       users  hashes  wall s  cpu s  peak RSS MiB");
for (const r of results) {
  console.error(
    `${r.mode.padEnd(9)}  ${String(r.users).padStart(5)}  ${String(r.distinctHashes).padStart(6)}  ${String(r.wallSeconds).padStart(6)}  ${String(r.cpuSeconds ?? "-").padStart(5)}  ${String(r.peakRssMiB ?? "-").padStart(12)}`,
  );
}
