/**
 * `authd org invite create` with `--team`, `--expires-in` and `--send|--no-send`: the
 * built binary against a fresh migrated PostgreSQL database. Commands that name a team
 * run in a temporary directory whose authd.config.json enables teams.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliResult, cliError, runAuthd, successJson } from "../helpers/cli.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";

let database: TestDatabase;
let sql: postgres.Sql;
let dataDir: string;
let teamsDir: string;
/** Team ids by name: Core and Full in acme, Other in beta. */
const teams: Record<string, string> = {};

const OWNER = { id: "user-owner", email: "owner@example.test", name: "Owner" };
const MINUTE = 60_000;

function authd(args: string[], cwd?: string): Promise<CliResult> {
  return runAuthd(args, {
    ...(cwd ? { cwd } : {}),
    env: {
      DATABASE_URL: database.url,
      AUTHD_DATA_DIR: dataDir,
      AUTHD_BASE_URL: "https://auth.example.test",
    },
  });
}

async function json<T = Record<string, unknown>>(args: string[], cwd?: string): Promise<T> {
  return successJson<T>(await authd([...args, "--json"], cwd), args.join(" "));
}

const errorOf = cliError;

async function outbox(): Promise<string[]> {
  return readdir(path.join(dataDir, "outbox")).catch(() => []);
}

interface InvitationRow {
  id: string;
  email: string;
  team_id: string | null;
  created_at: Date;
  expires_at: Date;
}

async function invitationRow(email: string): Promise<InvitationRow | undefined> {
  const [row] = await sql<InvitationRow[]>`
    select id, email, team_id, created_at, expires_at from invitation where email = ${email}`;
  return row;
}

/** The stored lifetime, in milliseconds, is the asked one (both stamps come from one clock). */
function lifetimeOf(row: InvitationRow | undefined): number {
  if (!row) throw new Error("no invitation row");
  return row.expires_at.getTime() - row.created_at.getTime();
}

/** expires_at is about now + `milliseconds` (the command ran just before). */
function expectExpiresIn(row: InvitationRow | undefined, milliseconds: number): void {
  const expected = Date.now() + milliseconds;
  expect(row?.expires_at.getTime()).toBeGreaterThan(expected - 2 * MINUTE);
  expect(row?.expires_at.getTime()).toBeLessThanOrEqual(expected);
  expect(Math.abs(lifetimeOf(row) - milliseconds)).toBeLessThan(5_000);
}

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), "authd-org-invite-"));
  teamsDir = await mkdtemp(path.join(tmpdir(), "authd-org-invite-cwd-"));
  await writeFile(
    path.join(teamsDir, "authd.config.json"),
    JSON.stringify({
      organization: {
        teams: { enabled: true, maximumMembersPerTeam: 1, defaultTeam: { enabled: false } },
      },
    }),
  );
  const migrated = await runAuthd(["migrate"], { env: { DATABASE_URL: database.url } });
  expect(migrated.code, migrated.stderr).toBe(0);
  sql = postgres(database.url, { max: 1, onnotice: () => {} });
  await sql`insert into "user" (id, email, name) values (${OWNER.id}, ${OWNER.email}, ${OWNER.name})`;
  const base = ["org", "create", "--owner", OWNER.email];
  await json([...base, "--name", "Acme", "--slug", "acme"]);
  await json([...base, "--name", "Beta", "--slug", "beta"]);
  for (const [org, name] of [
    ["acme", "Core"],
    ["acme", "Full"],
    ["beta", "Other"],
  ] as const) {
    const created = await json<{ team: { id: string } }>(
      ["org", "team", "create", org, "--name", name],
      teamsDir,
    );
    teams[name] = created.team.id;
  }
  // maximumMembersPerTeam is 1: the owner fills Full.
  await json(["org", "team", "member", "add", "acme", "Full", OWNER.email], teamsDir);
});

afterAll(async () => {
  await sql?.end();
  await database?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  if (teamsDir) await rm(teamsDir, { recursive: true, force: true });
});

