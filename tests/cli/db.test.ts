import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyPassword } from "../../server/crypto/password.js";
import { runAuthd } from "../helpers/cli.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";

const PASSWORD = "Seed-Pa55word!";

let source: TestDatabase;
let target: TestDatabase;
let sourceSql: postgres.Sql;
let targetSql: postgres.Sql;
let sourceEnv: Record<string, string>;
let targetEnv: Record<string, string>;
let dir: string;

/** Every part of the seed format an export has to carry. */
const SEED = {
  version: 1,
  users: [
    {
      email: "owner@example.test",
      name: "Owner",
      emailVerified: true,
      role: "admin",
      password: { fromEnv: "SEED_PASSWORD" },
    },
    {
      email: "member@example.test",
      name: "Member",
      accounts: [{ providerId: "github", accountId: "12345" }],
    },
    { email: "co@example.test", name: "Co-owner" },
    { email: "zed@example.test", name: "Zed" },
  ],
  organizations: [
    {
      slug: "acme",
      name: "Acme",
      owner: "owner@example.test",
      logo: "https://acme.example/logo.png",
      metadata: { plan: "pro", seats: 10 },
      teams: [{ name: "Core" }, { name: "Ops" }],
      members: [
        { user: "member@example.test", role: "member", teams: ["Core", "Ops"] },
        { user: "co@example.test", role: "owner" },
        { user: "zed@example.test", role: "admin,member", team: "Ops" },
      ],
      invitations: [
        { email: "new@example.test", role: "admin", expiresIn: "48h", team: "Core" },
        { email: "later@example.test", role: "member" },
      ],
    },
    { slug: "beta", name: "Beta", owner: "zed@example.test" },
  ],
};

async function writeJson(name: string, content: unknown): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, typeof content === "string" ? content : JSON.stringify(content));
  return file;
}

const TABLES = ["user", "account", "organization", "member", "team", "team_member", "invitation"];

async function rowCounts(sql: postgres.Sql): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of TABLES) {
    const [row] = await sql<{ count: number }[]>`select count(*)::int as count from ${sql(table)}`;
    counts[table] = row?.count ?? 0;
  }
  return counts;
}

beforeAll(async () => {
  [source, target] = await Promise.all([createTestDatabase(), createTestDatabase()]);
  dir = await mkdtemp(path.join(os.tmpdir(), "authd-db-"));
  // The seed has teams, which exist only where the configuration enables them.
  const config = await writeJson("authd.config.json", {
    organization: { teams: { enabled: true } },
  });
  sourceEnv = { DATABASE_URL: source.url, SEED_PASSWORD: PASSWORD, AUTHD_CONFIG: config };
  targetEnv = { DATABASE_URL: target.url, AUTHD_CONFIG: config };
  const [a, b] = await Promise.all([
    runAuthd(["migrate"], { env: sourceEnv }),
    runAuthd(["migrate"], { env: targetEnv }),
  ]);
  expect(a.code, a.stderr).toBe(0);
  expect(b.code, b.stderr).toBe(0);
  sourceSql = postgres(source.url, { max: 2, onnotice: () => {} });
  targetSql = postgres(target.url, { max: 2, onnotice: () => {} });
  const seeded = await runAuthd(["db", "seed", await writeJson("seed.json", SEED)], {
    env: sourceEnv,
  });
  expect(seeded.code, seeded.stderr).toBe(0);
  // Secrets that must never be exported.
  await sourceSql`
    insert into session (id, user_id, token_hash, expires_at)
    select 'sess-1', id, 'secret-session-digest', now() + interval '1 day'
    from "user" where email = 'owner@example.test'`;
  await sourceSql`
    insert into verification (id, identifier, value, expires_at)
    values ('ver-1', 'reset-password:secret-verification-digest', 'x', now() + interval '1 hour')`;
});

afterAll(async () => {
  await sourceSql?.end();
  await targetSql?.end();
  if (dir) await rm(dir, { recursive: true, force: true });
  await Promise.all([source?.drop(), target?.drop()]);
});

