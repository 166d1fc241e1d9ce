/**
 * What hangs on a membership or a team stays consistent under concurrency:
 * add-team-member racing remove-member leaves no team membership for a non-member,
 * and a removed team leaves the pending invitations that named it.
 */
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.js";
import { createClient } from "../helpers/client.js";

const PASSWORD = "team consistency 123";
let t: TestApp;
let side: postgres.Sql;
let counter = 0;

async function person() {
  counter += 1;
  const email = `tc-${counter}-${Date.now()}@example.com`;
  const client = createClient(t.app);
  const response = await client.post("/sign-up/email", { name: "P", email, password: PASSWORD });
  expect(response.statusCode, response.body).toBe(200);
  return { client, email, id: response.json().user.id as string };
}

beforeAll(async () => {
  t = await createTestApp({ config: { organization: { teams: { enabled: true } } } });
  side = postgres(t.testDatabase.url, { max: 2, onnotice: () => {} });
});
afterAll(async () => {
  await side?.end();
  await t?.close();
});

describe("add-team-member against a concurrent removal of the membership", () => {
  it("waits for the removal and then refuses: no team membership without a membership", async () => {
    const owner = await person();
    const created = await owner.client.post("/organization/create", {
      name: "Race",
      slug: `race-${Date.now()}`,
    });
    expect(created.statusCode, created.body).toBe(200);
    const organizationId = created.json().id as string;
    const [teamRow] = await side`select id from team where organization_id = ${organizationId}`;
    const teamId = teamRow?.id as string;
    const joiner = await person();
    await side`
      insert into member (id, organization_id, user_id, role)
      values (${`m-${Date.now()}`}, ${organizationId}, ${joiner.id}, 'member')`;

    // A removal in flight: the membership is deleted, not yet committed.
    const removal = await side.reserve();
    try {
      await removal`begin`;
      await removal`delete from member where organization_id = ${organizationId} and user_id = ${joiner.id}`;
      const adding = owner.client.post("/organization/add-team-member", {
        teamId,
        userId: joiner.id,
      });
      // Give the add time to reach the membership lock, then finish the removal as
      // remove-member does: its team memberships go in a later statement.
      await new Promise((resolve) => setTimeout(resolve, 300));
      await removal`
        delete from team_member tm using team tt
        where tm.team_id = tt.id and tt.organization_id = ${organizationId}
          and tm.user_id = ${joiner.id}`;
      await removal`commit`;
      const response = await adding;
      expect(response.json().code).toBe("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
    } finally {
      removal.release();
    }
    const stray = await side`select id from team_member where user_id = ${joiner.id}`;
    expect(stray).toEqual([]);
  });
});

describe("remove-team", () => {
  it("takes the team out of pending invitations that named it, and only it", async () => {
    const owner = await person();
    const created = await owner.client.post("/organization/create", {
      name: "Invites",
      slug: `inv-${Date.now()}`,
    });
    const organizationId = created.json().id as string;
    const first = (await owner.client.post("/organization/create-team", { name: "One" })).json();
    const second = (await owner.client.post("/organization/create-team", { name: "Two" })).json();
    const invite = async (email: string, teamId: string | string[]) => {
      const response = await owner.client.post("/organization/invite-member", {
        email,
        role: "member",
        teamId,
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().id as string;
    };
    const onlyFirst = await invite("only-first@example.com", first.id);
    const both = await invite("both@example.com", [first.id, second.id]);
    const onlySecond = await invite("only-second@example.com", second.id);
    await side`update invitation set status = 'canceled' where id = ${onlySecond}`;
    const settledBefore = await side`select team_id from invitation where id = ${onlySecond}`;

    const removed = await owner.client.post("/organization/remove-team", {
      teamId: first.id,
      organizationId,
    });
    expect(removed.statusCode, removed.body).toBe(200);
    const teamOf = async (id: string) =>
      (await side`select team_id from invitation where id = ${id}`)[0]?.team_id ?? null;
    expect(await teamOf(onlyFirst)).toBeNull();
    expect(await teamOf(both)).toBe(second.id);
    // A settled invitation is history: left as it was.
    expect(await teamOf(onlySecond)).toBe(settledBefore[0]?.team_id);
    const listed = (await owner.client.get("/organization/list-invitations")).json();
    expect(listed.find((row: { id: string }) => row.id === onlyFirst)).toMatchObject({
      email: "only-first@example.com",
      teamId: null,
    });
  });
});
