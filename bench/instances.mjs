/**
 * Two instances, one database: 60 seconds of mixed load at 100 connections spread over
 * two `authd serve` processes sharing one PostgreSQL (70% get-session, 10% password
 * sign-in, 10% organization reads, 10% organization writes), then the same load with
 * PostgreSQL restarted (fast shutdown, 3 s down) in the middle. Recorded: throughput,
 * latency, answers by kind (503 shed apart from other 5xx), connection errors, each
 * instance's resident memory, and for the restart the requests lost and the seconds
 * until both instances serve again.
 *
 * The PostgreSQL is the benchmark's own (initdb and pg_ctl as the postgres user, on a
 * free port), so that it can be restarted; rate limits are off, as in every HTTP
 * scenario (the load comes from one address).
 */
import { execFile } from "node:child_process";
import { chmodSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

const CONNECTIONS = 100;
/** 60 s; BENCH_INSTANCES_SECONDS shortens it for a quick look (the restart at half). */
const DURATION_S = Number(process.env.BENCH_INSTANCES_SECONDS) || 60;
const USERS = 100;
const PASSWORD = "bench-password-123";
const ORIGIN = "http://127.0.0.1";
const RESTART_AT_S = Math.floor(DURATION_S / 2);
const DOWN_MS = 3000;

/** The mix: weights out of 100. */
const MIX = [
  ["get-session", 70],
  ["sign-in", 10],
  ["organization read", 10],
  ["organization write", 10],
];

export const INSTANCES_COLUMNS = [
  { label: "measurement", value: (row) => row.name },
  { label: "req/s", value: (row) => row.requestsPerSecond },
  { label: "p50 ms", value: (row) => row.p50Ms },
  { label: "p99 ms", value: (row) => row.p99Ms },
  { label: "max ms", value: (row) => row.maxMs },
  { label: "2xx", value: (row) => row.ok },
  { label: "503 shed", value: (row) => row.shed },
  { label: "other 5xx", value: (row) => row.otherServerErrors },
  { label: "4xx", value: (row) => row.clientErrors },
  { label: "conn errors", value: (row) => row.connectionErrors },
  { label: "RSS A/B MB (peak)", value: (row) => row.rss ?? "-" },
  { label: "recovered s", value: (row) => row.recoveredSeconds ?? "-" },
];

async function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** A PostgreSQL of the benchmark's own, which it may stop and start. */
async function startOwnPostgres(tools) {
  const root = "/usr/lib/postgresql";
  const version = readdirSync(root)
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a))[0];
  const bin = path.join(root, version, "bin");
  const folder = mkdtempSync(path.join(os.tmpdir(), "authd-bench-pg-"));
  chmodSync(folder, 0o777);
  const data = path.join(folder, "data");
  const port = await freePort();
  const asPostgres = (command, args) =>
    run("runuser", ["-u", "postgres", "--", path.join(bin, command), ...args], {
      timeout: 60_000,
    });
  await asPostgres("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "--no-sync"]);
  // The machine's shared server's usual settings for what matters here.
  const options = `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1 -c max_connections=100 -c shared_buffers=128MB`;
  const start = () =>
    asPostgres("pg_ctl", [
      "-D",
      data,
      "-l",
      path.join(folder, "log"),
      "-o",
      options,
      "-w",
      "start",
    ]);
  const stop = () => asPostgres("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]);
  await start();
  const remove = async () => {
    await stop().catch(() => {});
    rmSync(folder, { recursive: true, force: true });
  };
  tools.cleanups.push(remove);
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, start, stop, remove };
}

function request(agent, base, { method = "GET", path: route, cookie, body }) {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve) => {
    const outgoing = http.request(
      `${base}${route}`,
      {
        agent,
        method,
        headers: {
          origin: ORIGIN,
          ...(cookie ? { cookie } : {}),
          ...(payload ? { "content-type": "application/json" } : {}),
        },
      },
      (response) => {
        const chunks = [];
        response.on("data", (chunk) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode,
            headers: response.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
        response.on("error", (error) => resolve({ error }));
      },
    );
    outgoing.on("error", (error) => resolve({ error }));
    // No answer in 10 s counts as a connection error (and the load moves on).
    outgoing.setTimeout(10_000, () =>
      outgoing.destroy(Object.assign(new Error("no answer in 10 s"), { code: "TIMEOUT" })),
    );
    outgoing.end(payload);
  });
}

