/**
 * The order writers lock rows in. Every write to an organization's members, invitations or
 * teams also updates the organization's row (its content version), and writers that start
 * from the organization (invite, delete organization, member changes) lock it first; so
 * every other writer of those rows must take the organization before the row too, or the
 * two deadlock.
 *
 * Each test plays such a writer in a transaction of its own: it locks the organization,
 * sends the request, waits until the request is blocked on it, then locks the row the
 * request writes with NOWAIT. Taken in the right order, the request has not touched the
 * row yet and the lock is granted; had the request locked the row first, NOWAIT fails at
 * once (where a plain lock would deadlock, and the request's transaction might retry and
 * hide it).
 *
 * The same holding shows that what a request checked before taking the organization's
 * lock is checked again under it: the test's writer changes it meanwhile.
 */
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertCredentialAccount } from "../../server/accounts/queries.js";
import { signValue } from "../../server/crypto/digest.js";
import { hashPassword } from "../../server/crypto/password.js";
import { insertInvitation } from "../../server/invitations/queries.js";
import { insertMember } from "../../server/organization/member-queries.js";
import { insertOrganization } from "../../server/organization/queries.js";
import { createSession } from "../../server/sessions/sessions.js";
import { insertUser } from "../../server/users/queries.js";
import { createTestApp, TEST_SECRET, type TestApp } from "../helpers/app.js";
import { type Client, createClient } from "../helpers/client.js";

const PASSWORD = "lock order 12345";
let t: TestApp;
/** The other writer's connection, apart from the app's pool. */
let writer: postgres.Sql;
let passwordHash: string;
let counter = 0;

beforeAll(async () => {
  t = await createTestApp({
    config: {
      organization: { enabled: true, teams: { enabled: true } },
      user: { deleteUser: { enabled: true, requireEmailConfirmation: false } },
    },
  });
  writer = postgres(t.testDatabase.url, { max: 1, onnotice: () => {} });
  passwordHash = await hashPassword(PASSWORD);
});

afterAll(async () => {
  await writer?.end();
  await t?.close();
});

async function signedIn(name: string): Promise<{ id: string; email: string; client: Client }> {
  counter += 1;
  const id = `lock-${counter}-${name}`;
  const email = `${id}@example.com`;
  await insertUser(t.db.sql, { id, email, name });
  await insertCredentialAccount(t.db.sql, { id: `${id}-account`, userId: id, passwordHash });
  const { token } = await createSession(t.db.sql, t.config, {
    userId: id,
    client: { ipAddress: null, userAgent: "lock-order test" },
  });
  const client = createClient(t.app);
  client.cookies.set("authd.session_token", encodeURIComponent(signValue(token, TEST_SECRET)));
  return { id, email, client };
}

/** An organization with its owner and a member, and a pending invitation from the owner. */
async function organization() {
  const owner = await signedIn("owner");
  const member = await signedIn("member");
  const invitee = await signedIn("invitee");
  const id = `lock-org-${++counter}`;
  await insertOrganization(t.db.sql, { id, name: "Locks", slug: id, logo: null, metadata: null });
  await insertMember(t.db.sql, {
    id: `${id}-o`,
    organizationId: id,
    userId: owner.id,
    role: "owner",
  });
  await insertMember(t.db.sql, {
    id: `${id}-m`,
    organizationId: id,
    userId: member.id,
    role: "member",
  });
  const invitationId = `${id}-inv`;
  await insertInvitation(t.db.sql, {
    id: invitationId,
    organizationId: id,
    email: invitee.email,
    role: "member",
    teamId: null,
    inviterId: owner.id,
    expiresAt: new Date(Date.now() + 86_400_000),
  });
  return { id, owner, member, invitee, invitationId };
}

/** Resolves once a statement of the app waits for a lock the test's writer holds. */
async function blocked(writerPid: number): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const [row] = await t.db.sql<{ waiting: number }[]>`
      select count(*)::int as waiting from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'
        and ${writerPid} = any (pg_blocking_pids(pid))`;
    if ((row?.waiting ?? 0) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error("the request never waited for the organization's lock");
}

/**
 * Locks the organization, sends the request, waits until it blocks, locks `row` (a
 * statement of the test's writer), commits, and answers the request's response.
 */
