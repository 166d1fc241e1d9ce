/**
 * Teams over HTTP: create, update, remove and list teams, add and remove team members,
 * the active team, the caller's teams and a team's members; every permission row for owner,
 * admin and member; another tenant's teams and organizations; the team limits under
 * concurrency; teams switched off; bad input with nothing written. Organizations and
 * members are inserted directly (the organization endpoints are another module's).
 */
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateId } from "../../server/crypto/random.js";
import { transaction } from "../../server/db/transaction.js";
import { insertMember } from "../../server/organization/member-queries.js";
import { insertOrganization } from "../../server/organization/queries.js";
import { setActiveOrganizationOfSession as setSessionActiveOrganization } from "../../server/sessions/sessions.js";
import { insertTeam, insertTeamMember } from "../../server/teams/queries.js";
import { createDefaultTeam, defaultTeamEnabled } from "../../server/teams/teams.js";
import { insertUser } from "../../server/users/queries.js";
import { createTestApp, type TestApp } from "../helpers/app.js";
import { type Client, createClient } from "../helpers/client.js";

const PASSWORD = "correct horse battery";

/** Code -> [status, message] as the wire carries them. */
const ERRORS = {
  UNAUTHORIZED: [401, "Unauthorized"],
  NOT_FOUND: [404, "Not found"],
  NO_ACTIVE_ORGANIZATION: [400, "No active organization"],
  ORGANIZATION_NOT_FOUND: [400, "Organization not found"],
  TEAM_NOT_FOUND: [400, "Team not found"],
  TEAM_ALREADY_EXISTS: [400, "Team already exists"],
  USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION: [400, "User is not a member of the organization"],
  USER_IS_NOT_A_MEMBER_OF_THE_TEAM: [400, "User is not a member of the team"],
  YOU_ARE_NOT_ALLOWED_TO_CREATE_TEAMS_IN_THIS_ORGANIZATION: [
    403,
    "You are not allowed to create teams in this organization",
  ],
  YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_TEAM: [403, "You are not allowed to update this team"],
  YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_TEAM: [403, "You are not allowed to delete this team"],
  YOU_ARE_NOT_ALLOWED_TO_DELETE_TEAMS_IN_THIS_ORGANIZATION: [
    403,
    "You are not allowed to delete teams in this organization",
  ],
  YOU_ARE_NOT_ALLOWED_TO_ACCESS_THIS_ORGANIZATION: [
    403,
    "You are not allowed to access this organization",
  ],
  YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION: [403, "You are not a member of this organization"],
  YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER: [403, "You are not allowed to update this member"],
  YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_TEAM_MEMBER: [
    403,
    "You are not allowed to create a new member",
  ],
  YOU_ARE_NOT_ALLOWED_TO_REMOVE_A_TEAM_MEMBER: [403, "You are not allowed to remove a team member"],
  YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_TEAMS: [
    400,
    "You have reached the maximum number of teams",
  ],
  TEAM_MEMBER_LIMIT_REACHED: [403, "Team member limit reached"],
  UNABLE_TO_REMOVE_LAST_TEAM: [400, "Unable to remove last team"],
  YOU_DO_NOT_HAVE_AN_ACTIVE_TEAM: [400, "You do not have an active team"],
} as const satisfies Record<string, readonly [number, string]>;

type Code = keyof typeof ERRORS;

function expectError(response: LightMyRequestResponse, code: Code, status?: number): void {
  const [expectedStatus, message] = ERRORS[code];
  expect(response.statusCode, response.body).toBe(status ?? expectedStatus);
  // Exactly the code and message: nothing of the team or organization leaks out.
  expect(response.json()).toEqual({ code, message });
}

function expectValidationError(response: LightMyRequestResponse, part: "body" | "query"): void {
  expect(response.statusCode, response.body).toBe(400);
  const body = response.json();
  expect(body.code).toBe("VALIDATION_ERROR");
  expect(body.message).toBe(
    part === "body" ? "Invalid body parameters" : "Invalid query parameters",
  );
  expect(body.details.length).toBeGreaterThan(0);
}

interface Person {
  client: Client;
  userId: string;
  sessionId: string;
}

interface Cast {
  olivia: Person; // owner of each organization made by acme()
  adam: Person; // admin
  mia: Person; // member
  oscar: Person; // another tenant: owner of Bravo, in no acme() organization
}

let counter = 0;
function unique(prefix: string): string {
  counter += 1;
  return `${prefix} ${counter}`;
}

async function person(app: TestApp, name: string): Promise<Person> {
  const client = createClient(app.app);
  const email = `${unique(name).replace(" ", "")}-${Date.now()}@example.com`.toLowerCase();
  const response = await client.post("/sign-up/email", { name, email, password: PASSWORD });
  expect(response.statusCode, response.body).toBe(200);
  const userId = response.json().user.id as string;
  const [session] = await app.db.sql<{ id: string }[]>`
    select id from session where user_id = ${userId}`;
  if (!session) throw new Error("sign-up made no session");
  return { client, userId, sessionId: session.id };
}

/** A user without a session (a target, never a caller). */
async function plainUser(app: TestApp): Promise<string> {
  const id = generateId();
  await insertUser(app.db.sql, {
    id,
    email: `${unique("plain").replace(" ", "")}@example.com`,
    name: "Plain",
  });
  return id;
}

async function organization(
  app: TestApp,
  name: string,
  members: ReadonlyArray<readonly [string, string]>,
): Promise<string> {
  const org = await insertOrganization(app.db.sql, {
    id: generateId(),
    name,
    slug: `${name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${generateId().slice(0, 6).toLowerCase()}`,
    logo: null,
    metadata: null,
  });
  for (const [userId, role] of members) {
    await insertMember(app.db.sql, { id: generateId(), organizationId: org.id, userId, role });
  }
  return org.id;
}

async function activate(
  app: TestApp,
  who: Person,
  organizationId: string | null,
  teamId: string | null = null,
): Promise<void> {
  await setSessionActiveOrganization(app.db.sql, who.sessionId, organizationId, teamId);
}

async function team(
  app: TestApp,
  organizationId: string,
  name: string,
  memberIds: readonly string[] = [],
): Promise<string> {
  const row = await insertTeam(app.db.sql, { id: generateId(), name, organizationId });
  for (const userId of memberIds) {
    await insertTeamMember(app.db.sql, { id: generateId(), teamId: row.id, userId });
  }
  return row.id;
}

async function makeCast(app: TestApp): Promise<Cast> {
  return {
    olivia: await person(app, "Olivia"),
    adam: await person(app, "Adam"),
    mia: await person(app, "Mia"),
    oscar: await person(app, "Oscar"),
  };
}

/** A fresh organization with owner, admin and member, active on their sessions. */
async function acme(app: TestApp, cast: Cast, name = unique("Acme")): Promise<string> {
  const organizationId = await organization(app, name, [
    [cast.olivia.userId, "owner"],
    [cast.adam.userId, "admin"],
    [cast.mia.userId, "member"],
  ]);
  for (const who of [cast.olivia, cast.adam, cast.mia]) await activate(app, who, organizationId);
  return organizationId;
}

