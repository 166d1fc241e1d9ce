/**
 * A member of one organization is out of reach from another: every member endpoint
 * given a member id, a member email or a user of another organization refuses, and
 * changes nothing. An owner of one organization must never remove, demote or regroup
 * another organization's members.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.js";
import { type Client, createClient } from "../helpers/client.js";

const PASSWORD = "isolation-pass-1234";
let t: TestApp;

interface Person {
  client: Client;
  id: string;
  email: string;
}

async function person(name: string): Promise<Person> {
  const client = createClient(t.app);
  const email = `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const response = await client.post("/sign-up/email", { name, email, password: PASSWORD });
  expect(response.statusCode, response.body).toBe(200);
  return { client, id: response.json().user.id, email };
}

let ownerA: Person;
let ownerB: Person;
let memberB: Person;
let organizationA: string;
let organizationB: string;
let memberRowB: string;
let teamA: string;
let teamB: string;

/** What another organization's member looks like in the database, to prove nothing moved. */
async function stateOfB() {
  return t.db.sql`
    select m.id, m.user_id, m.role,
           (select count(*)::int from team_member tm where tm.user_id = m.user_id) as teams
    from member m where m.organization_id = ${organizationB} order by m.id`;
}

beforeAll(async () => {
  t = await createTestApp({ config: { organization: { teams: { enabled: true } } } });
  ownerA = await person("owner-a");
  ownerB = await person("owner-b");
  memberB = await person("member-b");
  const a = await ownerA.client.post("/organization/create", { name: "A", slug: "org-a" });
  organizationA = a.json().id;
  const b = await ownerB.client.post("/organization/create", { name: "B", slug: "org-b" });
  organizationB = b.json().id;
  const [row] = await t.db.sql<{ id: string }[]>`
    insert into member (id, organization_id, user_id, role)
    values ('member-row-b', ${organizationB}, ${memberB.id}, 'member') returning id`;
  memberRowB = row?.id ?? "";
  const createdA = await ownerA.client.post("/organization/create-team", {
    name: "Team A",
    organizationId: organizationA,
  });
  expect(createdA.statusCode, createdA.body).toBe(200);
  teamA = createdA.json().id;
  const createdB = await ownerB.client.post("/organization/create-team", {
    name: "Team B",
    organizationId: organizationB,
  });
  teamB = createdB.json().id;
  const joined = await ownerB.client.post("/organization/add-team-member", {
    teamId: teamB,
    userId: memberB.id,
    organizationId: organizationB,
  });
  expect(joined.statusCode, joined.body).toBe(200);
});

afterAll(async () => {
  await t?.close();
});

describe("another organization's member", () => {
  it("cannot be removed by id or by email, named with one's own organization or none", async () => {
    const before = await stateOfB();
    for (const body of [
      { memberIdOrEmail: memberRowB, organizationId: organizationA },
      { memberIdOrEmail: memberB.email, organizationId: organizationA },
      { memberIdOrEmail: memberB.email.toUpperCase(), organizationId: organizationA },
      // The caller's active organization is A (the one they created).
      { memberIdOrEmail: memberRowB },
      { memberIdOrEmail: memberB.email },
    ]) {
      const refused = await ownerA.client.post("/organization/remove-member", body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(400);
      expect(refused.json().code, JSON.stringify(body)).toBe("MEMBER_NOT_FOUND");
    }
    expect(await stateOfB()).toEqual(before);
  });

  it("cannot be removed by naming their organization, where the caller is no member", async () => {
    const before = await stateOfB();
    for (const memberIdOrEmail of [memberRowB, memberB.email]) {
      const refused = await ownerA.client.post("/organization/remove-member", {
        memberIdOrEmail,
        organizationId: organizationB,
      });
      expect(refused.statusCode).toBeGreaterThanOrEqual(400);
      expect(refused.statusCode).toBeLessThan(500);
    }
    expect(await stateOfB()).toEqual(before);
  });

  it("cannot have their role changed from another organization", async () => {
    const before = await stateOfB();
    for (const body of [
      { memberId: memberRowB, role: "admin", organizationId: organizationA },
      { memberId: memberRowB, role: "owner" },
      { memberId: memberRowB, role: "admin", organizationId: organizationB },
    ]) {
      const refused = await ownerA.client.post("/organization/update-member-role", body);
      expect(refused.statusCode, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(refused.statusCode, JSON.stringify(body)).toBeLessThan(500);
    }
    const inA = await ownerA.client.post("/organization/update-member-role", {
      memberId: memberRowB,
      role: "admin",
      organizationId: organizationA,
    });
    expect(inA.json().code).toBe("MEMBER_NOT_FOUND");
    expect(await stateOfB()).toEqual(before);
  });

  it("cannot be put in, or taken out of, a team from another organization", async () => {
    const before = await stateOfB();
    const intoA = await ownerA.client.post("/organization/add-team-member", {
      teamId: teamA,
      userId: memberB.id,
      organizationId: organizationA,
    });
    expect(intoA.statusCode).toBe(400);
    expect(intoA.json().code).toBe("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
    for (const body of [
      { teamId: teamB, userId: memberB.id, organizationId: organizationA },
      { teamId: teamB, userId: memberB.id },
    ]) {
      const outOfB = await ownerA.client.post("/organization/remove-team-member", body);
      expect(outOfB.statusCode, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(outOfB.statusCode, JSON.stringify(body)).toBeLessThan(500);
    }
    const intoB = await ownerA.client.post("/organization/add-team-member", {
      teamId: teamB,
      userId: ownerA.id,
      organizationId: organizationA,
    });
    expect(intoB.statusCode).toBeGreaterThanOrEqual(400);
    expect(intoB.statusCode).toBeLessThan(500);
    expect(await stateOfB()).toEqual(before);
    const [stray] = await t.db.sql`
      select 1 from team_member where team_id = ${teamB} and user_id = ${ownerA.id}`;
    expect(stray).toBeUndefined();
  });

  it("stays out of reach of the organization's own admin for another organization's rows", async () => {
    // Owner B, an owner there, names a member row of A while acting in B.
    const [rowA] = await t.db.sql<{ id: string }[]>`
      select id from member where organization_id = ${organizationA} and user_id = ${ownerA.id}`;
    const refused = await ownerB.client.post("/organization/remove-member", {
      memberIdOrEmail: rowA?.id ?? "",
      organizationId: organizationB,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe("MEMBER_NOT_FOUND");
    const [still] = await t.db.sql`select 1 from member where id = ${rowA?.id ?? ""}`;
    expect(still).toBeDefined();
  });
});
