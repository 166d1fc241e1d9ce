import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "../../server/crypto/password.js";
import { runAuthd } from "../helpers/cli.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";

const PASSWORD = "Seed-Pa55word!";
const FILE_PASSWORD = "From-a-file-pa55";

let testDatabase: TestDatabase;
let sql: postgres.Sql;
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  testDatabase = await createTestDatabase();
  dir = await mkdtemp(path.join(os.tmpdir(), "authd-seed-"));
  await writeFile(path.join(dir, "pw.txt"), `${FILE_PASSWORD}\n`);
  // The seed files have teams, which exist only where the configuration enables them.
  const config = path.join(dir, "authd.config.json");
  await writeFile(config, JSON.stringify({ organization: { teams: { enabled: true } } }));
  env = { DATABASE_URL: testDatabase.url, SEED_PASSWORD: PASSWORD, AUTHD_CONFIG: config };
  const migrated = await runAuthd(["migrate"], { env });
  expect(migrated.code, migrated.stderr).toBe(0);
  sql = postgres(testDatabase.url, { max: 2, onnotice: () => {} });
});

afterAll(async () => {
  await sql?.end();
  if (dir) await rm(dir, { recursive: true, force: true });
  await testDatabase?.drop();
});

function fullSeed() {
  return {
    version: 1,
    users: [
      {
        email: "Owner@Example.test",
        name: "Owner",
        emailVerified: true,
        role: "admin",
        password: { fromEnv: "SEED_PASSWORD" },
      },
      {
        email: "member@example.test",
        name: "Member",
        password: { file: "pw.txt" },
        accounts: [{ providerId: "github", accountId: "12345" }],
      },
      { email: "helper@example.test", name: "Helper" },
    ],
    organizations: [
      {
        slug: "acme",
        name: "Acme",
        owner: "owner@example.test",
        logo: "https://acme.example/logo.png",
        metadata: { plan: "pro", seats: 10 },
        members: [
          { user: "member@example.test", role: "member", team: "Core" },
          { user: "helper@example.test", role: "admin" },
        ],
        teams: [{ name: "Core" }, { name: "Ops" }],
        invitations: [{ email: "new@example.test", role: "admin", expiresIn: "48h" }],
      },
      { slug: "beta-labs", name: "Beta Labs", owner: "member@example.test" },
    ],
  };
}

/** The element at `index`, which the test's own fixture guarantees. */
function item<T>(list: T[] | undefined, index: number): T {
  const found = list?.[index];
  if (found === undefined) throw new Error(`fixture has no element ${index}`);
  return found;
}

async function writeSeed(name: string, content: unknown): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, typeof content === "string" ? content : JSON.stringify(content, null, 2));
  return file;
}

const TABLES = ["user", "account", "organization", "member", "team", "team_member", "invitation"];

async function rowCounts(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of TABLES) {
    const [row] = await sql<{ count: number }[]>`select count(*)::int as count from ${sql(table)}`;
    counts[table] = row?.count ?? 0;
  }
  return counts;
}

type Report = Record<string, Record<string, { id: string | null; status: string }>>;

function statuses(report: Report): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [kind, entries] of Object.entries(report)) {
    for (const [key, entry] of Object.entries(entries)) flat[`${kind} ${key}`] = entry.status;
  }
  return flat;
}

