/**
 * get-full-organization is built by PostgreSQL as one JSON text
 * (server/organization/full-organization.ts). These tests hold it to the wire shape of
 * the endpoints that answer the same rows through the JavaScript responses:
 * list-members, list-invitations, list-teams and list.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.js";
import { type Client, createClient } from "../helpers/client.js";

const PASSWORD = "full organization 123";
let t: TestApp;
let counter = 0;

async function person(name = "P") {
  counter += 1;
  const email = `full-${counter}-${Date.now()}@example.com`;
  const client = createClient(t.app);
  const response = await client.post("/sign-up/email", { name, email, password: PASSWORD });
  expect(response.statusCode, response.body).toBe(200);
  return { client, email, id: response.json().user.id as string };
}

async function addMember(organizationId: string, userId: string, role: string) {
  await t.db.sql`
    insert into member (id, organization_id, user_id, role)
    values (${`m${counter++}${Math.random().toString(36).slice(2, 10)}`}, ${organizationId}, ${userId}, ${role})`;
}

async function full(client: Client, query: Record<string, string> = {}) {
  const response = await client.get("/organization/get-full-organization", { query });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
  return response.json();
}

beforeAll(async () => {
  t = await createTestApp({
    config: {
      organization: {
        teams: { enabled: true },
        roles: {
          recruiter: { invitation: ["create"] },
          viewer: { organization: ["update"] },
        },
      },
    },
  });
});
afterAll(async () => {
  await t?.close();
});

describe("get-full-organization", () => {
  it("answers exactly what list, list-members, list-invitations and list-teams answer", async () => {
    const owner = await person("Owner");
    const created = await owner.client.post("/organization/create", {
      name: 'Acme "quoted" ünïcode',
      slug: `full-${Date.now()}`,
      logo: "https://img.example.com/a.png",
      metadata: { plan: "pro", nested: { seats: 3 } },
    });
    expect(created.statusCode, created.body).toBe(200);
    const organizationId = created.json().id as string;
    const others = await Promise.all([person("Ann"), person("Bob")]);
    await addMember(organizationId, others[0].id, "admin");
    await addMember(organizationId, others[1].id, "member,viewer");
    const team = await owner.client.post("/organization/create-team", { name: "Ops" });
    expect(team.statusCode, team.body).toBe(200);
    await t.db.sql`update team set updated_at = now() where id = ${team.json().id}`;
    for (const [email, role] of [
      ["inv-member@example.com", "member"],
      ["inv-owner@example.com", "owner"],
    ]) {
      const invited = await owner.client.post("/organization/invite-member", {
        email,
        role,
        teamId: team.json().id,
      });
      expect(invited.statusCode, invited.body).toBe(200);
    }

    const answer = await full(owner.client);
    const [organization] = (await owner.client.get("/organization/list")).json();
    const members = (
      await owner.client.get("/organization/list-members", { query: { limit: "100" } })
    ).json();
    const invitations = (await owner.client.get("/organization/list-invitations")).json();
    const teams = (await owner.client.get("/organization/list-teams")).json();
    expect(answer).toEqual({
      ...organization,
      members: members.members,
      membersTotal: 3,
      invitations,
      teams,
    });
    expect(Object.keys(answer)).toEqual([
      "id",
      "name",
      "slug",
      "logo",
      "metadata",
      "createdAt",
      "members",
      "membersTotal",
      "invitations",
      "teams",
    ]);
    expect(answer.invitations).toHaveLength(2);
    expect(teams).toHaveLength(2);
    expect(answer.teams.every((row: { updatedAt: unknown }) => "updatedAt" in row)).toBe(true);
    expect(answer.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    // Selected by slug or id from another active organization: the same answer.
    const other = await owner.client.post("/organization/create", {
      name: "Other",
      slug: `other-${Date.now()}`,
    });
    expect(other.statusCode).toBe(200);
    expect(await full(owner.client, { organizationSlug: organization.slug })).toEqual(answer);
    expect(await full(owner.client, { organizationId })).toEqual(answer);
    expect((await full(owner.client)).id).toBe(other.json().id);

    // membersLimit bounds the page, never the total.
    const limited = await full(owner.client, { organizationId, membersLimit: "1" });
    expect(limited.members).toEqual(members.members.slice(0, 1));
    expect(limited.membersTotal).toBe(3);
  });

  it("shows invitations only to roles that may invite, and owner invitations only to owners", async () => {
    const owner = await person();
    const created = await owner.client.post("/organization/create", {
      name: "Visibility",
      slug: `vis-${Date.now()}`,
    });
    const organizationId = created.json().id as string;
    const [admin, member, recruiter, multi] = await Promise.all([
      person(),
      person(),
      person(),
      person(),
    ]);
    await addMember(organizationId, admin.id, "admin");
    await addMember(organizationId, member.id, "member");
    await addMember(organizationId, recruiter.id, "recruiter");
    await addMember(organizationId, multi.id, "member,owner");
    for (const [email, role] of [
      ["vis-a@example.com", "member"],
      ["vis-b@example.com", "owner"],
      ["vis-c@example.com", "admin,owner"],
    ]) {
      const invited = await owner.client.post("/organization/invite-member", { email, role });
      expect(invited.statusCode, invited.body).toBe(200);
    }
    const emails = async (who: { client: Client }) =>
      (await full(who.client, { organizationId })).invitations
        .map((row: { email: string }) => row.email)
        .sort();
    expect(await emails(owner)).toEqual([
      "vis-a@example.com",
      "vis-b@example.com",
      "vis-c@example.com",
    ]);
    expect(await emails(multi)).toEqual([
      "vis-a@example.com",
      "vis-b@example.com",
      "vis-c@example.com",
    ]);
    expect(await emails(admin)).toEqual(["vis-a@example.com"]);
    expect(await emails(recruiter)).toEqual(["vis-a@example.com"]);
    expect(await emails(member)).toEqual([]);

    // Settled invitations are not pending.
    await t.db.sql`update invitation set status = 'canceled' where email = 'vis-a@example.com'`;
    expect(await emails(admin)).toEqual([]);
  });

  it("refuses outsiders and unknown organizations without leaking anything", async () => {
    const owner = await person();
    const created = await owner.client.post("/organization/create", {
      name: "Private",
      slug: `private-${Date.now()}`,
    });
    const organizationId = created.json().id as string;
    const outsider = await person();
    const selectors: Record<string, string>[] = [
      { organizationId },
      { organizationSlug: created.json().slug },
    ];
    for (const query of selectors) {
      const refused = await outsider.client.get("/organization/get-full-organization", { query });
      expect(refused.json().code).toBe("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
      expect(refused.body).not.toContain(owner.email);
      expect(refused.body).not.toContain("Private");
    }
    const unknownSelectors: Record<string, string>[] = [
      { organizationId: "no-such-organization" },
      { organizationSlug: "no-such-organization" },
    ];
    for (const query of unknownSelectors) {
      const unknown = await outsider.client.get("/organization/get-full-organization", { query });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().code).toBe("ORGANIZATION_NOT_FOUND");
    }
    expect((await outsider.client.get("/organization/get-full-organization")).body).toBe("null");
  });

  it("takes the id over the slug, and the slug over the active organization", async () => {
    const owner = await person();
    const first = await owner.client.post("/organization/create", {
      name: "First",
      slug: `first-${Date.now()}`,
    });
    const second = await owner.client.post("/organization/create", {
      name: "Second",
      slug: `second-${Date.now()}`,
    });
    // The second is now the active organization.
    expect((await full(owner.client)).id).toBe(second.json().id);
    expect((await full(owner.client, { organizationSlug: first.json().slug })).id).toBe(
      first.json().id,
    );
    const both = await full(owner.client, {
      organizationId: first.json().id,
      organizationSlug: second.json().slug,
    });
    expect(both.id).toBe(first.json().id);
  });

  it("needs a live session", async () => {
    const owner = await person();
    await owner.client.post("/organization/create", { name: "Mine", slug: `mine-${Date.now()}` });
    await t.db.sql`update session set expires_at = now() - interval '1 second'
                   where user_id = ${owner.id}`;
    const expired = await owner.client.get("/organization/get-full-organization");
    expect(expired.statusCode).toBe(401);
    expect(expired.json().code).toBe("UNAUTHORIZED");
    const [left] = await t.db
      .sql`select count(*)::int as n from session where user_id = ${owner.id}`;
    expect(left?.n).toBe(0);
  });
});

describe("get-full-organization's cache", () => {
  it("serves a built answer until anything it shows changes, then rebuilds it", async () => {
    const owner = await person("Owner");
    const created = await owner.client.post("/organization/create", {
      name: "Cached",
      slug: `cached-${Date.now()}`,
    });
    expect(created.statusCode, created.body).toBe(200);
    const organizationId = created.json().id as string;
    const ann = await person("Ann");
    await addMember(organizationId, ann.id, "member");

    const expectFresh = async () => {
      const answer = await full(owner.client, { organizationId });
      const members = (
        await owner.client.get("/organization/list-members", {
          query: { organizationId, limit: "100" },
        })
      ).json();
      const invitations = (
        await owner.client.get("/organization/list-invitations", { query: { organizationId } })
      ).json();
      const teams = (
        await owner.client.get("/organization/list-teams", { query: { organizationId } })
      ).json();
      expect(answer.members).toEqual(members.members);
      // get-full-organization shows the pending ones; list-invitations shows them all.
      expect(answer.invitations).toEqual(
        invitations.filter((row: { status: string }) => row.status === "pending"),
      );
      expect(answer.teams).toEqual(teams);
      return answer;
    };

    await expectFresh();
    // A change that bypasses the version triggers shows that answers are cached...
    await t.db.sql`alter table "user" disable trigger user_content_version`;
    try {
      await t.db.sql`update "user" set name = 'Ann Hidden' where id = ${ann.id}`;
      const stale = await full(owner.client, { organizationId });
      expect(stale.members.map((row: { user: { name: string } }) => row.user.name)).toContain(
        "Ann",
      );
    } finally {
      await t.db.sql`alter table "user" enable trigger user_content_version`;
    }
    // ...and every change through the triggers rebuilds them.
    const renamed = await ann.client.post("/update-user", { name: "Ann Renamed" });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(
      (await expectFresh()).members.map((row: { user: { name: string } }) => row.user.name),
    ).toContain("Ann Renamed");

    const role = await owner.client.post("/organization/update-member-role", {
      organizationId,
      memberId: (await expectFresh()).members.find(
        (row: { userId: string }) => row.userId === ann.id,
      ).id,
      role: "admin",
    });
    expect(role.statusCode, role.body).toBe(200);
    await expectFresh();

    const team = await owner.client.post("/organization/create-team", {
      name: "Blue",
      organizationId,
    });
    expect(team.statusCode, team.body).toBe(200);
    await expectFresh();
    const updated = await owner.client.post("/organization/update-team", {
      teamId: team.json().id,
      data: { name: "Green" },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect((await expectFresh()).teams.map((row: { name: string }) => row.name)).toContain("Green");

    const invited = await owner.client.post("/organization/invite-member", {
      email: "cache-invite@example.com",
      role: "member",
      organizationId,
    });
    expect(invited.statusCode, invited.body).toBe(200);
    expect((await expectFresh()).invitations).toHaveLength(1);
    const canceled = await owner.client.post("/organization/cancel-invitation", {
      invitationId: invited.json().id,
    });
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect((await expectFresh()).invitations).toHaveLength(0);

    const renamedOrganization = await owner.client.post("/organization/update", {
      organizationId,
      data: { name: "Cached Renamed" },
    });
    expect(renamedOrganization.statusCode, renamedOrganization.body).toBe(200);
    expect((await full(owner.client, { organizationId })).name).toBe("Cached Renamed");

    const removed = await owner.client.post("/organization/remove-member", {
      organizationId,
      memberIdOrEmail: ann.email,
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await expectFresh()).membersTotal).toBe(1);
    // The removed member is refused at once, cached answer or not.
    const refused = await ann.client.get("/organization/get-full-organization", {
      query: { organizationId },
    });
    expect(refused.json().code).toBe("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
  });
});