interface TeamRecord {
  id: string;
  name: string;
  organizationId: string;
  createdAt: Date;
  updatedAt: Date | null;
}

async function teamsOf(app: TestApp, organizationId: string): Promise<TeamRecord[]> {
  return app.db.sql<TeamRecord[]>`
    select * from team where organization_id = ${organizationId} order by created_at, id`;
}

async function teamMemberIds(app: TestApp, teamId: string): Promise<string[]> {
  const rows = await app.db.sql<{ userId: string }[]>`
    select user_id from team_member where team_id = ${teamId} order by user_id`;
  return rows.map((row) => row.userId);
}

async function activeTeamOf(app: TestApp, who: Person): Promise<string | null> {
  const [row] = await app.db.sql<{ activeTeamId: string | null }[]>`
    select active_team_id from session where id = ${who.sessionId}`;
  return row?.activeTeamId ?? null;
}

/** Every team, team member and active team: compared before and after a refused call. */
async function snapshot(app: TestApp): Promise<string> {
  const [teams, members, sessions] = await Promise.all([
    app.db.sql`select * from team order by id`,
    app.db.sql`select * from team_member order by id`,
    app.db.sql`select id, active_team_id, active_organization_id from session order by id`,
  ]);
  return JSON.stringify({ teams, members, sessions });
}

function expectTeamBody(
  body: unknown,
  expected: { id?: string; name: string; organizationId: string },
) {
  expect(Object.keys(body as object).sort()).toEqual([
    "createdAt",
    "id",
    "name",
    "organizationId",
    "updatedAt",
  ]);
  const team = body as Record<string, string>;
  expect(team).toMatchObject({ name: expected.name, organizationId: expected.organizationId });
  if (expected.id) expect(team.id).toBe(expected.id);
  expect(team.id).toMatch(/^[A-Za-z0-9]{32}$/);
  expect(new Date(team.createdAt as string).toISOString()).toBe(team.createdAt);
  expect(new Date(team.updatedAt as string).toISOString()).toBe(team.updatedAt);
}

let t: TestApp;
let cast: Cast;
let bravo: string;
let bravoTeam: string;

beforeAll(async () => {
  t = await createTestApp({
    config: {
      organization: {
        teams: {
          enabled: true,
          // Functions get the rows: only "Limited" organizations and "Small" teams are capped.
          maximumTeams: (data: { organization: { name: string } }) =>
            data.organization.name.startsWith("Limited") ? 3 : Number.POSITIVE_INFINITY,
          maximumMembersPerTeam: async (data: {
            team: { name: string };
            organizationId: string;
          }) => (data.team.name.startsWith("Small") && data.organizationId ? 3 : 1000),
        },
      },
    },
  });
  cast = await makeCast(t);
  bravo = await organization(t, "Bravo", [[cast.oscar.userId, "owner"]]);
  bravoTeam = await team(t, bravo, "Bravo crew", [cast.oscar.userId]);
  await activate(t, cast.oscar, bravo);
});

afterAll(async () => {
  await t?.close();
});

/** Another tenant's rows stay as they were, whatever was asked of them. */
async function expectBravoUntouched(): Promise<void> {
  const teams = await teamsOf(t, bravo);
  expect(teams.map((row) => [row.id, row.name])).toEqual([[bravoTeam, "Bravo crew"]]);
  expect(await teamMemberIds(t, bravoTeam)).toEqual([cast.oscar.userId]);
}

describe("POST /organization/create-team", () => {
  it("creates a team in the given organization, without putting the creator in it", async () => {
    const org = await acme(t, cast);
    await activate(t, cast.olivia, null);
    const response = await cast.olivia.client.post("/organization/create-team", {
      name: "Design",
      organizationId: org,
    });
    expect(response.statusCode, response.body).toBe(200);
    expectTeamBody(response.json(), { name: "Design", organizationId: org });
    const rows = await teamsOf(t, org);
    expect(rows.map((row) => [row.id, row.name])).toEqual([[response.json().id, "Design"]]);
    expect(await teamMemberIds(t, response.json().id)).toEqual([]);
  });

  it("uses the active organization when none is given", async () => {
    const org = await acme(t, cast);
    const response = await cast.olivia.client.post("/organization/create-team", { name: "Ops" });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().organizationId).toBe(org);
    expect((await teamsOf(t, org)).map((row) => row.name)).toEqual(["Ops"]);
  });

  it.each([
    ["owner", true],
    ["admin", true],
    ["member", false],
  ] as const)("%s may create teams: %s", async (role, allowed) => {
    const org = await acme(t, cast);
    const who = { owner: cast.olivia, admin: cast.adam, member: cast.mia }[role];
    const before = await snapshot(t);
    const response = await who.client.post("/organization/create-team", { name: `By ${role}` });
    if (allowed) {
      expect(response.statusCode, response.body).toBe(200);
      expect((await teamsOf(t, org)).map((row) => row.name)).toEqual([`By ${role}`]);
    } else {
      expectError(response, "YOU_ARE_NOT_ALLOWED_TO_CREATE_TEAMS_IN_THIS_ORGANIZATION");
      expect(await snapshot(t)).toBe(before);
    }
  });

  it("refuses a caller of another tenant as a non-member and writes nothing", async () => {
    const org = await acme(t, cast);
    const before = await snapshot(t);
    const response = await cast.oscar.client.post("/organization/create-team", {
      name: "Intruders",
      organizationId: org,
    });
    expectError(response, "YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION");
    expect(await snapshot(t)).toBe(before);
  });

  it("answers NO_ACTIVE_ORGANIZATION and ORGANIZATION_NOT_FOUND", async () => {
    await acme(t, cast);
    await activate(t, cast.olivia, null);
    const before = await snapshot(t);
    expectError(
      await cast.olivia.client.post("/organization/create-team", { name: "Nowhere" }),
      "NO_ACTIVE_ORGANIZATION",
    );
    expectError(
      await cast.olivia.client.post("/organization/create-team", {
        name: "Nowhere",
        organizationId: generateId(),
      }),
      "ORGANIZATION_NOT_FOUND",
    );
    expect(await snapshot(t)).toBe(before);
  });

  it("refuses a duplicate name in the organization, allows it in another", async () => {
    const org = await acme(t, cast);
    await team(t, org, "Support");
    const before = await snapshot(t);
    expectError(
      await cast.olivia.client.post("/organization/create-team", { name: "Support" }),
      "TEAM_ALREADY_EXISTS",
    );
    expect(await snapshot(t)).toBe(before);
    const other = await acme(t, cast);
    const response = await cast.olivia.client.post("/organization/create-team", {
      name: "Support",
      organizationId: other,
    });
    expect(response.statusCode, response.body).toBe(200);
  });

  it("two concurrent creates of one name leave one team and clean errors", async () => {
    const org = await acme(t, cast);
    const responses = await Promise.all(
      Array.from({ length: 5 }, () =>
        cast.olivia.client.post("/organization/create-team", { name: "Race" }),
      ),
    );
    expect(responses.filter((response) => response.statusCode === 200)).toHaveLength(1);
    for (const response of responses.filter((r) => r.statusCode !== 200)) {
      expectError(response, "TEAM_ALREADY_EXISTS");
    }
    expect((await teamsOf(t, org)).map((row) => row.name)).toEqual(["Race"]);
  });

  it("accepts a 255-character name", async () => {
    const org = await acme(t, cast);
    const name = "n".repeat(255);
    const response = await cast.olivia.client.post("/organization/create-team", { name });
    expect(response.statusCode, response.body).toBe(200);
    expect((await teamsOf(t, org)).map((row) => row.name)).toEqual([name]);
  });
});

