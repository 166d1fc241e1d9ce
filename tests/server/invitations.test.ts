/**
 * Invitations over HTTP: invite-member, accept-, reject-, cancel-invitation,
 * get-invitation, list-invitations, list-user-invitations, and signing up from an
 * invitation. Real PostgreSQL, mail read out of a real SMTP sink.
 * Organizations and members are set up with the organization query functions.
 */
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateId } from "../../server/crypto/random.js";
import {
  deleteMemberRow,
  insertMember,
  type MemberRow,
} from "../../server/organization/member-queries.js";
import { insertOrganization, type OrganizationRow } from "../../server/organization/queries.js";
import { setActiveOrganizationOfSession as setSessionActiveOrganization } from "../../server/sessions/sessions.js";
import { insertTeam, insertTeamMember } from "../../server/teams/queries.js";
import { setEmailVerified, type UserRow } from "../../server/users/queries.js";
import { createTestApp, type TestApp } from "../helpers/app.js";
import { type Client, createClient } from "../helpers/client.js";

const PASSWORD = "correct horse battery";
const ORIGIN = "http://localhost:3000";
const BASE = `${ORIGIN}/api/auth`;
const DAY = 86_400_000;

const err = (code: string, message: string) => ({ code, message });
const UNAUTHORIZED = err("UNAUTHORIZED", "Unauthorized");
const INVITATION_NOT_FOUND = err("INVITATION_NOT_FOUND", "Invitation not found");
const NOT_RECIPIENT = err(
  "YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION",
  "You are not the recipient of the invitation",
);
const MEMBER_NOT_FOUND = err("MEMBER_NOT_FOUND", "Member not found");
const NOT_ALLOWED_TO_INVITE = err(
  "YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION",
  "You are not allowed to invite users to this organization",
);
const NOT_ALLOWED_TO_CANCEL = err(
  "YOU_ARE_NOT_ALLOWED_TO_CANCEL_THIS_INVITATION",
  "You are not allowed to cancel this invitation",
);
const ALREADY_INVITED = err(
  "USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION",
  "User is already invited to this organization",
);
const MEMBERSHIP_LIMIT = err(
  "ORGANIZATION_MEMBERSHIP_LIMIT_REACHED",
  "Organization membership limit reached",
);
const TEAM_NOT_FOUND = err("TEAM_NOT_FOUND", "Team not found");
const TEAM_LIMIT = err("TEAM_MEMBER_LIMIT_REACHED", "Team member limit reached");
const NOT_A_MEMBER = err(
  "YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION",
  "You are not a member of this organization",
);

const INVITATION_KEYS = [
  "createdAt",
  "email",
  "expiresAt",
  "id",
  "inviterId",
  "organizationId",
  "role",
  "status",
  "teamId",
];
const MEMBER_KEYS = ["createdAt", "id", "organizationId", "role", "userId"];

/** Calls of the membershipLimit function, to check what it is given. */
const limitCalls: Array<{ userId: string; slug: string }> = [];

let t: TestApp;
/** Teams off, a configured accept page, the session cookie cache on. */
let plain: TestApp;

beforeAll(async () => {
  [t, plain] = await Promise.all([
    createTestApp({
      config: {
        organization: {
          // A function limit, by slug: "small-" organizations hold 2, "ten-" ones 10.
          membershipLimit: (user: UserRow, organization: OrganizationRow) => {
            limitCalls.push({ userId: user.id, slug: organization.slug });
            if (organization.slug.startsWith("small-")) return 2;
            if (organization.slug.startsWith("ten-")) return 10;
            return 100;
          },
          teams: { enabled: true, maximumMembersPerTeam: 2 },
        },
        // Mailed links in their API form (no served page as callback): tests follow them.
        pages: { enabled: false },
      },
    }),
    createTestApp({
      config: {
        organization: { invitationAcceptURL: "https://app.example.com/invites/{id}/accept" },
        session: { cookieCache: { enabled: true } },
      },
    }),
  ]);
});

afterAll(async () => {
  await Promise.all([t?.close(), plain?.close()]);
});

let counter = 0;
function uniqueEmail(prefix = "inv"): string {
  counter += 1;
  return `${prefix}${counter}-${Date.now()}@example.com`;
}

interface Person {
  client: Client;
  email: string;
  userId: string;
  name: string;
}

async function person(app: TestApp = t, name = "Ada", email = uniqueEmail()): Promise<Person> {
  const client = createClient(app.app);
  const response = await client.post("/sign-up/email", { name, email, password: PASSWORD });
  expect(response.statusCode, response.body).toBe(200);
  return { client, email: email.toLowerCase(), userId: response.json().user.id, name };
}

async function organization(
  app: TestApp,
  owner: Person,
  slugPrefix = "org",
): Promise<OrganizationRow> {
  const slug = `${slugPrefix}-${generateId().slice(0, 10).toLowerCase()}`;
  const row = await insertOrganization(app.db.sql, {
    id: generateId(),
    name: `Org ${slug}`,
    slug,
    logo: null,
    metadata: null,
  });
  await addMember(app, row.id, owner, "owner");
  return row;
}

function addMember(app: TestApp, organizationId: string, who: Person, role: string) {
  return insertMember(app.db.sql, {
    id: generateId(),
    organizationId,
    userId: who.userId,
    role,
  });
}

function team(app: TestApp, organizationId: string, name = `team-${generateId().slice(0, 8)}`) {
  return insertTeam(app.db.sql, { id: generateId(), name, organizationId });
}

/** An organization with an owner, an admin and a plain member. */
async function staffedOrganization(app: TestApp = t, slugPrefix = "org") {
  const [owner, admin, member] = await Promise.all([
    person(app, "Olive Owner"),
    person(app, "Adam Admin"),
    person(app, "Mia Member"),
  ]);
  const org = await organization(app, owner, slugPrefix);
  await addMember(app, org.id, admin, "admin");
  await addMember(app, org.id, member, "member");
  return { owner, admin, member, org };
}

function invite(who: Person, body: Record<string, unknown>) {
  return who.client.post("/organization/invite-member", body);
}