describe("authd seed: validation (nothing written on any error)", () => {
  it("lists every problem with its JSON path and exits 2", async () => {
    const before = await rowCounts();
    const seed = fullSeed();
    (seed.users[1] as Record<string, unknown>).password = "plain-text-password";
    (seed.users[0] as Record<string, unknown>).password = { fromEnv: "NOT_SET_ANYWHERE" };
    seed.users.push({ email: "not-an-email", name: "X" });
    seed.organizations.push({
      slug: "Bad Slug",
      name: "Bad",
      owner: "owner@example.test",
    });
    seed.organizations[1] = {
      ...seed.organizations[1],
      members: [
        { user: "ghost@nowhere.test", role: "ghost" },
        { user: "helper@example.test", role: "member", team: "Missing" },
      ],
    } as never;
    const file = await writeSeed("invalid.json", seed);
    const result = await runAuthd(["seed", file], { env });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    const lines = [
      "users[0].password.fromEnv: environment variable NOT_SET_ANYWHERE is not set",
      "users[1].password: a plain-text password is refused",
      "users[3].email: not a valid email address",
      'organizations[1].members[0].role: unknown role "ghost"',
      'organizations[1].members[0].user: unknown user "ghost@nowhere.test"',
      'organizations[1].members[1].team: team "Missing" is not listed',
      "organizations[2].slug: expected lowercase letters",
    ];
    for (const line of lines) expect(result.stderr).toContain(line);
    expect(result.stderr).toContain("fromEnv");
    expect(result.stderr).toContain("nothing was written");
    expect(await rowCounts()).toEqual(before);
  });

  it("answers the issues as JSON on stderr with --json", async () => {
    const seed = fullSeed();
    item(item(seed.organizations, 0).members, 0).role = "ghost";
    const file = await writeSeed("ghost.json", seed);
    const result = await runAuthd(["db", "seed", file, "--json"], { env });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    const body = JSON.parse(result.stderr);
    expect(body.error.code).toBe("VALIDATION_ERROR");
    expect(body.error.details.issues).toEqual([
      { path: "organizations[0].members[0].role", message: 'unknown role "ghost"' },
    ]);
  });

  it("refuses teams when the configuration has them disabled, naming the key to set", async () => {
    const before = await rowCounts();
    const disabled = path.join(dir, "no-teams.config.json");
    await writeFile(disabled, JSON.stringify({ organization: { teams: { enabled: false } } }));
    const file = await writeSeed("teams-disabled.json", fullSeed());
    const result = await runAuthd(["db", "seed", file, "--json"], {
      env: { ...env, AUTHD_CONFIG: disabled },
    });
    expect(result.code).toBe(2);
    const body = JSON.parse(result.stderr);
    expect(body.error.code).toBe("VALIDATION_ERROR");
    expect(body.error.details.issues).toContainEqual({
      path: "organizations[0].teams",
      message:
        "teams are disabled: set organization.teams.enabled to true in the configuration, or remove the teams",
    });
    expect(await rowCounts()).toEqual(before);
    // A file without teams seeds there as usual.
    const seed = fullSeed();
    const acme = item(seed.organizations, 0) as Record<string, unknown>;
    delete acme.teams;
    acme.members = [
      { user: "member@example.test", role: "member" },
      { user: "helper@example.test", role: "admin" },
    ];
    const plain = await runAuthd(
      ["db", "seed", await writeSeed("no-teams.json", seed), "--dry-run"],
      {
        env: { ...env, AUTHD_CONFIG: disabled },
      },
    );
    expect(plain.code, plain.stderr).toBe(0);
  });

  it("refuses organization metadata PostgreSQL cannot store, naming where", async () => {
    const before = await rowCounts();
    const seed = fullSeed();
    (item(seed.organizations, 0) as Record<string, unknown>).metadata = { note: "a\u0000b" };
    const result = await runAuthd(["db", "seed", await writeSeed("nul.json", seed), "--json"], {
      env,
    });
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stderr).error.details.issues).toEqual([
      { path: "organizations[0].metadata", message: "metadata must not contain NUL characters" },
    ]);
    expect(await rowCounts()).toEqual(before);
  });

  it("rejects unknown fields, a missing version, malformed JSON and YAML files", async () => {
    const before = await rowCounts();
    const unknownField = await writeSeed("unknown-field.json", {
      version: 1,
      users: [{ email: "a@example.test", nmae: "typo" }],
    });
    const typo = await runAuthd(["seed", unknownField], { env });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("users[0]: Unrecognized key");

    const noVersion = await runAuthd(["seed", await writeSeed("nov.json", { users: [] })], {
      env,
    });
    expect(noVersion.code).toBe(2);
    expect(noVersion.stderr).toContain("version: expected version: 1");

    const malformed = await runAuthd(["seed", await writeSeed("bad.json", '{"version": 1,')], {
      env,
    });
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain("not valid JSON");

    const yaml = await runAuthd(["seed", await writeSeed("bad.yaml", "version: 1\nusers: [\n")], {
      env,
    });
    expect(yaml.code).toBe(2);
    expect(yaml.stderr).toContain("not valid YAML");

    const missing = await runAuthd(["seed", path.join(dir, "absent.json")], { env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("ENOENT");

    const badMode = await runAuthd(["seed", unknownField, "--if-exists", "merge"], { env });
    expect(badMode.code).toBe(2);
    expect(await rowCounts()).toEqual(before);
  });

  it("refuses a YAML tag it does not know, with no Node.js warning on the way", async () => {
    const before = await rowCounts();
    const tagged = await writeSeed(
      "tagged.yaml",
      "version: 1\nusers:\n  - email: !!foo tagged@example.test\n",
    );
    const result = await runAuthd(["seed", tagged], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("not valid YAML: Unresolved tag");
    expect(result.stderr).not.toMatch(/Warning|TAG_RESOLVE_FAILED|trace-warnings/);
    expect(await rowCounts()).toEqual(before);
  });

  it("--dry-run validates and reports the plan without writing", async () => {
    const before = await rowCounts();
    const file = await writeSeed("full.json", fullSeed());
    const result = await runAuthd(["seed", file, "--dry-run", "--json"], { env });
    expect(result.code, result.stderr).toBe(0);
    const report: Report = JSON.parse(result.stdout);
    expect(report.users?.["owner@example.test"]).toEqual({ id: null, status: "created" });
    expect(Object.values(statuses(report)).every((status) => status === "created")).toBe(true);
    expect(await rowCounts()).toEqual(before);
    const human = await runAuthd(["seed", file, "--dry-run"], { env });
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^KIND\s+CREATED\s+UPDATED\s+UNCHANGED\n/);
    expect(human.stdout).toMatch(/users\s+3\s+0\s+0/);
    expect(human.stderr).toContain("Dry run");
    expect(await rowCounts()).toEqual(before);
  });
});