describe("maximumTeams", () => {
  it("holds under concurrent creates, per organization, from a function of it", async () => {
    const limited = await acme(t, cast, unique("Limited"));
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        cast.olivia.client.post("/organization/create-team", { name: `Team ${index}` }),
      ),
    );
    expect(responses.filter((response) => response.statusCode === 200)).toHaveLength(3);
    for (const response of responses.filter((r) => r.statusCode !== 200)) {
      expectError(response, "YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_TEAMS");
    }
    expect(await teamsOf(t, limited)).toHaveLength(3);
    expectError(
      await cast.olivia.client.post("/organization/create-team", { name: "One more" }),
      "YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_TEAMS",
    );
    expect(await teamsOf(t, limited)).toHaveLength(3);

    // The function decides per organization: this one is not capped.
    const open = await acme(t, cast, unique("Open"));
    for (let index = 0; index < 5; index++) {
      const response = await cast.olivia.client.post("/organization/create-team", {
        name: `Open ${index}`,
      });
      expect(response.statusCode, response.body).toBe(200);
    }
    expect(await teamsOf(t, open)).toHaveLength(5);
  });
});

describe("POST /organization/update-team", () => {
  it("renames the team and answers it; only the name is applied", async () => {
    const org = await acme(t, cast);
    const id = await team(t, org, "Old name");
    const [before] = await teamsOf(t, org);
    const response = await cast.olivia.client.post("/organization/update-team", {
      teamId: id,
      data: { name: "New name", id: generateId(), createdAt: "2000-01-01T00:00:00.000Z" },
    });
    expect(response.statusCode, response.body).toBe(200);
    expectTeamBody(response.json(), { id, name: "New name", organizationId: org });
    const [after] = await teamsOf(t, org);
    expect(after?.id).toBe(id);
    expect(after?.name).toBe("New name");
    expect(after?.createdAt.getTime()).toBe(before?.createdAt.getTime());
    expect(after?.updatedAt?.getTime()).toBeGreaterThanOrEqual(before?.updatedAt?.getTime() ?? 0);
    expect(response.json().updatedAt).toBe(after?.updatedAt?.toISOString());
  });

  it("finds the organization from data.organizationId when none is active", async () => {
    const org = await acme(t, cast);
    const id = await team(t, org, "Blue");
    await activate(t, cast.olivia, null);
    const response = await cast.olivia.client.post("/organization/update-team", {
      teamId: id,
      data: { name: "Green", organizationId: org },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect((await teamsOf(t, org)).map((row) => row.name)).toEqual(["Green"]);
    expectError(
      await cast.olivia.client.post("/organization/update-team", {
        teamId: id,
        data: { name: "Red" },
      }),
      "NO_ACTIVE_ORGANIZATION",
    );
  });

  it("answers the team unchanged when data has no name", async () => {
    const org = await acme(t, cast);
    const id = await team(t, org, "Same");
    const before = await snapshot(t);
    const response = await cast.olivia.client.post("/organization/update-team", {
      teamId: id,
      data: {},
    });
    expect(response.statusCode, response.body).toBe(200);
    expectTeamBody(response.json(), { id, name: "Same", organizationId: org });
    expect(await snapshot(t)).toBe(before);
  });

  it.each([
    ["owner", true],
    ["admin", true],
    ["member", false],
  ] as const)("%s may update teams: %s", async (role, allowed) => {
    const org = await acme(t, cast);
    const id = await team(t, org, "Before", [cast.mia.userId]);
    const who = { owner: cast.olivia, admin: cast.adam, member: cast.mia }[role];
    const response = await who.client.post("/organization/update-team", {
      teamId: id,
      data: { name: `After ${role}` },
    });
    if (allowed) {
      expect(response.statusCode, response.body).toBe(200);
      expect((await teamsOf(t, org)).map((row) => row.name)).toEqual([`After ${role}`]);
    } else {
      expectError(response, "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_TEAM");
      expect((await teamsOf(t, org)).map((row) => row.name)).toEqual(["Before"]);
    }
  });

  it("refuses another tenant's caller, and another tenant's team", async () => {
    const org = await acme(t, cast);
    const id = await team(t, org, "Mine");
    const before = await snapshot(t);
    // A caller of another tenant naming this organization.
    expectError(
      await cast.oscar.client.post("/organization/update-team", {
        teamId: id,
        data: { name: "Hijacked", organizationId: org },
      }),
      "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_TEAM",
    );
    // Another tenant's team through this tenant's organization.
    expectError(
      await cast.olivia.client.post("/organization/update-team", {
        teamId: bravoTeam,
        data: { name: "Hijacked" },
      }),
      "TEAM_NOT_FOUND",
    );
    // Another tenant's organization named outright.
    expectError(
      await cast.olivia.client.post("/organization/update-team", {
        teamId: bravoTeam,
        data: { name: "Hijacked", organizationId: bravo },
      }),
      "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_TEAM",
    );
    expectError(
      await cast.olivia.client.post("/organization/update-team", {
        teamId: generateId(),
        data: { name: "Ghost" },
      }),
      "TEAM_NOT_FOUND",
    );
    expectError(
      await cast.olivia.client.post("/organization/update-team", {
        teamId: id,
        data: { name: "Ghost", organizationId: generateId() },
      }),
      "ORGANIZATION_NOT_FOUND",
    );
    expect(await snapshot(t)).toBe(before);
    await expectBravoUntouched();
  });

  it("refuses a name another team of the organization has", async () => {
    const org = await acme(t, cast);
    await team(t, org, "Taken");
    const id = await team(t, org, "Free");
    const before = await snapshot(t);
    expectError(
      await cast.olivia.client.post("/organization/update-team", {
        teamId: id,
        data: { name: "Taken" },
      }),
      "TEAM_ALREADY_EXISTS",
    );
    expect(await snapshot(t)).toBe(before);
  });
});

describe("POST /organization/remove-team", () => {
  it("removes the team, its members, and it as anyone's active team", async () => {
    const org = await acme(t, cast);
    await team(t, org, "Stays");
    const id = await team(t, org, "Goes", [cast.mia.userId, cast.adam.userId]);
    await activate(t, cast.mia, org, id);
    const response = await cast.olivia.client.post("/organization/remove-team", { teamId: id });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ message: "Team removed successfully." });
    expect((await teamsOf(t, org)).map((row) => row.name)).toEqual(["Stays"]);
    expect(await teamMemberIds(t, id)).toEqual([]);
    expect(await activeTeamOf(t, cast.mia)).toBeNull();
    const session = await cast.mia.client.get("/get-session");
    expect(session.json().session.activeOrganizationId).toBe(org);
    expect(session.json().session.activeTeamId).toBeNull();
  });

  it("takes organizationId from the body", async () => {
    const org = await acme(t, cast);
    await team(t, org, "Stays");
    const id = await team(t, org, "Goes");
    await activate(t, cast.olivia, null);
    const response = await cast.olivia.client.post("/organization/remove-team", {
      teamId: id,
      organizationId: org,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(await teamsOf(t, org)).toHaveLength(1);
    expectError(
      await cast.olivia.client.post("/organization/remove-team", { teamId: id }),
      "NO_ACTIVE_ORGANIZATION",
    );
  });

  it.each([
    ["owner", true],
    ["admin", true],
    ["member", false],
  ] as const)("%s may remove teams: %s", async (role, allowed) => {
    const org = await acme(t, cast);
    await team(t, org, "Stays");
    const id = await team(t, org, "Goes");
    const who = { owner: cast.olivia, admin: cast.adam, member: cast.mia }[role];
    const before = await snapshot(t);
    const response = await who.client.post("/organization/remove-team", { teamId: id });
    if (allowed) {
      expect(response.statusCode, response.body).toBe(200);
      expect((await teamsOf(t, org)).map((row) => row.name)).toEqual(["Stays"]);
    } else {
      expectError(response, "YOU_ARE_NOT_ALLOWED_TO_DELETE_TEAMS_IN_THIS_ORGANIZATION");
      expect(await snapshot(t)).toBe(before);
    }
  });

  it("the last team stays unless allowRemovingAllTeams", async () => {
    const org = await acme(t, cast);
    const id = await team(t, org, "Only");
    const before = await snapshot(t);
    expectError(
      await cast.olivia.client.post("/organization/remove-team", { teamId: id }),
      "UNABLE_TO_REMOVE_LAST_TEAM",
    );
    expect(await snapshot(t)).toBe(before);
  });

  it("concurrent removals of every team leave exactly one", async () => {
    const org = await acme(t, cast);
    const ids: string[] = [];
    for (let index = 0; index < 6; index++) ids.push(await team(t, org, `Team ${index}`));
    const responses = await Promise.all(
      ids.map((teamId, index) =>
        (index % 2 === 0 ? cast.olivia : cast.adam).client.post("/organization/remove-team", {
          teamId,
        }),
      ),
    );
    expect(responses.filter((response) => response.statusCode === 200)).toHaveLength(5);
    for (const response of responses.filter((r) => r.statusCode !== 200)) {
      expectError(response, "UNABLE_TO_REMOVE_LAST_TEAM");
    }
    expect(await teamsOf(t, org)).toHaveLength(1);
  });

  it("a member cannot remove the team they belong to, nor their active team", async () => {
    const org = await acme(t, cast);
    await team(t, org, "Other");
    const own = await team(t, org, "Own", [cast.olivia.userId]);
    const active = await team(t, org, "Active");
    await activate(t, cast.olivia, org, active);
    const before = await snapshot(t);
    expectError(
      await cast.olivia.client.post("/organization/remove-team", { teamId: own }),
      "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_TEAM",
    );
    expectError(
      await cast.olivia.client.post("/organization/remove-team", { teamId: active }),
      "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_TEAM",
    );
    expect(await snapshot(t)).toBe(before);
    // Someone else with the permission can.
    const response = await cast.adam.client.post("/organization/remove-team", { teamId: own });
    expect(response.statusCode, response.body).toBe(200);
  });

  it("refuses another tenant's caller and another tenant's team", async () => {
    const org = await acme(t, cast);
    await team(t, org, "One");
    const id = await team(t, org, "Two");
    const before = await snapshot(t);
    expectError(
      await cast.oscar.client.post("/organization/remove-team", {
        teamId: id,
        organizationId: org,
      }),
      "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_TEAM",
    );
    expectError(
      await cast.olivia.client.post("/organization/remove-team", { teamId: bravoTeam }),
      "TEAM_NOT_FOUND",
    );
    expectError(
      await cast.olivia.client.post("/organization/remove-team", {
        teamId: bravoTeam,
        organizationId: bravo,
      }),
      "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_TEAM",
    );
    expectError(
      await cast.olivia.client.post("/organization/remove-team", { teamId: generateId() }),
      "TEAM_NOT_FOUND",
    );
    expectError(
      await cast.olivia.client.post("/organization/remove-team", {
        teamId: id,
        organizationId: generateId(),
      }),
      "ORGANIZATION_NOT_FOUND",
    );
    expect(await snapshot(t)).toBe(before);
    await expectBravoUntouched();
  });
});

describe("GET /organization/list-teams", () => {
  it.each(["owner", "admin", "member"] as const)(
    "a %s lists the active organization's teams",
    async (role) => {
      const org = await acme(t, cast);
      const a = await team(t, org, "Alpha");
      const b = await team(t, org, "Beta");
      const who = { owner: cast.olivia, admin: cast.adam, member: cast.mia }[role];
      const response = await who.client.get("/organization/list-teams");
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json() as Array<{ id: string; name: string; organizationId: string }>;
      expect(body.map((row) => [row.id, row.name, row.organizationId])).toEqual([
        [a, "Alpha", org],
        [b, "Beta", org],
      ]);
      for (const row of body) expectTeamBody(row, { name: row.name, organizationId: org });
    },
  );

  it("reads organizationId from the query when nothing is active", async () => {
    const org = await acme(t, cast);
    await team(t, org, "Alpha");
    await activate(t, cast.mia, null);
    const response = await cast.mia.client.get("/organization/list-teams", {
      query: { organizationId: org },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().map((row: { name: string }) => row.name)).toEqual(["Alpha"]);
    expectError(await cast.mia.client.get("/organization/list-teams"), "NO_ACTIVE_ORGANIZATION");
  });

  it("the active organization takes precedence over the query", async () => {
    const org = await acme(t, cast);
    await team(t, org, "Home");
    const response = await cast.mia.client.get("/organization/list-teams", {
      query: { organizationId: bravo },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().map((row: { name: string }) => row.name)).toEqual(["Home"]);
  });

  it("a non-member is FORBIDDEN, an unknown organization alike", async () => {
    await acme(t, cast);
    await activate(t, cast.mia, null);
    expectError(
      await cast.mia.client.get("/organization/list-teams", { query: { organizationId: bravo } }),
      "YOU_ARE_NOT_ALLOWED_TO_ACCESS_THIS_ORGANIZATION",
    );
    expectError(
      await cast.mia.client.get("/organization/list-teams", {
        query: { organizationId: generateId() },
      }),
      "YOU_ARE_NOT_ALLOWED_TO_ACCESS_THIS_ORGANIZATION",
    );
    // An active organization one has been removed from answers the same.
    const org = await acme(t, cast);
    await t.db
      .sql`delete from member where organization_id = ${org} and user_id = ${cast.mia.userId}`;
    expectError(
      await cast.mia.client.get("/organization/list-teams"),
      "YOU_ARE_NOT_ALLOWED_TO_ACCESS_THIS_ORGANIZATION",
    );
  });
});

describe("POST /organization/add-team-member", () => {
  it("adds a member of the organization and answers the team member; again is a no-op", async () => {
    const org = await acme(t, cast);
    const id = await team(t, org, "Crew");
    const response = await cast.olivia.client.post("/organization/add-team-member", {
      teamId: id,
      userId: cast.mia.userId,
    });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(["createdAt", "id", "teamId", "userId"]);
    expect(body).toMatchObject({ teamId: id, userId: cast.mia.userId });
    expect(await teamMemberIds(t, id)).toEqual([cast.mia.userId]);

    const again = await cast.olivia.client.post("/organization/add-team-member", {
      teamId: id,
      userId: cast.mia.userId,
      organizationId: org,
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual(body);
    expect(await teamMemberIds(t, id)).toEqual([cast.mia.userId]);
  });

  it.each([
    ["owner", true],
    ["admin", true],
    ["member", false],
  ] as const)("%s may add team members (member:update): %s", async (role, allowed) => {
    const org = await acme(t, cast);
    const id = await team(t, org, "Crew");
    const who = { owner: cast.olivia, admin: cast.adam, member: cast.mia }[role];
    const response = await who.client.post("/organization/add-team-member", {
      teamId: id,
      userId: cast.mia.userId,
    });
    if (allowed) {
      expect(response.statusCode, response.body).toBe(200);
      expect(await teamMemberIds(t, id)).toEqual([cast.mia.userId]);
    } else {
      expectError(response, "YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_TEAM_MEMBER");
      expect(await teamMemberIds(t, id)).toEqual([]);
    }
  });

  it("only members of the organization join its teams; other tenants are refused", async () => {
    const org = await acme(t, cast);
    const id = await team(t, org, "Crew");
    const before = await snapshot(t);
    // The target is another tenant's user, or nobody.
    for (const userId of [cast.oscar.userId, generateId()]) {
      expectError(
        await cast.olivia.client.post("/organization/add-team-member", { teamId: id, userId }),
        "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION",
      );
    }
    // The caller is another tenant's owner.
    expectError(
      await cast.oscar.client.post("/organization/add-team-member", {
        teamId: id,
        userId: cast.oscar.userId,
        organizationId: org,
      }),
      "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION",
    );
    // Another tenant's team through this organization, and an unknown team.
    for (const teamId of [bravoTeam, generateId()]) {
      expectError(
        await cast.olivia.client.post("/organization/add-team-member", {
          teamId,
          userId: cast.mia.userId,
        }),
        "TEAM_NOT_FOUND",
      );
    }
    expectError(
      await cast.olivia.client.post("/organization/add-team-member", {
        teamId: id,
        userId: cast.mia.userId,
        organizationId: generateId(),
      }),
      "ORGANIZATION_NOT_FOUND",
    );
    expect(await snapshot(t)).toBe(before);
    await expectBravoUntouched();
    await activate(t, cast.olivia, null);
    expectError(
      await cast.olivia.client.post("/organization/add-team-member", {
        teamId: id,
        userId: cast.mia.userId,
      }),
      "NO_ACTIVE_ORGANIZATION",
    );
    expect(await teamMemberIds(t, id)).toEqual([]);
  });
});

describe("maximumMembersPerTeam (the team member limit)", () => {
  it("holds under concurrent adds; someone already in a full team is still answered", async () => {
    const org = await acme(t, cast);
    const small = await team(t, org, "Small team");
    const users: string[] = [];
    for (let index = 0; index < 8; index++) {
      const userId = await plainUser(t);
      await insertMember(t.db.sql, {
        id: generateId(),
        organizationId: org,
        userId,
        role: "member",
      });
      users.push(userId);
    }
    const responses = await Promise.all(
      users.map((userId) =>
        cast.olivia.client.post("/organization/add-team-member", { teamId: small, userId }),
      ),
    );
    const added = responses.filter((response) => response.statusCode === 200);
    expect(added).toHaveLength(3);
    for (const response of responses.filter((r) => r.statusCode !== 200)) {
      expectError(response, "TEAM_MEMBER_LIMIT_REACHED");
    }
    const members = await teamMemberIds(t, small);
    expect(members).toHaveLength(3);
    expect(members).toEqual(added.map((response) => response.json().userId).sort());

    const already = await cast.olivia.client.post("/organization/add-team-member", {
      teamId: small,
      userId: members[0],
    });
    expect(already.statusCode, already.body).toBe(200);
    expectError(
      await cast.olivia.client.post("/organization/add-team-member", {
        teamId: small,
        userId: cast.mia.userId,
      }),
      "TEAM_MEMBER_LIMIT_REACHED",
    );
    expect(await teamMemberIds(t, small)).toHaveLength(3);

    // The function decides per team: another team of the organization takes them all.
    const big = await team(t, org, "Big team");
    for (const userId of users) {
      const response = await cast.olivia.client.post("/organization/add-team-member", {
        teamId: big,
        userId,
      });
      expect(response.statusCode, response.body).toBe(200);
    }
    expect(await teamMemberIds(t, big)).toHaveLength(8);
  });
});

describe("POST /organization/remove-team-member", () => {
  it("takes the user out of the team and clears it as their active team", async () => {
    const org = await acme(t, cast);
    const id = await team(t, org, "Crew", [cast.mia.userId, cast.adam.userId]);
    await activate(t, cast.mia, org, id);
    const response = await cast.olivia.client.post("/organization/remove-team-member", {
      teamId: id,
      userId: cast.mia.userId,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ message: "Team member removed successfully." });
    expect(await teamMemberIds(t, id)).toEqual([cast.adam.userId]);
    expect(await activeTeamOf(t, cast.mia)).toBeNull();

    expectError(
      await cast.olivia.client.post("/organization/remove-team-member", {
        teamId: id,
        userId: cast.mia.userId,
        organizationId: org,
      }),
      "USER_IS_NOT_A_MEMBER_OF_THE_TEAM",
    );
  });

  it.each([
    ["owner", true],
    ["admin", true],
    ["member", false],
  ] as const)("%s may remove team members (member:delete): %s", async (role, allowed) => {
    const org = await acme(t, cast);
    const id = await team(t, org, "Crew", [cast.mia.userId]);
    const who = { owner: cast.olivia, admin: cast.adam, member: cast.mia }[role];
    const response = await who.client.post("/organization/remove-team-member", {
      teamId: id,
      userId: cast.mia.userId,
    });
    if (allowed) {
      expect(response.statusCode, response.body).toBe(200);
      expect(await teamMemberIds(t, id)).toEqual([]);
    } else {
      expectError(response, "YOU_ARE_NOT_ALLOWED_TO_REMOVE_A_TEAM_MEMBER");
      expect(await teamMemberIds(t, id)).toEqual([cast.mia.userId]);
    }
  });

  it("refuses other tenants' callers and teams", async () => {
    const org = await acme(t, cast);
    const id = await team(t, org, "Crew", [cast.mia.userId]);
    const before = await snapshot(t);
    expectError(
      await cast.oscar.client.post("/organization/remove-team-member", {
        teamId: id,
        userId: cast.mia.userId,
        organizationId: org,
      }),
      "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION",
    );
    expectError(
      await cast.olivia.client.post("/organization/remove-team-member", {
        teamId: bravoTeam,
        userId: cast.oscar.userId,
      }),
      "TEAM_NOT_FOUND",
    );
    expectError(
      await cast.olivia.client.post("/organization/remove-team-member", {
        teamId: generateId(),
        userId: cast.mia.userId,
      }),
      "TEAM_NOT_FOUND",
    );
    expectError(
      await cast.olivia.client.post("/organization/remove-team-member", {
        teamId: id,
        userId: generateId(),
      }),
      "USER_IS_NOT_A_MEMBER_OF_THE_TEAM",
    );
    expect(await snapshot(t)).toBe(before);
    await expectBravoUntouched();
  });
});

describe("POST /organization/set-active-team", () => {
  it("sets a team the caller is in, answers it, and null clears it", async () => {
    const org = await acme(t, cast);
    const id = await team(t, org, "Crew", [cast.mia.userId]);
    const response = await cast.mia.client.post("/organization/set-active-team", { teamId: id });
    expect(response.statusCode, response.body).toBe(200);
    expectTeamBody(response.json(), { id, name: "Crew", organizationId: org });
    expect(await activeTeamOf(t, cast.mia)).toBe(id);
    expect((await cast.mia.client.get("/get-session")).json().session.activeTeamId).toBe(id);

    // No teamId re-affirms the current team.
    const current = await cast.mia.client.post("/organization/set-active-team", {});
    expect(current.statusCode, current.body).toBe(200);
    expect(current.json().id).toBe(id);

    const cleared = await cast.mia.client.post("/organization/set-active-team", { teamId: null });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.headers["content-type"]).toMatch(/^application\/json/);
    expect(cleared.body).toBe("null");
    expect(await activeTeamOf(t, cast.mia)).toBeNull();
    const none = await cast.mia.client.post("/organization/set-active-team", {});
    expect(none.statusCode, none.body).toBe(200);
    expect(none.body).toBe("null");
  });

  it("refuses a team the caller is not in (403), and other tenants' teams", async () => {
    const org = await acme(t, cast);
    const id = await team(t, org, "Crew", [cast.adam.userId]);
    const before = await snapshot(t);
    // Even the owner must be in the team to make it active.
    expectError(
      await cast.olivia.client.post("/organization/set-active-team", { teamId: id }),
      "USER_IS_NOT_A_MEMBER_OF_THE_TEAM",
      403,
    );
    for (const teamId of [bravoTeam, generateId()]) {
      expectError(
        await cast.olivia.client.post("/organization/set-active-team", { teamId }),
        "TEAM_NOT_FOUND",
      );
    }
    expect(await snapshot(t)).toBe(before);
    await expectBravoUntouched();
    await activate(t, cast.adam, null);
    expectError(
      await cast.adam.client.post("/organization/set-active-team", { teamId: id }),
      "NO_ACTIVE_ORGANIZATION",
    );
    expect(await activeTeamOf(t, cast.adam)).toBeNull();
  });
});

describe("GET /organization/list-user-teams", () => {
  it("answers the caller's teams in every organization, or in one", async () => {
    const org = await acme(t, cast);
    const crew = await team(t, org, "Crew", [cast.mia.userId]);
    await team(t, org, "Not hers", [cast.adam.userId]);
    const elsewhere = await organization(t, unique("Elsewhere"), [[cast.mia.userId, "member"]]);
    const far = await team(t, elsewhere, "Far", [cast.mia.userId]);
    // A team row left in an organization she has left is not hers any more.
    const left = await organization(t, unique("Left"), [[cast.mia.userId, "member"]]);
    await team(t, left, "Stale", [cast.mia.userId]);
    await t.db
      .sql`delete from member where organization_id = ${left} and user_id = ${cast.mia.userId}`;

    const all = await cast.mia.client.get("/organization/list-user-teams");
    expect(all.statusCode, all.body).toBe(200);
    const ids = all.json().map((row: { id: string }) => row.id);
    expect(ids).toContain(crew);
    expect(ids).toContain(far);
    const names = all.json().map((row: { name: string }) => row.name);
    expect(names).not.toContain("Stale");
    expect(names).not.toContain("Not hers");
    expect(names).not.toContain("Bravo crew");

    const one = await cast.mia.client.get("/organization/list-user-teams", {
      query: { organizationId: org },
    });
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json()).toHaveLength(1);
    expectTeamBody(one.json()[0], { id: crew, name: "Crew", organizationId: org });

    for (const organizationId of [bravo, left, generateId()]) {
      expectError(
        await cast.mia.client.get("/organization/list-user-teams", { query: { organizationId } }),
        "YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION",
      );
    }
  });

  it("another user's teams need member:update and cover only that organization", async () => {
    const org = await acme(t, cast);
    const crew = await team(t, org, "Crew", [cast.mia.userId]);
    const elsewhere = await organization(t, unique("Elsewhere"), [[cast.mia.userId, "member"]]);
    await team(t, elsewhere, "Far", [cast.mia.userId]);

    for (const who of [cast.olivia, cast.adam]) {
      const response = await who.client.get("/organization/list-user-teams", {
        query: { userId: cast.mia.userId },
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().map((row: { id: string }) => row.id)).toEqual([crew]);
    }
    expectError(
      await cast.mia.client.get("/organization/list-user-teams", {
        query: { userId: cast.adam.userId },
      }),
      "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER",
    );
    expectError(
      await cast.olivia.client.get("/organization/list-user-teams", {
        query: { userId: cast.oscar.userId },
      }),
      "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION",
    );
    expectError(
      await cast.oscar.client.get("/organization/list-user-teams", {
        query: { userId: cast.mia.userId, organizationId: org },
      }),
      "YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION",
    );
    // Oscar owns Bravo, but Mia's teams elsewhere are not his to see.
    const mine = await cast.oscar.client.get("/organization/list-user-teams", {
      query: { userId: cast.mia.userId },
    });
    expectError(mine, "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
  });
});

describe("GET /organization/list-team-members", () => {
  it("lists a team's members, by default the active team's", async () => {
    const org = await acme(t, cast);
    const id = await team(t, org, "Crew", [cast.mia.userId, cast.adam.userId]);
    expectError(
      await cast.mia.client.get("/organization/list-team-members"),
      "YOU_DO_NOT_HAVE_AN_ACTIVE_TEAM",
    );
    await activate(t, cast.mia, org, id);
    const response = await cast.mia.client.get("/organization/list-team-members");
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as Array<Record<string, string>>;
    expect(body.map((row) => row.userId).sort()).toEqual(
      [cast.mia.userId, cast.adam.userId].sort(),
    );
    for (const row of body) {
      expect(Object.keys(row).sort()).toEqual(["createdAt", "id", "teamId", "userId"]);
      expect(row.teamId).toBe(id);
    }
    const explicit = await cast.mia.client.get("/organization/list-team-members", {
      query: { teamId: id },
    });
    expect(explicit.json()).toEqual(body);
  });

  it.each([
    ["owner", true],
    ["admin", true],
    ["member", false],
  ] as const)("a %s who is not in the team may list it: %s", async (role, allowed) => {
    const org = await acme(t, cast);
    const other = await plainUser(t);
    await insertMember(t.db.sql, {
      id: generateId(),
      organizationId: org,
      userId: other,
      role: "member",
    });
    const id = await team(t, org, "Crew", [other]);
    const who = { owner: cast.olivia, admin: cast.adam, member: cast.mia }[role];
    const response = await who.client.get("/organization/list-team-members", {
      query: { teamId: id },
    });
    if (allowed) {
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().map((row: { userId: string }) => row.userId)).toEqual([other]);
    } else {
      expectError(response, "USER_IS_NOT_A_MEMBER_OF_THE_TEAM");
    }
  });

  it("another tenant's team answers as unknown, even to its organization's owner elsewhere", async () => {
    await acme(t, cast);
    for (const teamId of [bravoTeam, generateId()]) {
      expectError(
        await cast.olivia.client.get("/organization/list-team-members", { query: { teamId } }),
        "TEAM_NOT_FOUND",
      );
    }
  });
});

describe("createDefaultTeam", () => {
  it("makes a team named after the organization with the creator, inside the caller's transaction", async () => {
    expect(defaultTeamEnabled(t.config)).toBe(true);
    const teams = t.config.organization.teams;
    expect(
      defaultTeamEnabled({
        ...t.config,
        organization: {
          ...t.config.organization,
          teams: { ...teams, defaultTeam: { enabled: false } },
        },
      }),
    ).toBe(false);
    expect(
      defaultTeamEnabled({
        ...t.config,
        organization: { ...t.config.organization, teams: { ...teams, enabled: false } },
      }),
    ).toBe(false);

    const created = await transaction(t.db.sql, async (tx) => {
      const org = await insertOrganization(tx, {
        id: generateId(),
        name: "Default Co",
        slug: `default-co-${generateId().slice(0, 8).toLowerCase()}`,
        logo: null,
        metadata: null,
      });
      await insertMember(tx, {
        id: generateId(),
        organizationId: org.id,
        userId: cast.olivia.userId,
        role: "owner",
      });
      return { org, ...(await createDefaultTeam(tx, org, cast.olivia.userId)) };
    });
    expect(created.team).toMatchObject({ name: "Default Co", organizationId: created.org.id });
    expect(created.member).toMatchObject({ teamId: created.team.id, userId: cast.olivia.userId });
    expect((await teamsOf(t, created.org.id)).map((row) => row.name)).toEqual(["Default Co"]);
    expect(await teamMemberIds(t, created.team.id)).toEqual([cast.olivia.userId]);

    // A failure later in the same transaction leaves no team behind.
    const slug = `rolled-back-${generateId().slice(0, 8).toLowerCase()}`;
    await expect(
      transaction(t.db.sql, async (tx) => {
        const org = await insertOrganization(tx, {
          id: generateId(),
          name: "Rolled back",
          slug,
          logo: null,
          metadata: null,
        });
        await createDefaultTeam(tx, org, cast.olivia.userId);
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    const [row] = await t.db.sql<{ n: number }[]>`
      select count(*)::int as n from team where name = 'Rolled back'`;
    expect(row?.n).toBe(0);
  });
});

describe("with POST /organization/create (the default team)", () => {
  it("the creator's default team is listed, active, theirs, and not removable by them", async () => {
    const name = unique("Founded");
    const created = await cast.mia.client.post("/organization/create", {
      name,
      slug: `founded-${generateId().slice(0, 8).toLowerCase()}`,
    });
    expect(created.statusCode, created.body).toBe(200);
    const org = created.json().id as string;
    const listed = await cast.mia.client.get("/organization/list-teams");
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json()).toHaveLength(1);
    const defaultTeam = listed.json()[0];
    expectTeamBody(defaultTeam, { name, organizationId: org });
    expect(await activeTeamOf(t, cast.mia)).toBe(defaultTeam.id);
    const members = await cast.mia.client.get("/organization/list-team-members");
    expect(members.json().map((row: { userId: string }) => row.userId)).toEqual([cast.mia.userId]);
    const mine = await cast.mia.client.get("/organization/list-user-teams", {
      query: { organizationId: org },
    });
    expect(mine.json().map((row: { id: string }) => row.id)).toEqual([defaultTeam.id]);
    // The creator belongs to it, and it is the last team.
    expectError(
      await cast.mia.client.post("/organization/remove-team", { teamId: defaultTeam.id }),
      "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_TEAM",
    );
    expect(await teamsOf(t, org)).toHaveLength(1);
  });
});

describe("every team endpoint", () => {
  const ids = () => ({ teamId: generateId(), userId: generateId() });
  const calls: ReadonlyArray<readonly [string, "GET" | "POST", Record<string, unknown>]> = [
    ["/organization/create-team", "POST", { name: "X" }],
    ["/organization/update-team", "POST", { teamId: generateId(), data: { name: "X" } }],
    ["/organization/remove-team", "POST", { teamId: generateId() }],
    ["/organization/list-teams", "GET", {}],
    ["/organization/add-team-member", "POST", ids()],
    ["/organization/remove-team-member", "POST", ids()],
    ["/organization/set-active-team", "POST", { teamId: null }],
    ["/organization/list-user-teams", "GET", {}],
    ["/organization/list-team-members", "GET", { teamId: generateId() }],
  ];

  function call(
    client: Client,
    path: string,
    method: "GET" | "POST",
    input: Record<string, unknown>,
  ) {
    return method === "GET"
      ? client.get(path, { query: input as Record<string, string> })
      : client.post(path, input);
  }

  it.each(calls)("%s answers 401 UNAUTHORIZED when signed out", async (path, method, input) => {
    expectError(await call(createClient(t.app), path, method, input), "UNAUTHORIZED");
  });

  it("refuses bad input with VALIDATION_ERROR and writes nothing", async () => {
    const org = await acme(t, cast);
    const id = await team(t, org, "Crew", [cast.mia.userId]);
    const long = "x".repeat(256);
    const bodies: ReadonlyArray<readonly [string, unknown]> = [
      ["/organization/create-team", {}],
      ["/organization/create-team", { name: "" }],
      ["/organization/create-team", { name: long }],
      ["/organization/create-team", { name: 5 }],
      ["/organization/create-team", { name: ["Crew2"] }],
      ["/organization/create-team", { name: "nul\u0000byte" }],
      ["/organization/create-team", { name: "Fine", organizationId: 5 }],
      ["/organization/create-team", { name: "Fine", organizationId: long }],
      ["/organization/update-team", {}],
      ["/organization/update-team", { teamId: id }],
      ["/organization/update-team", { data: { name: "Renamed" } }],
      ["/organization/update-team", { teamId: id, data: "Renamed" }],
      ["/organization/update-team", { teamId: id, data: { name: "" } }],
      ["/organization/update-team", { teamId: id, data: { name: long } }],
      ["/organization/update-team", { teamId: id, data: { name: 7 } }],
      ["/organization/update-team", { teamId: 5, data: { name: "Renamed" } }],
      ["/organization/remove-team", {}],
      ["/organization/remove-team", { teamId: "" }],
      ["/organization/remove-team", { teamId: 5 }],
      ["/organization/add-team-member", {}],
      ["/organization/add-team-member", { teamId: id }],
      ["/organization/add-team-member", { userId: cast.adam.userId }],
      ["/organization/add-team-member", { teamId: id, userId: 5 }],
      ["/organization/add-team-member", { teamId: id, userId: long }],
      ["/organization/remove-team-member", {}],
      ["/organization/remove-team-member", { teamId: id }],
      ["/organization/remove-team-member", { teamId: [id], userId: cast.mia.userId }],
      ["/organization/set-active-team", { teamId: 5 }],
      ["/organization/set-active-team", { teamId: "" }],
      ["/organization/set-active-team", { teamId: long }],
    ];
    const before = await snapshot(t);
    for (const [path, body] of bodies) {
      expectValidationError(await cast.olivia.client.post(path, body), "body");
    }
    const queries: ReadonlyArray<readonly [string, Record<string, string>]> = [
      ["/organization/list-teams", { organizationId: "" }],
      ["/organization/list-teams", { organizationId: long }],
      ["/organization/list-user-teams", { organizationId: long }],
      ["/organization/list-user-teams", { userId: "" }],
      ["/organization/list-team-members", { teamId: long }],
    ];
    for (const [path, query] of queries) {
      expectValidationError(await cast.olivia.client.get(path, { query }), "query");
    }
    expect(await snapshot(t)).toBe(before);
  });
});

describe.each([
  ["organization.teams.enabled false", {}],
  ["organization.enabled false", { organization: { enabled: false, teams: { enabled: true } } }],
] as const)("teams switched off (%s)", (_label, config) => {
  let off: TestApp;
  let owner: Person;
  let org: string;

  beforeAll(async () => {
    off = await createTestApp({ config });
    owner = await person(off, "Owner");
    org = await organization(off, "Off", [[owner.userId, "owner"]]);
    await activate(off, owner, org);
  });

  afterAll(async () => {
    await off?.close();
  });

  it("answers 404 NOT_FOUND on every team endpoint and writes nothing", async () => {
    const teamId = await team(off, org, "Pre-existing", [owner.userId]);
    const before = await snapshot(off);
    const posts: ReadonlyArray<readonly [string, unknown]> = [
      ["/organization/create-team", { name: "X" }],
      ["/organization/update-team", { teamId, data: { name: "Y" } }],
      ["/organization/remove-team", { teamId }],
      ["/organization/add-team-member", { teamId, userId: owner.userId }],
      ["/organization/remove-team-member", { teamId, userId: owner.userId }],
      ["/organization/set-active-team", { teamId }],
    ];
    for (const [path, body] of posts) expectError(await owner.client.post(path, body), "NOT_FOUND");
    for (const path of [
      "/organization/list-teams",
      "/organization/list-user-teams",
      "/organization/list-team-members",
    ]) {
      expectError(await owner.client.get(path, { query: { teamId } }), "NOT_FOUND");
    }
    expect(await snapshot(off)).toBe(before);
  });
});

describe("number limits, allowRemovingAllTeams and the cookie cache", () => {
  let app: TestApp;
  let people: Cast;

  beforeAll(async () => {
    app = await createTestApp({
      config: {
        organization: {
          teams: {
            enabled: true,
            maximumTeams: 2,
            maximumMembersPerTeam: 2,
            allowRemovingAllTeams: true,
          },
        },
        session: { cookieCache: { enabled: true } },
      },
    });
    people = await makeCast(app);
  });

  afterAll(async () => {
    await app?.close();
  });

  it("caps teams per organization at a number", async () => {
    const org = await acme(app, people);
    for (const name of ["One", "Two"]) {
      const response = await people.olivia.client.post("/organization/create-team", { name });
      expect(response.statusCode, response.body).toBe(200);
    }
    expectError(
      await people.olivia.client.post("/organization/create-team", { name: "Three" }),
      "YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_TEAMS",
    );
    expect((await teamsOf(app, org)).map((row) => row.name)).toEqual(["One", "Two"]);
  });

  it("caps members per team at a number", async () => {
    const org = await acme(app, people);
    const id = await team(app, org, "Pair");
    for (const who of [people.olivia, people.adam]) {
      const response = await people.olivia.client.post("/organization/add-team-member", {
        teamId: id,
        userId: who.userId,
      });
      expect(response.statusCode, response.body).toBe(200);
    }
    expectError(
      await people.olivia.client.post("/organization/add-team-member", {
        teamId: id,
        userId: people.mia.userId,
      }),
      "TEAM_MEMBER_LIMIT_REACHED",
    );
    expect(await teamMemberIds(app, id)).toEqual([people.olivia.userId, people.adam.userId].sort());
  });

  it("allowRemovingAllTeams lets the last team go", async () => {
    const org = await acme(app, people);
    const id = await team(app, org, "Last");
    const response = await people.olivia.client.post("/organization/remove-team", { teamId: id });
    expect(response.statusCode, response.body).toBe(200);
    expect(await teamsOf(app, org)).toEqual([]);
  });

  it("set-active-team rewrites the cached session", async () => {
    const org = await acme(app, people);
    const id = await team(app, org, "Cached", [people.mia.userId]);
    // Prime the cache with no active team.
    const primed = await people.mia.client.get("/get-session");
    expect(primed.json().session.activeTeamId).toBeNull();
    const response = await people.mia.client.post("/organization/set-active-team", { teamId: id });
    expect(response.statusCode, response.body).toBe(200);
    expect(people.mia.client.setCookies(response).has("authd.session_data")).toBe(true);
    const cached = await people.mia.client.get("/get-session");
    expect(cached.json().session.activeTeamId).toBe(id);
  });
});