/** Invites without mail and answers the new invitation's id. */
async function invited(
  who: Person,
  organizationId: string,
  email: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const response = await invite(who, {
    email,
    role: "member",
    organizationId,
    sendEmail: false,
    ...extra,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().id;
}

interface InvitationDbRow {
  id: string;
  organizationId: string;
  email: string;
  role: string;
  status: string;
  teamId: string | null;
  inviterId: string;
  expiresAt: Date;
}

async function invitationRow(app: TestApp, id: string): Promise<InvitationDbRow | undefined> {
  const [row] = await app.db.sql<InvitationDbRow[]>`select * from invitation where id = ${id}`;
  return row;
}

function invitationsOf(app: TestApp, organizationId: string): Promise<InvitationDbRow[]> {
  return app.db.sql<InvitationDbRow[]>`
    select * from invitation where organization_id = ${organizationId} order by created_at, id`;
}

function membersOf(app: TestApp, organizationId: string): Promise<MemberRow[]> {
  return app.db.sql<MemberRow[]>`
    select * from member where organization_id = ${organizationId} order by created_at, id`;
}

async function teamMembers(app: TestApp, teamId: string): Promise<string[]> {
  const rows = await app.db.sql<{ userId: string }[]>`
    select user_id from team_member where team_id = ${teamId}`;
  return rows.map((row) => row.userId);
}

async function expire(app: TestApp, id: string): Promise<void> {
  await app.db.sql`
    update invitation set expires_at = now() - interval '1 minute' where id = ${id}`;
}

async function sessionOf(who: Person, fromCache = false) {
  const response = await who.client.get(
    "/get-session",
    fromCache ? {} : { query: { disableCookieCache: "true" } },
  );
  expect(response.statusCode).toBe(200);
  return response.json().session as {
    id: string;
    activeOrganizationId: string | null;
    activeTeamId: string | null;
  };
}

async function activate(app: TestApp, who: Person, organizationId: string): Promise<void> {
  const session = await sessionOf(who);
  await setSessionActiveOrganization(app.db.sql, session.id, organizationId);
}

function mailsTo(app: TestApp, email: string) {
  return app.smtp.messages.filter((message) => message.to.includes(email));
}

function expectError(
  response: LightMyRequestResponse,
  status: number,
  body: { code: string; message: string },
): void {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.json()).toEqual(body);
}

function expectValidationError(
  response: LightMyRequestResponse,
  field: string,
  where: "body" | "query" = "body",
): void {
  expect(response.statusCode, response.body).toBe(400);
  const body = response.json();
  expect(body.code).toBe("VALIDATION_ERROR");
  expect(body.message).toBe(
    where === "body" ? "Invalid body parameters" : "Invalid query parameters",
  );
  expect(body.details.map((issue: { path: string }) => issue.path)).toContain(field);
}

function accept(who: Person, invitationId: unknown) {
  return who.client.post("/organization/accept-invitation", { invitationId });
}

function reject(who: Person, invitationId: unknown) {
  return who.client.post("/organization/reject-invitation", { invitationId });
}

function cancel(who: Person, invitationId: unknown) {
  return who.client.post("/organization/cancel-invitation", { invitationId });
}

function getInvitation(who: Person, id: string) {
  return who.client.get("/organization/get-invitation", { query: { id } });
}

function listInvitations(who: Person, query: Record<string, string> = {}) {
  return who.client.get("/organization/list-invitations", { query });
}

describe("POST /organization/invite-member", () => {
  it("creates a pending invitation for the lowercased address, mails the accept link and answers it", async () => {
    const { owner, org } = await staffedOrganization();
    const email = uniqueEmail("New.Person");
    const before = Date.now();
    const response = await invite(owner, {
      email: email.toUpperCase(),
      role: "member",
      organizationId: org.id,
    });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual([...INVITATION_KEYS, "url"].sort());
    expect(body).toMatchObject({
      organizationId: org.id,
      email: email.toLowerCase(),
      role: "member",
      status: "pending",
      teamId: null,
      inviterId: owner.userId,
    });
    expect(body.id).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(body.url).toBe(`${ORIGIN}/accept-invitation/${body.id}`);
    // The invitation lifetime: 172800 s (2 days).
    const lifetime = new Date(body.expiresAt).getTime() - before;
    expect(Math.abs(lifetime - 2 * DAY)).toBeLessThan(10_000);
    expect(new Date(body.createdAt).getTime()).toBeGreaterThanOrEqual(before - 1000);

    const rows = await invitationsOf(t, org.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: body.id,
      email: email.toLowerCase(),
      role: "member",
      status: "pending",
      teamId: null,
      inviterId: owner.userId,
    });

    const mail = await t.smtp.waitFor(email.toLowerCase());
    expect(mail.subject).toBe(`Olive Owner invited you to ${org.name}`);
    expect(mail.decoded).toContain(`Olive Owner (${owner.email}) invited you to join ${org.name}`);
    expect(mail.decoded).toContain("as member");
    expect(mail.decoded).toContain("It expires in 2 days.");
    expect(mail.decoded).not.toMatch(/\{\{\w+\}\}/);
    expect(t.smtp.linkIn(mail, "/accept-invitation/")).toBe(body.url);
  });

  it("lets an admin invite, and a plain member not (403, nothing written, no mail)", async () => {
    const { admin, member, org } = await staffedOrganization();
    const byAdmin = uniqueEmail();
    const ok = await invite(admin, { email: byAdmin, role: "admin", organizationId: org.id });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ role: "admin", inviterId: admin.userId });
    await t.smtp.waitFor(byAdmin);

    const byMember = uniqueEmail();
    const refused = await invite(member, {
      email: byMember,
      role: "member",
      organizationId: org.id,
    });
    expectError(refused, 403, NOT_ALLOWED_TO_INVITE);
    expect((await invitationsOf(t, org.id)).map((row) => row.email)).toEqual([byAdmin]);
    expect(mailsTo(t, byMember)).toEqual([]);
  });

  it("allows a member holding several roles when one of them grants invitation:create", async () => {
    const { org } = await staffedOrganization();
    const both = await person();
    await addMember(t, org.id, both, "member,admin");
    const response = await invite(both, {
      email: uniqueEmail(),
      role: "member",
      organizationId: org.id,
      sendEmail: false,
    });
    expect(response.statusCode, response.body).toBe(200);
  });

  it("uses the session's active organization, and answers ORGANIZATION_NOT_FOUND without one", async () => {
    const { owner, org } = await staffedOrganization();
    const none = await invite(owner, { email: uniqueEmail(), role: "member" });
    expectError(none, 400, err("ORGANIZATION_NOT_FOUND", "Organization not found"));
    expect(await invitationsOf(t, org.id)).toEqual([]);

    await activate(t, owner, org.id);
    const response = await invite(owner, {
      email: uniqueEmail(),
      role: "member",
      sendEmail: false,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().organizationId).toBe(org.id);
  });

  it("answers MEMBER_NOT_FOUND for an organization the caller is not in, or one that does not exist", async () => {
    const { org } = await staffedOrganization();
    const outsider = await person();
    await organization(t, outsider);
    const email = uniqueEmail();
    const foreign = await invite(outsider, { email, role: "member", organizationId: org.id });
    expectError(foreign, 400, MEMBER_NOT_FOUND);
    const unknown = await invite(outsider, { email, role: "member", organizationId: generateId() });
    expectError(unknown, 400, MEMBER_NOT_FOUND);
    expect(await invitationsOf(t, org.id)).toEqual([]);
    expect(mailsTo(t, email)).toEqual([]);
  });

  it("refuses a malformed address with INVALID_EMAIL", async () => {
    const { owner, org } = await staffedOrganization();
    for (const email of ["not-an-email", "two@@example.com", "spaces in@example.com", ""]) {
      const response = await invite(owner, { email, role: "member", organizationId: org.id });
      expectError(response, 400, err("INVALID_EMAIL", "Invalid email"));
    }
    expect(await invitationsOf(t, org.id)).toEqual([]);
  });

  it("refuses unknown roles with ROLE_NOT_FOUND naming them, and an empty role", async () => {
    const { owner, org } = await staffedOrganization();
    const email = uniqueEmail();
    const one = await invite(owner, { email, role: "superuser", organizationId: org.id });
    expectError(one, 400, err("ROLE_NOT_FOUND", "ROLE_NOT_FOUND: superuser"));
    const several = await invite(owner, {
      email,
      role: ["member", "ghost", "wizard"],
      organizationId: org.id,
    });
    expectError(several, 400, err("ROLE_NOT_FOUND", "ROLE_NOT_FOUND: ghost, wizard"));
    for (const role of ["", " , ", []]) {
      const empty = await invite(owner, { email, role, organizationId: org.id });
      expectError(empty, 400, err("ROLE_NOT_FOUND", "Role not found"));
    }
    expect(await invitationsOf(t, org.id)).toEqual([]);
    expect(mailsTo(t, email)).toEqual([]);
  });

  it("stores several roles comma-joined", async () => {
    const { owner, org } = await staffedOrganization();
    const id = await invited(owner, org.id, uniqueEmail(), { role: ["admin", "member", "admin"] });
    expect((await invitationRow(t, id))?.role).toBe("admin,member");
  });

  it("lets only a holder of the creator role invite with it", async () => {
    const { owner, admin, org } = await staffedOrganization();
    const email = uniqueEmail();
    const refused = await invite(admin, { email, role: "owner", organizationId: org.id });
    expectError(
      refused,
      403,
      err(
        "YOU_ARE_NOT_ALLOWED_TO_INVITE_USER_WITH_THIS_ROLE",
        "You are not allowed to invite a user with this role",
      ),
    );
    const mixed = await invite(admin, { email, role: ["member", "owner"], organizationId: org.id });
    expect(mixed.statusCode).toBe(403);
    expect(await invitationsOf(t, org.id)).toEqual([]);
    const ok = await invite(owner, {
      email,
      role: "owner",
      organizationId: org.id,
      sendEmail: false,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().role).toBe("owner");
  });

  it("refuses an address that is already a member", async () => {
    const { owner, member, org } = await staffedOrganization();
    const response = await invite(owner, {
      email: member.email.toUpperCase(),
      role: "member",
      organizationId: org.id,
    });
    expectError(
      response,
      400,
      err(
        "USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION",
        "User is already a member of this organization",
      ),
    );
    expect(await invitationsOf(t, org.id)).toEqual([]);
    expect(mailsTo(t, member.email)).toEqual([]);
  });

  it("refuses a second invitation while one is pending; resend extends it and mails it again", async () => {
    const { owner, admin, org } = await staffedOrganization();
    const email = uniqueEmail();
    const first = await invite(owner, { email, role: "member", organizationId: org.id });
    expect(first.statusCode, first.body).toBe(200);
    const id = first.json().id;
    await t.smtp.waitFor(email);

    const again = await invite(admin, { email, role: "admin", organizationId: org.id });
    expectError(again, 400, ALREADY_INVITED);

    // Shorten it, then resend: the same invitation lives the full lifetime again.
    await t.db.sql`update invitation set expires_at = now() + interval '1 hour' where id = ${id}`;
    const before = Date.now();
    const resent = await invite(owner, {
      email,
      role: "member",
      organizationId: org.id,
      resend: true,
    });
    expect(resent.statusCode, resent.body).toBe(200);
    expect(resent.json()).toMatchObject({ id, status: "pending", email });
    expect(resent.json().url).toBe(`${ORIGIN}/accept-invitation/${id}`);
    const lifetime = new Date(resent.json().expiresAt).getTime() - before;
    expect(Math.abs(lifetime - 2 * DAY)).toBeLessThan(10_000);
    const mail = await t.smtp.waitFor(email);
    expect(t.smtp.linkIn(mail, "/accept-invitation/")).toBe(`${ORIGIN}/accept-invitation/${id}`);
    const rows = await invitationsOf(t, org.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.expiresAt.getTime()).toBe(new Date(resent.json().expiresAt).getTime());
  });

  it("replaces an expired pending invitation: the old one is canceled, a new one pending", async () => {
    const { owner, org } = await staffedOrganization();
    const email = uniqueEmail();
    const oldId = await invited(owner, org.id, email);
    await expire(t, oldId);
    const response = await invite(owner, {
      email,
      role: "admin",
      organizationId: org.id,
      sendEmail: false,
    });
    expect(response.statusCode, response.body).toBe(200);
    const newId = response.json().id;
    expect(newId).not.toBe(oldId);
    expect((await invitationsOf(t, org.id)).map((row) => [row.id, row.status, row.role])).toEqual([
      [oldId, "canceled", "member"],
      [newId, "pending", "admin"],
    ]);
  });

  it("invites again once the previous invitation was rejected or canceled", async () => {
    const { owner, org } = await staffedOrganization();
    const invitee = await person();
    const first = await invited(owner, org.id, invitee.email);
    expect((await reject(invitee, first)).statusCode).toBe(200);
    const second = await invited(owner, org.id, invitee.email);
    expect((await cancel(owner, second)).statusCode).toBe(200);
    const third = await invited(owner, org.id, invitee.email);
    expect((await invitationsOf(t, org.id)).map((row) => [row.id, row.status])).toEqual([
      [first, "rejected"],
      [second, "canceled"],
      [third, "pending"],
    ]);
  });

  it("ends two concurrent invitations of one address in one pending invitation and clean errors", async () => {
    const { owner, admin, org } = await staffedOrganization();
    const email = uniqueEmail();
    const responses = await Promise.all(
      [owner, admin, owner, admin, owner].map((who) =>
        invite(who, { email, role: "member", organizationId: org.id }),
      ),
    );
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([200, 400, 400, 400, 400]);
    for (const response of responses.filter((r) => r.statusCode === 400)) {
      expect(response.json()).toEqual(ALREADY_INVITED);
    }
    const rows = await invitationsOf(t, org.id);
    expect(rows.map((row) => row.status)).toEqual(["pending"]);
    await t.smtp.waitFor(email);
    expect(mailsTo(t, email)).toHaveLength(1);
  });

  it("refuses when the members already reach the membership limit (a function of user and organization)", async () => {
    const owner = await person();
    const org = await organization(t, owner, "small");
    const email = uniqueEmail();
    // One member of two: room for an invitation.
    const okId = await invited(owner, org.id, uniqueEmail());
    expect(okId).toBeTruthy();
    expect(limitCalls.at(-1)).toEqual({ userId: owner.userId, slug: org.slug });
    await addMember(t, org.id, await person(), "member");
    const refused = await invite(owner, { email, role: "member", organizationId: org.id });
    expectError(refused, 403, MEMBERSHIP_LIMIT);
    expect((await invitationsOf(t, org.id)).map((row) => row.id)).toEqual([okId]);
    expect(mailsTo(t, email)).toEqual([]);
  });

  it("refuses when the pending, unexpired invitations reach invitationLimit (100)", async () => {
    const { owner, org } = await staffedOrganization();
    const expiresAt = new Date(Date.now() + DAY);
    await t.db.sql`
      insert into invitation (id, organization_id, email, role, inviter_id, expires_at)
      select md5(random()::text), ${org.id}, 'bulk' || n || '@example.com', 'member',
             ${owner.userId}, ${expiresAt}
      from generate_series(1, 100) as n`;
    const email = uniqueEmail();
    const refused = await invite(owner, { email, role: "member", organizationId: org.id });
    expectError(refused, 403, err("INVITATION_LIMIT_REACHED", "Invitation limit reached"));
    expect(await invitationsOf(t, org.id)).toHaveLength(100);
    // Expired and settled ones do not count.
    await t.db.sql`
      update invitation set expires_at = now() - interval '1 minute'
      where organization_id = ${org.id} and email = 'bulk1@example.com'`;
    await t.db.sql`
      update invitation set status = 'canceled'
      where organization_id = ${org.id} and email = 'bulk2@example.com'`;
    const first = await invite(owner, {
      email,
      role: "member",
      organizationId: org.id,
      sendEmail: false,
    });
    expect(first.statusCode, first.body).toBe(200);
    const second = await invite(owner, {
      email: uniqueEmail(),
      role: "member",
      organizationId: org.id,
      sendEmail: false,
    });
    expect(second.statusCode, second.body).toBe(200);
    const third = await invite(owner, {
      email: uniqueEmail(),
      role: "member",
      organizationId: org.id,
    });
    expectError(third, 403, err("INVITATION_LIMIT_REACHED", "Invitation limit reached"));
  });

  it("records a team of the organization; another organization's team or an unknown one is TEAM_NOT_FOUND", async () => {
    const { owner, org } = await staffedOrganization();
    const other = await staffedOrganization();
    const mine = await team(t, org.id);
    const second = await team(t, org.id);
    const theirs = await team(t, other.org.id);
    const id = await invited(owner, org.id, uniqueEmail(), { teamId: mine.id });
    expect((await invitationRow(t, id))?.teamId).toBe(mine.id);
    const both = await invited(owner, org.id, uniqueEmail(), { teamId: [mine.id, second.id] });
    expect((await invitationRow(t, both))?.teamId).toBe(`${mine.id},${second.id}`);

    const email = uniqueEmail();
    for (const teamId of [theirs.id, generateId(), [mine.id, theirs.id]]) {
      const response = await invite(owner, {
        email,
        role: "member",
        organizationId: org.id,
        teamId,
      });
      expectError(response, 400, TEAM_NOT_FOUND);
    }
    expect(await invitationsOf(t, other.org.id)).toEqual([]);
    expect((await invitationsOf(t, org.id)).map((row) => row.email)).not.toContain(email);
  });

  it("refuses a team that is already full (teams.maximumMembersPerTeam)", async () => {
    const { owner, admin, member, org } = await staffedOrganization();
    const full = await team(t, org.id);
    for (const who of [admin, member]) {
      await insertTeamMember(t.db.sql, { id: generateId(), teamId: full.id, userId: who.userId });
    }
    const response = await invite(owner, {
      email: uniqueEmail(),
      role: "member",
      organizationId: org.id,
      teamId: full.id,
    });
    expectError(response, 403, TEAM_LIMIT);
    expect(await invitationsOf(t, org.id)).toEqual([]);
  });

  it("answers TEAM_NOT_FOUND for any team id when teams are off", async () => {
    const { owner, org } = await staffedOrganization(plain);
    const stray = await team(plain, org.id);
    const response = await invite(owner, {
      email: uniqueEmail(),
      role: "member",
      organizationId: org.id,
      teamId: stray.id,
    });
    expectError(response, 400, TEAM_NOT_FOUND);
    expect(await invitationsOf(plain, org.id)).toEqual([]);
  });

  it("with sendEmail: false sends nothing and still answers the accept link", async () => {
    const { owner, org } = await staffedOrganization();
    const email = uniqueEmail();
    const response = await invite(owner, {
      email,
      role: "member",
      organizationId: org.id,
      sendEmail: false,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().url).toBe(`${ORIGIN}/accept-invitation/${response.json().id}`);
    expect(await invitationRow(t, response.json().id)).toBeDefined();
    // The mail would have been handed over before the answer.
    expect(mailsTo(t, email)).toEqual([]);
  });

  it("builds the link from organization.invitationAcceptURL", async () => {
    const { owner, org } = await staffedOrganization(plain);
    const email = uniqueEmail();
    const response = await invite(owner, { email, role: "member", organizationId: org.id });
    expect(response.statusCode, response.body).toBe(200);
    const url = `https://app.example.com/invites/${response.json().id}/accept`;
    expect(response.json().url).toBe(url);
    const mail = await plain.smtp.waitFor(email);
    expect(plain.smtp.linkIn(mail, "/invites/")).toBe(url);
  });

  it("answers 400 VALIDATION_ERROR for missing, mistyped or oversized fields and writes nothing", async () => {
    const { owner, org } = await staffedOrganization();
    const email = uniqueEmail();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ role: "member", organizationId: org.id }, "email"],
      [{ email, organizationId: org.id }, "role"],
      [{ email: 42, role: "member", organizationId: org.id }, "email"],
      [{ email, role: 7, organizationId: org.id }, "role"],
      [{ email, role: [1], organizationId: org.id }, "role"],
      [
        { email: `${"a".repeat(400)}@example.com`, role: "member", organizationId: org.id },
        "email",
      ],
      [{ email, role: "member", organizationId: 5 }, "organizationId"],
      [{ email, role: "member", organizationId: "x".repeat(300) }, "organizationId"],
      [{ email, role: "member", organizationId: org.id, resend: "maybe" }, "resend"],
      [{ email, role: "member", organizationId: org.id, sendEmail: {} }, "sendEmail"],
      [{ email, role: "member", organizationId: org.id, teamId: "a,b" }, "teamId"],
      [{ email, role: "member", organizationId: org.id, teamId: 3 }, "teamId"],
      [{ email, role: "r".repeat(300), organizationId: org.id }, "role"],
    ];
    for (const [body, field] of cases) {
      expectValidationError(await invite(owner, body), field);
    }
    const broken = await owner.client.post("/organization/invite-member", "{", {
      headers: { "content-type": "application/json" },
    });
    expectError(broken, 400, err("BAD_REQUEST", "Invalid JSON in request body"));
    expect(await invitationsOf(t, org.id)).toEqual([]);
    expect(mailsTo(t, email)).toEqual([]);
  });

  it("answers 401 without a session", async () => {
    const { org } = await staffedOrganization();
    const response = await createClient(t.app).post("/organization/invite-member", {
      email: uniqueEmail(),
      role: "member",
      organizationId: org.id,
    });
    expectError(response, 401, UNAUTHORIZED);
    expect(await invitationsOf(t, org.id)).toEqual([]);
  });
});

