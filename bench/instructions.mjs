#!/usr/bin/env node
/**
 * Instructions per request, counted by valgrind's callgrind: a measure that does not
 * move with the machine's other load, for before/after questions that wall-clock runs
 * on a shared machine cannot settle (a few per cent).
 *
 *   node bench/instructions.mjs                       this checkout's dist/bin/authd.cjs
 *   node bench/instructions.mjs --bin ../old/dist/bin/authd.cjs --label before
 *   node bench/instructions.mjs --requests 300 --warmup 600 --only accept,list
 *   node bench/instructions.mjs --perf-map       steadier counts (see below)
 *   node bench/instructions.mjs --same-origin    GETs without an Origin header
 *   node bench/instructions.mjs --cookie-cache   get-session answered from the cookie cache
 *   node --experimental-websocket bench/instructions.mjs --allocations
 *                                                bytes allocated instead (see below)
 *
 * Every request carries an Origin, baseURL's origin on another port than the server's:
 * a trusted cross-origin call, answered with CORS headers. `--same-origin` leaves it off
 * the GETs (as a page at the server's own origin sends them), which tells the CORS
 * answer's cost apart; the other methods need it for the origin check.
 *
 * It starts `authd serve` under `valgrind --tool=callgrind` with instrumentation off, sets up
 * the same shapes as the `http-organizations` scenario over HTTP and SQL, and for each
 * request kind sends `--warmup` requests (not counted: the JIT settles), then
 * `--requests` more, one at a time on one kept-alive connection, counting only those.
 * Counts are the whole authd process (every thread: JIT, GC, libuv pool), not
 * PostgreSQL. Each count is split into the optimizing compiler's share, the garbage
 * collector's and the rest ("work"): the first two land in whichever window they happen
 * to run in, so before/after comparisons read the work. Prints one line per kind and
 * writes the numbers to
 * bench/results/instructions-<timestamp>.json. Needs valgrind (Debian package).
 *
 * Without `--perf-map` the same build can land in one of two steady states from run to
 * run (the sign-in page: 124 k or 164 k; the slower one spends its extra in
 * `Runtime_DefineKeyedOwnPropertyInLiteral`). `--perf-map` starts the server with
 * `--perf-basic-prof`: with it the slower state was seen far less often and repeated
 * runs of a settled build agreed within about 1% (why is not established), and
 * /tmp/perf-<pid>.map names the JIT-compiled functions of the callgrind output (kept
 * with `KEEP=1`; bench/callgrind-functions.mjs lists and compares them).
 *
 * `--allocations` counts bytes instead of instructions: the server runs without valgrind,
 * with its inspector on a local port, and V8's sampling heap profiler records every
 * allocation of the counted requests, the objects collected since included, so the figure
 * is what the request makes the garbage collector handle, not what stays. Prints bytes
 * per request and the allocation sites that make most of them. It drives the inspector
 * over a WebSocket: Node 22 and later have one built in, Node 20 with
 * `--experimental-websocket` (on this script, not on the server).
 */