function cookieOf(response) {
  return (response.headers["set-cookie"] ?? []).map((line) => line.split(";")[0]).join("; ");
}

function percentile(sorted, fraction) {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))];
}

/** Users, each owning an organization that is their active one. */
async function prepareUsers(base) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  const users = [];
  for (let start = 0; start < USERS; start += 8) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(8, USERS - start) }, async (_, offset) => {
        const n = start + offset;
        const email = `instances-${n}@example.com`;
        const signUp = await request(agent, base, {
          method: "POST",
          path: "/sign-up/email",
          body: { email, password: PASSWORD, name: `User ${n}` },
        });
        if (signUp.status !== 200) throw new Error(`sign-up ${n}: ${signUp.status} ${signUp.body}`);
        const cookie = cookieOf(signUp);
        const created = await request(agent, base, {
          method: "POST",
          path: "/organization/create",
          cookie,
          body: { name: `Org ${n}`, slug: `instances-org-${n}` },
        });
        if (created.status !== 200) {
          throw new Error(`organization ${n}: ${created.status} ${created.body}`);
        }
        return { email, cookie, organizationId: JSON.parse(created.body).id };
      }),
    );
    users.push(...batch);
  }
  agent.destroy();
  return users;
}

/**
 * The load: CONNECTIONS clients, half on each instance, each sending one request at a
 * time for DURATION_S; `during(second, elapsed)` is awaited once per second beside it
 * (`elapsed()` answers the seconds since the load began, on the samples' clock).
 */
async function mixedLoad(bases, users, { during, pids, tools }) {
  const agents = bases.map(
    () => new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS / bases.length }),
  );
  const samples = [];
  const startedAt = performance.now();
  const deadline = startedAt + DURATION_S * 1000;
  const peakRss = pids.map(() => 0);
  const table = MIX.flatMap(([kind, weight]) => Array(weight).fill(kind));
  let counter = 0;

  const client = async (index) => {
    const instance = index % bases.length;
    const base = bases[instance];
    const agent = agents[instance];
    while (performance.now() < deadline) {
      const kind = table[counter++ % table.length];
      const user = users[(counter * 7 + index) % users.length];
      const sentAt = performance.now();
      let answer;
      switch (kind) {
        case "get-session":
          answer = await request(agent, base, { path: "/get-session", cookie: user.cookie });
          break;
        case "sign-in":
          answer = await request(agent, base, {
            method: "POST",
            path: "/sign-in/email",
            body: { email: user.email, password: PASSWORD },
          });
          break;
        case "organization read":
          answer = await request(agent, base, {
            path: "/organization/get-full-organization",
            cookie: user.cookie,
          });
          break;
        default:
          answer = await request(agent, base, {
            method: "POST",
            path: "/organization/update",
            cookie: user.cookie,
            body: { organizationId: user.organizationId, data: { name: `Org ${counter}` } },
          });
      }
      samples.push({
        kind,
        instance,
        sentAt: sentAt - startedAt,
        ms: performance.now() - sentAt,
        status: answer.status ?? 0,
        error: answer.error ? (answer.error.code ?? answer.error.message) : undefined,
      });
      if (answer.status === 503) {
        // As a client honouring Retry-After would, briefly.
        await new Promise((resolve) => setTimeout(resolve, 100));
      } else if (answer.error) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  };

  const watcher = async () => {
    for (let second = 1; performance.now() < deadline; second++) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      for (const [index, pid] of pids.entries()) {
        const memory = await tools.readMemory(pid);
        if (memory?.rssKiB) peakRss[index] = Math.max(peakRss[index], memory.rssKiB);
      }
      // The load's own clock, which the samples' times are on.
      await during?.(second, () => (performance.now() - startedAt) / 1000);
    }
  };

  await Promise.all([...Array.from({ length: CONNECTIONS }, (_, i) => client(i)), watcher()]);
  for (const agent of agents) agent.destroy();
  return { samples, seconds: (performance.now() - startedAt) / 1000, peakRss };
}

function summarizeSamples(name, samples, seconds) {
  const latencies = samples.map((sample) => sample.ms).sort((a, b) => a - b);
  const round = (value) => (value === null ? null : Math.round(value * 10) / 10);
  return {
    name,
    requestsPerSecond: Math.round(samples.length / seconds),
    requests: samples.length,
    p50Ms: round(percentile(latencies, 0.5)),
    p99Ms: round(percentile(latencies, 0.99)),
    maxMs: round(latencies.at(-1) ?? null),
    ok: samples.filter((sample) => sample.status >= 200 && sample.status < 300).length,
    shed: samples.filter((sample) => sample.status === 503).length,
    otherServerErrors: samples.filter((sample) => sample.status >= 500 && sample.status !== 503)
      .length,
    clientErrors: samples.filter((sample) => sample.status >= 400 && sample.status < 500).length,
    connectionErrors: samples.filter((sample) => sample.error).length,
  };
}