describe("POST /organization/accept-invitation", () => {
  it("makes the recipient a member with the invitation's role and sets the active organization", async () => {
    const { owner, org } = await staffedOrganization();
    // Addresses compare case-insensitively.
    const invitee = await person(t, "Ivy", uniqueEmail("Ivy.Mixed").toUpperCase());
    const id = await invited(owner, org.id, invitee.email.replace("ivy", "IVY"), { role: "admin" });
    const response = await accept(invitee, id);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(["invitation", "member"]);
    expect(Object.keys(body.invitation).sort()).toEqual(INVITATION_KEYS);
    expect(Object.keys(body.member).sort()).toEqual(MEMBER_KEYS);
    expect(body.invitation).toMatchObject({ id, status: "accepted", email: invitee.email });
    expect(body.member).toMatchObject({
      organizationId: org.id,
      userId: invitee.userId,
      role: "admin",
    });
    const members = await membersOf(t, org.id);
    expect(members.find((row) => row.userId === invitee.userId)).toMatchObject({
      id: body.member.id,
      role: "admin",
    });
    expect((await invitationRow(t, id))?.status).toBe("accepted");
    expect(await sessionOf(invitee)).toMatchObject({
      activeOrganizationId: org.id,
      activeTeamId: null,
    });
  });

  it("joins the invitation's team and makes it the active team", async () => {
    const { owner, org } = await staffedOrganization();
    const squad = await team(t, org.id);
    const invitee = await person();
    const id = await invited(owner, org.id, invitee.email, { teamId: squad.id });
    const response = await accept(invitee, id);
    expect(response.statusCode, response.body).toBe(200);
    expect(await teamMembers(t, squad.id)).toEqual([invitee.userId]);
    expect(await sessionOf(invitee)).toMatchObject({
      activeOrganizationId: org.id,
      activeTeamId: squad.id,
    });
  });

  it("joins every team of a several-team invitation, with no active team", async () => {
    const { owner, org } = await staffedOrganization();
    const [one, two] = [await team(t, org.id), await team(t, org.id)];
    const invitee = await person();
    const id = await invited(owner, org.id, invitee.email, { teamId: [one.id, two.id] });
    expect((await accept(invitee, id)).statusCode).toBe(200);
    expect(await teamMembers(t, one.id)).toEqual([invitee.userId]);
    expect(await teamMembers(t, two.id)).toEqual([invitee.userId]);
    expect(await sessionOf(invitee)).toMatchObject({ activeTeamId: null });
  });

  it("skips a team removed since the invitation was sent", async () => {
    const { owner, org } = await staffedOrganization();
    const gone = await team(t, org.id);
    const invitee = await person();
    const id = await invited(owner, org.id, invitee.email, { teamId: gone.id });
    await t.db.sql`delete from team where id = ${gone.id}`;
    const response = await accept(invitee, id);
    expect(response.statusCode, response.body).toBe(200);
    expect((await membersOf(t, org.id)).map((row) => row.userId)).toContain(invitee.userId);
  });

  it("refuses anyone but the recipient with 403 and leaves the invitation pending", async () => {
    const { owner, admin, org } = await staffedOrganization();
    const invitee = await person();
    const id = await invited(owner, org.id, invitee.email);
    for (const who of [owner, admin, await person()]) {
      expectError(await accept(who, id), 403, NOT_RECIPIENT);
    }
    expect((await invitationRow(t, id))?.status).toBe("pending");
    expect(await membersOf(t, org.id)).toHaveLength(3);
  });

  it("answers INVITATION_NOT_FOUND for unknown, expired, accepted, rejected and canceled invitations", async () => {
    const { owner, org } = await staffedOrganization();
    const invitee = await person();
    expectError(await accept(invitee, generateId()), 400, INVITATION_NOT_FOUND);

    const expired = await invited(owner, org.id, invitee.email);
    await expire(t, expired);
    expectError(await accept(invitee, expired), 400, INVITATION_NOT_FOUND);
    expect((await invitationRow(t, expired))?.status).toBe("pending");

    const rejected = await invited(owner, org.id, invitee.email);
    expect((await reject(invitee, rejected)).statusCode).toBe(200);
    expectError(await accept(invitee, rejected), 400, INVITATION_NOT_FOUND);

    const canceled = await invited(owner, org.id, invitee.email);
    expect((await cancel(owner, canceled)).statusCode).toBe(200);
    expectError(await accept(invitee, canceled), 400, INVITATION_NOT_FOUND);

    const used = await invited(owner, org.id, invitee.email);
    expect((await accept(invitee, used)).statusCode).toBe(200);
    expectError(await accept(invitee, used), 400, INVITATION_NOT_FOUND);
    expect(
      (await membersOf(t, org.id)).filter((row) => row.userId === invitee.userId),
    ).toHaveLength(1);
  });

  it("refuses at the membership limit and leaves the invitation pending", async () => {
    const owner = await person();
    const org = await organization(t, owner, "small");
    const invitee = await person();
    const id = await invited(owner, org.id, invitee.email);
    await addMember(t, org.id, await person(), "member");
    expectError(await accept(invitee, id), 403, MEMBERSHIP_LIMIT);
    expect((await invitationRow(t, id))?.status).toBe("pending");
    expect(await membersOf(t, org.id)).toHaveLength(2);
    expect(limitCalls.at(-1)).toEqual({ userId: invitee.userId, slug: org.slug });
    expect((await sessionOf(invitee)).activeOrganizationId).toBeNull();
  });

  it("refuses a full team with TEAM_MEMBER_LIMIT_REACHED and writes nothing", async () => {
    const { owner, admin, member, org } = await staffedOrganization();
    const squad = await team(t, org.id);
    const invitee = await person();
    const id = await invited(owner, org.id, invitee.email, { teamId: squad.id });
    for (const who of [admin, member]) {
      await insertTeamMember(t.db.sql, { id: generateId(), teamId: squad.id, userId: who.userId });
    }
    expectError(await accept(invitee, id), 403, TEAM_LIMIT);
    expect((await invitationRow(t, id))?.status).toBe("pending");
    expect((await membersOf(t, org.id)).map((row) => row.userId)).not.toContain(invitee.userId);
    expect(await teamMembers(t, squad.id)).toHaveLength(2);
  });

  it("marks the invitation accepted and answers the existing membership when already a member", async () => {
    const { owner, org } = await staffedOrganization();
    const invitee = await person();
    const id = await invited(owner, org.id, invitee.email, { role: "admin" });
    const existing = await addMember(t, org.id, invitee, "member");
    const response = await accept(invitee, id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().member).toMatchObject({ id: existing.id, role: "member" });
    expect(response.json().invitation.status).toBe("accepted");
    expect(
      (await membersOf(t, org.id)).filter((row) => row.userId === invitee.userId),
    ).toHaveLength(1);
    expect((await sessionOf(invitee)).activeOrganizationId).toBe(org.id);
  });

  it("leaves exactly ten members when twenty invited users accept at once against a limit of ten", async () => {
    const owner = await person();
    const org = await organization(t, owner, "ten");
    const invitees = await Promise.all(Array.from({ length: 20 }, () => person()));
    const ids: string[] = [];
    for (const invitee of invitees) ids.push(await invited(owner, org.id, invitee.email));
    const responses = await Promise.all(invitees.map((invitee, i) => accept(invitee, ids[i])));
    const ok = responses.filter((response) => response.statusCode === 200);
    const refused = responses.filter((response) => response.statusCode !== 200);
    // The owner holds one of the ten places.
    expect(ok).toHaveLength(9);
    expect(refused).toHaveLength(11);
    for (const response of refused) {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual(MEMBERSHIP_LIMIT);
    }
    expect(await membersOf(t, org.id)).toHaveLength(10);
    const statuses = (await invitationsOf(t, org.id)).map((row) => row.status);
    expect(statuses.filter((status) => status === "accepted")).toHaveLength(9);
    expect(statuses.filter((status) => status === "pending")).toHaveLength(11);
  });

  it("admits exactly one of several accepts that reach the last place at the same moment", async () => {
    const owner = await person();
    const org = await organization(t, owner, "ten");
    const fillers = await Promise.all(Array.from({ length: 8 }, () => person()));
    for (const filler of fillers) await addMember(t, org.id, filler, "member");
    const invitees = await Promise.all(Array.from({ length: 5 }, () => person()));
    const ids: string[] = [];
    for (const invitee of invitees) ids.push(await invited(owner, org.id, invitee.email));
    // Hold the member table until every accept has started, so that without the
    // organization lock they would all count nine members at once.
    let racing: Promise<LightMyRequestResponse[]> | undefined;
    await t.db.sql.begin(async (tx) => {
      await tx`lock table member in access exclusive mode`;
      racing = Promise.all(invitees.map((invitee, i) => accept(invitee, ids[i])));
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    const responses = (await racing) ?? [];
    expect(responses.map((response) => response.statusCode).sort()).toEqual([
      200, 403, 403, 403, 403,
    ]);
    expect(await membersOf(t, org.id)).toHaveLength(10);
  });

  it("refreshes the session cookie cache with the new active organization", async () => {
    const { owner, org } = await staffedOrganization(plain);
    const invitee = await person(plain);
    const id = await invited(owner, org.id, invitee.email);
    const response = await accept(invitee, id);
    expect(response.statusCode, response.body).toBe(200);
    expect(invitee.client.setCookies(response).has("authd.session_data")).toBe(true);
    expect((await sessionOf(invitee, true)).activeOrganizationId).toBe(org.id);
  });

  it("answers 400 VALIDATION_ERROR for a missing or mistyped id, and 401 without a session", async () => {
    const invitee = await person();
    for (const body of [
      {},
      { invitationId: 12 },
      { invitationId: "" },
      { invitationId: "x".repeat(300) },
    ]) {
      expectValidationError(
        await invitee.client.post("/organization/accept-invitation", body),
        "invitationId",
      );
    }
    expectError(
      await createClient(t.app).post("/organization/accept-invitation", {
        invitationId: generateId(),
      }),
      401,
      UNAUTHORIZED,
    );
  });
});

describe("POST /organization/reject-invitation", () => {
  it("lets the recipient reject a pending invitation, even an expired one", async () => {
    const { owner, org } = await staffedOrganization();
    const invitee = await person();
    const id = await invited(owner, org.id, invitee.email);
    const response = await reject(invitee, id);
    expect(response.statusCode, response.body).toBe(200);
    expect(Object.keys(response.json()).sort()).toEqual(["invitation", "member"]);
    expect(response.json().member).toBeNull();
    expect(response.json().invitation).toMatchObject({ id, status: "rejected" });
    expect((await invitationRow(t, id))?.status).toBe("rejected");
    expect((await membersOf(t, org.id)).map((row) => row.userId)).not.toContain(invitee.userId);

    const expired = await invited(owner, org.id, invitee.email);
    await expire(t, expired);
    expect((await reject(invitee, expired)).json().invitation.status).toBe("rejected");
  });

  it("answers INVITATION_NOT_FOUND once it is no longer pending, and for unknown ids", async () => {
    const { owner, org } = await staffedOrganization();
    const invitee = await person();
    const id = await invited(owner, org.id, invitee.email);
    expect((await reject(invitee, id)).statusCode).toBe(200);
    expectError(await reject(invitee, id), 400, INVITATION_NOT_FOUND);
    expectError(await reject(invitee, generateId()), 400, INVITATION_NOT_FOUND);
    const accepted = await invited(owner, org.id, invitee.email);
    expect((await accept(invitee, accepted)).statusCode).toBe(200);
    expectError(await reject(invitee, accepted), 400, INVITATION_NOT_FOUND);
    expect((await invitationRow(t, accepted))?.status).toBe("accepted");
  });

  it("refuses anyone but the recipient", async () => {
    const { owner, org } = await staffedOrganization();
    const invitee = await person();
    const id = await invited(owner, org.id, invitee.email);
    expectError(await reject(owner, id), 403, NOT_RECIPIENT);
    expect((await invitationRow(t, id))?.status).toBe("pending");
  });

  it("answers 400 VALIDATION_ERROR for bad input and 401 without a session", async () => {
    const invitee = await person();
    expectValidationError(
      await invitee.client.post("/organization/reject-invitation", { invitationId: [] }),
      "invitationId",
    );
    expectError(
      await createClient(t.app).post("/organization/reject-invitation", {
        invitationId: generateId(),
      }),
      401,
      UNAUTHORIZED,
    );
  });
});

describe("POST /organization/cancel-invitation", () => {
  it("lets an owner and an admin cancel a pending invitation", async () => {
    const { owner, admin, org } = await staffedOrganization();
    for (const who of [owner, admin]) {
      const id = await invited(owner, org.id, uniqueEmail());
      const response = await cancel(who, id);
      expect(response.statusCode, response.body).toBe(200);
      expect(Object.keys(response.json()).sort()).toEqual(INVITATION_KEYS);
      expect(response.json()).toMatchObject({ id, status: "canceled", organizationId: org.id });
      expect((await invitationRow(t, id))?.status).toBe("canceled");
    }
  });

  it("refuses a plain member with 403 and leaves the invitation pending", async () => {
    const { owner, member, org } = await staffedOrganization();
    const id = await invited(owner, org.id, uniqueEmail());
    expectError(await cancel(member, id), 403, NOT_ALLOWED_TO_CANCEL);
    expect((await invitationRow(t, id))?.status).toBe("pending");
  });

  it("answers INVITATION_NOT_FOUND for unknown ids and invitations no longer pending", async () => {
    const { owner, org } = await staffedOrganization();
    expectError(await cancel(owner, generateId()), 400, INVITATION_NOT_FOUND);
    const invitee = await person();
    const accepted = await invited(owner, org.id, invitee.email);
    expect((await accept(invitee, accepted)).statusCode).toBe(200);
    expectError(await cancel(owner, accepted), 400, INVITATION_NOT_FOUND);
    expect((await invitationRow(t, accepted))?.status).toBe("accepted");
    const canceled = await invited(owner, org.id, uniqueEmail());
    expect((await cancel(owner, canceled)).statusCode).toBe(200);
    expectError(await cancel(owner, canceled), 400, INVITATION_NOT_FOUND);
  });

  it("answers 400 VALIDATION_ERROR for bad input and 401 without a session", async () => {
    const { owner, org } = await staffedOrganization();
    expectValidationError(
      await owner.client.post("/organization/cancel-invitation", {}),
      "invitationId",
    );
    const id = await invited(owner, org.id, uniqueEmail());
    expectError(
      await createClient(t.app).post("/organization/cancel-invitation", { invitationId: id }),
      401,
      UNAUTHORIZED,
    );
    expect((await invitationRow(t, id))?.status).toBe("pending");
  });
});

describe("GET /organization/get-invitation", () => {
  it("answers the invitation with its organization and inviter to the recipient", async () => {
    const { owner, org } = await staffedOrganization();
    const invitee = await person();
    const id = await invited(owner, org.id, invitee.email);
    const response = await getInvitation(invitee, id);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(
      [...INVITATION_KEYS, "inviterEmail", "organizationName", "organizationSlug"].sort(),
    );
    expect(body).toMatchObject({
      id,
      status: "pending",
      email: invitee.email,
      organizationId: org.id,
      organizationName: org.name,
      organizationSlug: org.slug,
      inviterEmail: owner.email,
      inviterId: owner.userId,
    });
  });

  it("refuses anyone but the recipient, and answers INVITATION_NOT_FOUND unless pending and unexpired", async () => {
    const { owner, org } = await staffedOrganization();
    const invitee = await person();
    const id = await invited(owner, org.id, invitee.email);
    expectError(await getInvitation(owner, id), 403, NOT_RECIPIENT);
    expectError(await getInvitation(invitee, generateId()), 400, INVITATION_NOT_FOUND);
    await expire(t, id);
    expectError(await getInvitation(invitee, id), 400, INVITATION_NOT_FOUND);
    const rejected = await invited(owner, org.id, invitee.email);
    expect((await reject(invitee, rejected)).statusCode).toBe(200);
    expectError(await getInvitation(invitee, rejected), 400, INVITATION_NOT_FOUND);
  });

  it("answers INVITER_IS_NO_LONGER_A_MEMBER_OF_THE_ORGANIZATION when the inviter left", async () => {
    const { admin, org } = await staffedOrganization();
    const invitee = await person();
    const id = await invited(admin, org.id, invitee.email);
    const [adminMember] = await t.db.sql<{ id: string }[]>`
      select id from member where organization_id = ${org.id} and user_id = ${admin.userId}`;
    await deleteMemberRow(t.db.sql, adminMember?.id ?? "");
    expectError(
      await getInvitation(invitee, id),
      400,
      err(
        "INVITER_IS_NO_LONGER_A_MEMBER_OF_THE_ORGANIZATION",
        "Inviter is no longer a member of the organization",
      ),
    );
  });

  it("answers 400 for a missing id and 401 without a session", async () => {
    const invitee = await person();
    expectValidationError(await invitee.client.get("/organization/get-invitation"), "id", "query");
    expectError(
      await createClient(t.app).get("/organization/get-invitation", {
        query: { id: generateId() },
      }),
      401,
      UNAUTHORIZED,
    );
  });
});

describe("GET /organization/list-invitations", () => {
  async function organizationWithInvitations() {
    const staffed = await staffedOrganization();
    const { owner, org } = staffed;
    const a = await invited(owner, org.id, uniqueEmail());
    const b = await invited(owner, org.id, uniqueEmail(), { role: "owner" });
    const c = await invited(owner, org.id, uniqueEmail(), { role: "admin" });
    expect((await cancel(owner, c)).statusCode).toBe(200);
    return { ...staffed, ids: [a, b, c] };
  }

  it("answers every invitation of every status as an array, oldest first, to an owner", async () => {
    const { owner, org, ids } = await organizationWithInvitations();
    const response = await listInvitations(owner, { organizationId: org.id });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(Array.isArray(body)).toBe(true);
    expect(body.map((row: { id: string }) => row.id)).toEqual(ids);
    expect(body.map((row: { status: string }) => row.status)).toEqual([
      "pending",
      "pending",
      "canceled",
    ]);
    expect(Object.keys(body[0]).sort()).toEqual(INVITATION_KEYS);
    const pending = await listInvitations(owner, { organizationId: org.id, status: "pending" });
    expect(pending.json().map((row: { id: string }) => row.id)).toEqual(ids.slice(0, 2));
  });

  it("pages with limit and offset and tells the total", async () => {
    const { owner, org, ids } = await organizationWithInvitations();
    const first = await listInvitations(owner, { organizationId: org.id, limit: "2" });
    expect(first.statusCode, first.body).toBe(200);
    expect(Object.keys(first.json()).sort()).toEqual(["invitations", "limit", "offset", "total"]);
    expect(first.json()).toMatchObject({ total: 3, limit: 2, offset: 0 });
    expect(first.json().invitations.map((row: { id: string }) => row.id)).toEqual(ids.slice(0, 2));
    const rest = await listInvitations(owner, { organizationId: org.id, offset: "2" });
    expect(rest.json()).toMatchObject({ total: 3, limit: 100, offset: 2 });
    expect(rest.json().invitations.map((row: { id: string }) => row.id)).toEqual([ids[2]]);
    const filtered = await listInvitations(owner, {
      organizationId: org.id,
      status: "canceled",
      limit: "1000",
    });
    expect(filtered.json()).toMatchObject({ total: 1, limit: 1000, offset: 0 });
  });

  it("shows an admin everything but invitations granting the creator role", async () => {
    const { admin, org, ids } = await organizationWithInvitations();
    const response = await listInvitations(admin, { organizationId: org.id });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().map((row: { id: string }) => row.id)).toEqual([ids[0], ids[2]]);
    const page = await listInvitations(admin, { organizationId: org.id, limit: "10" });
    expect(page.json().total).toBe(2);
  });

  it("refuses a plain member (403 YOU_ARE_NOT_ALLOWED_TO_LIST_INVITATIONS)", async () => {
    const { member, org } = await organizationWithInvitations();
    expectError(
      await listInvitations(member, { organizationId: org.id }),
      403,
      err(
        "YOU_ARE_NOT_ALLOWED_TO_LIST_INVITATIONS",
        "You are not allowed to list invitations for this organization",
      ),
    );
  });

  it("uses the active organization, and answers NO_ACTIVE_ORGANIZATION without one", async () => {
    const { owner, org, ids } = await organizationWithInvitations();
    expectError(
      await listInvitations(owner),
      400,
      err("NO_ACTIVE_ORGANIZATION", "No active organization"),
    );
    await activate(t, owner, org.id);
    const response = await listInvitations(owner);
    expect(response.json().map((row: { id: string }) => row.id)).toEqual(ids);
  });

  it("refuses non-members and unknown organizations alike with 403", async () => {
    const { org } = await organizationWithInvitations();
    const outsider = await person();
    await organization(t, outsider);
    for (const organizationId of [org.id, generateId()]) {
      expectError(await listInvitations(outsider, { organizationId }), 403, NOT_A_MEMBER);
    }
  });

  it("answers 400 VALIDATION_ERROR for bad paging or status, and 401 without a session", async () => {
    const { owner, org } = await organizationWithInvitations();
    const cases: Array<[Record<string, string>, string]> = [
      [{ limit: "0" }, "limit"],
      [{ limit: "1001" }, "limit"],
      [{ limit: "ten" }, "limit"],
      [{ limit: "-1" }, "limit"],
      [{ offset: "-1" }, "offset"],
      [{ offset: "1.5" }, "offset"],
      [{ status: "expired" }, "status"],
    ];
    for (const [query, field] of cases) {
      expectValidationError(
        await listInvitations(owner, { organizationId: org.id, ...query }),
        field,
        "query",
      );
    }
    expectError(
      await createClient(t.app).get("/organization/list-invitations", {
        query: { organizationId: org.id },
      }),
      401,
      UNAUTHORIZED,
    );
  });
});

describe("GET /organization/list-user-invitations", () => {
  it("requires a verified email (403 EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION)", async () => {
    const { owner, org } = await staffedOrganization();
    const invitee = await person();
    await invited(owner, org.id, invitee.email);
    expectError(
      await invitee.client.get("/organization/list-user-invitations"),
      403,
      err(
        "EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION",
        "Email verification required to view or list invitations for the session email",
      ),
    );
  });

  it("answers the caller's pending, unexpired invitations with the organization's name", async () => {
    const owner = await person(t, "Olive Owner");
    const [first, second, third, fourth] = await Promise.all(
      [1, 2, 3, 4].map(() => organization(t, owner)),
    );
    if (!first || !second || !third || !fourth) throw new Error("organizations missing");
    const invitee = await person();
    await setEmailVerified(t.db.sql, invitee.userId);
    const live = await invited(owner, first.id, invitee.email);
    const other = await invited(owner, second.id, invitee.email, { role: "admin" });
    await expire(t, await invited(owner, third.id, invitee.email));
    expect((await cancel(owner, await invited(owner, fourth.id, invitee.email))).statusCode).toBe(
      200,
    );
    await invited(owner, first.id, uniqueEmail());
    const response = await invitee.client.get("/organization/list-user-invitations");
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.map((row: { id: string }) => row.id)).toEqual([live, other]);
    expect(body[0]).toMatchObject({ organizationName: first.name, status: "pending" });
    expect(body[1]).toMatchObject({ organizationName: second.name, role: "admin" });
    expect(Object.keys(body[0]).sort()).toEqual([...INVITATION_KEYS, "organizationName"].sort());
  });

  it("answers 401 without a session", async () => {
    expectError(
      await createClient(t.app).get("/organization/list-user-invitations"),
      401,
      UNAUTHORIZED,
    );
  });
});

