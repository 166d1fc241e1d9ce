/**
 * `authd import better-auth` of a Better Auth database with 10,000 users, timed end to
 * end. The source's tables are made by Better Auth's own migrations (the better-auth
 * package, a dev dependency, with its organization plugin with teams and its admin
 * plugin); its rows by SQL, `insert … select … from generate_series`:
 *
 *   10,000 users, each with a credential account (the password hashes are four distinct
 *          scrypt hashes as Better Auth writes them: hashing 10,000 would take minutes
 *          and the import copies a hash without reading it) and a live session;
 *    1,000 organizations of 10 members each (the first the owner), each with one team
 *          holding all ten and one pending invitation.
 *
 * That is 53,000 rows. The run imports them all, sessions included (`--sessions`), into
 * a fresh migrated authd database.
 */
import { randomBytes, scryptSync } from "node:crypto";
import { performance } from "node:perf_hooks";

const USERS = 10_000;
const ORGANIZATIONS = 1_000;
const IMPORT_TIMEOUT_MS = 300_000;

export const IMPORT_COLUMNS = [
  { label: "scenario", value: (s) => s.name },
  { label: "users", value: (s) => s.summary?.users },
  { label: "rows", value: (s) => s.summary?.rows },
  { label: "wall s", value: (s) => s.summary?.wallSeconds },
  { label: "target", value: (s) => `< ${s.targets.wallMs / 1000} s` },
  { label: "rows/s", value: (s) => s.summary?.rowsPerSecond },
  { label: "peak RSS MB", value: (s) => s.summary?.peakRssMiB },
  {
    label: "result",
    value: (s) => (s.summary?.pass == null ? "-" : s.summary.pass ? "pass" : "FAIL"),
  },
];

const round = (value, digits = 0) =>
  value === null || value === undefined ? null : Number(value.toFixed(digits));

export function summarizeImport(runs, targets) {
  const run = runs.find((candidate) => candidate.exitCode === 0);
  if (!run) return { runs: 0 };
  return {
    runs: 1,
    users: run.users,
    rows: run.rows,
    wallSeconds: round(run.wallMs / 1000, 1),
    rowsPerSecond: round(run.rows / (run.wallMs / 1000)),
    peakRssMiB: run.peakRssMiB,
    pass: run.wallMs < targets.wallMs && run.users === USERS && run.complete,
  };
}

/** Better Auth's scrypt format: hex salt (used as text), ':', the 64-byte key in hex. */
function scryptHash(password) {
  const salt = randomBytes(16).toString("hex");
  const key = scryptSync(password.normalize("NFKC"), salt, 64, {
    N: 16384,
    r: 16,
    p: 1,
    maxmem: 64 * 1024 * 1024,
  });
  return `${salt}:${key.toString("hex")}`;
}

/** The source: Better Auth's migrations, then the rows (see the module comment). */
async function buildSource(url, connect) {
  const [{ betterAuth }, { getMigrations }, { admin, organization }, { default: pg }] =
    await Promise.all([
      import("better-auth"),
      import("better-auth/db/migration"),
      import("better-auth/plugins"),
      import("pg"),
    ]);
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  try {
    const options = {
      database: pool,
      secret: "bench-better-auth-secret-0123456789-0123",
      baseURL: "http://localhost:3000",
      logger: { disabled: true },
      emailAndPassword: { enabled: true },
      plugins: [organization({ teams: { enabled: true } }), admin()],
    };
    betterAuth(options);
    await (await getMigrations(options)).runMigrations();
  } finally {
    await pool.end();
  }
  const hashes = ["a", "b", "c", "d"].map((letter) => scryptHash(`bench-password-${letter}`));
  const sql = connect(url, { max: 1 });
  try {
    await sql.begin(async (tx) => {
      await tx`
        insert into "user" (id, name, email, "emailVerified", "createdAt", "updatedAt", role, banned)
        select 'user-' || g, 'User ' || g, 'user-' || g || '@bench.example', true,
               now() - g * interval '1 minute', now(), 'user', false
        from generate_series(1, ${USERS}) g`;
      await tx`
        insert into account (id, "accountId", "providerId", "userId", password, "createdAt", "updatedAt")
        select 'account-' || g, 'user-' || g, 'credential', 'user-' || g,
               (${hashes}::text[])[1 + g % 4], now(), now()
        from generate_series(1, ${USERS}) g`;
      await tx`
        insert into session (id, token, "userId", "expiresAt", "createdAt", "updatedAt",
                             "ipAddress", "userAgent", "activeOrganizationId")
        select 'session-' || g, md5('token-' || g), 'user-' || g, now() + interval '7 days',
               now(), now(), '203.0.113.1', 'bench', 'org-' || (1 + (g - 1) / 10)
        from generate_series(1, ${USERS}) g`;
      await tx`
        insert into organization (id, name, slug, metadata, "createdAt")
        select 'org-' || g, 'Organization ' || g, 'org-' || g, '{"plan":"pro"}', now()
        from generate_series(1, ${ORGANIZATIONS}) g`;
      // User u is in organization 1 + (u - 1) / 10; the first of each ten owns it.
      await tx`
        insert into member (id, "organizationId", "userId", role, "createdAt")
        select 'member-' || g, 'org-' || (1 + (g - 1) / 10), 'user-' || g,
               case when g % 10 = 1 then 'owner' else 'member' end, now()
        from generate_series(1, ${USERS}) g`;
      await tx`
        insert into team (id, name, "organizationId", "memberCount", "createdAt", "updatedAt")
        select 'team-' || g, 'Team ' || g, 'org-' || g, 10, now(), now()
        from generate_series(1, ${ORGANIZATIONS}) g`;
      await tx`
        insert into "teamMember" (id, "teamId", "userId", "createdAt")
        select 'team-member-' || g, 'team-' || (1 + (g - 1) / 10), 'user-' || g, now()
        from generate_series(1, ${USERS}) g`;
      await tx`
        insert into invitation (id, "organizationId", email, role, status, "expiresAt",
                                "createdAt", "inviterId")
        select 'invitation-' || g, 'org-' || g, 'invited-' || g || '@bench.example', 'member',
               'pending', now() + interval '2 days', now(), 'user-' || (1 + (g - 1) * 10)
        from generate_series(1, ${ORGANIZATIONS}) g`;
    });
    const [row] = await sql`
      select (select count(*) from "user") + (select count(*) from account)
           + (select count(*) from session) + (select count(*) from organization)
           + (select count(*) from member) + (select count(*) from team)
           + (select count(*) from "teamMember") + (select count(*) from invitation) as rows`;
    return Number(row.rows);
  } finally {
    await sql.end({ timeout: 1 });
  }
}