async function startInstances(tools, databaseUrl) {
  const cwd = await tools.tempDir("instances");
  await writeFile(
    path.join(cwd, "authd.config.json"),
    JSON.stringify({ baseURL: ORIGIN, rateLimit: { enabled: false }, log: { requests: false } }),
  );
  const env = tools.baseEnv({
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: "info",
    AUTHD_SECRET: "bench-secret-0123456789-0123456789-0123",
  });
  await tools.runAuthdCommand(["migrate"], { cwd, env });
  const servers = [await tools.startServe({ cwd, env }), await tools.startServe({ cwd, env })];
  return servers;
}

export function instancesScenario(tools) {
  return {
    name: "http-instances",
    kind: "instances",
    description:
      `two \`authd serve\` processes on one PostgreSQL of the benchmark's own, ${CONNECTIONS} ` +
      `connections (half on each), ${DURATION_S} s of 70% get-session, 10% sign-in, 10% ` +
      "get-full-organization, 10% organization update; then the same with PostgreSQL " +
      `stopped (fast shutdown) at ${RESTART_AT_S} s and started ${DOWN_MS / 1000} s later`,
    targets: {},
    async run() {
      const rows = [];
      const notes = {};
      for (const restart of [false, true]) {
        const pg = await startOwnPostgres(tools);
        const servers = await startInstances(tools, pg.url);
        try {
          const bases = servers.map((server) => server.url.replace(/\/$/, ""));
          tools.progress(`  ${restart ? "restart" : "steady"}: preparing ${USERS} users`);
          const users = await prepareUsers(bases[0]);
          let stoppedAt = null;
          let startedAt = null;
          tools.progress(`  ${restart ? "restart" : "steady"}: ${DURATION_S} s of load`);
          const result = await mixedLoad(bases, users, {
            tools,
            pids: servers.map((server) => server.proc.child.pid),
            during: restart
              ? async (second, elapsed) => {
                  if (second !== RESTART_AT_S) return;
                  await pg.stop();
                  stoppedAt = elapsed();
                  await new Promise((resolve) => setTimeout(resolve, DOWN_MS));
                  await pg.start();
                  startedAt = elapsed();
                }
              : undefined,
          });
          const label = restart ? "restart" : "steady";
          const rss = result.peakRss.map((kib) => Math.round(kib / 1024)).join(" / ");
          const all = summarizeSamples(`${label}: all`, result.samples, result.seconds);
          all.rss = rss;
          if (restart && startedAt !== null) {
            // Seconds from PostgreSQL accepting again to a 2xx from each instance.
            const recovered = bases.map((_, instance) => {
              const first = result.samples.find(
                (sample) =>
                  sample.instance === instance &&
                  sample.sentAt / 1000 >= startedAt &&
                  sample.status >= 200 &&
                  sample.status < 300,
              );
              return first ? (first.sentAt + first.ms) / 1000 - startedAt : null;
            });
            all.recoveredSeconds = recovered
              .map((value) => (value === null ? "never" : value.toFixed(2)))
              .join(" / ");
            const outage = result.samples.filter(
              (sample) => sample.sentAt / 1000 >= stoppedAt && sample.sentAt / 1000 < startedAt,
            );
            notes.restart = {
              stoppedAtSecond: Math.round(stoppedAt * 10) / 10,
              startedAtSecond: Math.round(startedAt * 10) / 10,
              duringOutage: summarizeSamples("during outage", outage, startedAt - stoppedAt),
            };
          }
          rows.push(all);
          for (const [kind] of MIX) {
            rows.push(
              summarizeSamples(
                `${label}: ${kind}`,
                result.samples.filter((sample) => sample.kind === kind),
                result.seconds,
              ),
            );
          }
        } finally {
          for (const server of servers) await tools.stopServe(server.proc);
          await pg.remove();
        }
      }
      return {
        runs: rows,
        notes: { connections: CONNECTIONS, durationSeconds: DURATION_S, ...notes },
      };
    },
  };
}