import { execFile, spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { annotate } from "./callgrind.mjs";
import { insertOrganizationShapes } from "./http.mjs";

const ROOT = path.resolve(import.meta.dirname, "..");
const ORIGIN = "http://127.0.0.1";
const PASSWORD = "bench-password-123";
const ADMIN_URL =
  process.env.BENCH_ADMIN_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const KINDS = ["get-session", "create", "list", "full", "accept", "sign-in", "page", "cached"];

const { values: options } = parseArgs({
  options: {
    bin: { type: "string", default: path.join(ROOT, "dist/bin/authd.cjs") },
    label: { type: "string", default: "this checkout" },
    requests: { type: "string", default: "200" },
    warmup: { type: "string", default: "400" },
    only: { type: "string" },
    "perf-map": { type: "boolean", default: false },
    "same-origin": { type: "boolean", default: false },
    allocations: { type: "boolean", default: false },
    "cookie-cache": { type: "boolean", default: false },
  },
});
if (options.allocations && typeof WebSocket !== "function") {
  throw new Error(
    "--allocations needs a WebSocket: Node 22 or later, or node --experimental-websocket",
  );
}
const bin = path.resolve(options.bin);
const requests = Number(options.requests);
const warmup = Number(options.warmup);
const kinds = options.only
  ? options.only.split(",")
  : options["cookie-cache"]
    ? ["cached"]
    : KINDS.filter((kind) => kind !== "cached");
for (const kind of kinds) {
  if (!KINDS.includes(kind)) throw new Error(`unknown kind ${kind}; known: ${KINDS.join(", ")}`);
}
// With the cache on, every request carrying its cookie is answered from it: the other
// kinds would not measure what they name.
if (options["cookie-cache"] ? kinds.some((kind) => kind !== "cached") : kinds.includes("cached")) {
  throw new Error("--cookie-cache measures the kind `cached` only, and `cached` needs it");
}

const run = (file, args, extra = {}) =>
  new Promise((resolve, reject) =>
    execFile(file, args, { maxBuffer: 1 << 24, ...extra }, (error, stdout, stderr) =>
      error
        ? reject(new Error(`${file} ${args.join(" ")}: ${error.message}\n${stderr}`))
        : resolve(stdout),
    ),
  );

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/**
 * One request on the kept-alive connection; answers status, headers and the body, parsed
 * as JSON unless `raw` (then its bytes).
 */
function send(base, route, { method = "GET", cookie, body, headers = {}, raw = false } = {}) {
  return new Promise((resolve, reject) => {
    const url = new URL(`${base}${route}`);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const request = http.request(
      url,
      {
        agent,
        method,
        headers: {
          ...(options["same-origin"] && method === "GET" ? {} : { origin: ORIGIN }),
          ...(cookie ? { cookie } : {}),
          ...(payload ? { "content-type": "application/json" } : {}),
          ...headers,
        },
      },
      (response) => {
        const chunks = [];
        response.on("data", (chunk) => chunks.push(chunk));
        response.on("end", () => {
          const bytes = Buffer.concat(chunks);
          const text = raw ? "" : bytes.toString();
          if ((response.statusCode ?? 500) >= 300) {
            reject(new Error(`${method} ${route}: ${response.statusCode} ${text}`));
            return;
          }
          const parsed = raw ? bytes : text ? JSON.parse(text) : null;
          resolve({ headers: response.headers, body: parsed });
        });
      },
    );
    request.on("error", reject);
    request.end(payload);
  });
}

/**
 * A dump's instructions split three ways with `callgrind_annotate` (self cost per
 * function): the optimizing compiler's (V8 recompiling hot code on its threads: it lands
 * in whichever window it happens to run in), the garbage collector's (a full collection
 * lands in one window or the next), and the rest, the work the requests themselves cost.
 */
async function splitCounts(file) {
  const { total, functions } = await annotate(file);
  let compiler = 0;
  let gc = 0;
  for (const { count, where } of functions) {
    if (/v8::internal::(compiler|turboshaft|maglev)::|Zone::|ZoneList/.test(where)) {
      compiler += count;
    } else if (/Scaveng|MarkCompact|Marking|Sweep|Evacuat|heap::|Heap::/.test(where)) {
      gc += count;
    }
  }
  return { total, compiler, gc };
}

const cookieOf = (headers) =>
  (headers["set-cookie"] ?? []).map((line) => line.split(";")[0]).join("; ");

/** A session on the server's inspector: `send(method, params)` answers the result. */
async function openInspector(url) {
  if (!url) throw new Error("the server printed no inspector address");
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve, { once: true });
    socket.addEventListener("error", reject, { once: true });
  });
  let next = 0;
  const waiting = new Map();
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data));
    const pending = waiting.get(message.id);
    if (!pending) return;
    waiting.delete(message.id);
    if (message.error) pending.reject(new Error(JSON.stringify(message.error)));
    else pending.resolve(message.result);
  });
  return {
    send(method, params = {}) {
      next += 1;
      const id = next;
      socket.send(JSON.stringify({ id, method, params }));
      return new Promise((resolve, reject) => waiting.set(id, { resolve, reject }));
    },
    close: () => socket.close(),
  };
}

/**
 * The bytes `count` requests of one kind allocate, by V8's sampling heap profiler with
 * collected objects included (one sample about every 128 bytes, scaled to the whole), and
 * the sites (function, script and line) that allocate the most of them.
 */
