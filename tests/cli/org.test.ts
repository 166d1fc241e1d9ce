/**
 * `authd org …` as operators run it: the built binary against a fresh migrated
 * PostgreSQL database; users are inserted with SQL so only the org commands are tested.
 */
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliResult, cliError, runAuthd, successJson } from "../helpers/cli.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";

let database: TestDatabase;
let sql: postgres.Sql;
let dataDir: string;

const USERS = {
  owner: { id: "user-owner", email: "owner@example.test", name: "Owner" },
  member: { id: "user-member", email: "member@example.test", name: "Member" },
  other: { id: "user-other", email: "other@example.test", name: "Other" },
};

function authd(args: string[], env: Record<string, string> = {}, cwd?: string): Promise<CliResult> {
  return runAuthd(args, {
    ...(cwd ? { cwd } : {}),
    env: {
      DATABASE_URL: database.url,
      AUTHD_DATA_DIR: dataDir,
      AUTHD_BASE_URL: "https://auth.example.test",
      ...env,
    },
  });
}

async function json<T = Record<string, unknown>>(args: string[]): Promise<T> {
  return successJson<T>(await authd([...args, "--json"]), args.join(" "));
}

const errorOf = cliError;

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), "authd-org-"));
  const migrated = await runAuthd(["migrate"], { env: { DATABASE_URL: database.url } });
  expect(migrated.code, migrated.stderr).toBe(0);
  sql = postgres(database.url, { max: 1, onnotice: () => {} });
  for (const user of Object.values(USERS)) {
    await sql`insert into "user" (id, email, name) values (${user.id}, ${user.email}, ${user.name})`;
  }
});