describe("authd org invite create --team / --expires-in", () => {
  it("records the team (by name or id) and this invitation's own lifetime", async () => {
    const byName = await json<{
      invitation: { id: string; teamId: string; expiresAt: string };
      delivery: null;
    }>(
      [
        "org",
        "invite",
        "create",
        "acme",
        "--email",
        "core@example.test",
        "--role",
        "member",
        "--team",
        "Core",
        "--expires-in",
        "30m",
        "--no-send",
      ],
      teamsDir,
    );
    expect(byName.invitation.teamId).toBe(teams.Core);
    expect(byName.delivery).toBeNull();
    const row = await invitationRow("core@example.test");
    expect(row?.id).toBe(byName.invitation.id);
    expect(row?.team_id).toBe(teams.Core);
    expect(new Date(byName.invitation.expiresAt)).toEqual(row?.expires_at);
    expectExpiresIn(row, 30 * MINUTE);

    await json(
      [
        "org",
        "invite",
        "create",
        "acme",
        "--email",
        "by-id@example.test",
        "--role",
        "admin",
        "--team",
        teams.Core ?? "",
        "--no-send",
      ],
      teamsDir,
    );
    const byId = await invitationRow("by-id@example.test");
    expect(byId?.team_id).toBe(teams.Core);
    // Without --expires-in: organization.invitationExpiresIn (48 hours by default).
    expectExpiresIn(byId, 48 * 60 * MINUTE);

    const [audit] = await sql`
      select actor_type, details from audit_event
      where action = 'organization.invitation_created' and target_id = ${byName.invitation.id}`;
    expect(audit).toEqual({
      actor_type: "cli",
      details: {
        email: "core@example.test",
        role: "member",
        teamId: teams.Core,
        expiresAt: row?.expires_at.toISOString(),
      },
    });
  });

  it("--send (the default, made explicit) mails it with the lifetime it was given", async () => {
    const mailsBefore = (await outbox()).length;
    const invited = await json<{ delivery: string; invitation: { teamId: null } }>([
      "org",
      "invite",
      "create",
      "acme",
      "--email",
      "mailed@example.test",
      "--role",
      "member",
      "--expires-in",
      "7d",
      "--send",
    ]);
    expect(invited).toMatchObject({ delivery: "sent", invitation: { teamId: null } });
    expectExpiresIn(await invitationRow("mailed@example.test"), 7 * 24 * 60 * MINUTE);
    const mails = await outbox();
    expect(mails).toHaveLength(mailsBefore + 1);
    const newest = mails.sort().at(-1) ?? "";
    const message = await readFile(path.join(dataDir, "outbox", newest), "utf8");
    expect(message).toContain("mailed@example.test");
    expect(message).toContain("7 days");
  });

  it("--dry-run checks everything, mails nobody and writes nothing", async () => {
    const mailsBefore = (await outbox()).length;
    const dry = await authd(
      [
        "org",
        "invite",
        "create",
        "acme",
        "--email",
        "dry@example.test",
        "--role",
        "member",
        "--team",
        "Core",
        "--expires-in",
        "2h",
        "--send",
        "--dry-run",
        "--json",
      ],
      teamsDir,
    );
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({
      delivery: null,
      invitation: { email: "dry@example.test", teamId: teams.Core },
    });
    expect(dry.stderr).toContain("Dry run: nothing was written.");
    expect(await invitationRow("dry@example.test")).toBeUndefined();
    expect(await outbox()).toHaveLength(mailsBefore);
  });

  it("refuses a team elsewhere, unknown, full or disabled, and a bad lifetime; writes nothing", async () => {
    const counts = () => sql`
      select (select count(*)::int from invitation) as invitations,
             (select count(*)::int from audit_event
                where action = 'organization.invitation_created') as audits`;
    const before = await counts();
    const mailsBefore = (await outbox()).length;
    const base = ["org", "invite", "create", "acme", "--email", "x@example.test", "--role"];
    const cases: Array<{ args: string[]; cwd?: string; exit: number; code?: string }> = [
      // A team of another organization, by id, is not a team of acme.
      { args: ["member", "--team", teams.Other ?? "", "--json"], exit: 3, code: "TEAM_NOT_FOUND" },
      { args: ["member", "--team", "Nope", "--json"], exit: 3, code: "TEAM_NOT_FOUND" },
      // A team that is full now would refuse the accept later.
      { args: ["member", "--team", "Full", "--json"], exit: 5, code: "TEAM_MEMBER_LIMIT_REACHED" },
      { args: ["member", "--expires-in", "0"], exit: 2 },
      { args: ["member", "--expires-in", "3x"], exit: 2 },
      { args: ["member", "--expires-in", "-1h"], exit: 2 },
    ];
    for (const { args, exit, code } of cases) {
      const result = await authd([...base, ...args], teamsDir);
      expect(result.code, args.join(" ")).toBe(exit);
      if (code) expect(errorOf(result).code).toBe(code);
      if (exit === 2) expect(result.stderr).toContain("expected a duration like 30m");
      expect(result.stdout).toBe("");
    }
    // A lifetime past the last representable date is refused, not an internal error.
    const tooLong = await authd([...base, "member", "--expires-in", "99999999w", "--json"]);
    expect(tooLong.code).toBe(2);
    expect(errorOf(tooLong)).toMatchObject({
      code: "VALIDATION_ERROR",
      message: "the invitation lifetime is too long",
    });
    // Without organization.teams.enabled (no config in the default cwd): exit 2.
    const disabled = await authd([...base, "member", "--team", "Core"]);
    expect(disabled.code).toBe(2);
    expect(disabled.stderr).toContain("organization.teams.enabled");
    expect(await counts()).toEqual(before);
    expect(await outbox()).toHaveLength(mailsBefore);
  });

  it("prints the accept URL and, on stderr, when it expires", async () => {
    const human = await authd([
      "org",
      "invite",
      "create",
      "beta",
      "--email",
      "human@example.test",
      "--role",
      "member",
      "--expires-in",
      "90m",
      "--no-send",
    ]);
    expect(human.code, human.stderr).toBe(0);
    const row = await invitationRow("human@example.test");
    expect(human.stdout).toBe(`https://auth.example.test/accept-invitation/${row?.id}\n`);
    expect(human.stderr).toContain(
      `Invited human@example.test (not mailed); expires ${row?.expires_at.toISOString()}.`,
    );
    expectExpiresIn(row, 90 * MINUTE);
  });
});