async function countAllocations(inspector, kind, count, request) {
  await inspector.send("HeapProfiler.enable");
  await inspector.send("HeapProfiler.collectGarbage");
  await inspector.send("HeapProfiler.startSampling", {
    samplingInterval: 128,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  for (let i = 0; i < count; i++) await request();
  const { profile } = await inspector.send("HeapProfiler.stopSampling");
  const sites = new Map();
  let total = 0;
  const walk = (node) => {
    if (node.selfSize > 0) {
      const frame = node.callFrame;
      const script = frame.url.replace(/^.*node_modules\//, "").replace(/^.*\/dist\//, "");
      const site = `${frame.functionName || "(anonymous)"} ${script}:${frame.lineNumber + 1}`;
      sites.set(site, (sites.get(site) ?? 0) + node.selfSize);
      total += node.selfSize;
    }
    for (const childNode of node.children) walk(childNode);
  };
  walk(profile.head);
  const top = [...sites]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 12)
    .map(([site, bytes]) => ({ site, bytesPerRequest: Math.round(bytes / count) }));
  const row = { kind, requests: count, bytesPerRequest: total / count, top };
  process.stderr.write(
    `${options.label}: ${kind.padEnd(12)} ${(row.bytesPerRequest / 1024).toFixed(1).padStart(7)} KB allocated per request (${count} requests); most by:\n${top.map((entry) => `    ${String(entry.bytesPerRequest).padStart(7)} B  ${entry.site}`).join("\n")}\n`,
  );
  return row;
}

async function main() {
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  const name = `authd_instructions_${process.pid}`;
  const work = await mkdtemp(path.join(os.tmpdir(), "authd-instructions-"));
  let child;
  try {
    await admin.unsafe(`create database ${name}`);
    const url = new URL(ADMIN_URL);
    url.pathname = `/${name}`;
    const databaseUrl = url.toString();
    await writeFile(
      path.join(work, "authd.config.json"),
      JSON.stringify({
        baseURL: ORIGIN,
        rateLimit: { enabled: false },
        log: { requests: false },
        organization: { membershipLimit: 1000 },
        ...(options["cookie-cache"] ? { session: { cookieCache: { enabled: true } } } : {}),
      }),
    );
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...(options["perf-map"] ? { NODE_OPTIONS: "--perf-basic-prof" } : {}),
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: "info",
      AUTHD_SECRET: "bench-secret-0123456789-0123456789-0123",
    };
    await run(process.execPath, [bin, "migrate"], { cwd: work, env });

    const outputs = path.join(work, "callgrind");
    await mkdir(outputs);
    const serve = [bin, "serve", "--port", "0", "--host", "127.0.0.1"];
    child = options.allocations
      ? spawn(process.execPath, ["--inspect=127.0.0.1:0", ...serve], {
          cwd: work,
          env,
          stdio: ["ignore", "pipe", "pipe"],
        })
      : spawn(
          "valgrind",
          [
            "--tool=callgrind",
            "--instr-atstart=no",
            // V8 writes and rewrites machine code in anonymous mappings.
            "--smc-check=all-non-file",
            `--callgrind-out-file=${path.join(outputs, "cg.out")}`,
            process.execPath,
            ...serve,
          ],
          { cwd: work, env, stdio: ["ignore", "pipe", "pipe"] },
        );
    let inspectorUrl;
    const base = await new Promise((resolve, reject) => {
      let output = "";
      const timer = setTimeout(() => reject(new Error(`serve did not start:\n${output}`)), 300_000);
      const onData = (chunk) => {
        output += chunk.toString();
        inspectorUrl ??= /Debugger listening on (ws:\/\/\S+)/.exec(output)?.[1];
        const match = /"url":"(http:\/\/[^"]+)".*"msg":"authd listening"/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(match[1].replace(/\/$/, ""));
        }
      };
      child.stdout.on("data", onData);
      child.stderr.on("data", onData);
      child.on("exit", (code) => reject(new Error(`serve exited with ${code}:\n${output}`)));
    });
    process.stderr.write(
      `${options.label}: serving at ${base} ${options.allocations ? "with its inspector" : "under callgrind"}\n`,
    );
    const inspector = options.allocations ? await openInspector(inspectorUrl) : undefined;

    const signUp = async (email) => {
      const answer = await send(base, "/sign-up/email", {
        method: "POST",
        body: { name: "Bench", email, password: PASSWORD },
      });
      return { cookie: cookieOf(answer.headers), id: answer.body.user.id };
    };
    const owner = await signUp("owner@example.com");
    const creator = await signUp("creator@example.com");
    const invitee = await signUp("invitee-0@example.com");
    let full;
    for (let i = 0; i < 10; i++) {
      full = (
        await send(base, "/organization/create", {
          method: "POST",
          cookie: owner.cookie,
          body: { name: `Org ${i}`, slug: `bench-org-${i}` },
        })
      ).body;
    }
    const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    await insertOrganizationShapes(sql, {
      fullOrganizationId: full.id,
      invitees: 1,
      invitations: 2 * (warmup + requests),
    });
    await sql`analyze`;
    await sql.end();

    let counter = 0;
    const requestOf = {
      "get-session": () => send(base, "/get-session", { cookie: owner.cookie }),
      // Answered from the signed cookie cache the sign-up set (only with --cookie-cache).
      cached: () => send(base, "/get-session", { cookie: owner.cookie }),
      create: () => {
        counter += 1;
        return send(base, "/organization/create", {
          method: "POST",
          cookie: creator.cookie,
          body: { name: "Bench", slug: `bench-${counter}`, keepCurrentActiveOrganization: true },
        });
      },
      list: () => send(base, "/organization/list", { cookie: owner.cookie }),
      full: () =>
        send(base, `/organization/get-full-organization?organizationId=${full.id}`, {
          cookie: owner.cookie,
        }),
      accept: () => {
        counter += 1;
        return send(base, "/organization/accept-invitation", {
          method: "POST",
          cookie: invitee.cookie,
          body: { invitationId: `bench-invitation-${counter}` },
        });
      },
      "sign-in": () =>
        send(base, "/sign-in/email", {
          method: "POST",
          body: { email: "owner@example.com", password: PASSWORD },
        }),
      // The sign-in page's HTML as a browser asks for it (the pages sit at the origin).
      page: () =>
        send(new URL(base).origin, "/sign-in", {
          headers: { accept: "text/html", "accept-encoding": "gzip, deflate, br, zstd" },
          raw: true,
        }),
    };

    const control = (...args) => run("callgrind_control", [...args, String(child.pid)]);
    const results = [];
    for (const kind of kinds) {
      // Hashing dominates a sign-in: fewer of them say as much.
      const count = kind === "sign-in" ? Math.max(10, Math.round(requests / 10)) : requests;
      const warm = kind === "sign-in" ? Math.max(10, Math.round(warmup / 10)) : warmup;
      for (let i = 0; i < warm; i++) await requestOf[kind]();
      if (inspector) {
        results.push(await countAllocations(inspector, kind, count, requestOf[kind]));
        continue;
      }
      await control("-i", "on");
      await control("-z");
      for (let i = 0; i < count; i++) await requestOf[kind]();
      const before = new Set(await readdir(outputs));
      // Dumped while still instrumented: switching off first would drop the counts.
      await control("-d", kind);
      await control("-i", "off");
      const dumped = (await readdir(outputs)).filter((file) => !before.has(file));
      const split = await splitCounts(path.join(outputs, dumped[0]));
      const row = {
        kind,
        requests: count,
        ...split,
        perRequest: split.total / count,
        workPerRequest: (split.total - split.compiler - split.gc) / count,
      };
      results.push(row);
      const k = (value) => `${(value / 1000).toFixed(0).padStart(7)} k`;
      process.stderr.write(
        `${options.label}: ${kind.padEnd(12)} ${k(row.workPerRequest)} work, ${k(split.gc / count)} GC, ${k(split.compiler / count)} JIT compiler, per request (${count} requests)\n`,
      );
    }
    inspector?.close();
    if (inspector) {
      for (const row of results) {
        process.stdout.write(`${options.label}\t${row.kind}\t${Math.round(row.bytesPerRequest)}\n`);
      }
      return;
    }
    const resultsDir = path.join(ROOT, "bench/results");
    await mkdir(resultsDir, { recursive: true });
    await writeFile(
      path.join(resultsDir, `instructions-${new Date().toISOString().replace(/[:.]/g, "-")}.json`),
      `${JSON.stringify({ label: options.label, bin, node: process.version, warmup, perfMap: options["perf-map"], sameOrigin: options["same-origin"], results }, null, 2)}\n`,
    );
    for (const row of results) {
      process.stdout.write(
        `${options.label}\t${row.kind}\t${Math.round(row.workPerRequest)}\t${Math.round(row.gc / row.requests)}\t${Math.round(row.compiler / row.requests)}\n`,
      );
    }
  } finally {
    agent.destroy();
    if (child && child.exitCode === null) {
      child.kill("SIGKILL");
      await new Promise((resolve) => child.once("exit", resolve));
    }
    await admin.unsafe(`drop database if exists ${name} with (force)`).catch(() => {});
    await admin.end();
    if (!process.env.KEEP) await rm(work, { recursive: true, force: true });
  }
}

await main();