describe("authd seed: applying", () => {
  let firstReport: Report;

  it("creates users with working passwords, accounts, organizations, members, teams and invitations", async () => {
    const file = await writeSeed("full.json", fullSeed());
    const result = await runAuthd(["seed", file, "--json"], { env });
    expect(result.code, result.stderr).toBe(0);
    firstReport = JSON.parse(result.stdout);
    expect(Object.keys(firstReport)).toEqual([
      "users",
      "accounts",
      "organizations",
      "teams",
      "members",
      "invitations",
    ]);
    expect(statuses(firstReport)).toEqual({
      "users owner@example.test": "created",
      "users member@example.test": "created",
      "users helper@example.test": "created",
      "accounts github:12345": "created",
      "organizations acme": "created",
      "organizations beta-labs": "created",
      "teams acme/Core": "created",
      "teams acme/Ops": "created",
      "members acme/owner@example.test": "created",
      "members acme/member@example.test": "created",
      "members acme/helper@example.test": "created",
      "members beta-labs/member@example.test": "created",
      "invitations acme/new@example.test": "created",
    });

    const users = await sql<
      { id: string; email: string; name: string; emailVerified: boolean; role: string }[]
    >`select id, email, name, email_verified as "emailVerified", role from "user" order by email`;
    expect(users.map((user) => [user.email, user.name, user.emailVerified, user.role])).toEqual([
      ["helper@example.test", "Helper", false, "user"],
      ["member@example.test", "Member", false, "user"],
      ["owner@example.test", "Owner", true, "admin"],
    ]);
    for (const user of users) {
      expect(firstReport.users?.[user.email]?.id).toBe(user.id);
    }
    const owner = users.find((user) => user.email === "owner@example.test");
    const member = users.find((user) => user.email === "member@example.test");
    const helper = users.find((user) => user.email === "helper@example.test");
    const [ownerCredential] = await sql<{ password: string }[]>`
      select password from account where user_id = ${owner?.id ?? ""} and provider_id = 'credential'`;
    expect(await verifyPassword(ownerCredential?.password ?? "", PASSWORD)).toBe(true);
    expect(await verifyPassword(ownerCredential?.password ?? "", "wrong-password")).toBe(false);
    const [memberCredential] = await sql<{ password: string }[]>`
      select password from account where user_id = ${member?.id ?? ""} and provider_id = 'credential'`;
    expect(await verifyPassword(memberCredential?.password ?? "", FILE_PASSWORD)).toBe(true);
    const helperAccounts = await sql`select * from account where user_id = ${helper?.id ?? ""}`;
    expect(helperAccounts).toHaveLength(0);
    const [github] = await sql<{ userId: string }[]>`
      select user_id as "userId" from account where provider_id = 'github' and account_id = '12345'`;
    expect(github?.userId).toBe(member?.id);

    const [acme] = await sql<{ id: string; logo: string; metadata: unknown }[]>`
      select id, logo, metadata from organization where slug = 'acme'`;
    expect(acme?.id).toBe(firstReport.organizations?.acme?.id);
    expect(acme?.metadata).toEqual({ plan: "pro", seats: 10 });
    const members = await sql<{ email: string; role: string }[]>`
      select u.email, m.role from member m join "user" u on u.id = m.user_id
      where m.organization_id = ${acme?.id ?? ""} order by u.email`;
    expect(members).toEqual([
      { email: "helper@example.test", role: "admin" },
      { email: "member@example.test", role: "member" },
      { email: "owner@example.test", role: "owner" },
    ]);
    const teamMembers = await sql<{ name: string; email: string }[]>`
      select t.name, u.email from team_member tm join team t on t.id = tm.team_id
      join "user" u on u.id = tm.user_id`;
    expect(teamMembers).toEqual([{ name: "Core", email: "member@example.test" }]);
    const [invitation] = await sql<
      { email: string; role: string; status: string; inviterId: string; hours: number }[]
    >`select email, role, status, inviter_id as "inviterId",
             round(extract(epoch from expires_at - now()) / 3600)::int as hours
      from invitation`;
    expect(invitation).toEqual({
      email: "new@example.test",
      role: "admin",
      status: "pending",
      inviterId: owner?.id,
      hours: 48,
    });
    const audit = await sql<{ actorType: string; details: { counts: { users: unknown } } }[]>`
      select actor_type as "actorType", details from audit_event where action = 'seed.apply'`;
    expect(audit).toHaveLength(1);
    expect(audit[0]?.actorType).toBe("cli");
    expect(audit[0]?.details.counts.users).toEqual({ created: 3, updated: 0, unchanged: 0 });
  });

  it("a second run reports everything unchanged, with the same ids", async () => {
    const before = await rowCounts();
    const file = await writeSeed("full.json", fullSeed());
    const result = await runAuthd(["seed", file, "--json"], { env });
    expect(result.code, result.stderr).toBe(0);
    const report: Report = JSON.parse(result.stdout);
    expect(Object.values(statuses(report)).every((status) => status === "unchanged")).toBe(true);
    expect(Object.keys(statuses(report))).toEqual(Object.keys(statuses(firstReport)));
    for (const [kind, entries] of Object.entries(report)) {
      for (const [key, entry] of Object.entries(entries)) {
        expect(entry.id).toBe(firstReport[kind]?.[key]?.id);
      }
    }
    expect(await rowCounts()).toEqual(before);
  });

  it("reads the file from stdin with -", async () => {
    const result = await runAuthd(["db", "seed", "-", "--json"], {
      env,
      input: JSON.stringify({
        version: 1,
        users: [{ email: "stdin@example.test", name: "From stdin" }],
        organizations: [
          { slug: "acme", name: "Acme", owner: "owner@example.test" },
          { slug: "gamma", name: "Gamma", owner: "helper@example.test" },
        ],
      }),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(statuses(JSON.parse(result.stdout))).toEqual({
      "users stdin@example.test": "created",
      "organizations acme": "unchanged",
      "organizations gamma": "created",
      "members acme/owner@example.test": "unchanged",
      "members gamma/helper@example.test": "created",
    });
    const [row] = await sql`select name from "user" where email = 'stdin@example.test'`;
    expect(row?.name).toBe("From stdin");
  });

  it("--if-exists update changes a name, a platform role, a member role and a password", async () => {
    const seed = fullSeed();
    item(seed.users, 2).name = "Helper Renamed";
    (seed.users[2] as Record<string, unknown>).role = "admin";
    item(item(seed.organizations, 0).members, 1).role = "member";
    item(seed.organizations, 0).name = "Acme Inc";
    const file = await writeSeed("update.json", seed);
    const result = await runAuthd(["seed", file, "--if-exists", "update", "--json"], {
      env: { ...env, SEED_PASSWORD: "Changed-Pa55word" },
    });
    expect(result.code, result.stderr).toBe(0);
    const changed = Object.entries(statuses(JSON.parse(result.stdout)))
      .filter(([, status]) => status !== "unchanged")
      .map(([key, status]) => `${key}: ${status}`);
    expect(changed.sort()).toEqual([
      "members acme/helper@example.test: updated",
      "organizations acme: updated",
      "users helper@example.test: updated",
      "users owner@example.test: updated",
    ]);
    const [helper] = await sql`select name, role from "user" where email = 'helper@example.test'`;
    expect(helper).toEqual({ name: "Helper Renamed", role: "admin" });
    const [member] = await sql`
      select m.role from member m join "user" u on u.id = m.user_id
      join organization o on o.id = m.organization_id
      where u.email = 'helper@example.test' and o.slug = 'acme'`;
    expect(member?.role).toBe("member");
    const [credential] = await sql<{ password: string }[]>`
      select a.password from account a join "user" u on u.id = a.user_id
      where u.email = 'owner@example.test' and a.provider_id = 'credential'`;
    expect(await verifyPassword(credential?.password ?? "", "Changed-Pa55word")).toBe(true);

    // The same file again: nothing left to update.
    const again = await runAuthd(["seed", file, "--if-exists", "update", "--json"], {
      env: { ...env, SEED_PASSWORD: "Changed-Pa55word" },
    });
    expect(again.code, again.stderr).toBe(0);
    expect(
      Object.values(statuses(JSON.parse(again.stdout))).every((status) => status === "unchanged"),
    ).toBe(true);
  });

  it("--if-exists fail exits 4 naming the first existing key, and writes nothing", async () => {
    const before = await rowCounts();
    const seed = fullSeed();
    seed.users.unshift({ email: "brand-new@example.test", name: "New" } as never);
    const file = await writeSeed("fail.json", seed);
    const result = await runAuthd(["seed", file, "--if-exists", "fail"], { env });
    expect(result.code).toBe(4);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain('user "owner@example.test" already exists');
    const json = await runAuthd(["seed", file, "--if-exists", "fail", "--json"], { env });
    expect(json.code).toBe(4);
    expect(JSON.parse(json.stderr).error).toMatchObject({
      code: "USER_ALREADY_EXISTS",
      details: { kind: "user", key: "owner@example.test" },
    });
    expect(await rowCounts()).toEqual(before);
    const [row] =
      await sql`select count(*)::int as count from "user" where email = 'brand-new@example.test'`;
    expect(row?.count).toBe(0);
  });

  it("accepts a precomputed argon2id hash, and refuses an account linked to another user", async () => {
    const hash = await hashPassword("Pre-hashed-pa55");
    const file = await writeSeed("hash.json", {
      version: 1,
      users: [{ email: "hashed@example.test", password: { hash } }],
    });
    const result = await runAuthd(["seed", file, "--json"], { env });
    expect(result.code, result.stderr).toBe(0);
    const [credential] = await sql<{ password: string }[]>`
      select a.password from account a join "user" u on u.id = a.user_id
      where u.email = 'hashed@example.test' and a.provider_id = 'credential'`;
    expect(credential?.password).toBe(hash);

    const before = await rowCounts();
    const stolen = await writeSeed("stolen.json", {
      version: 1,
      users: [
        { email: "thief@example.test", accounts: [{ providerId: "github", accountId: "12345" }] },
      ],
    });
    const refused = await runAuthd(["seed", stolen], { env });
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain("github:12345 already belongs to another user");
    expect(await rowCounts()).toEqual(before);

    const notArgon = await writeSeed("bcrypt.json", {
      version: 1,
      users: [{ email: "b@example.test", password: { hash: "$2b$10$abcdefghijklmnopqrstuv" } }],
    });
    const rejected = await runAuthd(["seed", notArgon], { env });
    expect(rejected.code).toBe(2);
    expect(rejected.stderr).toContain("users[0].password.hash: expected a hash authd verifies");
  });

  it("off a terminal, progress goes to stderr as plain lines", async () => {
    const users = Array.from({ length: 3 }, (_, index) => ({
      email: `progress${index}@example.test`,
      password: { fromEnv: "SEED_PASSWORD" },
    }));
    const file = await writeSeed("progress.json", { version: 1, users });
    const result = await runAuthd(["seed", file], { env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("hashing passwords: 3/3\n");
    expect(result.stderr).toContain("writing rows: 6/6\n");
    expect(result.stderr).not.toContain("\r");
    expect(result.stdout).toMatch(/users\s+3\s+0\s+0/);
  });
});

describe("YAML seed files", () => {
  it("seeds from YAML the same way as from JSON, by file name or from stdin", async () => {
    const file = await writeSeed(
      "seed.yml",
      [
        "version: 1",
        "users:",
        "  - email: yaml-owner@example.test",
        "    name: YAML Owner",
        "    emailVerified: true",
        "organizations:",
        "  - slug: yaml-org",
        "    name: YAML Org",
        "    owner: yaml-owner@example.test",
        "    teams: [{ name: Core }]",
        "",
      ].join("\n"),
    );
    const result = await runAuthd(["seed", file, "--json"], { env });
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.users["yaml-owner@example.test"].status).toBe("created");
    expect(report.organizations["yaml-org"].status).toBe("created");
    const again = await runAuthd(["seed", "-", "--json"], {
      env,
      input: "version: 1\nusers:\n  - email: yaml-owner@example.test\n",
    });
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).users["yaml-owner@example.test"].status).toBe("unchanged");
  });
});

describe("--atomic and --continue-on-error", () => {
  function mixedSeed() {
    return {
      version: 1,
      users: [
        { email: "owner@example.test", name: "Owner" },
        { email: "cont-a@example.test", name: "A", password: { fromEnv: "SEED_PASSWORD" } },
        {
          email: "cont-b@example.test",
          name: "B",
          accounts: [{ providerId: "github", accountId: "12345" }],
        },
      ],
      organizations: [
        { slug: "acme", name: "Acme", owner: "owner@example.test" },
        { slug: "cont-org", name: "Cont", owner: "cont-a@example.test" },
        { slug: "cont-org-b", name: "Cont B", owner: "cont-b@example.test" },
      ],
    };
  }

  it("atomic (the default) writes nothing when one item fails; the two flags exclude each other", async () => {
    const before = await rowCounts();
    const file = await writeSeed("mixed.json", mixedSeed());
    const atomic = await runAuthd(["db", "seed", file, "--if-exists", "fail", "--atomic"], {
      env,
    });
    expect(atomic.code).toBe(4);
    expect(await rowCounts()).toEqual(before);
    const both = await runAuthd(["db", "seed", file, "--atomic", "--continue-on-error"], { env });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("cannot be used with");
    expect(await rowCounts()).toEqual(before);
  });

  it("writes every item that can be written, lists the others, and exits 6", async () => {
    const file = await writeSeed("mixed.json", mixedSeed());
    const result = await runAuthd(
      ["db", "seed", file, "--if-exists", "fail", "--continue-on-error", "--json"],
      { env },
    );
    expect(result.code, result.stderr).toBe(6);
    const output = JSON.parse(result.stdout);
    expect(output.failed).toEqual([
      {
        path: "users[0]",
        key: "owner@example.test",
        code: "USER_ALREADY_EXISTS",
        message: 'user "owner@example.test" already exists (--if-exists fail)',
      },
      {
        path: "users[2]",
        key: "cont-b@example.test",
        code: "LINKED_ACCOUNT_ALREADY_EXISTS",
        message: "account github:12345 already belongs to another user",
      },
      {
        path: "organizations[0]",
        key: "acme",
        code: "ORGANIZATION_ALREADY_EXISTS",
        message: 'organization "acme" already exists (--if-exists fail)',
      },
      {
        path: "organizations[2]",
        key: "cont-org-b",
        code: "USER_NOT_FOUND",
        message: 'user "cont-b@example.test" (owner of organization "cont-org-b") does not exist',
      },
    ]);
    expect(statuses(output)).toEqual({
      "users cont-a@example.test": "created",
      "organizations cont-org": "created",
      "members cont-org/cont-a@example.test": "created",
    });
    expect(result.stderr).toContain("4 item(s) failed; the others were written");
    const emails = await sql<{ email: string }[]>`
      select email from "user" where email like 'cont-%' order by email`;
    expect(emails.map((row) => row.email)).toEqual(["cont-a@example.test"]);
    const slugs = await sql<{ slug: string }[]>`
      select slug from organization where slug like 'cont-%' order by slug`;
    expect(slugs.map((row) => row.slug)).toEqual(["cont-org"]);
    const [credential] = await sql<{ password: string }[]>`
      select a.password from account a join "user" u on u.id = a.user_id
      where u.email = 'cont-a@example.test' and a.provider_id = 'credential'`;
    expect(await verifyPassword(credential?.password ?? "", PASSWORD)).toBe(true);
    const [audit] = await sql<{ details: { failed: number; continueOnError: boolean } }[]>`
      select details from audit_event where action = 'seed.apply'
      order by created_at desc limit 1`;
    expect(audit?.details).toMatchObject({ failed: 4, continueOnError: true });

    // Nothing left to fail: exit 0 and an empty list.
    const again = await runAuthd(["db", "seed", file, "--continue-on-error", "--json"], { env });
    expect(again.code, again.stderr).toBe(6);
    expect(JSON.parse(again.stdout).failed.map((f: { path: string }) => f.path)).toEqual([
      "users[2]",
      "organizations[2]",
    ]);
    const fixed = mixedSeed();
    fixed.users[2] = { email: "cont-b@example.test", name: "B" };
    const ok = await runAuthd(
      ["db", "seed", await writeSeed("fixed.json", fixed), "--continue-on-error", "--json"],
      { env },
    );
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout).failed).toEqual([]);
  });
});

