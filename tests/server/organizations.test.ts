import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuthdConfigInput } from "../../server/config.js";
import { createSecondInstance, createTestApp, type TestApp } from "../helpers/app.js";
import { type Client, createClient } from "../helpers/client.js";

const PASSWORD = "organizations 123";
let t: TestApp;
let counter = 0;

async function person(app: TestApp = t, name = "P") {
  counter += 1;
  const email = `org-${counter}-${Date.now()}@example.com`;
  const client = createClient(app.app);
  const response = await client.post("/sign-up/email", { name, email, password: PASSWORD });
  expect(response.statusCode, response.body).toBe(200);
  return { client, email, id: response.json().user.id as string };
}

function slug(prefix = "acme") {
  counter += 1;
  return `${prefix}-${counter}-${Date.now().toString(36)}`;
}

async function createOrg(client: Client, body: Record<string, unknown> = {}) {
  const response = await client.post("/organization/create", {
    name: "Acme",
    slug: slug(),
    ...body,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** Adds `user` to the organization with `role`, as an accepted invitation would. */
async function addMember(app: TestApp, organizationId: string, userId: string, role: string) {
  const [row] = await app.db.sql<{ id: string }[]>`
    insert into member (id, organization_id, user_id, role)
    values (${`m${Date.now()}${Math.random().toString(36).slice(2, 10)}`}, ${organizationId}, ${userId}, ${role})
    returning id`;
  return row?.id as string;
}

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe("create", () => {
  it("creates the organization with the creator as owner and makes it active", async () => {
    const { client, id } = await person();
    const s = slug();
    const response = await client.post("/organization/create", {
      name: "Acme Inc",
      slug: s,
      logo: "https://img.example.com/logo.png",
      metadata: { plan: "pro" },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      name: "Acme Inc",
      slug: s,
      logo: "https://img.example.com/logo.png",
      metadata: { plan: "pro" },
      members: [{ userId: id, role: "owner", organizationId: body.id }],
    });
    const session = (await client.get("/get-session")).json();
    expect(session.session.activeOrganizationId).toBe(body.id);
  });

  it("keeps the current active organization when asked", async () => {
    const { client } = await person();
    const first = await createOrg(client);
    await createOrg(client, { keepCurrentActiveOrganization: true });
    expect((await client.get("/get-session")).json().session.activeOrganizationId).toBe(first.id);
  });

  for (const keepCurrentActiveOrganization of [true, false]) {
    it(`refuses a taken slug, and of two concurrent creates of one slug keeps one (keepCurrentActiveOrganization: ${keepCurrentActiveOrganization})`, async () => {
      const { client, id: creatorId } = await person();
      const before = await createOrg(client);
      const s = slug();
      const responses = await Promise.all(
        ["A", "B"].map((name) =>
          client.post("/organization/create", { name, slug: s, keepCurrentActiveOrganization }),
        ),
      );
      expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 400]);
      const failed = responses.find((r) => r.statusCode === 400);
      expect(failed?.json()).toEqual({
        code: "ORGANIZATION_ALREADY_EXISTS",
        message: "Organization already exists",
      });
      const rows = await t.db.sql<{ id: string }[]>`select id from organization where slug = ${s}`;
      expect(rows).toHaveLength(1);
      // The audit trail records the creations that happened, and only those.
      const created = await t.db.sql<{ organizationId: string }[]>`
        select organization_id from audit_event
        where action = 'organization.created' and actor_id = ${creatorId}
        order by created_at`;
      expect(created.map((row) => row.organizationId)).toEqual([before.id, rows[0]?.id]);
      // The refused create switched nothing: the session is on the one that exists.
      const active = (await client.get("/get-session")).json().session.activeOrganizationId;
      expect(active).toBe(keepCurrentActiveOrganization ? before.id : rows[0]?.id);
    });
  }

  it("documents the slug rule: no spaces, no uppercase", async () => {
    const { client } = await person();
    for (const bad of [
      "Has Space",
      "UPPER",
      "trailing-",
      "-leading",
      "double--hyphen",
      "",
      "x".repeat(101),
    ]) {
      const response = await client.post("/organization/create", { name: "A", slug: bad });
      expect(response.statusCode, bad).toBe(400);
      expect(response.json().code, bad).toBe("VALIDATION_ERROR");
    }
    const rows = await t.db.sql`select id from organization where name = 'A' and slug like '% %'`;
    expect(rows).toHaveLength(0);
  });

  it("requires a session, a name and a slug", async () => {
    const anonymous = createClient(t.app);
    expect(
      (await anonymous.post("/organization/create", { name: "A", slug: slug() })).statusCode,
    ).toBe(401);
    const { client } = await person();
    for (const body of [
      { slug: slug() },
      { name: "A" },
      { name: "", slug: slug() },
      { name: 5, slug: slug() },
    ]) {
      expect((await client.post("/organization/create", body)).statusCode).toBe(400);
    }
  });

  it("creates on behalf of another user only for platform admins", async () => {
    const { client } = await person();
    const other = await person();
    const refused = await client.post("/organization/create", {
      name: "A",
      slug: slug(),
      userId: other.id,
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe("YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_ORGANIZATION");
    const admin = await person();
    await t.db.sql`update "user" set role = 'admin' where id = ${admin.id}`;
    const made = await admin.client.post("/organization/create", {
      name: "B",
      slug: slug(),
      userId: other.id,
    });
    expect(made.statusCode).toBe(200);
    expect(made.json().members[0].userId).toBe(other.id);
  });
});

describe("limits and settings", () => {
  it("caps organizations per user, also under concurrency", async () => {
    const limited = await createTestApp({ config: { organization: { organizationLimit: 2 } } });
    try {
      const { client } = await person(limited);
      const responses = await Promise.all(
        [1, 2, 3, 4, 5].map((n) =>
          client.post("/organization/create", { name: `O${n}`, slug: slug() }),
        ),
      );
      expect(responses.filter((r) => r.statusCode === 200)).toHaveLength(2);
      const refused = responses.filter((r) => r.statusCode === 403);
      expect(refused).toHaveLength(3);
      expect(refused[0]?.json().code).toBe("YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_ORGANIZATIONS");
    } finally {
      await limited.close();
    }
  });

  it("honours allowUserToCreateOrganization as a function, and hooks", async () => {
    const seen: string[] = [];
    const config: AuthdConfigInput = {
      organization: {
        allowUserToCreateOrganization: (user: { name: string }) => user.name !== "Blocked",
        hooks: {
          beforeCreateOrganization: ({ organization }: { organization: { slug: string } }) => {
            if (organization.slug.startsWith("forbidden"))
              throw new Error("slug reserved by policy");
          },
          afterCreateOrganization: ({ organization }: { organization: { slug: string } }) => {
            seen.push(organization.slug);
          },
        },
      },
    };
    const app = await createTestApp({ config });
    try {
      const blocked = await person(app, "Blocked");
      const refused = await blocked.client.post("/organization/create", {
        name: "A",
        slug: slug(),
      });
      expect(refused.statusCode).toBe(403);
      const { client } = await person(app);
      const hooked = await client.post("/organization/create", {
        name: "A",
        slug: slug("forbidden"),
      });
      expect(hooked.statusCode).toBe(400);
      expect(hooked.json()).toEqual({
        code: "ORGANIZATION_HOOK_REJECTED",
        message: "slug reserved by policy",
      });
      expect(
        await app.db.sql`select id from organization where slug like 'forbidden%'`,
      ).toHaveLength(0);
      const ok = await createOrg(client);
      expect(seen).toEqual([ok.slug]);
    } finally {
      await app.close();
    }
  });

  it("creates a default team with the creator when teams are enabled", async () => {
    const app = await createTestApp({ config: { organization: { teams: { enabled: true } } } });
    try {
      const { client, id } = await person(app);
      const organization = await createOrg(client, { name: "Team Org" });
      const teams = await app.db.sql<{ id: string; name: string }[]>`
        select id, name from team where organization_id = ${organization.id}`;
      expect(teams.map((team) => team.name)).toEqual(["Team Org"]);
      const members = await app.db
        .sql`select user_id from team_member where team_id = ${teams[0]?.id ?? ""}`;
      expect(members).toEqual([{ userId: id }]);
      expect((await client.get("/get-session")).json().session.activeTeamId).toBe(teams[0]?.id);
    } finally {
      await app.close();
    }
  });
});

describe("check-slug, update, list, delete", () => {
  it("check-slug answers status true for a free slug and 'slug is taken' otherwise", async () => {
    const { client } = await person();
    const organization = await createOrg(client);
    expect((await client.post("/organization/check-slug", { slug: slug() })).json()).toEqual({
      status: true,
    });
    const taken = await client.post("/organization/check-slug", { slug: organization.slug });
    expect(taken.statusCode).toBe(400);
    expect(taken.json()).toEqual({ code: "SLUG_IS_TAKEN", message: "slug is taken" });
  });

  it("updates the active organization by default; admins may, members may not", async () => {
    const owner = await person();
    const organization = await createOrg(owner.client);
    const updated = await owner.client.post("/organization/update", {
      data: { name: "Renamed", metadata: { a: 1 } },
    });
    expect(updated.json()).toMatchObject({
      id: organization.id,
      name: "Renamed",
      metadata: { a: 1 },
    });
    const admin = await person();
    const member = await person();
    await addMember(t, organization.id, admin.id, "admin");
    await addMember(t, organization.id, member.id, "member");
    const byAdmin = await admin.client.post("/organization/update", {
      organizationId: organization.id,
      data: { name: "By admin" },
    });
    expect(byAdmin.statusCode).toBe(200);
    const byMember = await member.client.post("/organization/update", {
      organizationId: organization.id,
      data: { name: "By member" },
    });
    expect(byMember.statusCode).toBe(403);
    expect(byMember.json().code).toBe("YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_ORGANIZATION");
    const other = await createOrg(owner.client);
    const taken = await owner.client.post("/organization/update", {
      organizationId: organization.id,
      data: { slug: other.slug },
    });
    expect(taken.json().code).toBe("ORGANIZATION_SLUG_ALREADY_TAKEN");
  });

  it("lists only the caller's organizations", async () => {
    const a = await person();
    const b = await person();
    const mine = await createOrg(a.client);
    await createOrg(b.client);
    const list = (await a.client.get("/organization/list")).json();
    expect(list.map((o: { id: string }) => o.id)).toEqual([mine.id]);
  });

  it("lists in the wire shape of create and get-organization, oldest first", async () => {
    const a = await person();
    expect((await a.client.get("/organization/list")).json()).toEqual([]);
    const first = await createOrg(a.client, {
      logo: "https://img.example.com/a.png",
      metadata: { plan: "pro", seats: 5, nested: { ok: true } },
    });
    const second = await createOrg(a.client, { name: 'Ünïcode "quoted" \\ name' });
    const response = await a.client.get("/organization/list");
    expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
    const list = response.json();
    const viaGet = [];
    for (const { id } of [first, second]) {
      const got = await a.client.get("/organization/get-organization", {
        query: { organizationId: id },
      });
      viaGet.push(got.json());
    }
    expect(list).toEqual(viaGet);
    for (const [index, organization] of list.entries()) {
      expect(Object.keys(organization)).toEqual(Object.keys(viaGet[index]));
    }
    expect(list[0].createdAt).toBe(first.createdAt);
    expect(list[1].name).toBe('Ünïcode "quoted" \\ name');
  });

  it("keeps each built list by the versions it shows: never stale, on any instance", async () => {
    const a = await person();
    const b = await person();
    const mine = await createOrg(a.client, { name: "Mine" });
    const theirs = await createOrg(b.client, { name: "Theirs" });
    // A second instance on the same database, with its own cache.
    const other = await createSecondInstance(t);
    try {
      const elsewhere = createClient(other);
      for (const [name, value] of a.client.cookies) elsewhere.cookies.set(name, value);
      const names = async (client: Client) => {
        const response = await client.get("/organization/list");
        expect(response.statusCode, response.body).toBe(200);
        return response.json().map((o: { name: string }) => o.name);
      };
      const expectBoth = async (expected: string[]) => {
        expect(await names(a.client)).toEqual(expected);
        expect(await names(elsewhere)).toEqual(expected);
      };
      await expectBoth(["Mine"]);
      // A change that bypasses the version triggers shows that lists are kept...
      await t.db.sql`alter table organization disable trigger organization_content_version`;
      try {
        await t.db.sql`update organization set name = 'Hidden' where id = ${mine.id}`;
        await expectBoth(["Mine"]);
      } finally {
        await t.db.sql`alter table organization enable trigger organization_content_version`;
      }
      // ...and each change through the API is seen by both instances at once.
      const renamed = await a.client.post("/organization/update", {
        organizationId: mine.id,
        data: { name: "Mine Renamed" },
      });
      expect(renamed.statusCode, renamed.body).toBe(200);
      await expectBoth(["Mine Renamed"]);
      await addMember(t, theirs.id, a.id, "member");
      await expectBoth(["Mine Renamed", "Theirs"]);
      const theirsRenamed = await b.client.post("/organization/update", {
        organizationId: theirs.id,
        data: { name: "Theirs Renamed" },
      });
      expect(theirsRenamed.statusCode, theirsRenamed.body).toBe(200);
      await expectBoth(["Mine Renamed", "Theirs Renamed"]);
      const left = await a.client.post("/organization/leave", { organizationId: theirs.id });
      expect(left.statusCode, left.body).toBe(200);
      await expectBoth(["Mine Renamed"]);
      const deleted = await a.client.post("/organization/delete", { organizationId: mine.id });
      expect(deleted.statusCode, deleted.body).toBe(200);
      await expectBoth([]);
      // Another member of the same organizations is answered the same list.
      expect(await names(b.client)).toEqual(["Theirs Renamed"]);
    } finally {
      await other.close();
    }
  });

  it("lists only for a live session: signed out, expired or banned answer 401", async () => {
    const signedOut = await createClient(t.app).get("/organization/list");
    expect(signedOut.statusCode).toBe(401);
    expect(signedOut.json().code).toBe("UNAUTHORIZED");

    const banned = await person();
    await createOrg(banned.client);
    await t.db.sql`update "user" set banned = true where id = ${banned.id}`;
    expect((await banned.client.get("/organization/list")).statusCode).toBe(401);

    const expired = await person();
    await createOrg(expired.client);
    await t.db.sql`update session set expires_at = now() - interval '1 second'
                   where user_id = ${expired.id}`;
    expect((await expired.client.get("/organization/list")).statusCode).toBe(401);
    // The expired session found by the lookup is deleted, as get-session does.
    const [left] = await t.db.sql<{ count: number }[]>`
      select count(*)::int as count from session where user_id = ${expired.id}`;
    expect(left?.count).toBe(0);
  });

  it("deletes: owner only, clears the active organization, disabled by config", async () => {
    const owner = await person();
    const organization = await createOrg(owner.client);
    const admin = await person();
    await addMember(t, organization.id, admin.id, "admin");
    const byAdmin = await admin.client.post("/organization/delete", {
      organizationId: organization.id,
    });
    expect(byAdmin.statusCode).toBe(403);
    expect(byAdmin.json().code).toBe("YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_ORGANIZATION");
    const deleted = await owner.client.post("/organization/delete", {
      organizationId: organization.id,
    });
    expect(deleted.json()).toMatchObject({ id: organization.id });
    expect((await owner.client.get("/get-session")).json().session.activeOrganizationId).toBeNull();
    expect(
      await t.db.sql`select id from member where organization_id = ${organization.id}`,
    ).toHaveLength(0);
    const disabled = await createTestApp({
      config: { organization: { disableOrganizationDeletion: true } },
    });
    try {
      const p = await person(disabled);
      const o = await createOrg(p.client);
      const refused = await p.client.post("/organization/delete", { organizationId: o.id });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().code).toBe("ORGANIZATION_DELETION_DISABLED");
    } finally {
      await disabled.close();
    }
  });
});

describe("members", () => {
  it("the sole owner cannot leave; a member can, and loses the active organization", async () => {
    const owner = await person();
    const organization = await createOrg(owner.client);
    const soleOwner = await owner.client.post("/organization/leave", {
      organizationId: organization.id,
    });
    expect(soleOwner.statusCode).toBe(400);
    expect(soleOwner.json().code).toBe("YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER");
    const member = await person();
    await addMember(t, organization.id, member.id, "member");
    await member.client.post("/organization/set-active", { organizationId: organization.id });
    const left = await member.client.post("/organization/leave", {
      organizationId: organization.id,
    });
    expect(left.json()).toMatchObject({ userId: member.id, user: { email: member.email } });
    expect(
      (await member.client.get("/get-session")).json().session.activeOrganizationId,
    ).toBeNull();
  });

  it("remove-member needs member:delete; the only owner cannot be removed", async () => {
    const owner = await person();
    const organization = await createOrg(owner.client);
    const admin = await person();
    const member = await person();
    const adminMember = await addMember(t, organization.id, admin.id, "admin");
    await addMember(t, organization.id, member.id, "member");
    const byMember = await member.client.post("/organization/remove-member", {
      memberIdOrEmail: adminMember,
      organizationId: organization.id,
    });
    expect(byMember.statusCode).toBe(403);
    expect(byMember.json().code).toBe("YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER");
    const ownerMember = (await owner.client.get("/organization/get-active-member")).json();
    // The only owner: an admin, who may remove members, is told the reason.
    const removeOwner = await admin.client.post("/organization/remove-member", {
      memberIdOrEmail: ownerMember.id,
      organizationId: organization.id,
    });
    expect(removeOwner.statusCode).toBe(400);
    expect(removeOwner.json().code).toBe("YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER");
    // One owner of two: still only an owner removes an owner.
    const secondOwner = await person();
    const secondOwnerMember = await addMember(t, organization.id, secondOwner.id, "owner");
    const removeAnOwner = await admin.client.post("/organization/remove-member", {
      memberIdOrEmail: secondOwnerMember,
      organizationId: organization.id,
    });
    expect(removeAnOwner.statusCode).toBe(403);
    expect(removeAnOwner.json().code).toBe("YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER");
    // A member without member:delete learns nothing about owners.
    const ownerByMember = await member.client.post("/organization/remove-member", {
      memberIdOrEmail: ownerMember.id,
      organizationId: organization.id,
    });
    expect(ownerByMember.json().code).toBe("YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER");
    const [owners] = await t.db.sql<{ count: number }[]>`
      select count(*)::int as count from member
      where organization_id = ${organization.id} and role = 'owner'`;
    expect(owners?.count).toBe(2);
    const byOwner = await owner.client.post("/organization/remove-member", {
      memberIdOrEmail: secondOwnerMember,
      organizationId: organization.id,
    });
    expect(byOwner.statusCode, byOwner.body).toBe(200);
    const byEmail = await admin.client.post("/organization/remove-member", {
      memberIdOrEmail: member.email.toUpperCase(),
      organizationId: organization.id,
    });
    expect(byEmail.json().member).toMatchObject({ userId: member.id });
    const self = await owner.client.post("/organization/remove-member", {
      memberIdOrEmail: ownerMember.id,
    });
    expect(self.json().code).toBe("YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER");
  });

  it("update-member-role: known roles, owner-only owner changes, last owner kept", async () => {
    const owner = await person();
    const organization = await createOrg(owner.client);
    const admin = await person();
    const member = await person();
    const adminMember = await addMember(t, organization.id, admin.id, "admin");
    const memberId = await addMember(t, organization.id, member.id, "member");
    const byMember = await member.client.post("/organization/update-member-role", {
      memberId: adminMember,
      role: "member",
      organizationId: organization.id,
    });
    expect(byMember.statusCode).toBe(403);
    expect(byMember.json().code).toBe("YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER");
    const unknown = await owner.client.post("/organization/update-member-role", {
      memberId,
      role: "ghost",
    });
    expect(unknown.json()).toEqual({ code: "ROLE_NOT_FOUND", message: "ROLE_NOT_FOUND: ghost" });
    const promote = await admin.client.post("/organization/update-member-role", {
      memberId,
      role: "owner",
      organizationId: organization.id,
    });
    expect(promote.statusCode).toBe(403);
    const multi = await owner.client.post("/organization/update-member-role", {
      memberId,
      role: ["admin", "member"],
    });
    expect(multi.json()).toMatchObject({ id: memberId, role: "admin,member" });
    const ownerMember = (await owner.client.get("/organization/get-active-member")).json();
    const demote = await owner.client.post("/organization/update-member-role", {
      memberId: ownerMember.id,
      role: "admin",
    });
    expect(demote.statusCode).toBe(400);
    expect(demote.json().code).toBe("YOU_CANNOT_LEAVE_THE_ORGANIZATION_WITHOUT_AN_OWNER");
  });

  it("lists members with pagination and a total, never silently truncated", async () => {
    const owner = await person();
    const organization = await createOrg(owner.client);
    const people = await Promise.all([1, 2, 3, 4].map(() => person()));
    for (const p of people) await addMember(t, organization.id, p.id, "member");
    const page = (
      await owner.client.get("/organization/list-members", { query: { limit: "2", offset: "1" } })
    ).json();
    expect(page.total).toBe(5);
    expect(page.members).toHaveLength(2);
    expect(page).toMatchObject({ limit: 2, offset: 1 });
    // An empty page still counts every member.
    const none = (
      await owner.client.get("/organization/list-members", { query: { limit: "0" } })
    ).json();
    expect(none).toMatchObject({ members: [], total: 5, limit: 0 });
    const owners = (
      await owner.client.get("/organization/list-members", { query: { role: "owner" } })
    ).json();
    expect(owners.total).toBe(1);
    const outsider = await person();
    const refused = await outsider.client.get("/organization/list-members", {
      query: { organizationId: organization.id },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe("YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION");
  });

  it("get-active-member needs an active organization", async () => {
    const { client } = await person();
    const response = await client.get("/organization/get-active-member");
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: "NO_ACTIVE_ORGANIZATION",
      message: "No active organization",
    });
  });
});

describe("set-active, get-full-organization, has-permission", () => {
  it("switches, clears, and refuses organizations the caller is not in", async () => {
    const owner = await person();
    const first = await createOrg(owner.client);
    const second = await createOrg(owner.client);
    expect(
      (await owner.client.post("/organization/set-active", { organizationId: first.id })).json().id,
    ).toBe(first.id);
    expect(
      (
        await owner.client.post("/organization/set-active", { organizationSlug: second.slug })
      ).json().id,
    ).toBe(second.id);
    expect(
      (await owner.client.post("/organization/set-active", { organizationId: null })).body,
    ).toBe("null");
    const outsider = await person();
    const refused = await outsider.client.post("/organization/set-active", {
      organizationId: first.id,
    });
    expect(refused.statusCode).toBe(403);
    const unknown = await outsider.client.post("/organization/set-active", {
      organizationId: "nope",
    });
    expect(unknown.json().code).toBe("ORGANIZATION_NOT_FOUND");
  });

  it("answers the full organization with a bounded member list", async () => {
    const owner = await person();
    const organization = await createOrg(owner.client);
    const people = await Promise.all([1, 2, 3].map(() => person()));
    for (const p of people) await addMember(t, organization.id, p.id, "member");
    const full = (
      await owner.client.get("/organization/get-full-organization", {
        query: { membersLimit: "2" },
      })
    ).json();
    expect(full).toMatchObject({
      id: organization.id,
      membersTotal: 4,
      invitations: [],
      teams: null,
    });
    expect(full.members).toHaveLength(2);
    expect(full.members[0].user.email).toBe(owner.email);
    const outsider = await person();
    const refused = await outsider.client.get("/organization/get-full-organization", {
      query: { organizationId: organization.id },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
    expect(refused.body).not.toContain(owner.email);
    expect((await outsider.client.get("/organization/get-full-organization")).body).toBe("null");
  });

  it("has-permission follows the organization role table", async () => {
    const owner = await person();
    const organization = await createOrg(owner.client);
    const admin = await person();
    const member = await person();
    await addMember(t, organization.id, admin.id, "admin");
    await addMember(t, organization.id, member.id, "member");
    const ask = (client: Client, permissions: Record<string, string[]>) =>
      client
        .post("/organization/has-permission", { organizationId: organization.id, permissions })
        .then((r) => r.json().success);
    const table: Array<[Record<string, string[]>, boolean, boolean, boolean]> = [
      [{ organization: ["update"] }, true, true, false],
      [{ organization: ["delete"] }, true, false, false],
      [{ member: ["create", "update", "delete"] }, true, true, false],
      [{ invitation: ["create", "cancel"] }, true, true, false],
      [{ team: ["create", "update", "delete"] }, true, true, false],
      [{ billing: ["read"] }, false, false, false],
    ];
    for (const [permissions, forOwner, forAdmin, forMember] of table) {
      expect(await ask(owner.client, permissions), JSON.stringify(permissions)).toBe(forOwner);
      expect(await ask(admin.client, permissions), JSON.stringify(permissions)).toBe(forAdmin);
      expect(await ask(member.client, permissions), JSON.stringify(permissions)).toBe(forMember);
    }
  });
});

describe("answers built by PostgreSQL", () => {
  it("list and get-full-organization answer the same compact JSON as every other endpoint", async () => {
    const owner = await person();
    const created = await createOrg(owner.client, {
      metadata: { plan: "pro", nested: { seats: [1, 2], note: "a : b , c" } },
    });
    const cookie = [...owner.client.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    // Read without the test client, whose own check would stop at the first spaced answer.
    for (const url of [
      "/api/auth/organization/list",
      `/api/auth/organization/get-full-organization?organizationId=${created.id}`,
    ]) {
      for (let read = 0; read < 2; read++) {
        // The first read builds the answer; the second is served from the built copy.
        const response = await t.app.inject({ method: "GET", url, headers: { cookie } });
        expect(response.statusCode, response.body).toBe(200);
        expect(response.body).not.toMatch(/" : |", "|\}, \{/);
        expect(response.body).toBe(JSON.stringify(JSON.parse(response.body)));
        expect(response.body).toContain(
          '"metadata":{"plan":"pro","nested":{"note":"a : b , c","seats":[1,2]}}',
        );
      }
    }
  });
});

describe("organization metadata", () => {
  it("refuses metadata PostgreSQL cannot store (a NUL in a key or value) and writes nothing", async () => {
    const owner = await person();
    const before = await t.db.sql`select count(*)::int as count from organization`;
    for (const metadata of [
      { note: "a\u0000b" },
      { "ke\u0000y": 1 },
      { nested: { list: ["ok", "no\u0000"] } },
    ]) {
      const refused = await owner.client.post("/organization/create", {
        name: "Acme",
        slug: slug(),
        metadata,
      });
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json()).toMatchObject({
        code: "VALIDATION_ERROR",
        details: [{ path: "metadata", message: "metadata must not contain NUL characters" }],
      });
    }
    expect(await t.db.sql`select count(*)::int as count from organization`).toEqual(before);
    const organization = await createOrg(owner.client, { metadata: { plan: "pro" } });
    const update = await owner.client.post("/organization/update", {
      organizationId: organization.id,
      data: { metadata: { plan: "\u0000" } },
    });
    expect(update.statusCode).toBe(400);
    expect(update.json().details).toEqual([
      { path: "data.metadata", message: "metadata must not contain NUL characters" },
    ]);
    const [row] = await t.db.sql`select metadata from organization where id = ${organization.id}`;
    expect(row?.metadata).toEqual({ plan: "pro" });
  });

  it("refuses metadata a beforeCreateOrganization hook makes unstorable", async () => {
    const hooked = await createTestApp({
      config: {
        organization: {
          hooks: {
            beforeCreateOrganization: async () => ({ data: { metadata: { from: "hook\u0000" } } }),
          },
        },
      },
    });
    try {
      const client = createClient(hooked.app);
      const signedUp = await client.post("/sign-up/email", {
        name: "H",
        email: "hooked@example.com",
        password: PASSWORD,
      });
      expect(signedUp.statusCode).toBe(200);
      const refused = await client.post("/organization/create", { name: "Acme", slug: "acme" });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().code).toBe("VALIDATION_ERROR");
      expect(await hooked.db.sql`select id from organization`).toHaveLength(0);
    } finally {
      await hooked.close();
    }
  });
});
