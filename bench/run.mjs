#!/usr/bin/env node
/**
 * authd benchmarks: one entry point, a registry of scenarios.
 *
 *   node bench/run.mjs                  every scenario, 5 runs each
 *   node bench/run.mjs --only startup   scenarios whose name is or starts with "startup"
 *   node bench/run.mjs --runs 10        timed runs per scenario
 *   node bench/run.mjs --list           the scenarios, then exit
 *
 *   BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" node bench/run.mjs …
 *                                       the same, with those Node flags on every authd
 *                                       process (a CPU profile of the server, say)
 *
 * It drives the built binary (dist/bin/authd.cjs, from `npm run build`) as an operator
 * would. Progress goes to stderr; the results table to stdout; every run's numbers,
 * with the machine facts, to bench/results/<timestamp>.json.
 *
 * Exit status: 0 when every run started, answered and shut down cleanly (exit code 0),
 * even if a target is missed; 1 when a run failed; 2 on a usage error.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import postgres from "postgres";

import { HTTP_COLUMNS, httpScenarios, socialScenario, tokenScenario } from "./http.mjs";
import { IMPORT_COLUMNS, importScenario, summarizeImport } from "./import.mjs";
import { INSTANCES_COLUMNS, instancesScenario } from "./instances.mjs";

const ROOT = path.resolve(import.meta.dirname, "..");
const AUTHD_BIN = path.join(ROOT, "dist/bin/authd.cjs");
const RESULTS_DIR = path.join(ROOT, "bench/results");
const DEFAULT_ADMIN_URL = "postgres://postgres@127.0.0.1:5432/postgres";

/** Bounded waits: no run can hang the benchmark. */
const START_TIMEOUT_MS = 60_000;
/** Above serve's default shutdownTimeout (30 s), so its own timeout shows as exit 1. */
const STOP_TIMEOUT_MS = 40_000;
const IDLE_MS = 2_000;
const POLL_INTERVAL_MS = 2;

// ---------------------------------------------------------------------------------
// Process and resource tracking: whatever happens, nothing outlives the benchmark.

/** @type {Set<import("node:child_process").ChildProcess>} */
const liveChildren = new Set();
/** @type {Array<() => Promise<void>>} cleanups, run last-in first-out */
const cleanups = [];

function killAll() {
  for (const child of liveChildren) {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
}

async function runCleanups() {
  while (cleanups.length > 0) {
    const cleanup = cleanups.pop();
    try {
      await cleanup?.();
    } catch (error) {
      progress(`cleanup failed: ${errorMessage(error)}`);
    }
  }
}

process.on("exit", killAll);
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    progress(`\n${signal}: stopping every spawned process and cleaning up`);
    killAll();
    const forced = setTimeout(() => process.exit(130), 10_000);
    forced.unref();
    void runCleanups().finally(() => process.exit(130));
  });
}

// ---------------------------------------------------------------------------------
// Small helpers.

function progress(text) {
  process.stderr.write(`${text}\n`);
}