describe("authd db export", () => {
  let exported: Record<string, unknown>;

  it("writes a seed document with natural keys, password hashes and no secrets", async () => {
    const result = await runAuthd(["db", "export", "--json"], { env: sourceEnv });
    expect(result.code, result.stderr).toBe(0);
    exported = JSON.parse(result.stdout);
    const [owner] = await sourceSql<{ password: string }[]>`
      select a.password from account a join "user" u on u.id = a.user_id
      where u.email = 'owner@example.test' and a.provider_id = 'credential'`;
    const [invitation] = await sourceSql<{ expiresAt: Date }[]>`
      select expires_at as "expiresAt" from invitation where email = 'new@example.test'`;
    const [later] = await sourceSql<{ expiresAt: Date }[]>`
      select expires_at as "expiresAt" from invitation where email = 'later@example.test'`;
    expect(exported).toEqual({
      version: 1,
      users: [
        { email: "co@example.test", name: "Co-owner", emailVerified: false, role: "user" },
        {
          email: "member@example.test",
          name: "Member",
          emailVerified: false,
          role: "user",
          accounts: [{ providerId: "github", accountId: "12345" }],
        },
        {
          email: "owner@example.test",
          name: "Owner",
          emailVerified: true,
          role: "admin",
          password: { hash: owner?.password },
        },
        { email: "zed@example.test", name: "Zed", emailVerified: false, role: "user" },
      ],
      organizations: [
        {
          slug: "acme",
          name: "Acme",
          // The first owner by email: co@ sorts before owner@.
          owner: "co@example.test",
          logo: "https://acme.example/logo.png",
          metadata: { plan: "pro", seats: 10 },
          teams: [{ name: "Core" }, { name: "Ops" }],
          members: [
            { user: "member@example.test", role: "member", teams: ["Core", "Ops"] },
            { user: "owner@example.test", role: "owner" },
            { user: "zed@example.test", role: "admin,member", team: "Ops" },
          ],
          invitations: [
            {
              email: "later@example.test",
              role: "member",
              expiresAt: later?.expiresAt.toISOString(),
            },
            {
              email: "new@example.test",
              role: "admin",
              expiresAt: invitation?.expiresAt.toISOString(),
              team: "Core",
            },
          ],
        },
        { slug: "beta", name: "Beta", owner: "zed@example.test" },
      ],
    });
    expect(await verifyPassword(owner?.password ?? "", PASSWORD)).toBe(true);
    expect(result.stdout).not.toContain("secret-session-digest");
    expect(result.stdout).not.toContain("secret-verification-digest");
  });

  it("round-trips: export, seed into an empty database, export again gives the same document", async () => {
    const file = await writeJson("export.json", exported);
    const seeded = await runAuthd(["db", "seed", file, "--json"], { env: targetEnv });
    expect(seeded.code, seeded.stderr).toBe(0);
    const again = await runAuthd(["db", "export", "--json"], { env: targetEnv });
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual(exported);
    // The hash was copied, not re-made: the password still works.
    const [row] = await targetSql<{ password: string }[]>`
      select a.password from account a join "user" u on u.id = a.user_id
      where u.email = 'owner@example.test' and a.provider_id = 'credential'`;
    expect(await verifyPassword(row?.password ?? "", PASSWORD)).toBe(true);
  });

  it("streams JSONL, one entity per line with a kind, that db seed reads back; YAML by default", async () => {
    const lines = await runAuthd(["db", "export", "-o", "jsonl"], { env: sourceEnv });
    expect(lines.code, lines.stderr).toBe(0);
    const entities = lines.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(entities[0]).toEqual({ kind: "seed", version: 1 });
    expect(entities.map((entity) => entity.kind)).toEqual([
      "seed",
      ...Array(4).fill("user"),
      "organization",
      "team",
      "team",
      "member",
      "member",
      "member",
      "invitation",
      "invitation",
      "organization",
    ]);
    expect(entities[8]).toEqual({
      kind: "member",
      organization: "acme",
      user: "member@example.test",
      role: "member",
      teams: ["Core", "Ops"],
    });

    // Into a reset target database, from a .jsonl file and from stdin.
    const reset = await runAuthd(["db", "reset", `--confirm=${target.name}`, "--json"], {
      env: targetEnv,
    });
    expect(reset.code, reset.stderr).toBe(0);
    const file = await writeJson("export.jsonl", lines.stdout);
    const seeded = await runAuthd(["db", "seed", file, "--json"], { env: targetEnv });
    expect(seeded.code, seeded.stderr).toBe(0);
    const fromStdin = await runAuthd(["db", "seed", "-", "--json"], {
      env: targetEnv,
      input: lines.stdout,
    });
    expect(fromStdin.code, fromStdin.stderr).toBe(0);
    const statuses = Object.values(JSON.parse(fromStdin.stdout).users).map(
      (entry) => (entry as { status: string }).status,
    );
    expect(statuses).toEqual(["unchanged", "unchanged", "unchanged", "unchanged"]);

    const yaml = await runAuthd(["db", "export"], { env: targetEnv });
    expect(yaml.code, yaml.stderr).toBe(0);
    expect(yaml.stdout).toMatch(/^version: 1\nusers:\n {2}- email: co@example.test\n/);
    const yamlFile = await writeJson("export.yaml", yaml.stdout);
    const back = await runAuthd(["db", "seed", yamlFile, "--json"], { env: targetEnv });
    expect(back.code, back.stderr).toBe(0);
    const json = await runAuthd(["db", "export", "--json"], { env: targetEnv });
    expect(JSON.parse(json.stdout)).toEqual(exported);
  });

  it("--only narrows the sections; bad sections and formats are usage errors", async () => {
    const users = await runAuthd(["db", "export", "--only", "users", "--json"], {
      env: sourceEnv,
    });
    expect(users.code, users.stderr).toBe(0);
    expect(Object.keys(JSON.parse(users.stdout))).toEqual(["version", "users"]);

    const members = await runAuthd(["db", "export", "--only", "members", "--json"], {
      env: sourceEnv,
    });
    expect(members.code, members.stderr).toBe(0);
    const document = JSON.parse(members.stdout);
    expect(Object.keys(document)).toEqual(["version", "organizations"]);
    // Without teams, members carry no team names (the file would not validate).
    expect(document.organizations[0].members[0]).toEqual({
      user: "member@example.test",
      role: "member",
    });
    expect(document.organizations[0].teams).toBeUndefined();
    expect(document.organizations[0].invitations).toBeUndefined();

    const bad = await runAuthd(["db", "export", "--only", "sessions"], { env: sourceEnv });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unknown section "sessions"');
    const csv = await runAuthd(["db", "export", "-o", "csv"], { env: sourceEnv });
    expect(csv.code).toBe(2);
    expect(csv.stdout).toBe("");
  });
});

