/**
 * HTTP throughput scenarios: sign-up, sign-in, get-session from the
 * database and from the cookie cache, each as a ratio to a ceiling measured in the
 * same run on the same machine (absolute numbers drift on shared machines):
 * - get-session (database) vs one primary-key lookup through postgres.js;
 * - get-session (cookie cache) vs a constant JSON route;
 * - sign-in and sign-up vs the password-hashing limit: concurrent argon2id verifies
 *   per second at authd's parameters, measured here.
 * autocannon drives 50 connections over loopback; per-request log lines are off.
 * http-social (socialScenario, at the end) times the two requests of a social sign-in
 * beside a password sign-in.
 */
import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Algorithm, hash as argon2Hash, verify as argon2Verify } from "@node-rs/argon2";
import autocannon from "autocannon";

const CONNECTIONS = 50;
/** More callers than the pool has connections times its pipeline: every connection stays busy. */
const SUSTAINED_CONNECTIONS = 200;
const ORIGIN = "http://127.0.0.1";
const PASSWORD = "bench-password-123";

function cannon(options) {
  return new Promise((resolve, reject) => {
    autocannon({ connections: CONNECTIONS, duration: 8, ...options }, (error, result) => {
      if (error) reject(error);
      else resolve(result);
    });
  });
}

function summarize(name, result) {
  return {
    name,
    requestsPerSecond: result.requests.average,
    requests: result.requests.total,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

/** Whether wrk (Debian's package) is on this machine: a load generator written in C. */
async function hasWrk() {
  return new Promise((resolve) => {
    const child = spawn("wrk", ["--version"], { stdio: "ignore" });
    child.on("error", () => resolve(false));
    child.on("exit", () => resolve(true));
  });
}

/**
 * A run of wrk (one thread, so the server keeps the other core) against `origin`, asking
 * for `paths` in turn on each connection's requests, in the shape summarize() gives.
 * wrk reads answers in C: where the answers are large (a page's script), autocannon, one
 * Node.js process parsing every byte, is the limit long before the server.
 */
async function wrkLoad({ origin, paths, headers = {}, connections = CONNECTIONS, duration = 4 }) {
  const lua = [
    `local paths = {${paths.map((p) => JSON.stringify(p)).join(", ")}}`,
    `local headers = {${Object.entries(headers)
      .map(([k, v]) => `[${JSON.stringify(k)}] = ${JSON.stringify(v)}`)
      .join(", ")}}`,
    "local i = 0",
    "request = function()",
    "  i = i % #paths + 1",
    '  return wrk.format("GET", paths[i], headers)',
    "end",
    "done = function(summary, latency, requests)",
    "  local e = summary.errors",
    '  io.write(string.format("WRK %d %d %d %d %d %d %d\\n", summary.requests, summary.duration,',
    "    latency:percentile(50), latency:percentile(99), e.status, e.connect + e.read + e.write, e.timeout))",
    "end",
  ].join("\n");
  const script = path.join(os.tmpdir(), `authd-bench-wrk-${process.pid}-${Date.now()}.lua`);
  await writeFile(script, lua);
  const output = await new Promise((resolve, reject) => {
    const child = spawn(
      "wrk",
      ["-t1", `-c${connections}`, `-d${duration}s`, "-s", script, origin],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let text = "";
    child.stdout.on("data", (chunk) => {
      text += chunk;
    });
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolve(text) : reject(new Error(`wrk exited ${code}`)),
    );
  });
  const line = output.split("\n").find((l) => l.startsWith("WRK "));
  if (!line) throw new Error(`no summary from wrk:\n${output}`);
  const [requests, micros, p50, p99, non2xx, errors, timeouts] = line
    .split(" ")
    .slice(1)
    .map(Number);
  return {
    requests: { average: requests / (micros / 1e6), total: requests },
    latency: { p50: p50 / 1000, p99: p99 / 1000 },
    non2xx,
    errors,
    timeouts,
  };
}

/**
 * argon2id verifies per second, one in flight per core (as authd runs them), with the
 * library authd hashes with (@node-rs/argon2).
 */
async function hashingLimit(seconds) {
  const hash = await argon2Hash(PASSWORD, {
    algorithm: Algorithm.Argon2id,
    memoryCost: 19456,
    timeCost: 2,
    parallelism: 1,
  });
  const deadline = performance.now() + seconds * 1000;
  let done = 0;
  const worker = async () => {
    while (performance.now() < deadline) {
      await argon2Verify(hash, PASSWORD);
      done += 1;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: os.availableParallelism() }, worker));
  return done / ((performance.now() - started) / 1000);
}

async function startCeiling(tools, databaseUrl) {
  const child = spawn(process.execPath, [path.join(tools.root, "bench/ceiling-server.mjs")], {
    env: tools.baseEnv({ DATABASE_URL: databaseUrl }),
    stdio: ["ignore", "pipe", "inherit"],
  });
  tools.liveChildren.add(child);
  child.on("exit", () => tools.liveChildren.delete(child));
  const url = await new Promise((resolve, reject) => {
    let text = "";
    child.stdout.on("data", (chunk) => {
      text += chunk.toString();
      const match = /^(http:\/\/\S+)\n/.exec(text);
      if (match) resolve(match[1]);
    });
    child.on("exit", (code) => reject(new Error(`ceiling server exited with ${code}`)));
  });
  return {
    url,
    pid: child.pid,
    async stop() {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
    },
  };
}

/**
 * What every HTTP scenario starts from: a fresh database, migrated, and `authd serve` on
 * it from a working directory of its own whose config turns rate limits and per-request
 * log lines off (plus `config`). The database goes when the benchmark ends.
 */
async function startAuthd(tools, name, config = {}) {
  const database = await tools.createDatabase(`authd_bench_${name}`);
  const cwd = await tools.tempDir(name);
  await writeFile(
    path.join(cwd, "authd.config.json"),
    JSON.stringify({
      baseURL: ORIGIN,
      rateLimit: { enabled: false },
      log: { requests: false },
      ...config,
    }),
  );
  const env = tools.baseEnv({
    DATABASE_URL: database.url,
    LOG_LEVEL: "info",
    AUTHD_SECRET: "bench-secret-0123456789-0123456789-0123",
  });
  await tools.runAuthdCommand(["migrate"], { cwd, env });
  const server = await tools.startServe({ cwd, env });
  return { database, server, base: server.url.replace(/\/$/, "") };
}

async function json(url, init) {
  const response = await fetch(url, init);
  const body = await response.json();
  if (!response.ok)
    throw new Error(`${init?.method ?? "GET"} ${url}: ${response.status} ${JSON.stringify(body)}`);
  return { response, body };
}

function cookiesOf(response) {
  return response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
}

export const HTTP_COLUMNS = [
  { label: "measurement", value: (row) => row.name },
  {
    label: "req/s",
    value: (row) => (row.requestsPerSecond == null ? "-" : Math.round(row.requestsPerSecond)),
  },
  { label: "p50 ms", value: (row) => row.p50Ms },
  { label: "p99 ms", value: (row) => row.p99Ms },
  {
    label: "server CPU µs/req",
    value: (row) => (row.cpuMicrosPerRequest == null ? "-" : Math.round(row.cpuMicrosPerRequest)),
  },
  { label: "ceiling", value: (row) => row.ceiling ?? "-" },
  {
    label: "ratio",
    value: (row) => (row.ratio === undefined ? "-" : `${Math.round(row.ratio * 100)}%`),
  },
  {
    label: "target",
    value: (row) => (row.target === undefined ? "-" : `>= ${Math.round(row.target * 100)}%`),
  },
  { label: "result", value: (row) => (row.pass === undefined ? "-" : row.pass ? "pass" : "FAIL") },
];

/**
 * The organization shapes the scenarios measure, written straight into the database: 49
 * more members in `fullOrganizationId` (the user `bench-member-1` among them), and
 * `invitations` organizations owned by that user, each with a pending invitation
 * `bench-invitation-<n>` addressed to `invitee-<n % invitees>@example.com`.
 */
export async function insertOrganizationShapes(
  sql,
  { fullOrganizationId, invitees, invitations = 40000 },
) {
  await sql`
    insert into "user" (id, email, name)
    select 'bench-member-' || n, 'member' || n || '@example.com', 'Member ' || n
    from generate_series(1, 49) as n`;
  await sql`
    insert into member (id, organization_id, user_id, role)
    select 'bench-membership-' || n, ${fullOrganizationId}, 'bench-member-' || n, 'member'
    from generate_series(1, 49) as n`;
  await sql`
    insert into organization (id, name, slug)
    select 'bench-invite-org-' || n, 'Invite ' || n, 'bench-invite-' || n
    from generate_series(1, ${invitations}) as n`;
  await sql`
    insert into member (id, organization_id, user_id, role)
    select 'bench-invite-owner-' || n, 'bench-invite-org-' || n, 'bench-member-1', 'owner'
    from generate_series(1, ${invitations}) as n`;
  await sql`
    insert into invitation (id, organization_id, email, role, status, inviter_id, expires_at)
    select 'bench-invitation-' || n, 'bench-invite-org-' || n,
           'invitee-' || (n % ${invitees}) || '@example.com', 'member', 'pending',
           'bench-member-1', now() + interval '2 days'
    from generate_series(1, ${invitations}) as n`;
}

export function httpScenarios(tools) {
  return [
    {
      name: "http-accounts",
      kind: "http",
      description:
        "authd serve on a migrated PostgreSQL database plus a bare Fastify ceiling server; " +
        "autocannon, 50 connections; get-session paired with its ceiling in 3 rounds of 4 s (median ratio), sign-in/up 8 s",
      targets: {
        getSessionDb: 0.7,
        getSessionCache: 0.6,
        // Of a hashing limit measured with @node-rs/argon2, twice the old library's: the
        // work around each hash weighs twice as much against it (bench/README.md,
        // "Password hashing library").
        signIn: 0.8,
        signUp: 0.8,
        p99: 1.5,
        // With Node's own heap sizing: memory flags are the operator's.
        peakRssMiB: 200,
      },
      async run() {
        const { database, server, base } = await startAuthd(tools, "http", {
          session: { cookieCache: { enabled: true } },
        });
        const ceiling = await startCeiling(tools, database.url);
        try {
          const email = "bench@example.com";
          const signUp = await json(`${base}/sign-up/email`, {
            method: "POST",
            headers: { "content-type": "application/json", origin: ORIGIN },
            body: JSON.stringify({ name: "Bench", email, password: PASSWORD }),
          });
          const cookie = cookiesOf(signUp.response);
          const userId = signUp.body.user.id;
          const rows = [];

          // Shared machines drift: each scenario runs right after its ceiling, in several
          // rounds, and the median of the per-round ratios is reported.
          const rounds = 3;
          const pairs = [
            {
              ceilingName: "ceiling: constant JSON",
              ceiling: { url: `${ceiling.url}/constant` },
              name: "get-session (cookie cache)",
              scenario: { url: `${base}/get-session`, headers: { cookie } },
            },
            {
              ceilingName: "ceiling: primary-key lookup",
              ceiling: { url: `${ceiling.url}/user/${userId}` },
              name: "get-session (database)",
              scenario: { url: `${base}/get-session?disableCookieCache=true`, headers: { cookie } },
            },
          ];
          const measured = new Map();
          for (let round = 1; round <= rounds; round++) {
            for (const pair of pairs) {
              tools.progress(`  round ${round}: ${pair.ceilingName} / ${pair.name}`);
              const ceilingResult = summarize(
                pair.ceilingName,
                await cannon({ ...pair.ceiling, duration: 4 }),
              );
              const scenarioResult = summarize(
                pair.name,
                await cannon({ ...pair.scenario, duration: 4 }),
              );
              const entry = measured.get(pair.name) ?? { ceilings: [], scenarios: [] };
              entry.ceilings.push(ceilingResult);
              entry.scenarios.push(scenarioResult);
              measured.set(pair.name, entry);
            }
          }
          const medianOf = (values) =>
            [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
          const combine = (name, results) => ({
            name,
            requestsPerSecond: medianOf(results.map((r) => r.requestsPerSecond)),
            p50Ms: medianOf(results.map((r) => r.p50Ms)),
            p99Ms: medianOf(results.map((r) => r.p99Ms)),
            non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
            errors: results.reduce((sum, r) => sum + r.errors, 0),
            timeouts: results.reduce((sum, r) => sum + r.timeouts, 0),
          });
          const ratioOf = (entry) =>
            medianOf(
              entry.scenarios.map(
                (r, i) => r.requestsPerSecond / entry.ceilings[i].requestsPerSecond,
              ),
            );
          const cacheEntry = measured.get("get-session (cookie cache)");
          const dbEntry = measured.get("get-session (database)");
          const constant = combine("ceiling: constant JSON", cacheEntry.ceilings);
          const primaryKey = combine("ceiling: primary-key lookup", dbEntry.ceilings);
          const sessionCache = combine("get-session (cookie cache)", cacheEntry.scenarios);
          const sessionDb = combine("get-session (database)", dbEntry.scenarios);

          tools.progress("  hashing limit (argon2id verifies/s)");
          const limitBeforeSignIn = await hashingLimit(5);
          tools.progress("  sign-in");
          const signIn = summarize(
            "sign-in",
            await cannon({
              url: `${base}/sign-in/email`,
              method: "POST",
              headers: { "content-type": "application/json", origin: ORIGIN },
              body: JSON.stringify({ email, password: PASSWORD }),
            }),
          );
          tools.progress("  hashing limit (argon2id verifies/s)");
          const limitBeforeSignUp = await hashingLimit(5);
          const limit = (limitBeforeSignIn + limitBeforeSignUp) / 2;
          tools.progress("  sign-up");
          let counter = 0;
          const signUps = summarize(
            "sign-up",
            await cannon({
              url: `${base}/sign-up/email`,
              requests: [
                {
                  method: "POST",
                  headers: { "content-type": "application/json", origin: ORIGIN },
                  setupRequest: (request) => {
                    counter += 1;
                    return {
                      ...request,
                      body: JSON.stringify({
                        name: "Bench",
                        email: `bench-${process.pid}-${counter}@example.com`,
                        password: PASSWORD,
                      }),
                    };
                  },
                },
              ],
            }),
          );
          const memory = await tools.readMemory(server.proc.child.pid);
          const peakRssMiB = memory?.peakRssKiB ? memory.peakRssKiB / 1024 : null;

          rows.push(constant, primaryKey);
          rows.push({
            ...sessionDb,
            ceiling: "primary-key lookup",
            ratio: ratioOf(dbEntry),
            target: this.targets.getSessionDb,
          });
          rows.push({
            ...sessionCache,
            ceiling: "constant JSON",
            ratio: ratioOf(cacheEntry),
            target: this.targets.getSessionCache,
          });
          rows.push({
            name: "hashing limit (argon2id verifies/s, 1 per core)",
            requestsPerSecond: limit,
          });
          rows.push({
            ...signIn,
            ceiling: "hashing limit",
            ratio: signIn.requestsPerSecond / limit,
            target: this.targets.signIn,
          });
          // A sign-up hashes once, as a sign-in verifies once: the same limit applies.
          rows.push({
            ...signUps,
            ceiling: "hashing limit",
            ratio: signUps.requestsPerSecond / limit,
            target: this.targets.signUp,
          });
          for (const row of rows) {
            if (row.ratio !== undefined) row.pass = row.ratio >= row.target;
            if (row.non2xx > 0) row.pass = false;
          }
          const p99Ratio = Math.max(
            sessionDb.p99Ms / primaryKey.p99Ms,
            sessionCache.p99Ms / constant.p99Ms,
          );
          return {
            runs: rows,
            notes: {
              peakRssMiB,
              peakRssPass: peakRssMiB === null ? null : peakRssMiB < this.targets.peakRssMiB,
              getSessionP99Ratio: p99Ratio,
              p99Pass: p99Ratio <= this.targets.p99,
              connections: CONNECTIONS,
            },
          };
        } finally {
          await ceiling.stop();
          await tools.stopServe(server.proc);
        }
      },
    },
    {
      name: "http-sustained",
      kind: "http",
      description:
        "throughput while every database connection stays busy: the database client alone (50 " +
        "callers on 10 connections, six windows of 4 s; postgres.js's own pool for the record, " +
        "then authd's pool), then get-session (database) at 200 connections " +
        "(six back-to-back windows of 8 s); each last window >= 90% of its first",
      targets: { lastWindow: 0.9 },
      async run() {
        const { database, server, base } = await startAuthd(tools, "sustained");
        try {
          const signUp = await json(`${base}/sign-up/email`, {
            method: "POST",
            headers: { "content-type": "application/json", origin: ORIGIN },
            body: JSON.stringify({ name: "Bench", email: "bench@example.com", password: PASSWORD }),
          });
          const cookie = cookiesOf(signUp.response);
          const httpWindows = [];
          // The database client alone first: 50 callers on 10 connections, one primary-key
          // lookup after another, so that no connection is ever idle. postgres.js's own
          // pool of 10 (for the record: it is why authd pools its own way), then authd's
          // pool, 10 clients of one connection each.
          const { clientPool } = await import(
            pathToFileURL(path.join(tools.root, "dist/server/db/clients.js")).href
          );
          const pools = [
            {
              label: "postgres.js's own pool",
              open: () => tools.connect(database.url, { max: 10 }),
            },
            {
              label: "authd's pool",
              open: () =>
                clientPool((onclose) => tools.connect(database.url, { max: 1, onclose }), {
                  size: 10,
                  acquireTimeout: 10_000,
                }),
            },
          ];
          const poolSeries = [];
          for (const { label, open } of pools) {
            const windows = [];
            const pool = open();
            try {
              let done = 0;
              let running = true;
              const callers = Array.from({ length: 50 }, async () => {
                while (running) {
                  await pool`select id from "user" where email = ${"bench@example.com"}`;
                  done += 1;
                }
              });
              for (let window = 0; window < 6; window++) {
                const from = window * 4;
                tools.progress(`  ${label}, seconds ${from}-${from + 4}`);
                const before = done;
                await new Promise((resolve) => setTimeout(resolve, 4000));
                windows.push({
                  name: `${label} (50 callers, 10 connections), seconds ${from}-${from + 4}`,
                  requestsPerSecond: (done - before) / 4,
                });
              }
              running = false;
              await Promise.all(callers);
            } finally {
              await pool.end({ timeout: 1 });
            }
            poolSeries.push(windows);
          }
          for (let window = 0; window < 6; window++) {
            const from = window * 8;
            tools.progress(`  get-session (database), seconds ${from}-${from + 8}`);
            httpWindows.push(
              summarize(
                `get-session (database), seconds ${from}-${from + 8}`,
                await cannon({
                  url: `${base}/get-session?disableCookieCache=true`,
                  headers: { cookie },
                  connections: SUSTAINED_CONNECTIONS,
                }),
              ),
            );
          }
          // Each series against its own first window; its last window carries the target.
          const againstFirst = (series) =>
            series.map((row, index) => {
              if (index === 0) return row;
              const ratio = row.requestsPerSecond / series[0].requestsPerSecond;
              if (index < series.length - 1) return { ...row, ceiling: "first window", ratio };
              const target = this.targets.lastWindow;
              const pass = ratio >= target && !(row.non2xx > 0);
              return { ...row, ceiling: "first window", ratio, target, pass };
            });
          // postgres.js's own pool is there for comparison; the target is authd's.
          const [ownPool, authdPool] = poolSeries;
          const rows = [
            ...againstFirst(ownPool).map(({ target, pass, ...row }) => row),
            ...againstFirst(authdPool),
            ...againstFirst(httpWindows),
          ];
          return { runs: rows, notes: { connections: SUSTAINED_CONNECTIONS } };
        } finally {
          await tools.stopServe(server.proc);
        }
      },
    },
    {
      name: "http-organizations",
      kind: "http",
      description:
        "organization endpoints against a primary-key-lookup ceiling on the same database: " +
        "create, list (user in 10), get-full-organization (50 members), accept invitation; " +
        "each paired with the ceiling in 3 rounds of 4 s (median ratio)",
      // The targets are for create, list and get-full-organization; accept is
      // measured and reported without one.
      targets: { create: 0.25, list: 0.4, full: 0.4 },
      async run() {
        const { database, server, base } = await startAuthd(tools, "orgs", {
          organization: { membershipLimit: 1000 },
        });
        const ceiling = await startCeiling(tools, database.url);
        const sql = tools.connect(database.url);
        try {
          // One user per measurement, so that one does not change what another measures.
          const signUpAs = async (email) => {
            const response = await json(`${base}/sign-up/email`, {
              method: "POST",
              headers: { "content-type": "application/json", origin: ORIGIN },
              body: JSON.stringify({ name: "Bench", email, password: PASSWORD }),
            });
            return { cookie: cookiesOf(response.response), id: response.body.user.id };
          };
          const owner = await signUpAs("owner@example.com");
          const creator = await signUpAs("creator@example.com");
          // One accepting user per connection: a single user accepting fifty invitations
          // at once would only measure waits on their one session row.
          const invitees = [];
          for (let i = 0; i < 50; i++) invitees.push(await signUpAs(`invitee-${i}@example.com`));
          const cookie = owner.cookie;
          const userId = owner.id;
          const post = (route, body) =>
            json(`${base}${route}`, {
              method: "POST",
              headers: { "content-type": "application/json", origin: ORIGIN, cookie },
              body: JSON.stringify(body),
            });
          // The user is in 10 organizations; the last one gets 49 more members.
          let full;
          for (let i = 0; i < 10; i++) {
            full = (
              await post("/organization/create", { name: `Org ${i}`, slug: `bench-org-${i}` })
            ).body;
          }
          // Invitations to accept: one organization each, so every accept is a new membership.
          await insertOrganizationShapes(sql, { fullOrganizationId: full.id, invitees: 50 });
          // Fresh statistics after the bulk inserts, as autovacuum would give a live system.
          await sql`analyze`;
          let slugCounter = 0;
          let invitationCounter = 0;
          const pairs = [
            {
              name: "create organization",
              target: this.targets.create,
              scenario: {
                url: `${base}/organization/create`,
                requests: [
                  {
                    method: "POST",
                    headers: {
                      "content-type": "application/json",
                      origin: ORIGIN,
                      cookie: creator.cookie,
                    },
                    setupRequest: (request) => {
                      slugCounter += 1;
                      return {
                        ...request,
                        body: JSON.stringify({
                          name: "Bench",
                          slug: `bench-${process.pid}-${slugCounter}`,
                          keepCurrentActiveOrganization: true,
                        }),
                      };
                    },
                  },
                ],
              },
            },
            {
              name: "list organizations (user in 10)",
              target: this.targets.list,
              scenario: { url: `${base}/organization/list`, headers: { cookie } },
            },
            {
              name: "get-full-organization (50 members)",
              target: this.targets.full,
              scenario: {
                url: `${base}/organization/get-full-organization?organizationId=${full.id}`,
                headers: { cookie },
              },
            },
            {
              name: "accept invitation",
              target: this.targets.accept,
              scenario: {
                url: `${base}/organization/accept-invitation`,
                requests: [
                  {
                    method: "POST",
                    headers: { "content-type": "application/json", origin: ORIGIN },
                    setupRequest: (request) => {
                      invitationCounter += 1;
                      // Invitation n is addressed to invitee n % 50: send it with their cookie.
                      const invitee = invitees[invitationCounter % 50];
                      return {
                        ...request,
                        headers: { ...request.headers, cookie: invitee.cookie },
                        body: JSON.stringify({
                          invitationId: `bench-invitation-${invitationCounter}`,
                        }),
                      };
                    },
                  },
                ],
              },
            },
          ];
          const medianOf = (values) =>
            [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
          const ceilingRuns = [];
          const rows = [];
          const results = new Map();
          for (let round = 1; round <= 3; round++) {
            for (const pair of pairs) {
              tools.progress(`  round ${round}: ceiling / ${pair.name}`);
              const ceilingResult = summarize(
                "ceiling: primary-key lookup",
                await cannon({ url: `${ceiling.url}/user/${userId}`, duration: 4 }),
              );
              // The server's own CPU time per answered request: steadier than req/s
              // on a machine whose speed drifts, and what a before/after compares.
              const cpuBefore = await tools.readCpuMs(server.proc.child.pid);
              const result = summarize(pair.name, await cannon({ ...pair.scenario, duration: 4 }));
              const cpuAfter = await tools.readCpuMs(server.proc.child.pid);
              result.cpuMicrosPerRequest =
                cpuBefore === null || cpuAfter === null || !result.requests
                  ? null
                  : ((cpuAfter - cpuBefore) * 1000) / result.requests;
              ceilingRuns.push(ceilingResult);
              const entry = results.get(pair.name) ?? [];
              entry.push({
                result,
                ratio: result.requestsPerSecond / ceilingResult.requestsPerSecond,
              });
              results.set(pair.name, entry);
            }
          }
          rows.push({
            name: "ceiling: primary-key lookup",
            requestsPerSecond: medianOf(ceilingRuns.map((r) => r.requestsPerSecond)),
            p50Ms: medianOf(ceilingRuns.map((r) => r.p50Ms)),
            p99Ms: medianOf(ceilingRuns.map((r) => r.p99Ms)),
          });
          for (const pair of pairs) {
            const entry = results.get(pair.name);
            const non2xx = entry.reduce((sum, e) => sum + e.result.non2xx, 0);
            const ratio = medianOf(entry.map((e) => e.ratio));
            rows.push({
              name: pair.name,
              requestsPerSecond: medianOf(entry.map((e) => e.result.requestsPerSecond)),
              p50Ms: medianOf(entry.map((e) => e.result.p50Ms)),
              p99Ms: medianOf(entry.map((e) => e.result.p99Ms)),
              cpuMicrosPerRequest: medianOf(entry.map((e) => e.result.cpuMicrosPerRequest)),
              non2xx,
              ceiling: "primary-key lookup",
              ratio,
              target: pair.target,
              // Without a target a row still fails when a request did.
              pass:
                non2xx > 0 ? false : pair.target === undefined ? undefined : ratio >= pair.target,
            });
          }
          return {
            runs: rows,
            notes: { acceptedInvitations: invitationCounter, created: slugCounter },
          };
        } finally {
          await sql.end({ timeout: 1 }).catch(() => {});
          await ceiling.stop();
          await tools.stopServe(server.proc);
        }
      },
    },
    {
      name: "http-pages",
      kind: "http",
      description:
        "the sign-in page authd serves against the constant-JSON ceiling, 50 connections, " +
        "3 rounds of 4 s (median): its HTML alone (what a returning browser fetches), and " +
        "whole loads (the HTML, then each script and stylesheet it names, brotli); req/s " +
        "and each server's CPU per answer",
      targets: { page: 0.6 },
      async run() {
        const { database, server, base } = await startAuthd(tools, "pages");
        const ceiling = await startCeiling(tools, database.url);
        try {
          const origin = new URL(base).origin;
          const pageUrl = `${origin}/sign-in`;
          const html = await (await fetch(pageUrl)).text();
          // Every file a browser loading the page asks for: the HTML, then its assets.
          const assets = [...html.matchAll(/(?:src|href)="([^"]+\.(?:js|css))"/g)].map(
            (match) => new URL(match[1], pageUrl).pathname,
          );
          if (assets.length === 0) throw new Error(`no assets named in ${pageUrl}:\n${html}`);
          const headers = { "accept-encoding": "br, gzip", accept: "*/*" };
          const paths = ["/sign-in", ...assets];
          const bytes = [];
          for (const route of paths) {
            const response = await fetch(`${origin}${route}`, { headers });
            if (!response.ok) throw new Error(`${route}: ${response.status}`);
            bytes.push(Number(response.headers.get("content-length")));
          }
          // wrk where the machine has it (it reads large answers far faster than
          // autocannon); both servers are measured with the same tool either way.
          const useWrk = process.env.BENCH_PAGES_LOAD !== "autocannon" && (await hasWrk());
          const load = (options) =>
            useWrk
              ? wrkLoad({
                  origin: new URL(options.url).origin,
                  paths: options.requests?.map((r) => r.path) ?? [new URL(options.url).pathname],
                  headers,
                })
              : cannon({ ...options, duration: 4 });
          // Each server's CPU time per answered request, from /proc around the run.
          const measured = async (pid, options) => {
            const before = await tools.readCpuMs(pid);
            const result = summarize(options.name, await load(options));
            const after = await tools.readCpuMs(pid);
            result.cpuMicrosPerRequest =
              before === null || after === null || !result.requests
                ? null
                : ((after - before) * 1000) / result.requests;
            return result;
          };
          const scenarios = [
            { name: "ceiling: constant JSON", pid: ceiling.pid, url: `${ceiling.url}/constant` },
            {
              name: "sign-in page: HTML alone",
              pid: server.proc.child.pid,
              url: origin,
              requests: [{ method: "GET", path: "/sign-in", headers }],
            },
            {
              name: `sign-in page: whole loads (${paths.length} files)`,
              pid: server.proc.child.pid,
              url: origin,
              requests: paths.map((route) => ({ method: "GET", path: route, headers })),
            },
          ];
          const runs = new Map(scenarios.map((scenario) => [scenario.name, []]));
          for (let round = 1; round <= 3; round++) {
            for (const scenario of scenarios) {
              tools.progress(`  round ${round}: ${scenario.name}`);
              runs.get(scenario.name).push(await measured(scenario.pid, scenario));
            }
          }
          const medianOf = (values) =>
            [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
          const ceilingRuns = runs.get(scenarios[0].name);
          const rows = [];
          for (const scenario of scenarios) {
            const results = runs.get(scenario.name);
            const non2xx = results.reduce((sum, r) => sum + r.non2xx, 0);
            const row = {
              name: scenario.name,
              requestsPerSecond: medianOf(results.map((r) => r.requestsPerSecond)),
              p50Ms: medianOf(results.map((r) => r.p50Ms)),
              p99Ms: medianOf(results.map((r) => r.p99Ms)),
              cpuMicrosPerRequest: medianOf(results.map((r) => r.cpuMicrosPerRequest)),
              non2xx,
            };
            if (scenario !== scenarios[0]) {
              // The same round's ceiling, by answers per second and by what each answer
              // costs the server (1 = as cheap as the ceiling's constant JSON).
              row.ceiling = "constant JSON";
              row.ratio = medianOf(
                results.map((r, i) => r.requestsPerSecond / ceilingRuns[i].requestsPerSecond),
              );
              row.cpuRatio = medianOf(
                results.map((r, i) => ceilingRuns[i].cpuMicrosPerRequest / r.cpuMicrosPerRequest),
              );
              row.target = this.targets.page;
              row.pass = non2xx === 0 && row.ratio >= row.target;
            }
            rows.push(row);
          }
          return {
            runs: rows,
            notes: {
              loadGenerator: useWrk ? "wrk (one thread)" : "autocannon",
              files: paths,
              bytes,
              cpuRatios: Object.fromEntries(rows.slice(1).map((row) => [row.name, row.cpuRatio])),
            },
          };
        } finally {
          await ceiling.stop();
          await tools.stopServe(server.proc);
        }
      },
    },
  ];
}

// ---------------------------------------------------------------------------------
// Tokens for other services: GET /token against the constant-JSON ceiling.

const TOKEN_ALGORITHMS = ["EdDSA", "ES256", "RS256"];

/**
 * For each signing algorithm, authd with tokens on: a signed-in user with an active
 * organization (so every token carries the organization claims) asks for tokens, paired
 * round by round with the constant-JSON ceiling. The first token is checked against the
 * published key set, so a fast error page cannot pass for a token.
 */
export function tokenScenario(tools) {
  return {
    name: "http-tokens",
    kind: "http",
    description:
      "GET /token (a signed JWT for a session with an active organization) for each " +
      "signing algorithm against the constant-JSON ceiling, 50 connections, 3 rounds of 4 s " +
      "each (median ratio): a client asking again and again with its cookie cache, and " +
      "with the session cookie alone (a database lookup each time); target for the " +
      "default algorithm (EdDSA) with the cookie cache",
    targets: { token: 0.6 },
    async run() {
      const { createRemoteJWKSet, jwtVerify } = await import("jose");
      const medianOf = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
      const rows = [];
      for (const algorithm of TOKEN_ALGORITHMS) {
        const { database, server, base } = await startAuthd(tools, `tokens_${algorithm}`, {
          jwt: { enabled: true, algorithm },
          session: { cookieCache: { enabled: true } },
        });
        const ceiling = await startCeiling(tools, database.url);
        try {
          const post = (route, body, cookie) =>
            json(`${base}${route}`, {
              method: "POST",
              headers: {
                "content-type": "application/json",
                origin: ORIGIN,
                ...(cookie ? { cookie } : {}),
              },
              body: JSON.stringify(body),
            });
          const signUp = await post("/sign-up/email", {
            name: "Bench",
            email: "bench@example.com",
            password: PASSWORD,
          });
          const created = await post(
            "/organization/create",
            { name: "Bench", slug: "bench" },
            cookiesOf(signUp.response),
          );
          // The cookies after the organization became active: the session's, and its cache
          // as the create rewrote it.
          const jar = new Map();
          for (const response of [signUp.response, created.response]) {
            for (const pair of cookiesOf(response).split("; ").filter(Boolean)) {
              jar.set(pair.slice(0, pair.indexOf("=")), pair);
            }
          }
          const cookie = [...jar.values()].join("; ");
          const sessionOnly = cookie
            .split("; ")
            .filter((pair) => pair.includes("session_token="))
            .join("; ");
          const { body } = await json(`${base}/token`, { headers: { cookie } });
          const { payload, protectedHeader } = await jwtVerify(
            body.token,
            createRemoteJWKSet(new URL(`${base}/jwks`)),
          );
          if (protectedHeader.alg !== algorithm || !payload.org_id) {
            throw new Error(`unexpected token: ${JSON.stringify({ protectedHeader, payload })}`);
          }
          const kinds = [
            { name: `token (${algorithm}, cookie cache)`, cookie, target: true },
            { name: `token (${algorithm}, database)`, cookie: sessionOnly },
          ];
          const ceilingRuns = [];
          const runs = new Map(kinds.map((kind) => [kind.name, []]));
          for (let round = 1; round <= 3; round++) {
            tools.progress(`  ${algorithm} round ${round}: ceiling / cookie cache / database`);
            ceilingRuns.push(
              summarize("ceiling", await cannon({ url: `${ceiling.url}/constant`, duration: 4 })),
            );
            for (const kind of kinds) {
              const url = `${base}/token`;
              const headers = { cookie: kind.cookie };
              runs
                .get(kind.name)
                .push(summarize(kind.name, await cannon({ url, headers, duration: 4 })));
            }
          }
          const median = (name, results) => ({
            name,
            requestsPerSecond: medianOf(results.map((r) => r.requestsPerSecond)),
            p50Ms: medianOf(results.map((r) => r.p50Ms)),
            p99Ms: medianOf(results.map((r) => r.p99Ms)),
            non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
          });
          rows.push(median(`ceiling: constant JSON (${algorithm} run)`, ceilingRuns));
          for (const kind of kinds) {
            const results = runs.get(kind.name);
            const row = median(kind.name, results);
            row.ceiling = "constant JSON";
            row.ratio = medianOf(
              results.map((r, i) => r.requestsPerSecond / ceilingRuns[i].requestsPerSecond),
            );
            if (kind.target && algorithm === TOKEN_ALGORITHMS[0]) {
              row.target = this.targets.token;
              row.pass = row.non2xx === 0 && row.ratio >= row.target;
            }
            rows.push(row);
          }
        } finally {
          await ceiling.stop();
          await tools.stopServe(server.proc);
        }
      }
      return { runs: rows, notes: { connections: CONNECTIONS } };
    },
  };
}

// ---------------------------------------------------------------------------------
// Social sign-in: the authorization-code flow against a provider that answers at once.

const SOCIAL_USERS = 200;
const SOCIAL_CLIENT = { clientId: "bench-client", clientSecret: "bench-client-secret" };

/**
 * A provider in this process, on loopback: /token trades `code-<n>` for the access
 * token `at-<n>`, /userinfo answers user n for that token. Nothing is checked beyond
 * that, and nothing waits: what is measured is authd's side of the flow.
 */
async function startStubProvider() {
  const counts = { token: 0, userinfo: 0 };
  const send = (response, status, body) => {
    const text = JSON.stringify(body);
    response.writeHead(status, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(text),
    });
    response.end(text);
  };
  const server = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      const url = new URL(request.url ?? "/", "http://stub");
      if (url.pathname === "/token" && request.method === "POST") {
        counts.token += 1;
        const code = new URLSearchParams(body).get("code") ?? "";
        const n = /^code-(\d+)$/.exec(code)?.[1];
        if (n === undefined) return send(response, 400, { error: "invalid_grant" });
        return send(response, 200, {
          access_token: `at-${n}`,
          token_type: "Bearer",
          expires_in: 3600,
          scope: "openid email profile",
        });
      }
      if (url.pathname === "/userinfo") {
        counts.userinfo += 1;
        const n = /^Bearer at-(\d+)$/.exec(request.headers.authorization ?? "")?.[1];
        if (n === undefined) return send(response, 401, { error: "invalid_token" });
        return send(response, 200, {
          sub: `acme-${n}`,
          email: `social-${n}@example.com`,
          email_verified: true,
          name: `Social ${n}`,
        });
      }
      return send(response, 404, { error: "not_found" });
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    counts,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  };
}

/** One request on a keep-alive agent; answers status, headers and body text. */
function request(agent, url, { method = "GET", headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(url, { agent, method, headers }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk) => {
        text += chunk;
      });
      response.on("end", () =>
        resolve({ status: response.statusCode, headers: response.headers, text }),
      );
      response.on("error", reject);
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

const nameValue = (setCookie = []) => setCookie.map((line) => line.split(";")[0]).join("; ");

/**
 * One whole social sign-in as a browser does it: sign-in/social (the state cookie and
 * the provider URL), then the provider's redirect back to the callback with the code
 * and the state, which must answer 302 with a session cookie.
 */
async function socialSignIn(agent, base, n) {
  const started = performance.now();
  const begin = await request(agent, `${base}/sign-in/social`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: ORIGIN },
    body: JSON.stringify({ provider: "acme", callbackURL: "/", disableRedirect: true }),
  });
  if (begin.status !== 200) return { ok: false, why: `sign-in/social ${begin.status}` };
  const state = new URL(JSON.parse(begin.text).url).searchParams.get("state");
  const callbackStarted = performance.now();
  const callback = await request(
    agent,
    `${base}/callback/acme?${new URLSearchParams({ code: `code-${n}`, state })}`,
    { headers: { cookie: nameValue(begin.headers["set-cookie"]) } },
  );
  const finished = performance.now();
  const location = callback.headers.location ?? "";
  const session = (callback.headers["set-cookie"] ?? []).some((line) =>
    /session_token=[^;]/.test(line),
  );
  if (callback.status !== 302 || location.includes("error=") || !session) {
    return { ok: false, why: `callback ${callback.status} ${location}` };
  }
  return { ok: true, totalMs: finished - started, callbackMs: finished - callbackStarted };
}

