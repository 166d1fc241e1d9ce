/**
 * With the cookie cache on, every call that changes what get-session shows for the
 * caller's own session rewrites the signed cache cookie in the same answer: get-session
 * served from the cache (no disableCookieCache) shows the new state at once, and agrees
 * with the database.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.js";
import { type Client, createClient } from "../helpers/client.js";

const PASSWORD = "cached session 123";

let t: TestApp;
let counter = 0;

function uniqueEmail(prefix = "cache"): string {
  counter += 1;
  return `${prefix}${counter}-${Date.now()}@example.com`;
}

function uniqueSlug(): string {
  counter += 1;
  return `cache-${counter}-${Date.now()}`;
}

interface Person {
  client: Client;
  id: string;
  email: string;
}

async function person(prefix?: string): Promise<Person> {
  const client = createClient(t.app);
  const email = uniqueEmail(prefix);
  const response = await client.post("/sign-up/email", { name: "P", email, password: PASSWORD });
  expect(response.statusCode, response.body).toBe(200);
  expect(client.cookies.has("authd.session_data")).toBe(true);
  return { client, id: response.json().user.id, email };
}

/** get-session from the cache, checked against the database's answer. */
async function cached(p: Person) {
  const fromCache = (await p.client.get("/get-session")).json();
  const fromDatabase = (
    await p.client.get("/get-session", { query: { disableCookieCache: "true" } })
  ).json();
  expect(fromCache.session.activeOrganizationId).toBe(fromDatabase.session.activeOrganizationId);
  expect(fromCache.session.activeTeamId).toBe(fromDatabase.session.activeTeamId);
  expect(fromCache.user).toEqual(fromDatabase.user);
  return fromCache as {
    session: { activeOrganizationId: string | null; activeTeamId: string | null };
    user: { name: string; email: string; image: string | null; emailVerified: boolean };
  };
}

/** Fails when a call that changed the session did not send a new cache cookie. */
function expectCacheRewritten(p: Person, response: { headers: Record<string, unknown> }) {
  expect(p.client.setCookies(response as never).has("authd.session_data")).toBe(true);
}

async function createOrganization(p: Person, extra: Record<string, unknown> = {}) {
  const response = await p.client.post("/organization/create", {
    name: "Cached",
    slug: uniqueSlug(),
    ...extra,
  });
  expect(response.statusCode, response.body).toBe(200);
  expectCacheRewritten(p, response);
  return response.json().id as string;
}

beforeAll(async () => {
  t = await createTestApp({
    config: {
      session: { cookieCache: { enabled: true } },
      organization: { teams: { enabled: true } },
      user: { changeEmail: { enabled: true } },
      // Mailed links in their API form (no served page as callback): the tests follow them.
      pages: { enabled: false },
    },
  });
});

afterAll(async () => {
  await t?.close();
});