describe("tenant isolation", () => {
  it("never lets a member of one organization see or touch another's invitations", async () => {
    const mine = await staffedOrganization();
    const theirs = await staffedOrganization();
    const invitee = await person();
    const theirTeam = await team(t, theirs.org.id);
    const id = await invited(theirs.owner, theirs.org.id, invitee.email);
    const { owner } = mine;
    await setEmailVerified(t.db.sql, owner.userId);
    const before = await invitationsOf(t, theirs.org.id);

    expectError(
      await invite(owner, { email: uniqueEmail(), role: "member", organizationId: theirs.org.id }),
      400,
      MEMBER_NOT_FOUND,
    );
    expectError(
      await invite(owner, {
        email: uniqueEmail(),
        role: "member",
        organizationId: mine.org.id,
        teamId: theirTeam.id,
      }),
      400,
      TEAM_NOT_FOUND,
    );
    expectError(await cancel(owner, id), 400, INVITATION_NOT_FOUND);
    expectError(await accept(owner, id), 403, NOT_RECIPIENT);
    expectError(await reject(owner, id), 403, NOT_RECIPIENT);
    expectError(await getInvitation(owner, id), 403, NOT_RECIPIENT);
    expectError(await listInvitations(owner, { organizationId: theirs.org.id }), 403, NOT_A_MEMBER);
    expectError(
      await listInvitations(owner, { organizationId: theirs.org.id, limit: "5" }),
      403,
      NOT_A_MEMBER,
    );
    const own = await owner.client.get("/organization/list-user-invitations");
    expect(own.json()).toEqual([]);
    // Nothing of theirs changed.
    expect(await invitationsOf(t, theirs.org.id)).toEqual(before);
    expect(await invitationsOf(t, mine.org.id)).toEqual([]);
  });
});