function errorMessage(error) {
  return error instanceof Error ? error.message : String(error);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function median(values) {
  const sorted = values.filter((value) => typeof value === "number").sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function max(values) {
  const numbers = values.filter((value) => typeof value === "number");
  return numbers.length === 0 ? null : Math.max(...numbers);
}

const round = (value, digits = 0) =>
  value === null || value === undefined ? null : Number(value.toFixed(digits));

/** Minimal environment, as the CLI tests use: nothing leaks in from the shell. */
function baseEnv(extra = {}) {
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: "info" };
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

async function tempDir(label) {
  const dir = await mkdtemp(path.join(os.tmpdir(), `authd-bench-${label}-`));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** GET without keep-alive; answers the status code, or the error. */
function httpGet(url, timeoutMs) {
  return new Promise((resolve) => {
    const request = http.get(url, { agent: false, timeout: timeoutMs }, (response) => {
      const at = performance.now();
      response.resume();
      response.on("end", () => resolve({ status: response.statusCode, at }));
      response.on("error", (error) => resolve({ error }));
    });
    request.on("timeout", () => request.destroy(new Error(`no answer in ${timeoutMs} ms`)));
    request.on("error", (error) => resolve({ error }));
  });
}

/** Clock ticks per second, for the CPU times in /proc/<pid>/stat. */
const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/**
 * Linux only: CPU time (user + system, all threads) the process has used so far, in
 * ms (10 ms resolution). Unlike wall time, it barely moves when the machine is busy.
 */
async function readCpuMs(pid) {
  try {
    const text = await readFile(`/proc/${pid}/stat`, "utf8");
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    // Fields 14 and 15 of stat(5), counted from the state (field 3).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

/** Linux only: the process's resident set (and its peak), in KiB, from /proc. */
async function readMemory(pid) {
  let text;
  try {
    text = await readFile(`/proc/${pid}/status`, "utf8");
  } catch {
    return null;
  }
  const field = (name) => {
    const match = new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(text);
    return match ? Number(match[1]) : null;
  };
  return {
    rssKiB: field("VmRSS"),
    peakRssKiB: field("VmHWM"),
    rssAnonKiB: field("RssAnon"),
    rssFileKiB: field("RssFile"),
  };
}

// ---------------------------------------------------------------------------------
// Driving the binary.

/** Spawns `node dist/bin/authd.cjs ...`, collecting its output and JSON log lines. */
function spawnAuthd(args, { cwd, env }) {
  const child = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_NODE_ARGS ? process.env.BENCH_NODE_ARGS.split(" ") : []),
      AUTHD_BIN,
      ...args,
    ],
    {
      cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  liveChildren.add(child);
  let output = "";
  let pending = "";
  const lineWaiters = [];
  const exited = new Promise((resolve) => {
    child.on("exit", (code, signal) => {
      liveChildren.delete(child);
      resolve({ code, signal, at: performance.now() });
    });
  });
  child.on("error", (error) => {
    output += `spawn error: ${error.message}\n`;
  });
  const onLine = (line) => {
    let entry;
    try {
      entry = JSON.parse(line);
    } catch {
      return;
    }
    for (const waiter of [...lineWaiters]) {
      if (waiter.match(entry)) {
        lineWaiters.splice(lineWaiters.indexOf(waiter), 1);
        waiter.resolve({ entry, at: performance.now() });
      }
    }
  };
  child.stdout.on("data", (chunk) => {
    const text = chunk.toString();
    output += text;
    pending += text;
    let newline = pending.indexOf("\n");
    while (newline !== -1) {
      onLine(pending.slice(0, newline));
      pending = pending.slice(newline + 1);
      newline = pending.indexOf("\n");
    }
  });
  child.stderr.on("data", (chunk) => {
    output += chunk.toString();
  });
  return {
    child,
    exited,
    output: () => output,
    /** Resolves with the first JSON log line for which match(entry) is true. */
    waitForLine: (match) => new Promise((resolve) => lineWaiters.push({ match, resolve })),
    kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    },
  };
}

/** A one-shot command (e.g. `migrate`): its exit code must be 0. */
async function runAuthdCommand(args, options) {
  const proc = spawnAuthd(args, options);
  let timer;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(() => resolve(null), START_TIMEOUT_MS);
  });
  const result = await Promise.race([proc.exited, timeout]);
  clearTimeout(timer);
  if (result === null) {
    proc.kill();
    throw new Error(`authd ${args.join(" ")} timed out:\n${proc.output()}`);
  }
  if (result.code !== 0) {
    throw new Error(`authd ${args.join(" ")} exited with ${result.code}:\n${proc.output()}`);
  }
  return proc.output();
}

/**
 * Starts `authd serve --port 0`, timing from just before spawn to the first 200 on
 * <url>/ok, where <url> comes from the "authd listening" log line. Resolves with the
 * running process; on any failure the process is killed and the promise rejects.
 */
async function startServe({ cwd, env }) {
  const t0 = performance.now();
  // Shutdown times the process's own drain, not the wait given to load balancers.
  const proc = spawnAuthd(["serve", "--port", "0", "--host", "127.0.0.1", "--drain-delay", "0"], {
    cwd,
    env,
  });
  const deadline = t0 + START_TIMEOUT_MS;
  let failure = null;
  const fail = (reason) => {
    failure ??= new Error(`${reason}\n--- authd output ---\n${proc.output()}`);
    return failure;
  };
  void proc.exited.then(({ code, signal }) => {
    fail(`authd serve exited (code ${code}, signal ${signal}) before answering 200 on /ok`);
  });
  let timer;
  const timedOut = new Promise((resolve) => {
    timer = setTimeout(() => resolve("timeout"), START_TIMEOUT_MS);
  });
  try {
    const listening = await Promise.race([
      proc.waitForLine((entry) => entry.msg === "authd listening" && typeof entry.url === "string"),
      proc.exited.then(() => "exited"),
      timedOut,
    ]);
    if (listening === "timeout") throw fail(`no "authd listening" line in ${START_TIMEOUT_MS} ms`);
    if (listening === "exited") throw failure;
    const okUrl = `${listening.entry.url.replace(/\/$/, "")}/ok`;
    let last = null;
    for (;;) {
      if (failure) throw failure;
      const remaining = deadline - performance.now();
      if (remaining <= 0) {
        throw fail(`no 200 from ${okUrl} in ${START_TIMEOUT_MS} ms (last: ${describe(last)})`);
      }
      last = await httpGet(okUrl, Math.min(remaining, 5_000));
      if (last.status === 200) {
        return {
          proc,
          url: listening.entry.url,
          startupMs: last.at - t0,
          startupCpuMs: await readCpuMs(proc.child.pid),
          listeningLogMs: listening.at - t0,
        };
      }
      await sleep(POLL_INTERVAL_MS);
    }
  } catch (error) {
    proc.kill();
    await proc.exited;
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

function describe(result) {
  if (!result) return "none";
  return result.error ? result.error.message : `HTTP ${result.status}`;
}

/** SIGTERM and wait (bounded) for the exit; answers the shutdown time and exit code. */
async function stopServe(proc) {
  const t0 = performance.now();
  proc.child.kill("SIGTERM");
  let timer;
  const timedOut = new Promise((resolve) => {
    timer = setTimeout(() => resolve(null), STOP_TIMEOUT_MS);
  });
  const result = await Promise.race([proc.exited, timedOut]);
  clearTimeout(timer);
  if (result === null) {
    proc.kill();
    await proc.exited;
    throw new Error(`authd serve did not exit within ${STOP_TIMEOUT_MS} ms of SIGTERM`);
  }
  return { shutdownMs: result.at - t0, exitCode: result.code, exitSignal: result.signal };
}

/**
 * One measured run: start (timed), 2 s idle, read RSS, SIGTERM (timed). A run whose
 * server does not exit 0 throws after recording, so the benchmark exits non-zero.
 */
async function measuredRun(options) {
  const started = await startServe(options);
  let memory;
  try {
    await sleep(IDLE_MS);
    if (started.proc.child.exitCode !== null) {
      throw new Error(`authd serve exited while idle:\n${started.proc.output()}`);
    }
    memory = await readMemory(started.proc.child.pid);
  } catch (error) {
    started.proc.kill();
    await started.proc.exited;
    throw error;
  }
  const stopped = await stopServe(started.proc);
  const run = {
    startupMs: round(started.startupMs, 1),
    listeningLogMs: round(started.listeningLogMs, 1),
    startupCpuMs: started.startupCpuMs,
    idleRssMiB: memory?.rssKiB ? round(memory.rssKiB / 1024, 1) : null,
    peakRssMiB: memory?.peakRssKiB ? round(memory.peakRssKiB / 1024, 1) : null,
    rssAnonMiB: memory?.rssAnonKiB ? round(memory.rssAnonKiB / 1024, 1) : null,
    rssFileMiB: memory?.rssFileKiB ? round(memory.rssFileKiB / 1024, 1) : null,
    shutdownMs: round(stopped.shutdownMs, 1),
    exitCode: stopped.exitCode,
    exitSignal: stopped.exitSignal,
  };
  if (stopped.exitCode !== 0) {
    const error = new Error(
      `authd serve exited with ${stopped.exitCode} (signal ${stopped.exitSignal}) after SIGTERM:\n${started.proc.output()}`,
    );
    error.run = run;
    throw error;
  }
  return run;
}

/** N measured runs; `prepare(i)` answers the cwd/env of run i. Failed runs stop the loop. */
async function measuredRuns(ctx, prepare) {
  const runs = [];
  for (let i = 1; i <= ctx.runs; i++) {
    const options = await prepare(i);
    try {
      const run = await measuredRun(options);
      runs.push(run);
      progress(
        `  run ${i}/${ctx.runs}: ready ${run.startupMs} ms (log line ${run.listeningLogMs} ms, ` +
          `CPU ${run.startupCpuMs} ms), ` +
          `idle RSS ${run.idleRssMiB} MiB (peak ${run.peakRssMiB}), shutdown ${run.shutdownMs} ms`,
      );
    } catch (error) {
      if (error.run) runs.push(error.run);
      error.runs = runs;
      throw error;
    }
  }
  return runs;
}

// ---------------------------------------------------------------------------------
// PostgreSQL access for scenarios (and the machine facts).

function adminUrl() {
  return process.env.TEST_DATABASE_URL || DEFAULT_ADMIN_URL;
}

function connectAdmin() {
  return postgres(adminUrl(), { max: 1, connect_timeout: 5, onnotice: () => {} });
}

async function postgresVersion() {
  const sql = connectAdmin();
  try {
    const [row] = await sql`select current_setting('server_version') as version`;
    return row.version;
  } catch (error) {
    return `unavailable (${errorMessage(error)})`;
  } finally {
    await sql.end({ timeout: 1 }).catch(() => {});
  }
}

/** A fresh database dropped at the end of the benchmark (or on interrupt). */
async function createDatabase(prefix) {
  const name = `${prefix}_${Date.now()}_${process.pid}`;
  const sql = connectAdmin();
  try {
    await sql.unsafe(`create database "${name}"`);
  } finally {
    await sql.end({ timeout: 1 }).catch(() => {});
  }
  const drop = async () => {
    const admin = connectAdmin();
    try {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
    } finally {
      await admin.end({ timeout: 1 }).catch(() => {});
    }
  };
  cleanups.push(drop);
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return { name, url: url.toString(), drop };
}

// ---------------------------------------------------------------------------------
// Scenarios. Each has a name, a kind (which decides its table columns), a
// description, optional targets, and run(ctx) answering { runs, notes? }.

const STARTUP_COLUMNS = [
  { label: "scenario", value: (s) => s.name },
  { label: "runs", value: (s) => s.summary?.runs ?? 0 },
  { label: "start median ms", value: (s) => s.summary?.startupMedianMs },
  { label: "start max ms", value: (s) => s.summary?.startupMaxMs },
  { label: "start target", value: (s) => `< ${s.targets.startupMs} ms` },
  { label: "start CPU median ms", value: (s) => s.summary?.startupCpuMedianMs },
  { label: "idle RSS median MB", value: (s) => s.summary?.idleRssMedianMiB },
  { label: "RSS target", value: (s) => `< ${s.targets.idleRssMiB} MB` },
  { label: "shutdown median ms", value: (s) => s.summary?.shutdownMedianMs },
  { label: "start", value: (s) => verdict(s.summary?.startupPass) },
  { label: "RSS", value: (s) => verdict(s.summary?.idleRssPass) },
];

function verdict(pass) {
  if (pass === undefined || pass === null) return "-";
  return pass ? "pass" : "FAIL";
}

function summarizeStartup(runs, targets) {
  const ok = runs.filter((run) => run.exitCode === 0);
  const startupMaxMs = max(ok.map((run) => run.startupMs));
  const idleRssMaxMiB = max(ok.map((run) => run.idleRssMiB));
  return {
    runs: ok.length,
    startupMedianMs: round(median(ok.map((run) => run.startupMs))),
    startupMaxMs: round(startupMaxMs),
    listeningLogMedianMs: round(median(ok.map((run) => run.listeningLogMs))),
    startupCpuMedianMs: round(median(ok.map((run) => run.startupCpuMs))),
    idleRssMedianMiB: round(median(ok.map((run) => run.idleRssMiB)), 1),
    idleRssMaxMiB,
    peakRssMedianMiB: round(median(ok.map((run) => run.peakRssMiB)), 1),
    shutdownMedianMs: round(median(ok.map((run) => run.shutdownMs))),
    shutdownMaxMs: round(max(ok.map((run) => run.shutdownMs))),
    // A target is met when every run met it (the max, not just the median).
    startupPass: startupMaxMs === null ? null : startupMaxMs < targets.startupMs,
    idleRssPass: idleRssMaxMiB === null ? null : idleRssMaxMiB < targets.idleRssMiB,
  };
}

const SCENARIOS = [
  {
    name: "startup-postgres",
    kind: "startup",
    description:
      "fresh PostgreSQL database, migrated once (untimed); each run: spawn `authd serve` " +
      "with DATABASE_URL, time to the first 200 on /ok, idle RSS after 2 s, SIGTERM",
    targets: { startupMs: 1000, idleRssMiB: 90 },
    async run(ctx) {
      const database = await createDatabase("authd_bench");
      progress(`  database ${database.name}`);
      const cwd = await tempDir("pg");
      const env = baseEnv({ DATABASE_URL: database.url });
      try {
        await runAuthdCommand(["migrate"], { cwd, env });
        const runs = await measuredRuns(ctx, async () => ({ cwd, env }));
        return { runs, notes: { database: database.name } };
      } finally {
        cleanups.splice(cleanups.indexOf(database.drop), 1);
        await database.drop();
      }
    },
  },
  {
    name: "startup-embedded-warm",
    kind: "startup",
    description:
      "embedded PGlite whose data directory already exists (one untimed start first); " +
      "each run: spawn `authd serve` without DATABASE_URL in that directory",
    targets: { startupMs: 3000, idleRssMiB: 90 },
    async run(ctx) {
      const cwd = await tempDir("warm");
      const env = baseEnv();
      const first = await startServe({ cwd, env });
      const stopped = await stopServe(first.proc);
      if (stopped.exitCode !== 0) {
        throw new Error(`initialising start exited with ${stopped.exitCode}`);
      }
      progress(`  initialised ${cwd}/.authd (untimed: ready in ${round(first.startupMs)} ms)`);
      const runs = await measuredRuns(ctx, async () => ({ cwd, env }));
      return { runs, notes: { initialStartMs: round(first.startupMs, 1) } };
    },
  },
  {
    name: "startup-embedded-cold",
    kind: "startup",
    description:
      "embedded PGlite on an empty directory: each run creates the database (initdb) and " +
      "applies the migrations before listening; a new empty directory per run",
    targets: { startupMs: 3000, idleRssMiB: 90 },
    async run(ctx) {
      const env = baseEnv();
      const runs = await measuredRuns(ctx, async () => ({ cwd: await tempDir("cold"), env }));
      return { runs };
    },
  },
];

// ---------------------------------------------------------------------------------
// Seeding: one big seed file through `authd db seed`, timed end to end.
// bench/seed.mjs runs the same modes standalone, with CPU time (bench/README.md).

const SEED_USERS = 10_000;
/** Hashing 10,000 passwords is minutes of CPU: a run may take far longer than a start. */
const SEED_TIMEOUT_MS = 900_000;

const SEED_COLUMNS = [
  { label: "scenario", value: (s) => s.name },
  { label: "users", value: (s) => s.summary?.users },
  { label: "wall s", value: (s) => s.summary?.wallSeconds },
  { label: "target", value: (s) => `< ${s.targets.wallMs / 1000} s` },
  { label: "users/s", value: (s) => s.summary?.usersPerSecond },
  { label: "peak RSS MB", value: (s) => s.summary?.peakRssMiB },
  { label: "result", value: (s) => verdict(s.summary?.pass) },
];

function summarizeSeed(runs, targets) {
  const ok = runs.filter((run) => run.exitCode === 0);
  const wallMs = max(ok.map((run) => run.wallMs));
  const users = max(ok.map((run) => run.usersCreated));
  return {
    runs: ok.length,
    users,
    wallSeconds: wallMs === null ? null : round(wallMs / 1000, 1),
    usersPerSecond: wallMs === null || !users ? null : round(users / (wallMs / 1000), 1),
    peakRssMiB: max(ok.map((run) => run.peakRssMiB)),
    pass: wallMs === null ? null : wallMs < targets.wallMs && users === SEED_USERS,
  };
}

/** `authd db seed <file> --json` on a fresh migrated database; answers the timed run. */
async function seedRun({ cwd, env, file, flags = [] }) {
  const t0 = performance.now();
  const proc = spawnAuthd(["db", "seed", file, "--json", ...flags], { cwd, env });
  let stdout = "";
  proc.child.stdout.on("data", (chunk) => {
    stdout += chunk.toString();
  });
  let peakKiB = null;
  const sampler = setInterval(() => {
    void readMemory(proc.child.pid).then((memory) => {
      if (memory?.peakRssKiB) peakKiB = Math.max(peakKiB ?? 0, memory.peakRssKiB);
    });
  }, 250);
  let timer;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(() => resolve(null), SEED_TIMEOUT_MS);
  });
  const result = await Promise.race([proc.exited, timeout]);
  clearTimeout(timer);
  clearInterval(sampler);
  if (result === null) {
    proc.kill();
    throw new Error(`authd seed did not finish in ${SEED_TIMEOUT_MS} ms:\n${proc.output()}`);
  }
  const run = {
    wallMs: round(result.at - t0, 1),
    exitCode: result.code,
    peakRssMiB: peakKiB ? round(peakKiB / 1024, 1) : null,
    usersCreated: null,
  };
  if (result.code !== 0) {
    const error = new Error(`authd seed exited with ${result.code}:\n${proc.output()}`);
    error.runs = [run];
    throw error;
  }
  const report = JSON.parse(stdout);
  run.usersCreated = Object.values(report.users).filter(
    (entry) => entry.status === "created",
  ).length;
  return run;
}

/**
 * `hashed: false`: every user's password is {fromEnv}, so authd makes 10,000 salted
 * hashes (or one, with `shared`: --share-password-hashes). `hashed: true`: the file
 * carries one precomputed {hash} for every user (an explicit choice of the file's
 * author), which isolates everything but the hashing.
 */
function seedScenario({ name, hashed, shared = false }) {
  return {
    name,
    kind: "seed",
    description:
      `fresh PostgreSQL database, migrated (untimed); one run (whatever --runs says): ` +
      `\`authd db seed file --json${shared ? " --share-password-hashes" : ""}\` with ${SEED_USERS} users whose password is ` +
      (hashed
        ? "one precomputed {hash} written into the file for every user (no hashing in authd)"
        : shared
          ? "{fromEnv: SEED_PASSWORD}, hashed once for all of them (test data only)"
          : "{fromEnv: SEED_PASSWORD} (argon2id m=19456,t=2,p=1, one distinct salted hash per user)") +
      ", timed from spawn to exit",
    targets: { wallMs: 60_000 },
    async run() {
      const database = await createDatabase("authd_bench_seed");
      progress(`  database ${database.name}`);
      const cwd = await tempDir("seed");
      const secret = "Bench-Seed-Pa55word";
      const env = baseEnv({ DATABASE_URL: database.url, SEED_PASSWORD: secret });
      try {
        await runAuthdCommand(["migrate"], { cwd, env });
        let password = { fromEnv: "SEED_PASSWORD" };
        if (hashed) {
          const { Algorithm, hash: argon2Hash } = await import("@node-rs/argon2");
          password = {
            hash: await argon2Hash(secret, {
              algorithm: Algorithm.Argon2id,
              memoryCost: 19456,
              timeCost: 2,
              parallelism: 1,
            }),
          };
        }
        const users = Array.from({ length: SEED_USERS }, (_, index) => ({
          email: `seed-user-${index}@bench.example`,
          name: `Seed User ${index}`,
          password,
        }));
        const file = path.join(cwd, "seed.json");
        await writeFile(file, JSON.stringify({ version: 1, users }));
        const run = await seedRun({
          cwd,
          env,
          file,
          flags: shared ? ["--share-password-hashes"] : [],
        });
        progress(
          `  ${run.usersCreated} users in ${round(run.wallMs / 1000, 1)} s (peak RSS ${run.peakRssMiB} MiB)`,
        );
        return { runs: [run], notes: { database: database.name, users: SEED_USERS } };
      } finally {
        cleanups.splice(cleanups.indexOf(database.drop), 1);
        await database.drop();
      }
    },
  };
}

SCENARIOS.push(
  seedScenario({ name: "seed-10k-users", hashed: false }),
  seedScenario({ name: "seed-10k-users-shared-hash", hashed: false, shared: true }),
  seedScenario({ name: "seed-10k-users-prehashed", hashed: true }),
);

/** What the HTTP scenarios drive authd with. */
const httpTools = {
  root: ROOT,
  baseEnv,
  createDatabase,
  tempDir,
  runAuthdCommand,
  startServe,
  stopServe,
  readMemory,
  readCpuMs,
  progress,
  liveChildren,
  cleanups,
  connect: (url, options = {}) => postgres(url, { max: 4, onnotice: () => {}, ...options }),
};
SCENARIOS.push(
  ...httpScenarios(httpTools),
  socialScenario(httpTools),
  tokenScenario(httpTools),
  instancesScenario(httpTools),
  importScenario({ ...httpTools, spawnAuthd }),
);

const KINDS = {
  startup: { columns: STARTUP_COLUMNS, summarize: summarizeStartup },
  seed: { columns: SEED_COLUMNS, summarize: summarizeSeed },
  import: { columns: IMPORT_COLUMNS, summarize: summarizeImport },
  // One table row per measurement of the scenario.
  http: { columns: HTTP_COLUMNS, summarize: (runs) => ({ rows: runs }), perRun: true },
  instances: { columns: INSTANCES_COLUMNS, summarize: (runs) => ({ rows: runs }), perRun: true },
};

// ---------------------------------------------------------------------------------
// Machine facts, table, results file.

function gitFacts() {
  try {
    const commit = execFileSync("git", ["rev-parse", "HEAD"], { cwd: ROOT, encoding: "utf8" });
    const status = execFileSync("git", ["status", "--porcelain"], { cwd: ROOT, encoding: "utf8" });
    return { commit: commit.trim(), dirty: status.trim().length > 0 };
  } catch {
    return null;
  }
}

async function machineFacts() {
  const cpus = os.cpus();
  return {
    node: process.version,
    v8: process.versions.v8,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    cpuModel: cpus[0]?.model.trim() ?? "unknown",
    cpuCount: cpus.length,
    totalMemoryGiB: round(os.totalmem() / 1024 ** 3, 1),
    loadAverage: os.loadavg().map((value) => round(value, 2)),
    postgres: await postgresVersion(),
    git: gitFacts(),
  };
}

function formatTable(columns, rows) {
  const cells = rows.map((row) =>
    columns.map((column) => {
      const value = column.value(row);
      return value === null || value === undefined ? "-" : String(value);
    }),
  );
  const widths = columns.map((column, index) =>
    Math.max(column.label.length, ...cells.map((line) => line[index].length)),
  );
  const numeric = columns.map(
    (_, index) =>
      cells.some((line) => /^[\d.]+$/.test(line[index])) &&
      cells.every((line) => line[index] === "-" || /^[\d.]+$/.test(line[index])),
  );
  const render = (line) =>
    `| ${line
      .map((cell, index) =>
        numeric[index] ? cell.padStart(widths[index]) : cell.padEnd(widths[index]),
      )
      .join(" | ")} |`;
  const rule = `|${widths
    .map((width, index) => (numeric[index] ? `${"-".repeat(width + 1)}:` : "-".repeat(width + 2)))
    .join("|")}|`;
  return [render(columns.map((column) => column.label)), rule, ...cells.map(render)].join("\n");
}

function printResults(results) {
  const m = results.machine;
  process.stdout.write(
    `\nauthd bench, ${results.startedAt}\n` +
      `node ${m.node}, ${m.cpuCount} x ${m.cpuModel}, ${m.totalMemoryGiB} GiB RAM, ` +
      `${m.platform}, PostgreSQL ${m.postgres}\n` +
      `load average ${m.loadAverage.join(" ")} at start, ${m.loadAverageEnd.join(" ")} at end\n` +
      `${results.options.runs} run(s) per scenario; MB = MiB (VmRSS / 1024)\n\n`,
  );
  for (const [kind, { columns, perRun }] of Object.entries(KINDS)) {
    const scenarios = results.scenarios.filter((scenario) => scenario.kind === kind);
    if (perRun) {
      for (const scenario of scenarios) {
        if (scenario.runs.length === 0) continue;
        process.stdout.write(`${scenario.name}\n${formatTable(columns, scenario.runs)}\n`);
        if (scenario.notes) process.stdout.write(`${JSON.stringify(scenario.notes)}\n\n`);
      }
    } else if (scenarios.length > 0) {
      process.stdout.write(`${formatTable(columns, scenarios)}\n\n`);
    }
  }
  for (const scenario of results.scenarios) {
    if (scenario.error) {
      process.stdout.write(`${scenario.name} FAILED: ${scenario.error.split("\n")[0]}\n`);
    }
  }
}

// ---------------------------------------------------------------------------------
// Entry point.

const USAGE = `usage: node bench/run.mjs [--only NAME[,NAME...]] [--runs N] [--list]

  --only   scenarios to run: a full name, or a prefix such as "startup"
  --runs   timed runs per scenario (default 5)
  --list   print the scenarios and exit
`;

function parseOptions() {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        only: { type: "string", multiple: true },
        runs: { type: "string", default: "5" },
        list: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (error) {
    process.stderr.write(`${errorMessage(error)}\n${USAGE}`);
    process.exit(2);
  }
  const { values } = parsed;
  if (values.help) {
    process.stdout.write(USAGE);
    process.exit(0);
  }
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) {
    process.stderr.write(`--runs: expected a positive integer, got ${values.runs}\n${USAGE}`);
    process.exit(2);
  }
  const wanted = (values.only ?? []).flatMap((item) => item.split(",")).filter(Boolean);
  const selected =
    wanted.length === 0
      ? SCENARIOS
      : SCENARIOS.filter((scenario) =>
          wanted.some((name) => scenario.name === name || scenario.name.startsWith(`${name}-`)),
        );
  const unknown = wanted.filter(
    (name) => !SCENARIOS.some((s) => s.name === name || s.name.startsWith(`${name}-`)),
  );
  if (unknown.length > 0) {
    process.stderr.write(
      `unknown scenario(s): ${unknown.join(", ")}; known: ${SCENARIOS.map((s) => s.name).join(", ")}\n`,
    );
    process.exit(2);
  }
  return { runs, list: values.list, only: wanted, selected };
}

