/**
 * Under --dry-run every command says what would happen ("Would delete …"), never that
 * it happened ("Deleted …"), and writes nothing.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAuthd } from "../helpers/cli.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";

let testDatabase: TestDatabase;
let sql: postgres.Sql;
let dir: string;
let env: Record<string, string>;

/** The summary verbs of the CLI's commands, in the past tense. */
const DONE =
  /^(Created|Updated|Deleted|Added|Removed|Renamed|Canceled|Revoked|Unlinked|Invited|Imported)\b/m;

async function authd(args: string[]) {
  const result = await runAuthd(args, { env, cwd: dir });
  expect(result.code, `${args.join(" ")}\n${result.stderr}`).toBe(0);
  return result;
}

async function snapshot(): Promise<string> {
  const rows = await sql`
    select (select count(*) from "user") as users,
           (select count(*) from organization) as organizations,
           (select string_agg(name || '/' || slug, ',' order by slug) from organization) as names,
           (select count(*) from member) as members,
           (select count(*) from invitation where status = 'pending') as invitations,
           (select count(*) from team) as teams,
           (select string_agg(name, ',' order by name) from team) as team_names,
           (select count(*) from team_member) as team_members,
           (select count(*) from session) as sessions,
           (select count(*) from account) as accounts`;
  return JSON.stringify(rows[0]);
}

beforeAll(async () => {
  testDatabase = await createTestDatabase();
  dir = await mkdtemp(path.join(os.tmpdir(), "authd-dry-run-"));
  await writeFile(
    path.join(dir, "authd.config.json"),
    JSON.stringify({ organization: { teams: { enabled: true } } }),
  );
  env = { DATABASE_URL: testDatabase.url };
  await authd(["migrate"]);
  sql = postgres(testDatabase.url, { max: 1, onnotice: () => {} });
  await authd(["user", "create", "--email", "owner@example.test", "--no-password"]);
  await authd(["user", "create", "--email", "member@example.test", "--no-password"]);
  await authd(["user", "create", "--email", "third@example.test", "--no-password"]);
  await authd([
    "org",
    "create",
    "--name",
    "Acme",
    "--slug",
    "acme",
    "--owner",
    "owner@example.test",
  ]);
  await authd(["org", "member", "add", "acme", "member@example.test", "--role", "member"]);
  await authd(["org", "team", "create", "acme", "--name", "Core"]);
  await authd(["org", "team", "member", "add", "acme", "Core", "member@example.test"]);
  const [user] = await sql<
    { id: string }[]
  >`select id from "user" where email = 'member@example.test'`;
  await sql`
    insert into session (id, token_hash, user_id, expires_at)
    values ('dry-run-session', 'dry-run-hash', ${user?.id ?? ""}, now() + interval '1 day')`;
  await sql`
    insert into account (id, provider_id, account_id, user_id)
    values ('dry-run-account', 'github', '42', ${user?.id ?? ""})`;
  await writeFile(
    path.join(dir, "users.jsonl"),
    `${JSON.stringify({ email: "imported@example.test", name: "Imported" })}\n`,
  );
});

afterAll(async () => {
  await sql?.end();
  if (dir) await rm(dir, { recursive: true, force: true });
  await testDatabase?.drop();
});