afterAll(async () => {
  await sql?.end();
  await database?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe("authd org create / list / get", () => {
  it("creates an organization with its owner and audits it as the CLI", async () => {
    const created = await json<{
      created: boolean;
      organization: { id: string; slug: string; name: string; metadata: unknown; logo: string };
      member: { userId: string; role: string };
    }>([
      "org",
      "create",
      "--name",
      "Acme",
      "--slug",
      "acme",
      "--owner",
      "OWNER@example.test",
      "--logo",
      "https://example.test/logo.png",
      "--metadata",
      '{"plan":"pro"}',
    ]);
    expect(created.created).toBe(true);
    expect(created.organization).toMatchObject({
      slug: "acme",
      name: "Acme",
      logo: "https://example.test/logo.png",
      metadata: { plan: "pro" },
    });
    expect(created.member).toMatchObject({ userId: USERS.owner.id, role: "owner" });
    const [audit] = await sql`
      select actor_type, actor_id from audit_event
      where action = 'organization.created' and target_id = ${created.organization.id}`;
    expect(audit).toEqual({ actor_type: "cli", actor_id: null });
  });

  it("--if-exists skip answers the existing organization; fail (the default) exits 4", async () => {
    const args = ["org", "create", "--name", "Acme 2", "--slug", "acme", "--owner", USERS.other.id];
    const skipped = await json<{ created: boolean; organization: { name: string } }>([
      ...args,
      "--if-exists",
      "skip",
    ]);
    expect(skipped).toMatchObject({ created: false, organization: { name: "Acme" } });
    const failed = await authd([...args, "--json"]);
    expect(failed.code).toBe(4);
    expect(errorOf(failed).code).toBe("ORGANIZATION_ALREADY_EXISTS");
    expect(failed.stdout).toBe("");
    const [counted] = await sql<
      { count: number }[]
    >`select count(*)::int as count from organization`;
    expect(counted?.count).toBe(1);
  });

  it("refuses bad input: unknown owner 3, bad slug or metadata 2", async () => {
    const base = ["org", "create", "--name", "X", "--json"];
    const unknownOwner = await authd([...base, "--slug", "x", "--owner", "nobody@example.test"]);
    expect(unknownOwner.code).toBe(3);
    expect(errorOf(unknownOwner).code).toBe("USER_NOT_FOUND");
    const badSlug = await authd([...base, "--slug", "Not A Slug", "--owner", USERS.owner.id]);
    expect(badSlug.code).toBe(2);
    const withMetadata = (metadata: string) =>
      authd([...base, "--slug", "x", "--owner", USERS.owner.id, "--metadata", metadata]);
    expect((await withMetadata("[1]")).code).toBe(2);
    // Valid JSON that PostgreSQL cannot store: refused as input (the next test finds
    // only the organizations it expects, so nothing was written).
    const nul = await withMetadata('{"note":"a\\u0000b"}');
    expect(nul.code, nul.stderr).toBe(2);
    expect(errorOf(nul)).toMatchObject({
      code: "VALIDATION_ERROR",
      details: [{ path: "metadata", message: "metadata must not contain NUL characters" }],
    });
    const missing = await authd(["org", "create", "--name", "X", "--owner", USERS.owner.id]);
    expect(missing.code).toBe(2);
  });

  it("lists organizations, all or by member, and gets one by slug or id", async () => {
    await json(["org", "create", "--name", "Beta", "--slug", "beta", "--owner", USERS.other.email]);
    const all = await json<{ items: { id: string; slug: string }[]; nextCursor: null }>([
      "org",
      "list",
    ]);
    expect(all.items.map((item) => item.slug)).toEqual(["acme", "beta"]);
    expect(all.nextCursor).toBeNull();
    const mine = await json<{ items: { slug: string }[] }>([
      "org",
      "list",
      "--member",
      USERS.owner.email,
    ]);
    expect(mine.items.map((item) => item.slug)).toEqual(["acme"]);

    const bySlug = await json<{ id: string; members: { user: { email: string } }[] }>([
      "org",
      "get",
      "acme",
    ]);
    expect(bySlug.members.map((member) => member.user.email)).toEqual([USERS.owner.email]);
    const byId = await json<{ slug: string }>(["org", "get", bySlug.id]);
    expect(byId.slug).toBe("acme");

    const human = await authd(["org", "list"]);
    expect(human.stdout).toMatch(/^ID\s+SLUG\s+NAME\s+CREATED\n/);
    expect(human.stdout).toContain("beta");
    const quiet = await authd(["org", "list", "-q"]);
    expect(quiet.stdout).toBe(`${all.items.map((item) => item.id).join("\n")}\n`);

    const missing = await authd(["org", "get", "nope", "--json"]);
    expect(missing.code).toBe(3);
    expect(errorOf(missing).code).toBe("ORGANIZATION_NOT_FOUND");
  });
});

describe("authd org member", () => {
  it("add --dry-run shows the member it would add and writes nothing", async () => {
    const dry = await authd([
      "org",
      "member",
      "add",
      "acme",
      USERS.other.email,
      "--role",
      "member",
      "--dry-run",
      "--json",
    ]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ userId: USERS.other.id, role: "member" });
    expect(dry.stderr).toContain("Dry run: nothing was written.");
    expect(await sql`select id from member where user_id = ${USERS.other.id}`).toHaveLength(1);
    expect(
      await sql`
        select m.id from member m join organization o on o.id = m.organization_id
        where o.slug = 'acme' and m.user_id = ${USERS.other.id}`,
    ).toHaveLength(0);
    expect(
      await sql`
        select id from audit_event
        where action = 'organization.member_added' and target_id = ${USERS.other.id}`,
    ).toHaveLength(0);
  });

  it("adds a member with a role; twice is a conflict; an unknown role is refused", async () => {
    const added = await json<{ userId: string; role: string }>([
      "org",
      "member",
      "add",
      "acme",
      USERS.member.email,
      "--role",
      "admin",
    ]);
    expect(added).toMatchObject({ userId: USERS.member.id, role: "admin" });
    const again = await authd([
      "org",
      "member",
      "add",
      "acme",
      USERS.member.id,
      "--role",
      "member",
      "--json",
    ]);
    expect(again.code).toBe(4);
    expect(errorOf(again).code).toBe("USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION");
    const badRole = await authd([
      "org",
      "member",
      "add",
      "acme",
      USERS.other.id,
      "--role",
      "wizard",
      "--json",
    ]);
    expect(errorOf(badRole).code).toBe("ROLE_NOT_FOUND");
    expect(badRole.code).toBe(2);

    const list = await json<{ items: { user: { email: string }; role: string }[] }>([
      "org",
      "member",
      "list",
      "acme",
    ]);
    expect(list.items.map((item) => [item.user.email, item.role])).toEqual([
      [USERS.owner.email, "owner"],
      [USERS.member.email, "admin"],
    ]);
  });

  it("set-role changes a role but never demotes the last owner (exit 5)", async () => {
    const updated = await json<{ role: string }>([
      "org",
      "member",
      "set-role",
      "acme",
      USERS.member.email,
      "member",
    ]);
    expect(updated.role).toBe("member");
    const demote = await authd([
      "org",
      "member",
      "set-role",
      "acme",
      USERS.owner.email,
      "admin",
      "--json",
    ]);
    expect(demote.code).toBe(5);
    expect(errorOf(demote).code).toBe("YOU_CANNOT_LEAVE_THE_ORGANIZATION_WITHOUT_AN_OWNER");
    const [row] = await sql`select role from member where user_id = ${USERS.owner.id}`;
    expect(row?.role).toBe("owner");
  });

  it("remove needs --yes off a terminal, refuses the last owner, and audits", async () => {
    const unconfirmed = await authd(["org", "member", "remove", "acme", USERS.member.email]);
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toContain("--yes");

    const lastOwner = await authd([
      "org",
      "member",
      "remove",
      "acme",
      USERS.owner.email,
      "--yes",
      "--json",
    ]);
    expect(lastOwner.code).toBe(5);
    expect(errorOf(lastOwner).code).toBe("YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER");

    const removed = await json<{ removed: boolean; member: { userId: string } }>([
      "org",
      "member",
      "remove",
      "acme",
      USERS.member.email,
      "--yes",
    ]);
    expect(removed).toMatchObject({ removed: true, member: { userId: USERS.member.id } });
    const [audit] = await sql`
      select actor_type from audit_event
      where action = 'organization.member_removed' and target_id = ${USERS.member.id}`;
    expect(audit?.actor_type).toBe("cli");

    const notMember = await authd([
      "org",
      "member",
      "remove",
      "acme",
      USERS.member.email,
      "--yes",
      "--json",
    ]);
    expect(notMember.code).toBe(3);
    expect(errorOf(notMember).code).toBe("MEMBER_NOT_FOUND");
  });
});

describe("authd org invite", () => {
  it("creates an invitation without mail and prints its accept URL", async () => {
    const human = await authd([
      "org",
      "invite",
      "create",
      "acme",
      "--email",
      "New@Example.test",
      "--role",
      "member",
      "--no-send",
    ]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/^https:\/\/auth\.example\.test\/accept-invitation\/[^\s]+\n$/);

    const again = await authd([
      "org",
      "invite",
      "create",
      "acme",
      "--email",
      "new@example.test",
      "--role",
      "member",
      "--no-send",
      "--json",
    ]);
    expect(again.code).toBe(4);
    expect(errorOf(again).code).toBe("USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION");

    const list = await json<{ items: { email: string; status: string; inviterId: string }[] }>([
      "org",
      "invite",
      "list",
      "acme",
    ]);
    expect(list.items).toHaveLength(1);
    expect(list.items[0]).toMatchObject({
      email: "new@example.test",
      status: "pending",
      inviterId: USERS.owner.id,
    });
    const [audit] = await sql`
      select actor_type from audit_event where action = 'organization.invitation_created'`;
    expect(audit?.actor_type).toBe("cli");
  });

  it("mails the invitation by default (to the outbox without SMTP)", async () => {
    const invited = await json<{ url: string; delivery: string; invitation: { id: string } }>([
      "org",
      "invite",
      "create",
      "acme",
      "--email",
      "mailed@example.test",
      "--role",
      "admin",
    ]);
    expect(invited.delivery).toBe("sent");
    expect(invited.url).toContain(invited.invitation.id);
    const outbox = await readdir(path.join(dataDir, "outbox"));
    expect(outbox.length).toBeGreaterThan(0);
  });

  it("refuses a malformed email, an unknown role and an existing member", async () => {
    const base = ["org", "invite", "create", "acme", "--json", "--no-send"];
    const email = await authd([...base, "--email", "not-an-email", "--role", "member"]);
    expect(errorOf(email).code).toBe("INVALID_EMAIL");
    expect(email.code).toBe(2);
    const role = await authd([...base, "--email", "x@example.test", "--role", "wizard"]);
    expect(errorOf(role).code).toBe("ROLE_NOT_FOUND");
    expect(role.code).toBe(2);
    const member = await authd([...base, "--email", USERS.owner.email, "--role", "member"]);
    expect(member.code).toBe(4);
    expect(errorOf(member).code).toBe("USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION");
  });
});

describe("authd org delete", () => {
  it("--dry-run shows the blast radius without --confirm and deletes nothing", async () => {
    const [acme] = await sql<{ id: string }[]>`select id from organization where slug = 'acme'`;
    const orgId = acme?.id as string;
    await sql`insert into team (id, name, organization_id) values ('team-core', 'Core', ${orgId})`;
    await sql`insert into team_member (id, team_id, user_id) values ('tm-1', 'team-core', ${USERS.owner.id})`;
    const sessions = [
      ["s-live-1", USERS.owner.id, "1 hour", orgId],
      ["s-live-2", USERS.member.id, "1 hour", orgId],
      ["s-expired", USERS.owner.id, "-1 hour", orgId],
      ["s-other", USERS.other.id, "1 hour", null],
    ] as const;
    for (const [id, userId, lifetime, active] of sessions) {
      await sql`
        insert into session (id, user_id, token_hash, expires_at, active_organization_id)
        values (${id}, ${userId}, ${`hash-${id}`}, now() + ${lifetime}::interval, ${active})`;
    }
    const counts = () => sql`
      select (select count(*)::int from organization) as organizations,
             (select count(*)::int from member) as members,
             (select count(*)::int from invitation) as invitations,
             (select count(*)::int from team) as teams,
             (select count(*)::int from team_member) as team_members,
             (select count(*)::int from session where active_organization_id is not null) as active`;
    const before = await counts();

    const dry = await authd(["org", "delete", "acme", "--dry-run", "--json"]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toEqual({
      dryRun: true,
      organization: expect.objectContaining({ id: orgId, slug: "acme" }),
      // The owner; the two invitations made above; the team and its one member.
      wouldRemove: { members: 1, invitations: 2, teams: 1, teamMembers: 1 },
      // Unexpired sessions with acme active (the expired one is not counted).
      activeSessions: 2,
    });
    expect(dry.stderr).toContain("Dry run: nothing was written.");
    const human = await authd(["org", "delete", orgId, "--dry-run", "--yes"]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toBe(
      `Would delete organization acme (${orgId}) with 1 member(s), 2 invitation(s), 1 team(s) and 1 team membership(s).\n` +
        "2 unexpired session(s) have it active; they would stay signed in without an active organization.\n",
    );
    const mismatch = await authd(["org", "delete", "acme", "--dry-run", "--confirm=beta"]);
    expect(mismatch.code).toBe(2);
    expect(await counts()).toEqual(before);
    expect(await sql`select id from audit_event where action = 'organization.deleted'`).toEqual([]);
    await sql`delete from session`;
    await sql`delete from team`;
  });

  it("needs --confirm=<slug>, even with --yes (exit 2), then deletes", async () => {
    const withYes = await authd(["org", "delete", "beta", "--yes"]);
    expect(withYes.code).toBe(2);
    expect(withYes.stderr).toContain("--confirm");
    const wrong = await authd(["org", "delete", "beta", "--confirm=acme"]);
    expect(wrong.code).toBe(2);
    const [before] = await sql<
      { count: number }[]
    >`select count(*)::int as count from organization`;
    expect(before?.count).toBe(2);

    const deleted = await json<{ deleted: boolean; organization: { slug: string } }>([
      "org",
      "delete",
      "beta",
      "--confirm=beta",
    ]);
    expect(deleted).toMatchObject({ deleted: true, organization: { slug: "beta" } });
    const rows = await sql`select slug from organization`;
    expect(rows.map((row) => row.slug)).toEqual(["acme"]);
    const [audit] =
      await sql`select actor_type from audit_event where action = 'organization.deleted'`;
    expect(audit?.actor_type).toBe("cli");

    const gone = await authd(["org", "delete", "beta", "--confirm=beta", "--json"]);
    expect(gone.code).toBe(3);
  });
});

describe("authd org --metadata @file", () => {
  it("reads the JSON object from a file relative to the working directory", async () => {
    const cwd = path.join(dataDir, "metadata-cwd");
    await mkdir(path.join(cwd, "meta"), { recursive: true });
    await writeFile(path.join(cwd, "meta", "create.json"), '{"plan":"pro","seats":5}\n');
    await writeFile(path.join(cwd, "update.json"), '{"plan":"team","tags":["a"]}');
    const created = await authd(
      [
        "org",
        "create",
        "--name",
        "Meta",
        "--slug",
        "meta",
        "--owner",
        USERS.owner.id,
        "--metadata",
        "@meta/create.json",
        "--json",
      ],
      {},
      cwd,
    );
    expect(created.code, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout).organization.metadata).toEqual({ plan: "pro", seats: 5 });
    const updated = await authd(
      ["org", "update", "meta", "--metadata", "@update.json", "--json"],
      {},
      cwd,
    );
    expect(updated.code, updated.stderr).toBe(0);
    expect(JSON.parse(updated.stdout).organization.metadata).toEqual({
      plan: "team",
      tags: ["a"],
    });
    const [row] = await sql`select metadata from organization where slug = 'meta'`;
    expect(row?.metadata).toEqual({ plan: "team", tags: ["a"] });
  });

  it("an unreadable file, bad JSON or a non-object exits 2 with a clear message; nothing is written", async () => {
    const cwd = path.join(dataDir, "metadata-bad");
    await mkdir(cwd, { recursive: true });
    await writeFile(path.join(cwd, "array.json"), "[1, 2]");
    await writeFile(path.join(cwd, "broken.json"), "{plan: pro}");
    const before = await sql`select slug, metadata from organization order by slug`;
    const create = ["org", "create", "--name", "Bad", "--slug", "bad", "--owner", USERS.owner.id];
    const cases: Array<[string[], RegExp]> = [
      [
        [...create, "--metadata", "@missing.json"],
        /--metadata @missing\.json: cannot read missing\.json \(ENOENT\)/,
      ],
      [
        [...create, "--metadata", "@array.json"],
        /--metadata @array\.json: expected a JSON object, got an array/,
      ],
      [
        [...create, "--metadata", "@broken.json"],
        /--metadata @broken\.json: expected a JSON object, got invalid JSON/,
      ],
      [[...create, "--metadata", "@"], /--metadata @: expected a file path after @/],
      [[...create, "--metadata", '"text"'], /--metadata: expected a JSON object, got string/],
      [
        ["org", "update", "meta", "--metadata", "@array.json"],
        /expected a JSON object, got an array/,
      ],
      [["org", "update", "meta", "--metadata", "@."], /--metadata @\.: cannot read \. \(EISDIR\)/],
    ];
    for (const [args, message] of cases) {
      const result = await authd(args, {}, cwd);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stdout).toBe("");
    }
    expect(await sql`select slug, metadata from organization order by slug`).toEqual(before);
  });
});