describe("--password-file and --share-password-hashes", () => {
  const DEFAULT_PASSWORD = "Default-Pa55word";

  async function credentials(prefix: string): Promise<Map<string, string>> {
    const rows = await sql<{ email: string; password: string }[]>`
      select u.email, a.password from account a join "user" u on u.id = a.user_id
      where u.email like ${`${prefix}%`} and a.provider_id = 'credential' order by u.email`;
    return new Map(rows.map((row) => [row.email, row.password]));
  }

  it("password: true takes the --password-file password; without the flag it is a usage error", async () => {
    await writeFile(path.join(dir, "default-pw.txt"), `${DEFAULT_PASSWORD}\n`);
    const file = await writeSeed("flag.json", {
      version: 1,
      users: [
        { email: "pwf-a@example.test", password: true },
        { email: "pwf-b@example.test", password: true },
        { email: "pwf-c@example.test" },
      ],
    });
    const before = await rowCounts();
    const missing = await runAuthd(["db", "seed", file], { env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      "users[0].password: password: true takes the password of --password-file, which was not given",
    );
    const unreadable = await runAuthd(["db", "seed", file, "--password-file", "absent.txt"], {
      env,
    });
    expect(unreadable.code).toBe(2);
    expect(unreadable.stderr).toContain("cannot read --password-file absent.txt (ENOENT)");
    await writeFile(path.join(dir, "short-pw.txt"), "short");
    const short = await runAuthd(
      ["db", "seed", file, "--password-file", path.join(dir, "short-pw.txt")],
      { env },
    );
    expect(short.code).toBe(2);
    expect(short.stderr).toContain("--password-file: password must have 8 to");
    expect(await rowCounts()).toEqual(before);

    const result = await runAuthd(
      ["db", "seed", file, "--password-file", path.join(dir, "default-pw.txt")],
      { env },
    );
    expect(result.code, result.stderr).toBe(0);
    const stored = await credentials("pwf-");
    expect([...stored.keys()]).toEqual(["pwf-a@example.test", "pwf-b@example.test"]);
    for (const hash of stored.values()) {
      expect(await verifyPassword(hash, DEFAULT_PASSWORD)).toBe(true);
    }
    // One salt per user by default.
    expect(stored.get("pwf-a@example.test")).not.toBe(stored.get("pwf-b@example.test"));
  });

  it("--share-password-hashes hashes each distinct password once; refused in production", async () => {
    const users = [
      ...Array.from({ length: 4 }, (_, index) => ({
        email: `share-${index}@example.test`,
        password: { fromEnv: "SEED_PASSWORD" },
      })),
      { email: "share-other@example.test", password: { fromEnv: "OTHER_PASSWORD" } },
    ];
    const file = await writeSeed("share.json", { version: 1, users });
    const before = await rowCounts();
    const production = await runAuthd(
      ["db", "seed", file, "--share-password-hashes", "--profile", "production"],
      { env: { ...env, OTHER_PASSWORD: "Other-Pa55word", AUTHD_SECRET: "a".repeat(43) } },
    );
    expect(production.code).toBe(2);
    expect(production.stderr).toContain("--share-password-hashes is refused under the production");
    expect(await rowCounts()).toEqual(before);

    const result = await runAuthd(["db", "seed", file, "--share-password-hashes"], {
      env: { ...env, OTHER_PASSWORD: "Other-Pa55word" },
    });
    expect(result.code, result.stderr).toBe(0);
    const stored = await credentials("share-");
    expect(stored.size).toBe(5);
    const shared = new Set(
      [...stored].filter(([email]) => email !== "share-other@example.test").map(([, h]) => h),
    );
    expect(shared.size).toBe(1);
    const [hash] = [...shared];
    expect(await verifyPassword(hash ?? "", PASSWORD)).toBe(true);
    const other = stored.get("share-other@example.test") ?? "";
    expect(other).not.toBe(hash);
    expect(await verifyPassword(other, "Other-Pa55word")).toBe(true);
  });
});

describe("JSONL seed input", () => {
  it("reports bad lines by line number and writes nothing", async () => {
    const before = await rowCounts();
    const result = await runAuthd(["db", "seed", "-"], {
      env,
      input: [
        '{"kind":"seed","version":1}',
        '{"kind":"session","token":"x"}',
        '{"kind":"member","organization":"nowhere","user":"a@example.test","role":"member"}',
        "not json",
        "",
      ].join("\n"),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('line 2: unknown kind "session"');
    expect(result.stderr).toContain(
      'line 3: organization "nowhere" has no organization line before this member',
    );
    expect(result.stderr).toContain("line 4: not valid JSON");
    expect(await rowCounts()).toEqual(before);
  });
});