describe("--dry-run summaries", () => {
  it("say what would happen, and nothing changes", async () => {
    const before = await snapshot();
    const commands: Array<[string[], RegExp]> = [
      [
        ["org", "create", "--name", "Beta", "--slug", "beta", "--owner", "owner@example.test"],
        /^Would create organization beta /,
      ],
      [["org", "update", "acme", "--name", "Acme Inc"], /^Would update organization acme /],
      [["org", "delete", "acme", "--confirm=acme"], /^Would delete organization acme /],
      [
        ["org", "member", "add", "acme", "third@example.test", "--role", "admin"],
        /^Would add third@example\.test to acme as admin /,
      ],
      [
        ["org", "member", "set-role", "acme", "member@example.test", "admin"],
        /^member@example\.test would be admin in acme\./,
      ],
      [
        ["org", "member", "remove", "acme", "member@example.test", "--yes"],
        /^Would remove member@example\.test from acme\./,
      ],
      [["org", "team", "create", "acme", "--name", "Ops"], /^Would create team Ops /],
      [
        ["org", "team", "rename", "acme", "Core", "--name", "Platform"],
        /^Would rename team Core to Platform /,
      ],
      [["org", "team", "remove", "acme", "Core", "--yes"], /^Would remove team Core /],
      [
        ["org", "team", "member", "remove", "acme", "Core", "member@example.test"],
        /^Would remove member@example\.test from team Core\./,
      ],
      [["user", "delete", "member@example.test", "--yes"], /^Would delete member@example\.test /],
      [["session", "revoke", "dry-run-session"], /^Would revoke dry-run-session\./],
      [
        ["session", "revoke-all", "--user", "member@example.test"],
        /^Would revoke 1 session\(s\) of member@example\.test\./,
      ],
      [
        [
          "account",
          "unlink",
          "--user",
          "member@example.test",
          "--provider",
          "github",
          "--allow-last",
        ],
        /^Would unlink github from member@example\.test\./,
      ],
      [["user", "import", "users.jsonl"], /^Would import 1 record\(s\): 1 to create/],
    ];
    for (const [args, expected] of commands) {
      const result = await authd([...args, "--dry-run"]);
      const label = args.join(" ");
      expect(result.stdout, label).toMatch(expected);
      expect(result.stdout, label).not.toMatch(DONE);
      expect(result.stderr, label).not.toMatch(DONE);
      expect(result.stderr, label).toContain("Dry run: nothing was written.");
    }
    // Nothing to confirm in a dry run: no --yes off a terminal, no --confirm for several.
    for (const [args, expected] of [
      [["org", "member", "remove", "acme", "member@example.test"], /^Would remove member@/],
      [["user", "ban", "member@example.test"], /member@example\.test/],
      [["user", "delete", "member@example.test"], /^Would delete member@example\.test /],
      [
        ["user", "delete", "member@example.test", "owner@example.test"],
        /^Would delete member@example\.test .*\nWould delete owner@example\.test /,
      ],
    ] as Array<[string[], RegExp]>) {
      const result = await authd([...args, "--dry-run"]);
      const label = args.join(" ");
      expect(result.code, `${label}: ${result.stderr}`).toBe(0);
      expect(result.stdout, label).toMatch(expected);
    }
    const wrongCount = await runAuthd(
      ["user", "delete", "member@example.test", "owner@example.test", "--confirm=3", "--dry-run"],
      { env, cwd: dir },
    );
    expect(wrongCount.code).toBe(2);
    const invited = await authd([
      "org",
      "invite",
      "create",
      "acme",
      "--email",
      "new@example.test",
      "--role",
      "member",
      "--no-send",
      "--dry-run",
    ]);
    expect(invited.stderr).toMatch(/^Would invite new@example\.test \(not mailed\)/m);
    expect(await snapshot()).toBe(before);
  });
});

describe("--dry-run on user set-password", () => {
  it("says the password would be set, and keeps the old one and the sessions", async () => {
    const file = path.join(dir, "new-password.txt");
    await writeFile(file, "a password never stored\n");
    const account = () => sql`
      select a.password from account a join "user" u on u.id = a.user_id
      where u.email = 'owner@example.test' and a.provider_id = 'credential'`;
    const before = [await snapshot(), JSON.stringify(await account())];
    const result = await authd([
      "user",
      "set-password",
      "owner@example.test",
      "--password-file",
      file,
      "--dry-run",
    ]);
    expect(result.stdout).toMatch(
      /^Would set the password for owner@example\.test .*would end\.$/m,
    );
    expect(result.stdout).not.toMatch(/^Password set\b/m);
    expect(result.stderr).toContain("Dry run: nothing was written.");
    expect([await snapshot(), JSON.stringify(await account())]).toEqual(before);
  });
});