async function organizationFirst(
  organizationId: string,
  send: () => Promise<{ statusCode: number; body: string }>,
  row: (tx: postgres.TransactionSql) => Promise<unknown>,
) {
  let response: Promise<{ statusCode: number; body: string }> | undefined;
  await writer.begin(async (tx) => {
    const [{ pid } = { pid: 0 }] = await tx<{ pid: number }[]>`select pg_backend_pid() as pid`;
    await tx`select id from organization where id = ${organizationId} for update`;
    response = send();
    await blocked(pid);
    // Refused at once (lock_not_available) if the request took the row before waiting.
    await row(tx);
  });
  if (!response) throw new Error("no request was sent");
  return response;
}

describe("writers take the organization before its rows", () => {
  it.each([
    ["cancel-invitation", "owner", "canceled"],
    ["reject-invitation", "invitee", "rejected"],
  ] as const)("%s", async (path, who, status) => {
    const org = await organization();
    const response = await organizationFirst(
      org.id,
      () => org[who].client.post(`/organization/${path}`, { invitationId: org.invitationId }),
      (tx) => tx`select id from invitation where id = ${org.invitationId} for update nowait`,
    );
    expect(response.statusCode, response.body).toBe(200);
    const [row] = await t.db.sql`select status from invitation where id = ${org.invitationId}`;
    expect(row?.status).toBe(status);
  });

  it("update-team", async () => {
    const org = await organization();
    const teamId = `${org.id}-team`;
    await t.db
      .sql`insert into team (id, name, organization_id) values (${teamId}, 'Team', ${org.id})`;
    // A team is updated in the caller's active organization.
    await t.db
      .sql`update session set active_organization_id = ${org.id} where user_id = ${org.owner.id}`;
    const response = await organizationFirst(
      org.id,
      () =>
        org.owner.client.post("/organization/update-team", { teamId, data: { name: "Renamed" } }),
      (tx) => tx`select id from team where id = ${teamId} for update nowait`,
    );
    expect(response.statusCode, response.body).toBe(200);
    const [row] = await t.db.sql`select name from team where id = ${teamId}`;
    expect(row?.name).toBe("Renamed");
  });

  it("delete-user, which deletes the user's memberships", async () => {
    const org = await organization();
    const response = await organizationFirst(
      org.id,
      () => org.member.client.post("/delete-user", { password: PASSWORD }),
      (tx) => tx`select id from member where user_id = ${org.member.id} for update nowait`,
    );
    expect(response.statusCode, response.body).toBe(200);
    const [user] = await t.db.sql`select 1 from "user" where id = ${org.member.id}`;
    expect(user).toBeUndefined();
  });

  it("delete-user, which deletes the invitations the user sent", async () => {
    const org = await organization();
    // The owner has left the organization since: only the invitation ties them to it.
    await t.db.sql`delete from member where user_id = ${org.owner.id}`;
    const response = await organizationFirst(
      org.id,
      () => org.owner.client.post("/delete-user", { password: PASSWORD }),
      (tx) => tx`select id from invitation where id = ${org.invitationId} for update nowait`,
    );
    expect(response.statusCode, response.body).toBe(200);
    const [invitation] = await t.db.sql`select 1 from invitation where id = ${org.invitationId}`;
    expect(invitation).toBeUndefined();
  });
});

describe("what is read before the organization's lock is read again under it", () => {
  it("invite-member with a team the team's removal takes away meanwhile", async () => {
    const org = await organization();
    const teamId = `${org.id}-team`;
    await t.db
      .sql`insert into team (id, name, organization_id) values (${teamId}, 'Team', ${org.id})`;
    const email = `lock-${++counter}-new@example.com`;
    // The test's writer removes the team as remove-team does, under the organization's lock.
    const response = await organizationFirst(
      org.id,
      () =>
        org.owner.client.post("/organization/invite-member", {
          email,
          role: "member",
          organizationId: org.id,
          teamId,
        }),
      (tx) => tx`delete from team where id = ${teamId}`,
    );
    expect(response.statusCode, response.body).toBe(400);
    expect(JSON.parse(response.body)).toEqual({
      code: "TEAM_NOT_FOUND",
      message: "Team not found",
    });
    const invitations = await t.db.sql`select 1 from invitation where email = ${email}`;
    expect(invitations).toHaveLength(0);
  });
});
