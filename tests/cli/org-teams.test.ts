/**
 * `authd org update`, `org invite cancel` and `org team …` as operators run them: the
 * built binary against a fresh migrated PostgreSQL database. Team commands run in a
 * temporary directory whose authd.config.json enables teams.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
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

const USERS = {
  owner: { id: "user-owner", email: "owner@example.test", name: "Owner" },
  member: { id: "user-member", email: "member@example.test", name: "Member" },
  other: { id: "user-other", email: "other@example.test", name: "Other" },
};

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

async function auditOf(action: string, targetId: string) {
  return sql`
    select actor_type, actor_id from audit_event
    where action = ${action} and target_id = ${targetId}`;
}

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), "authd-org-teams-"));
  teamsDir = await mkdtemp(path.join(tmpdir(), "authd-org-teams-cwd-"));
  await writeFile(
    path.join(teamsDir, "authd.config.json"),
    JSON.stringify({ organization: { teams: { enabled: true, maximumMembersPerTeam: 2 } } }),
  );
  const migrated = await runAuthd(["migrate"], { env: { DATABASE_URL: database.url } });
  expect(migrated.code, migrated.stderr).toBe(0);
  sql = postgres(database.url, { max: 1, onnotice: () => {} });
  for (const user of Object.values(USERS)) {
    await sql`insert into "user" (id, email, name) values (${user.id}, ${user.email}, ${user.name})`;
  }
  const base = ["org", "create", "--owner", USERS.owner.email];
  await json([...base, "--name", "Acme", "--slug", "acme"]);
  await json([...base, "--name", "Beta", "--slug", "beta"]);
});

afterAll(async () => {
  await sql?.end();
  await database?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  if (teamsDir) await rm(teamsDir, { recursive: true, force: true });
});

describe("authd org update", () => {
  it("changes the given fields only, clears the logo with --no-logo, and audits", async () => {
    const first = await json<{ organization: { id: string; name: string; logo: string } }>([
      "org",
      "update",
      "acme",
      "--name",
      "Acme Inc",
      "--logo",
      "https://example.test/a.png",
      "--metadata",
      '{"plan":"pro"}',
    ]);
    expect(first.organization).toMatchObject({
      name: "Acme Inc",
      logo: "https://example.test/a.png",
      metadata: { plan: "pro" },
    });
    const second = await json<{ updated: boolean; organization: Record<string, unknown> }>([
      "org",
      "update",
      first.organization.id,
      "--slug",
      "acme-inc",
      "--no-logo",
    ]);
    expect(second).toMatchObject({
      updated: true,
      organization: { slug: "acme-inc", name: "Acme Inc", logo: null, metadata: { plan: "pro" } },
    });
    expect(await auditOf("organization.updated", first.organization.id)).toEqual([
      { actor_type: "cli", actor_id: null },
      { actor_type: "cli", actor_id: null },
    ]);
    const human = await authd(["org", "update", "acme-inc", "--name", "Acme"]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/^Updated organization acme-inc \(/);
  });

  it("a taken slug exits 4, a bad slug or no change 2, an unknown organization 3", async () => {
    const taken = await authd(["org", "update", "acme-inc", "--slug", "beta", "--json"]);
    expect(taken.code).toBe(4);
    expect(errorOf(taken).code).toBe("ORGANIZATION_SLUG_ALREADY_TAKEN");
    expect(taken.stdout).toBe("");
    expect((await authd(["org", "update", "acme-inc", "--slug", "Bad Slug"])).code).toBe(2);
    expect((await authd(["org", "update", "acme-inc"])).code).toBe(2);
    expect((await authd(["org", "update", "acme-inc", "--metadata", "[]"])).code).toBe(2);
    const unknown = await authd(["org", "update", "nope", "--name", "X", "--json"]);
    expect(unknown.code).toBe(3);
    expect(errorOf(unknown).code).toBe("ORGANIZATION_NOT_FOUND");
  });
});

describe("authd org invite cancel", () => {
  it("cancels a pending invitation once; settled or unknown ones exit 3", async () => {
    const invited = await json<{ invitation: { id: string } }>([
      "org",
      "invite",
      "create",
      "beta",
      "--email",
      "new@example.test",
      "--role",
      "member",
      "--no-send",
    ]);
    const id = invited.invitation.id;
    // Moderate: off a terminal it needs --yes, and without it nothing changes.
    const unconfirmed = await authd(["org", "invite", "cancel", id]);
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toContain("--yes");
    expect(await auditOf("organization.invitation_canceled", id)).toEqual([]);
    const listed = await json<{ items: { id: string; status: string }[] }>([
      "org",
      "invite",
      "list",
      "beta",
    ]);
    expect(listed.items.find((row) => row.id === id)?.status).toBe("pending");
    const canceled = await json<{ canceled: boolean; invitation: Record<string, unknown> }>([
      "org",
      "invite",
      "cancel",
      id,
      "--yes",
    ]);
    expect(canceled).toMatchObject({
      canceled: true,
      invitation: { id, email: "new@example.test", status: "canceled" },
    });
    expect(await auditOf("organization.invitation_canceled", id)).toEqual([
      { actor_type: "cli", actor_id: null },
    ]);
    const again = await authd(["org", "invite", "cancel", id, "--json"]);
    expect(again.code).toBe(3);
    expect(errorOf(again).code).toBe("INVITATION_NOT_FOUND");
    const unknown = await authd(["org", "invite", "cancel", "no-such-invitation"]);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toMatch(/^authd: /);
  });
});

describe("authd org team", () => {
  const inTeams = (args: string[]) => authd(args, teamsDir);
  const jsonInTeams = <T = Record<string, unknown>>(args: string[]) => json<T>(args, teamsDir);

  it("exits 2 with a clear message when teams are disabled", async () => {
    for (const args of [
      ["org", "team", "list", "beta"],
      ["org", "team", "create", "beta", "--name", "Ops"],
      ["org", "team", "member", "add", "beta", "Ops", USERS.owner.email],
    ]) {
      const result = await authd(args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr).toContain("organization.teams.enabled");
    }
  });

  it("creates, lists and renames teams; a taken name exits 4; audits as the CLI", async () => {
    const created = await jsonInTeams<{ created: boolean; team: { id: string; name: string } }>([
      "org",
      "team",
      "create",
      "beta",
      "--name",
      "Ops",
    ]);
    expect(created).toMatchObject({ created: true, team: { name: "Ops" } });
    await jsonInTeams(["org", "team", "create", "beta", "--name", "Dev"]);
    const taken = await inTeams(["org", "team", "create", "beta", "--name", "Dev", "--json"]);
    expect(taken.code).toBe(4);
    expect(errorOf(taken).code).toBe("TEAM_ALREADY_EXISTS");
    expect((await inTeams(["org", "team", "create", "beta", "--name", ""])).code).toBe(2);
    expect((await inTeams(["org", "team", "create", "nope", "--name", "X"])).code).toBe(3);

    const listed = await jsonInTeams<{ items: { name: string }[]; nextCursor: null }>([
      "org",
      "team",
      "list",
      "beta",
    ]);
    expect(listed.items.map((item) => item.name)).toEqual(["Ops", "Dev"]);
    const table = await inTeams(["org", "team", "list", "beta"]);
    expect(table.stdout.split("\n")[0]).toMatch(/^ID\s+NAME\s+CREATED$/);

    const renamed = await jsonInTeams<{ team: { id: string; name: string } }>([
      "org",
      "team",
      "rename",
      "beta",
      "Ops",
      "--name",
      "Operations",
    ]);
    expect(renamed.team).toEqual(
      expect.objectContaining({ id: created.team.id, name: "Operations" }),
    );
    const clash = await inTeams([
      "org",
      "team",
      "rename",
      "beta",
      created.team.id,
      "--name",
      "Dev",
      "--json",
    ]);
    expect(clash.code).toBe(4);
    expect(errorOf(clash).code).toBe("TEAM_ALREADY_EXISTS");
    const unknown = await inTeams([
      "org",
      "team",
      "rename",
      "beta",
      "Nope",
      "--name",
      "X",
      "--json",
    ]);
    expect(unknown.code).toBe(3);
    expect(errorOf(unknown).code).toBe("TEAM_NOT_FOUND");
    expect(await auditOf("team.created", created.team.id)).toEqual([
      { actor_type: "cli", actor_id: null },
    ]);
    expect(await auditOf("team.updated", created.team.id)).toHaveLength(1);
  });

  it("adds and removes team members: organization members only, the team limit holds", async () => {
    await json(["org", "member", "add", "beta", USERS.member.email, "--role", "member"]);
    const added = await jsonInTeams<{ added: boolean; member: { userId: string; teamId: string } }>(
      ["org", "team", "member", "add", "beta", "Operations", USERS.member.email],
    );
    expect(added).toMatchObject({ added: true, member: { userId: USERS.member.id } });
    const again = await jsonInTeams<{ added: boolean }>([
      "org",
      "team",
      "member",
      "add",
      "beta",
      "Operations",
      USERS.member.id,
    ]);
    expect(again.added).toBe(false);
    const outsider = await inTeams([
      "org",
      "team",
      "member",
      "add",
      "beta",
      "Operations",
      USERS.other.email,
      "--json",
    ]);
    expect(outsider.code).toBe(5);
    expect(errorOf(outsider).code).toBe("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
    const nobody = await inTeams([
      "org",
      "team",
      "member",
      "add",
      "beta",
      "Operations",
      "nobody@example.test",
    ]);
    expect(nobody.code).toBe(3);
    // maximumMembersPerTeam is 2 in the test config.
    await jsonInTeams(["org", "team", "member", "add", "beta", "Operations", USERS.owner.email]);
    await json(["org", "member", "add", "beta", USERS.other.email, "--role", "member"]);
    const full = await inTeams([
      "org",
      "team",
      "member",
      "add",
      "beta",
      "Operations",
      USERS.other.email,
      "--json",
    ]);
    expect(full.code).toBe(5);
    expect(errorOf(full).code).toBe("TEAM_MEMBER_LIMIT_REACHED");

    const removed = await jsonInTeams<{ removed: boolean; userId: string }>([
      "org",
      "team",
      "member",
      "remove",
      "beta",
      "Operations",
      USERS.member.email,
    ]);
    expect(removed).toMatchObject({ removed: true, userId: USERS.member.id });
    const notIn = await inTeams([
      "org",
      "team",
      "member",
      "remove",
      "beta",
      "Operations",
      USERS.member.email,
      "--json",
    ]);
    expect(notIn.code).toBe(5);
    expect(errorOf(notIn).code).toBe("USER_IS_NOT_A_MEMBER_OF_THE_TEAM");
    const audits = await sql`
      select action from audit_event where actor_type = 'cli' and target_id = ${USERS.member.id}
        and action like 'team.%' order by created_at`;
    expect(audits.map((row) => row.action)).toEqual(["team.member_added", "team.member_removed"]);
  });

  it("remove needs --yes off a terminal and keeps the last team (exit 5)", async () => {
    const unconfirmed = await inTeams(["org", "team", "remove", "beta", "Dev"]);
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toContain("--yes");
    const removed = await jsonInTeams<{ removed: boolean; team: { name: string } }>([
      "org",
      "team",
      "remove",
      "beta",
      "Dev",
      "--yes",
    ]);
    expect(removed).toMatchObject({ removed: true, team: { name: "Dev" } });
    const last = await inTeams(["org", "team", "remove", "beta", "Operations", "--yes", "--json"]);
    expect(last.code).toBe(5);
    expect(errorOf(last).code).toBe("UNABLE_TO_REMOVE_LAST_TEAM");
    const listed = await jsonInTeams<{ items: { name: string }[] }>([
      "org",
      "team",
      "list",
      "beta",
    ]);
    expect(listed.items.map((item) => item.name)).toEqual(["Operations"]);
    const gone = await inTeams(["org", "team", "remove", "beta", "Dev", "--yes"]);
    expect(gone.code).toBe(3);
  });
});

describe("authd org team with other team settings", () => {
  it("maximumTeams refuses with exit 5; allowRemovingAllTeams lets the last team go", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "authd-org-teams-all-"));
    try {
      await writeFile(
        path.join(dir, "authd.config.json"),
        JSON.stringify({
          organization: { teams: { enabled: true, maximumTeams: 1, allowRemovingAllTeams: true } },
        }),
      );
      await json([
        "org",
        "create",
        "--name",
        "Gamma",
        "--slug",
        "gamma",
        "--owner",
        USERS.owner.id,
      ]);
      await json(["org", "team", "create", "gamma", "--name", "Solo"], dir);
      const over = await authd(["org", "team", "create", "gamma", "--name", "Two", "--json"], dir);
      expect(over.code).toBe(5);
      expect(errorOf(over).code).toBe("YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_TEAMS");
      const removed = await authd(["org", "team", "remove", "gamma", "Solo", "--yes"], dir);
      expect(removed.code, removed.stderr).toBe(0);
      expect(removed.stdout).toMatch(/^Removed team Solo \(/);
      const listed = await json<{ items: unknown[] }>(["org", "team", "list", "gamma"], dir);
      expect(listed.items).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("authd org member add --team", () => {
  it("adds the member and the team membership together; a full team leaves nothing (exit 5)", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "authd-org-member-team-"));
    try {
      await writeFile(
        path.join(dir, "authd.config.json"),
        JSON.stringify({
          organization: {
            teams: { enabled: true, maximumMembersPerTeam: 1, defaultTeam: { enabled: false } },
          },
        }),
      );
      const delta = await json<{ organization: { id: string } }>(
        ["org", "create", "--name", "Delta", "--slug", "delta", "--owner", USERS.owner.email],
        dir,
      );
      const orgId = delta.organization.id;
      const core = await json<{ team: { id: string } }>(
        ["org", "team", "create", "delta", "--name", "Core"],
        dir,
      );
      const added = await json<Record<string, unknown>>(
        ["org", "member", "add", "delta", USERS.member.email, "--role", "member", "--team", "Core"],
        dir,
      );
      expect(added).toEqual({
        id: expect.any(String),
        organizationId: orgId,
        userId: USERS.member.id,
        role: "member",
        createdAt: expect.any(String),
        teamMember: {
          id: expect.any(String),
          teamId: core.team.id,
          userId: USERS.member.id,
          createdAt: expect.any(String),
        },
      });
      expect(await sql`select user_id from team_member where team_id = ${core.team.id}`).toEqual([
        { user_id: USERS.member.id },
      ]);
      expect(
        (
          await sql`
            select action from audit_event
            where target_id = ${USERS.member.id} and organization_id = ${orgId}
            order by created_at, action`
        ).map((row) => row.action),
      ).toEqual(["organization.member_added", "team.member_added"]);

      const state = () => sql`
        select (select count(*)::int from member where organization_id = ${orgId}) as members,
               (select count(*)::int from team_member where team_id = ${core.team.id}) as team_members,
               (select count(*)::int from audit_event where target_id = ${USERS.other.id}
                  and organization_id = ${orgId}) as audits`;
      const before = await state();
      const addOther = ["org", "member", "add", "delta", USERS.other.email, "--role", "member"];
      // maximumMembersPerTeam is 1 and Core is full: no membership is left behind.
      const full = await authd([...addOther, "--team", core.team.id, "--json"], dir);
      expect(full.code).toBe(5);
      expect(errorOf(full).code).toBe("TEAM_MEMBER_LIMIT_REACHED");
      expect(full.stdout).toBe("");
      const unknown = await authd([...addOther, "--team", "Nope", "--json"], dir);
      expect(unknown.code).toBe(3);
      expect(errorOf(unknown).code).toBe("TEAM_NOT_FOUND");
      // A team of another organization is not found either (beta's Operations).
      const [operations] = await sql<{ id: string }[]>`
        select t.id from team t join organization o on o.id = t.organization_id
        where o.slug = 'beta' and t.name = 'Operations'`;
      expect(operations?.id).toEqual(expect.any(String));
      const foreign = await authd([...addOther, "--team", operations?.id ?? "", "--json"], dir);
      expect(foreign.code).toBe(3);
      // Without organization.teams.enabled (no config in the default cwd).
      const disabled = await authd([...addOther, "--team", "Core"]);
      expect(disabled.code).toBe(2);
      expect(disabled.stderr).toContain("organization.teams.enabled");
      expect(await state()).toEqual(before);

      const human = await authd([...addOther], dir);
      expect(human.code, human.stderr).toBe(0);
      expect(human.stdout).toMatch(
        /^Added other@example\.test to delta as member \(member \S+\)\.\n$/,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