describe("the cookie cache after organization changes", () => {
  it("create makes the new organization and its default team active in the cache", async () => {
    const p = await person();
    expect((await cached(p)).session.activeOrganizationId).toBeNull();
    const id = await createOrganization(p);
    const session = (await cached(p)).session;
    expect(session.activeOrganizationId).toBe(id);
    expect(session.activeTeamId).not.toBeNull();
    // keepCurrentActiveOrganization changes nothing, and the cache still agrees.
    await p.client.post("/organization/create", {
      name: "Kept",
      slug: uniqueSlug(),
      keepCurrentActiveOrganization: true,
    });
    expect((await cached(p)).session.activeOrganizationId).toBe(id);
  });

  it("set-active switches and clears the cached active organization", async () => {
    const p = await person();
    const first = await createOrganization(p);
    const second = await createOrganization(p);
    expect((await cached(p)).session.activeOrganizationId).toBe(second);
    const switched = await p.client.post("/organization/set-active", { organizationId: first });
    expect(switched.statusCode, switched.body).toBe(200);
    expectCacheRewritten(p, switched);
    expect((await cached(p)).session.activeOrganizationId).toBe(first);
    const cleared = await p.client.post("/organization/set-active", { organizationId: null });
    expect(cleared.statusCode).toBe(200);
    expectCacheRewritten(p, cleared);
    expect((await cached(p)).session).toMatchObject({
      activeOrganizationId: null,
      activeTeamId: null,
    });
  });

  it("set-active refused for a non-member clears the cached active organization too", async () => {
    const p = await person();
    await createOrganization(p);
    const other = await person();
    const foreign = await createOrganization(other);
    const refused = await p.client.post("/organization/set-active", { organizationId: foreign });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
    expectCacheRewritten(p, refused);
    expect((await cached(p)).session.activeOrganizationId).toBeNull();
  });

  it("delete clears the active organization in the cache", async () => {
    const p = await person();
    const id = await createOrganization(p);
    const deleted = await p.client.post("/organization/delete", { organizationId: id });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expectCacheRewritten(p, deleted);
    expect((await cached(p)).session).toMatchObject({
      activeOrganizationId: null,
      activeTeamId: null,
    });
  });

  it("leave and remove-member (oneself) clear the active organization in the cache", async () => {
    const owner = await person("owner");
    const organizationId = await createOrganization(owner);
    const joiners: Person[] = [];
    for (const prefix of ["leaver", "removed"]) {
      const joiner = await person(prefix);
      const invited = await owner.client.post("/organization/invite-member", {
        email: joiner.email,
        role: "member",
        organizationId,
      });
      expect(invited.statusCode, invited.body).toBe(200);
      // accept-invitation makes the organization active, in the cache too.
      const accepted = await joiner.client.post("/organization/accept-invitation", {
        invitationId: invited.json().id,
      });
      expect(accepted.statusCode, accepted.body).toBe(200);
      expectCacheRewritten(joiner, accepted);
      expect((await cached(joiner)).session.activeOrganizationId).toBe(organizationId);
      joiners.push(joiner);
    }
    const [leaver, removed] = joiners as [Person, Person];
    const left = await leaver.client.post("/organization/leave", { organizationId });
    expect(left.statusCode, left.body).toBe(200);
    expectCacheRewritten(leaver, left);
    expect((await cached(leaver)).session.activeOrganizationId).toBeNull();

    const gone = await removed.client.post("/organization/remove-member", {
      organizationId,
      memberIdOrEmail: removed.email,
    });
    expect(gone.statusCode, gone.body).toBe(200);
    expectCacheRewritten(removed, gone);
    expect((await cached(removed)).session.activeOrganizationId).toBeNull();
    // The owner's own session is untouched.
    expect((await cached(owner)).session.activeOrganizationId).toBe(organizationId);
  });

  it("set-active-team and remove-team-member (oneself) keep the cached team in step", async () => {
    const p = await person();
    await createOrganization(p);
    const team = await p.client.post("/organization/create-team", { name: "Second" });
    expect(team.statusCode, team.body).toBe(200);
    const teamId = team.json().id as string;
    const added = await p.client.post("/organization/add-team-member", {
      teamId,
      userId: p.id,
    });
    expect(added.statusCode, added.body).toBe(200);
    const active = await p.client.post("/organization/set-active-team", { teamId });
    expect(active.statusCode, active.body).toBe(200);
    expectCacheRewritten(p, active);
    expect((await cached(p)).session.activeTeamId).toBe(teamId);
    const out = await p.client.post("/organization/remove-team-member", {
      teamId,
      userId: p.id,
    });
    expect(out.statusCode, out.body).toBe(200);
    expectCacheRewritten(p, out);
    expect((await cached(p)).session.activeTeamId).toBeNull();
  });
});

describe("the cookie cache after user changes", () => {
  it("update-user shows the new name and image", async () => {
    const p = await person();
    const response = await p.client.post("/update-user", {
      name: "Renamed",
      image: "https://img.example.com/r.png",
    });
    expect(response.statusCode, response.body).toBe(200);
    expectCacheRewritten(p, response);
    expect((await cached(p)).user).toMatchObject({
      name: "Renamed",
      image: "https://img.example.com/r.png",
    });
  });

  it("following a change-email link in the same browser shows the new address", async () => {
    const p = await person();
    const newEmail = uniqueEmail("moved");
    const response = await p.client.post("/change-email", { newEmail });
    expect(response.statusCode, response.body).toBe(200);
    const mail = await t.smtp.waitFor(newEmail);
    const link = new URL(t.smtp.linkIn(mail, "/verify-email"));
    const verified = await p.client.get(link.pathname.replace(/^\/api\/auth/, ""), {
      query: Object.fromEntries(link.searchParams),
    });
    expect(verified.statusCode, verified.body).toBe(200);
    expectCacheRewritten(p, verified);
    expect((await cached(p)).user.email).toBe(newEmail);
  });

  it("verify-email in the same browser shows the address as verified", async () => {
    const p = await person();
    const sent = await p.client.post("/send-verification-email", { email: p.email });
    expect(sent.statusCode, sent.body).toBe(200);
    const link = new URL(t.smtp.linkIn(await t.smtp.waitFor(p.email), "/verify-email"));
    const verified = await p.client.get(link.pathname.replace(/^\/api\/auth/, ""), {
      query: Object.fromEntries(link.searchParams),
    });
    expect(verified.statusCode, verified.body).toBe(200);
    expect((await cached(p)).user.emailVerified).toBe(true);
  });

  it("a platform admin changing their own user sees it in the cache", async () => {
    const p = await person("admin");
    await t.db.sql`update "user" set role = 'admin' where id = ${p.id}`;
    // A fresh sign-in caches the admin role.
    await p.client.post("/sign-in/email", { email: p.email, password: PASSWORD });
    const updated = await p.client.post("/admin/update-user", {
      userId: p.id,
      data: { name: "Admin Renamed" },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expectCacheRewritten(p, updated);
    expect((await cached(p)).user.name).toBe("Admin Renamed");
  });
});