describe("authd db reset", () => {
  it("refuses without --confirm, with a wrong one, and under the production profile: nothing dropped", async () => {
    const before = await rowCounts(sourceSql);
    const missing = await runAuthd(["db", "reset", "--yes"], { env: sourceEnv });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`--confirm=${source.name}`);
    const wrong = await runAuthd(["db", "reset", "--yes", "--confirm=authd_prod", "--json"], {
      env: sourceEnv,
    });
    expect(wrong.code).toBe(2);
    expect(JSON.parse(wrong.stderr).error.code).toBe("USAGE_ERROR");
    expect(wrong.stderr).toContain("does not match the database name");
    const production = await runAuthd(
      ["db", "reset", `--confirm=${source.name}`, "--profile", "production"],
      { env: { ...sourceEnv, AUTHD_SECRET: "a".repeat(43) } },
    );
    expect(production.code).toBe(2);
    expect(production.stderr).toContain("refused under the production profile");
    expect(await rowCounts(sourceSql)).toEqual(before);
  });

  it("--dry-run lists the tables and row counts it would drop, and drops nothing", async () => {
    const before = await rowCounts(sourceSql);
    const result = await runAuthd(["db", "reset", "--dry-run", "--json"], { env: sourceEnv });
    expect(result.code, result.stderr).toBe(0);
    const plan = JSON.parse(result.stdout);
    expect(plan).toMatchObject({
      database: source.name,
      dryRun: true,
      reverted: [
        "0004_session-indexes",
        "0003_bump-organization-once-per-transaction",
        "0002_organization-content-version",
        "0001_initial-schema",
      ],
      migrated: [],
    });
    const dropped = new Map(
      (plan.dropped as Array<{ name: string; rows: number }>).map((t) => [t.name, t.rows]),
    );
    expect(dropped.get("user")).toBe(4);
    expect(dropped.get("session")).toBe(1);
    expect(dropped.has("authd_migrations")).toBe(true);
    expect(await rowCounts(sourceSql)).toEqual(before);
  });

  it("drops every row, leaves the schema current, and seeds with --seed", async () => {
    await sourceSql`create table not_authd (id int)`;
    await sourceSql`insert into not_authd values (1)`;
    const file = await writeJson("small.json", {
      version: 1,
      users: [{ email: "fresh@example.test", name: "Fresh" }],
    });
    const result = await runAuthd(
      ["db", "reset", `--confirm=${source.name}`, "--seed", file, "--json"],
      { env: sourceEnv },
    );
    expect(result.code, result.stderr).toBe(0);
    const body = JSON.parse(result.stdout);
    expect(body.reverted).toEqual([
      "0004_session-indexes",
      "0003_bump-organization-once-per-transaction",
      "0002_organization-content-version",
      "0001_initial-schema",
    ]);
    expect(body.migrated).toEqual([
      "0001_initial-schema",
      "0002_organization-content-version",
      "0003_bump-organization-once-per-transaction",
      "0004_session-indexes",
    ]);
    // 0004: the organization-delete foreign key and session list's order are indexed.
    const sessionIndexes = await sourceSql<{ indexname: string; indexdef: string }[]>`
      select indexname, indexdef from pg_indexes
      where schemaname = 'public' and tablename = 'session'
        and indexname in ('session_active_organization_id_idx', 'session_created_at_idx')
      order by indexname`;
    expect(sessionIndexes).toEqual([
      {
        indexname: "session_active_organization_id_idx",
        indexdef:
          "CREATE INDEX session_active_organization_id_idx ON public.session USING btree (active_organization_id)",
      },
      {
        indexname: "session_created_at_idx",
        indexdef: "CREATE INDEX session_created_at_idx ON public.session USING btree (created_at)",
      },
    ]);
    expect(body.seed.users["fresh@example.test"].status).toBe("created");
    expect(await rowCounts(sourceSql)).toEqual({
      user: 1,
      account: 0,
      organization: 0,
      member: 0,
      team: 0,
      team_member: 0,
      invitation: 0,
    });
    const [sessions] = await sourceSql`select count(*)::int as count from session`;
    expect(sessions?.count).toBe(0);
    // Not authd's: left alone.
    const [other] = await sourceSql`select count(*)::int as count from not_authd`;
    expect(other?.count).toBe(1);
    const status = await runAuthd(["migrate", "status", "--exit-code"], { env: sourceEnv });
    expect(status.code, status.stderr).toBe(0);
  });

  it("an invalid --seed file is refused before anything is dropped", async () => {
    const before = await rowCounts(sourceSql);
    const file = await writeJson("broken.json", { version: 1, users: [{ email: "nope" }] });
    const result = await runAuthd(["db", "reset", `--confirm=${source.name}`, "--seed", file], {
      env: sourceEnv,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("users[0].email: not a valid email address");
    expect(await rowCounts(sourceSql)).toEqual(before);
  });
});