describe("signing up from an invitation", () => {
  function pathOf(link: string): string {
    expect(link.startsWith(`${BASE}/`), link).toBe(true);
    return link.slice(BASE.length);
  }

  function claimsOf(link: string): Record<string, unknown> {
    const jwt = new URL(link).searchParams.get("token") ?? "";
    return JSON.parse(Buffer.from(jwt.split(".")[1] ?? "", "base64url").toString("utf8"));
  }

  it("mails a verification link that verifies, signs in and joins in one step", async () => {
    const { owner, org } = await staffedOrganization();
    const email = uniqueEmail("newbie");
    const response = await invite(owner, { email, role: "admin", organizationId: org.id });
    expect(response.statusCode, response.body).toBe(200);
    const invitationMail = await t.smtp.waitFor(email);
    const acceptLink = t.smtp.linkIn(invitationMail, "/accept-invitation/");
    const invitationId = acceptLink.split("/").at(-1) as string;
    expect(invitationId).toBe(response.json().id);

    const newcomer = createClient(t.app);
    const signUp = await newcomer.post("/sign-up/email", {
      name: "Newbie",
      email,
      password: PASSWORD,
      invitationId,
    });
    expect(signUp.statusCode, signUp.body).toBe(200);
    const userId = signUp.json().user.id;
    // Verification is not required here, yet the link goes out, carrying the invitation.
    const mail = await t.smtp.waitFor(email);
    expect(mail.subject).not.toContain("invited you");
    const link = t.smtp.linkIn(mail, "/verify-email");
    expect(claimsOf(link)).toMatchObject({ email, userId, invitationId });

    const visitor = createClient(t.app);
    const followed = await visitor.get(pathOf(link));
    expect(followed.statusCode, followed.body).toBe(200);
    const body = followed.json();
    expect(body).toMatchObject({
      status: true,
      user: { id: userId, email, emailVerified: true },
      invitation: { id: invitationId, status: "accepted" },
      member: { organizationId: org.id, userId, role: "admin" },
    });
    expect(visitor.setCookies(followed).get("authd.session_token")).toBeDefined();
    const session = await visitor.get("/get-session");
    expect(session.json().user).toMatchObject({ id: userId, emailVerified: true });
    expect(session.json().session.activeOrganizationId).toBe(org.id);
    expect((await membersOf(t, org.id)).find((row) => row.userId === userId)?.role).toBe("admin");
    expect((await invitationRow(t, invitationId))?.status).toBe("accepted");

    // A replayed link verifies nothing new: no login, no second membership.
    const replayer = createClient(t.app);
    const replay = await replayer.get(pathOf(link));
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual({ status: true, user: expect.objectContaining({ id: userId }) });
    expect(replay.headers["set-cookie"]).toBeUndefined();
    expect((await membersOf(t, org.id)).filter((row) => row.userId === userId)).toHaveLength(1);
  });

  it("redirects to the callbackURL, or with ?error= when the invitation can no longer be accepted", async () => {
    const { owner, org } = await staffedOrganization();
    const joiner = uniqueEmail("joiner");
    const joinId = await invited(owner, org.id, joiner);
    await createClient(t.app).post("/sign-up/email", {
      name: "Joiner",
      email: joiner,
      password: PASSWORD,
      invitationId: joinId,
      callbackURL: "/welcome",
    });
    const joinLink = t.smtp.linkIn(await t.smtp.waitFor(joiner), "/verify-email");
    const joined = await createClient(t.app).get(pathOf(joinLink));
    expect(joined.statusCode).toBe(302);
    expect(joined.headers.location).toBe("/welcome");
    expect((await invitationRow(t, joinId))?.status).toBe("accepted");

    const late = uniqueEmail("late");
    const lateId = await invited(owner, org.id, late);
    const signUp = await createClient(t.app).post("/sign-up/email", {
      name: "Late",
      email: late,
      password: PASSWORD,
      invitationId: lateId,
      callbackURL: "/welcome",
    });
    const lateLink = t.smtp.linkIn(await t.smtp.waitFor(late), "/verify-email");
    expect((await cancel(owner, lateId)).statusCode).toBe(200);
    const visitor = createClient(t.app);
    const followed = await visitor.get(pathOf(lateLink));
    expect(followed.statusCode).toBe(302);
    expect(followed.headers.location).toBe("/welcome?error=INVITATION_NOT_FOUND");
    // The address is proven and the session stands; only joining failed.
    const session = (await visitor.get("/get-session")).json();
    expect(session.user).toMatchObject({ id: signUp.json().user.id, emailVerified: true });
    expect(session.session.activeOrganizationId).toBeNull();
    expect((await membersOf(t, org.id)).map((row) => row.userId)).not.toContain(
      signUp.json().user.id,
    );
  });

  it("ignores an invitation id that is unknown or addressed to someone else", async () => {
    const { owner, org } = await staffedOrganization();
    const someoneElse = await invited(owner, org.id, uniqueEmail());
    for (const invitationId of [someoneElse, generateId()]) {
      const email = uniqueEmail("stranger");
      const response = await createClient(t.app).post("/sign-up/email", {
        name: "Stranger",
        email,
        password: PASSWORD,
        invitationId,
      });
      expect(response.statusCode, response.body).toBe(200);
      // Sign-up hands its mail over before answering: none went out.
      expect(mailsTo(t, email)).toEqual([]);
    }
    expect((await invitationRow(t, someoneElse))?.status).toBe("pending");
    expectValidationError(
      await createClient(t.app).post("/sign-up/email", {
        name: "Odd",
        email: uniqueEmail(),
        password: PASSWORD,
        invitationId: 5,
      }),
      "invitationId",
    );
  });
});