async function main() {
  const options = parseOptions();
  if (options.list) {
    for (const scenario of SCENARIOS) {
      process.stdout.write(`${scenario.name}\n    ${scenario.description}\n`);
    }
    return 0;
  }
  if (!existsSync(AUTHD_BIN)) {
    process.stderr.write(`${AUTHD_BIN} not found: run \`npm run build\` (or \`npm run bench\`)\n`);
    return 1;
  }

  const startedAt = new Date();
  const results = {
    startedAt: startedAt.toISOString(),
    finishedAt: null,
    options: { runs: options.runs, only: options.only, idleMs: IDLE_MS },
    machine: await machineFacts(),
    scenarios: [],
    ok: true,
  };

  for (const scenario of options.selected) {
    progress(`${scenario.name}: ${scenario.description}`);
    const kind = KINDS[scenario.kind];
    const entry = {
      name: scenario.name,
      kind: scenario.kind,
      description: scenario.description,
      targets: scenario.targets ?? null,
      runs: [],
      summary: null,
      notes: null,
      error: null,
    };
    const t0 = performance.now();
    try {
      const outcome = await scenario.run({ runs: options.runs });
      entry.runs = outcome.runs;
      entry.notes = outcome.notes ?? null;
    } catch (error) {
      entry.runs = error.runs ?? [];
      entry.error = errorMessage(error);
      results.ok = false;
      progress(`  FAILED: ${entry.error}`);
    }
    entry.summary = kind.summarize(entry.runs, scenario.targets);
    entry.wallMs = round(performance.now() - t0);
    results.scenarios.push(entry);
  }

  results.finishedAt = new Date().toISOString();
  results.machine.loadAverageEnd = os.loadavg().map((value) => round(value, 2));
  printResults(results);
  await mkdir(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `${results.startedAt.replace(/[:.]/g, "-")}.json`);
  await writeFile(file, `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(`results: ${path.relative(process.cwd(), file) || file}\n`);
  return results.ok ? 0 : 1;
}

let exitCode = 1;
try {
  exitCode = await main();
} catch (error) {
  progress(`bench failed: ${error instanceof Error ? error.stack : String(error)}`);
} finally {
  killAll();
  await runCleanups();
}
process.exit(exitCode);