/** `authd import better-auth --from <source> --sessions --json`, timed from spawn to exit. */
async function importRun({ tools, cwd, env, from }) {
  const t0 = performance.now();
  const proc = tools.spawnAuthd(["import", "better-auth", "--from", from, "--sessions", "--json"], {
    cwd,
    env,
  });
  let stdout = "";
  proc.child.stdout.on("data", (chunk) => {
    stdout += chunk.toString();
  });
  let peakKiB = null;
  const sampler = setInterval(() => {
    void tools.readMemory(proc.child.pid).then((memory) => {
      if (memory?.peakRssKiB) peakKiB = Math.max(peakKiB ?? 0, memory.peakRssKiB);
    });
  }, 250);
  let timer;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(() => resolve(null), IMPORT_TIMEOUT_MS);
  });
  const result = await Promise.race([proc.exited, timeout]);
  clearTimeout(timer);
  clearInterval(sampler);
  if (result === null) {
    proc.kill();
    throw new Error(`the import did not finish in ${IMPORT_TIMEOUT_MS} ms:\n${proc.output()}`);
  }
  const run = {
    wallMs: round(result.at - t0, 1),
    exitCode: result.code,
    peakRssMiB: peakKiB ? round(peakKiB / 1024, 1) : null,
  };
  if (result.code !== 0) {
    const error = new Error(
      `authd import better-auth exited with ${result.code}:\n${proc.output()}`,
    );
    error.runs = [run];
    throw error;
  }
  const report = JSON.parse(stdout);
  const imported = Object.fromEntries(report.items.map((item) => [item.table, item]));
  run.users = imported.user.imported;
  run.rows = report.items.reduce((sum, item) => sum + item.imported, 0);
  run.complete = report.items.every((item) => item.imported === item.source);
  return run;
}

export function importScenario(tools) {
  return {
    name: "import-better-auth-10k",
    kind: "import",
    description:
      `a Better Auth database made by its own migrations, with ${USERS} users (credential ` +
      `accounts, live sessions) and ${ORGANIZATIONS} organizations of 10 members, a team ` +
      "and an invitation each, by SQL (untimed); a fresh migrated authd database " +
      "(untimed); one run (whatever --runs says): `authd import better-auth --from <source> " +
      "--sessions --json`, timed from spawn to exit",
    targets: { wallMs: 60_000 },
    async run() {
      const source = await tools.createDatabase("authd_bench_import_source");
      const target = await tools.createDatabase("authd_bench_import_target");
      tools.progress(`  databases ${source.name} -> ${target.name}`);
      const cwd = await tools.tempDir("import");
      const env = tools.baseEnv({
        DATABASE_URL: target.url,
        AUTHD_SECRET: "bench-authd-secret-0123456789-0123456789",
        LOG_LEVEL: "warn",
      });
      try {
        const rows = await buildSource(source.url, tools.connect);
        tools.progress(`  source: ${rows} rows`);
        await tools.runAuthdCommand(["migrate"], { cwd, env });
        const run = await importRun({ tools, cwd, env, from: source.url });
        tools.progress(
          `  ${run.rows} rows (${run.users} users) in ${round(run.wallMs / 1000, 1)} s (peak RSS ${run.peakRssMiB} MiB)`,
        );
        return { runs: [run], notes: { sourceRows: rows } };
      } finally {
        for (const database of [source, target]) {
          tools.cleanups.splice(tools.cleanups.indexOf(database.drop), 1);
          await database.drop();
        }
      }
    },
  };
}