function percentile(sorted, fraction) {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))];
}

/**
 * `connections` browsers signing in one after another for `seconds`; each browser
 * has its own users (no two sign-ins of one user at once).
 */
async function socialLoad(base, seconds, connections) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const totals = [];
  const callbacks = [];
  const failures = [];
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  const ownCpu = process.cpuUsage();
  await Promise.all(
    Array.from({ length: connections }, async (_, browser) => {
      for (let i = 0; performance.now() < deadline; i++) {
        const n = browser + ((i * connections) % SOCIAL_USERS);
        const outcome = await socialSignIn(agent, base, n % SOCIAL_USERS);
        if (outcome.ok) {
          totals.push(outcome.totalMs);
          callbacks.push(outcome.callbackMs);
        } else {
          failures.push(outcome.why);
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const { user, system } = process.cpuUsage(ownCpu);
  agent.destroy();
  totals.sort((a, b) => a - b);
  callbacks.sort((a, b) => a - b);
  const ms = (value) => (value === null ? null : Math.round(value * 10) / 10);
  return {
    signIns: totals.length,
    requestsPerSecond: totals.length / elapsed,
    p50Ms: ms(percentile(totals, 0.5)),
    p99Ms: ms(percentile(totals, 0.99)),
    callbackP50Ms: ms(percentile(callbacks, 0.5)),
    callbackP99Ms: ms(percentile(callbacks, 0.99)),
    // This process's share (the browsers and the stub provider): the same cores as authd.
    benchCpuMicrosPerSignIn: totals.length === 0 ? null : (user + system) / totals.length,
    failures,
  };
}

/**
 * `http-social`: authd's share of a social sign-in, beside a password sign-in measured
 * the way http-accounts does, in alternating rounds on one server.
 */
export function socialScenario(tools) {
  return {
    name: "http-social",
    kind: "http",
    description:
      "social sign-in (sign-in/social, then the callback with the state cookie: token and " +
      "userinfo from an in-process stub provider that answers at once) by 50 concurrent " +
      "browsers over 200 users, beside password sign-in (autocannon, 50 connections); " +
      "3 alternating rounds of 4 s each, medians; then each for 3 s one at a time",
    async run() {
      const stub = await startStubProvider();
      const { server, base } = await startAuthd(tools, "social", {
        socialProviders: {
          acme: {
            ...SOCIAL_CLIENT,
            authorizationEndpoint: `${stub.url}/authorize`,
            tokenEndpoint: `${stub.url}/token`,
            userInfoEndpoint: `${stub.url}/userinfo`,
          },
        },
      });
      try {
        const email = "bench@example.com";
        await json(`${base}/sign-up/email`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: ORIGIN },
          body: JSON.stringify({ name: "Bench", email, password: PASSWORD }),
        });
        // Each social user signs up once first: the rounds measure returning users.
        tools.progress(`  warm-up: ${SOCIAL_USERS} first social sign-ins (sign-ups)`);
        const warmAgent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
        for (let first = 0; first < SOCIAL_USERS; first += CONNECTIONS) {
          const batch = Array.from({ length: CONNECTIONS }, (_, i) => first + i);
          const outcomes = await Promise.all(batch.map((n) => socialSignIn(warmAgent, base, n)));
          const failed = outcomes.find((outcome) => !outcome.ok);
          if (failed) throw new Error(`warm-up sign-in failed: ${failed.why}`);
        }
        warmAgent.destroy();

        // Server CPU from the start of a load until a second after it: requests still in
        // flight at its end (argon2 on the thread pool) are charged to it, not to the next.
        const cpu = async (work) => {
          const before = await tools.readCpuMs(server.proc.child.pid);
          const result = await work();
          await new Promise((resolve) => setTimeout(resolve, 1000));
          const after = await tools.readCpuMs(server.proc.child.pid);
          return { result, cpuMs: before === null || after === null ? null : after - before };
        };
        const socialRounds = [];
        const passwordRounds = [];
        for (let round = 1; round <= 3; round++) {
          tools.progress(`  round ${round}: social sign-in`);
          const social = await cpu(() => socialLoad(base, 4, CONNECTIONS));
          socialRounds.push({
            ...social.result,
            cpuMicrosPerRequest:
              social.cpuMs === null ? null : (social.cpuMs * 1000) / social.result.signIns,
          });
          tools.progress(`  round ${round}: password sign-in`);
          const password = await cpu(() =>
            cannon({
              url: `${base}/sign-in/email`,
              method: "POST",
              headers: { "content-type": "application/json", origin: ORIGIN },
              body: JSON.stringify({ email, password: PASSWORD }),
              duration: 4,
            }),
          );
          // Per request sent: the ones cut off at the end were hashed too.
          const sent = password.result.requests.sent;
          passwordRounds.push({
            ...summarize("password sign-in", password.result),
            cpuMicrosPerRequest:
              password.cpuMs === null || !sent ? null : (password.cpuMs * 1000) / sent,
          });
        }
        // One browser at a time: the time a sign-in takes when nothing queues behind it.
        tools.progress("  one at a time: social sign-in, then password sign-in");
        const socialAlone = await socialLoad(base, 3, 1);
        const passwordAlone = summarize(
          "password sign-in, 1 connection",
          await cannon({
            url: `${base}/sign-in/email`,
            method: "POST",
            headers: { "content-type": "application/json", origin: ORIGIN },
            body: JSON.stringify({ email, password: PASSWORD }),
            connections: 1,
            duration: 3,
          }),
        );
        const medianOf = (values) =>
          [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
        const pick = (rounds, key) => medianOf(rounds.map((round) => round[key]));
        const failures = [...socialRounds, socialAlone].flatMap((round) => round.failures);
        const socialRate = pick(socialRounds, "requestsPerSecond");
        const passwordRate = pick(passwordRounds, "requestsPerSecond");
        const memory = await tools.readMemory(server.proc.child.pid);
        const rows = [
          {
            name: "social sign-in (sign-in/social + callback)",
            requestsPerSecond: socialRate,
            p50Ms: pick(socialRounds, "p50Ms"),
            p99Ms: pick(socialRounds, "p99Ms"),
            cpuMicrosPerRequest: pick(socialRounds, "cpuMicrosPerRequest"),
            non2xx: failures.length,
            ceiling: "password sign-in",
            ratio: socialRate / passwordRate,
          },
          {
            name: "  of which the callback",
            p50Ms: pick(socialRounds, "callbackP50Ms"),
            p99Ms: pick(socialRounds, "callbackP99Ms"),
          },
          {
            name: "password sign-in (sign-in/email)",
            requestsPerSecond: passwordRate,
            p50Ms: pick(passwordRounds, "p50Ms"),
            p99Ms: pick(passwordRounds, "p99Ms"),
            cpuMicrosPerRequest: pick(passwordRounds, "cpuMicrosPerRequest"),
            non2xx: passwordRounds.reduce((sum, round) => sum + round.non2xx, 0),
          },
        ];
        rows.push(
          {
            name: "social sign-in, 1 browser",
            requestsPerSecond: socialAlone.requestsPerSecond,
            p50Ms: socialAlone.p50Ms,
            p99Ms: socialAlone.p99Ms,
            non2xx: socialAlone.failures.length,
          },
          {
            name: "  of which the callback",
            p50Ms: socialAlone.callbackP50Ms,
            p99Ms: socialAlone.callbackP99Ms,
          },
          passwordAlone,
        );
        // Not a target: a row fails only when a sign-in did.
        for (const row of rows) if (row.non2xx > 0) row.pass = false;
        return {
          runs: rows,
          notes: {
            connections: CONNECTIONS,
            socialUsers: SOCIAL_USERS,
            socialSignIns: socialRounds.reduce((sum, round) => sum + round.signIns, 0),
            socialFailures: failures.slice(0, 5),
            stubRequests: stub.counts,
            benchCpuMicrosPerSocialSignIn: Math.round(
              medianOf(socialRounds.map((round) => round.benchCpuMicrosPerSignIn)),
            ),
            peakRssMiB: memory?.peakRssKiB ? Math.round(memory.peakRssKiB / 102.4) / 10 : null,
          },
        };
      } finally {
        await tools.stopServe(server.proc);
        await stub.close();
      }
    },
  };
}
