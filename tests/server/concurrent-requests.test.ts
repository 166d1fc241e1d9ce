/**
 * Concurrent requests, generated. Each round writes a small world of its own (two
 * organizations, their owners, an admin and a member, a team, pending invitations, a
 * platform admin, each person signed in), then fast-check draws one to seven requests
 * from the catalogue below, one more is added in turn, and all are sent at once: writes
 * of invitations, members, teams, organizations, users and sessions that touch the same
 * rows, and reads of them.
 *
 * For every answer: never a 5xx, and an error is JSON `{code, message}` with a code of the
 * error catalogue (a deadlock, a foreign key refused or a uniqueness race must not come
 * out as a 500). After every round the rows hold together: a team member is a member of
 * the team's organization, a pending invitation names only teams that exist, and an
 * organization that lost none of its people to a deletion still has an owner.
 *
 * Runs are seeded: a failure names the seed; CONCURRENT_SEED=<n> replays it and
 * CONCURRENT_ROUNDS=<n> sets the rounds. A race is not certain to repeat under the same
 * seed; the failure message lists the requests of the round. About 15 s.
 */
import fc from "fast-check";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, describe, expect, it } from "vitest";
import { insertCredentialAccount } from "../../server/accounts/queries.js";
import { signValue } from "../../server/crypto/digest.js";
import { hashPassword } from "../../server/crypto/password.js";
import { isErrorCode } from "../../server/errors.js";
import { insertInvitation } from "../../server/invitations/queries.js";
import { insertMember } from "../../server/organization/member-queries.js";
import { insertOrganization } from "../../server/organization/queries.js";
import { createSession } from "../../server/sessions/sessions.js";
import { insertTeam, insertTeamMember } from "../../server/teams/queries.js";
import { insertUser } from "../../server/users/queries.js";
import { createTestApp, errorLogger, TEST_SECRET } from "../helpers/app.js";
import { type Client, createClient } from "../helpers/client.js";

const SEED = Number(process.env.CONCURRENT_SEED ?? 20_261_127);
const ROUNDS = Number(process.env.CONCURRENT_ROUNDS ?? 200);
const PASSWORD = "concurrent requests 1";

/** Error lines the app logged in the current round, so a 5xx shows its cause in the failure. */
const { logger, lines: errorLog } = errorLogger();
const t = await createTestApp({
  logger,
  config: {
    organization: { enabled: true, teams: { enabled: true } },
    admin: { enabled: true },
    user: {
      changeEmail: { enabled: true },
      deleteUser: { enabled: true, requireEmailConfirmation: false },
    },
  },
});
const { sql } = t.db;
const passwordHash = await hashPassword(PASSWORD);

afterAll(async () => {
  await t.close();
});

/** The people of a round: owners of A and B, an admin and a member of A, an invitee, a platform admin. */
const PEOPLE = ["owner", "admin", "member", "invitee", "ownerB", "platform"] as const;
type Person = (typeof PEOPLE)[number];

interface World {
  round: number;
  ids: Record<Person, string>;
  emails: Record<Person, string>;
  clients: Record<Person, Client>;
  orgA: string;
  orgB: string;
  team: string;
  /** The invitee's pending invitations: to A (with the team) and to B. */
  invitationA: string;
  invitationB: string;
  memberIds: { owner: string; admin: string; member: string };
  /** A slug and an address that several requests of the round ask for at once. */
  sharedSlug: string;
  sharedEmail: string;
}

async function buildWorld(round: number): Promise<World> {
  const tag = `c${round}-${Date.now().toString(36)}`;
  const id = (name: string) => `${tag}-${name}`;
  const ids = Object.fromEntries(PEOPLE.map((person) => [person, id(person)])) as World["ids"];
  const emails = Object.fromEntries(
    PEOPLE.map((person) => [person, `${tag}-${person}@example.com`.toLowerCase()]),
  ) as World["emails"];
  const clients = {} as World["clients"];
  for (const person of PEOPLE) {
    await insertUser(sql, {
      id: ids[person],
      email: emails[person],
      name: person,
      role: person === "platform" ? "admin" : null,
    });
    await insertCredentialAccount(sql, {
      id: id(`${person}-account`),
      userId: ids[person],
      passwordHash,
    });
  }
  const orgA = id("org-a");
  const orgB = id("org-b");
  await insertOrganization(sql, { id: orgA, name: "A", slug: id("a"), logo: null, metadata: null });
  await insertOrganization(sql, { id: orgB, name: "B", slug: id("b"), logo: null, metadata: null });
  const memberIds = { owner: id("m-owner"), admin: id("m-admin"), member: id("m-member") };
  await insertMember(sql, {
    id: memberIds.owner,
    organizationId: orgA,
    userId: ids.owner,
    role: "owner",
  });
  await insertMember(sql, {
    id: memberIds.admin,
    organizationId: orgA,
    userId: ids.admin,
    role: "admin",
  });
  await insertMember(sql, {
    id: memberIds.member,
    organizationId: orgA,
    userId: ids.member,
    role: "member",
  });
  await insertMember(sql, {
    id: id("mb-owner"),
    organizationId: orgB,
    userId: ids.ownerB,
    role: "owner",
  });
  await insertMember(sql, {
    id: id("mb-member"),
    organizationId: orgB,
    userId: ids.member,
    role: "member",
  });
  const team = id("team");
  await insertTeam(sql, { id: team, name: "Team", organizationId: orgA });
  await insertTeamMember(sql, { id: id("tm"), teamId: team, userId: ids.member });
  const invitation = (organizationId: string, inviterId: string, teamId: string | null) => ({
    organizationId,
    email: emails.invitee,
    role: "member",
    teamId,
    inviterId,
    expiresAt: new Date(Date.now() + 86_400_000),
  });
  const invitationA = id("inv-a");
  const invitationB = id("inv-b");
  await insertInvitation(sql, { id: invitationA, ...invitation(orgA, ids.admin, team) });
  await insertInvitation(sql, { id: invitationB, ...invitation(orgB, ids.ownerB, null) });
  for (const person of PEOPLE) {
    const created = await createSession(sql, t.config, {
      userId: ids[person],
      client: { ipAddress: null, userAgent: "concurrent-requests test" },
      activeOrganizationId:
        person === "ownerB" ? orgB : person === "invitee" || person === "platform" ? null : orgA,
    });
    const client = createClient(t.app);
    client.cookies.set(
      "authd.session_token",
      encodeURIComponent(signValue(created.token, TEST_SECRET)),
    );
    clients[person] = client;
  }
  return {
    round,
    ids,
    emails,
    clients,
    orgA,
    orgB,
    team,
    invitationA,
    invitationB,
    memberIds,
    sharedSlug: id("shared"),
    sharedEmail: `${tag}-shared@example.com`,
  };
}

type Send = (world: World) => Promise<LightMyRequestResponse>;

/** What a request does, by name; `deletes` marks the ones that delete a person. */
const CATALOGUE: Record<string, { send: Send; deletes?: true }> = {
  // Invitations
  "invitee accepts A": {
    send: (w) =>
      w.clients.invitee.post("/organization/accept-invitation", { invitationId: w.invitationA }),
  },
  "invitee accepts B": {
    send: (w) =>
      w.clients.invitee.post("/organization/accept-invitation", { invitationId: w.invitationB }),
  },
  "invitee rejects A": {
    send: (w) =>
      w.clients.invitee.post("/organization/reject-invitation", { invitationId: w.invitationA }),
  },
  "invitee rejects B": {
    send: (w) =>
      w.clients.invitee.post("/organization/reject-invitation", { invitationId: w.invitationB }),
  },
  "owner cancels A's": {
    send: (w) =>
      w.clients.owner.post("/organization/cancel-invitation", { invitationId: w.invitationA }),
  },
  "admin cancels A's": {
    send: (w) =>
      w.clients.admin.post("/organization/cancel-invitation", { invitationId: w.invitationA }),
  },
  "ownerB cancels B's": {
    send: (w) =>
      w.clients.ownerB.post("/organization/cancel-invitation", { invitationId: w.invitationB }),
  },
  "owner resends A's": {
    send: (w) =>
      w.clients.owner.post("/organization/invite-member", {
        email: w.emails.invitee,
        role: "member",
        organizationId: w.orgA,
        resend: true,
      }),
  },
  "admin invites a new address to the team": {
    send: (w) =>
      w.clients.admin.post("/organization/invite-member", {
        email: w.sharedEmail,
        role: "member",
        organizationId: w.orgA,
        teamId: w.team,
      }),
  },
  "ownerB invites the shared address": {
    send: (w) =>
      w.clients.ownerB.post("/organization/invite-member", {
        email: w.sharedEmail,
        role: "admin",
        organizationId: w.orgB,
      }),
  },
  // Members
  "owner removes member by email": {
    send: (w) =>
      w.clients.owner.post("/organization/remove-member", {
        memberIdOrEmail: w.emails.member,
        organizationId: w.orgA,
      }),
  },
  "admin removes member by id": {
    send: (w) =>
      w.clients.admin.post("/organization/remove-member", {
        memberIdOrEmail: w.memberIds.member,
        organizationId: w.orgA,
      }),
  },
  "owner removes admin": {
    send: (w) =>
      w.clients.owner.post("/organization/remove-member", {
        memberIdOrEmail: w.memberIds.admin,
        organizationId: w.orgA,
      }),
  },
  "admin removes owner": {
    send: (w) =>
      w.clients.admin.post("/organization/remove-member", {
        memberIdOrEmail: w.memberIds.owner,
        organizationId: w.orgA,
      }),
  },
  "owner makes admin an owner": {
    send: (w) =>
      w.clients.owner.post("/organization/update-member-role", {
        memberId: w.memberIds.admin,
        role: "owner",
        organizationId: w.orgA,
      }),
  },
  "admin demotes owner": {
    send: (w) =>
      w.clients.admin.post("/organization/update-member-role", {
        memberId: w.memberIds.owner,
        role: "member",
        organizationId: w.orgA,
      }),
  },
  "owner demotes self": {
    send: (w) =>
      w.clients.owner.post("/organization/update-member-role", {
        memberId: w.memberIds.owner,
        role: "member",
        organizationId: w.orgA,
      }),
  },
  "owner makes member an admin": {
    send: (w) =>
      w.clients.owner.post("/organization/update-member-role", {
        memberId: w.memberIds.member,
        role: "admin",
        organizationId: w.orgA,
      }),
  },
  "member leaves A": {
    send: (w) => w.clients.member.post("/organization/leave", { organizationId: w.orgA }),
  },
  "admin leaves A": {
    send: (w) => w.clients.admin.post("/organization/leave", { organizationId: w.orgA }),
  },
  "owner leaves A": {
    send: (w) => w.clients.owner.post("/organization/leave", { organizationId: w.orgA }),
  },
  "member leaves B": {
    send: (w) => w.clients.member.post("/organization/leave", { organizationId: w.orgB }),
  },
  "ownerB removes member": {
    send: (w) =>
      w.clients.ownerB.post("/organization/remove-member", {
        memberIdOrEmail: w.emails.member,
        organizationId: w.orgB,
      }),
  },
  // Teams
  "owner adds member to the team": {
    send: (w) =>
      w.clients.owner.post("/organization/add-team-member", {
        teamId: w.team,
        userId: w.ids.member,
      }),
  },
  "admin adds self to the team": {
    send: (w) =>
      w.clients.admin.post("/organization/add-team-member", {
        teamId: w.team,
        userId: w.ids.admin,
      }),
  },
  "owner removes member from the team": {
    send: (w) =>
      w.clients.owner.post("/organization/remove-team-member", {
        teamId: w.team,
        userId: w.ids.member,
      }),
  },
  "admin removes the team": {
    send: (w) =>
      w.clients.admin.post("/organization/remove-team", { teamId: w.team, organizationId: w.orgA }),
  },
  "owner creates team X": {
    send: (w) =>
      w.clients.owner.post("/organization/create-team", { name: "X", organizationId: w.orgA }),
  },
  "admin creates team X": {
    send: (w) =>
      w.clients.admin.post("/organization/create-team", { name: "X", organizationId: w.orgA }),
  },
  "owner renames the team": {
    send: (w) =>
      w.clients.owner.post("/organization/update-team", { teamId: w.team, data: { name: "X" } }),
  },
  "member sets the active team": {
    send: (w) => w.clients.member.post("/organization/set-active-team", { teamId: w.team }),
  },
  "member lists the team's members": {
    send: (w) =>
      w.clients.member.get("/organization/list-team-members", { query: { teamId: w.team } }),
  },
  // Organizations
  "owner deletes A": {
    send: (w) => w.clients.owner.post("/organization/delete", { organizationId: w.orgA }),
  },
  "ownerB deletes B": {
    send: (w) => w.clients.ownerB.post("/organization/delete", { organizationId: w.orgB }),
  },
  "owner moves A to the shared slug": {
    send: (w) =>
      w.clients.owner.post("/organization/update", {
        organizationId: w.orgA,
        data: { slug: w.sharedSlug },
      }),
  },
  "invitee creates an organization on the shared slug": {
    send: (w) =>
      w.clients.invitee.post("/organization/create", { name: "Shared", slug: w.sharedSlug }),
  },
  "member creates an organization on the shared slug": {
    send: (w) =>
      w.clients.member.post("/organization/create", { name: "Shared", slug: w.sharedSlug }),
  },
  "member sets A active": {
    send: (w) => w.clients.member.post("/organization/set-active", { organizationId: w.orgA }),
  },
  "member sets B active": {
    send: (w) => w.clients.member.post("/organization/set-active", { organizationId: w.orgB }),
  },
  "member reads A whole": {
    send: (w) =>
      w.clients.member.get("/organization/get-full-organization", {
        query: { organizationId: w.orgA },
      }),
  },
  "admin lists A's members": {
    send: (w) =>
      w.clients.admin.get("/organization/list-members", { query: { organizationId: w.orgA } }),
  },
  // Users and sessions
  "member renames self": {
    send: (w) => w.clients.member.post("/update-user", { name: "Renamed" }),
  },
  "member deletes self": {
    send: (w) => w.clients.member.post("/delete-user", { password: PASSWORD }),
    deletes: true,
  },
  "owner deletes self": {
    send: (w) => w.clients.owner.post("/delete-user", { password: PASSWORD }),
    deletes: true,
  },
  "invitee deletes self": {
    send: (w) => w.clients.invitee.post("/delete-user", { password: PASSWORD }),
    deletes: true,
  },
  "member changes password, revoking the others": {
    send: (w) =>
      w.clients.member.post("/change-password", {
        currentPassword: PASSWORD,
        newPassword: "another password 2",
        revokeOtherSessions: true,
      }),
  },
  "owner changes email to the shared address": {
    send: (w) => w.clients.owner.post("/change-email", { newEmail: w.sharedEmail }),
  },
  "ownerB changes email to the shared address": {
    send: (w) => w.clients.ownerB.post("/change-email", { newEmail: w.sharedEmail }),
  },
  "member signs out": { send: (w) => w.clients.member.post("/sign-out", {}) },
  "member revokes all sessions": { send: (w) => w.clients.member.post("/revoke-sessions", {}) },
  "member reads the session": { send: (w) => w.clients.member.get("/get-session") },
  "member signs in again": {
    send: (w) =>
      createClient(t.app).post("/sign-in/email", { email: w.emails.member, password: PASSWORD }),
  },
  "someone signs up with the shared address": {
    send: (w) =>
      createClient(t.app).post("/sign-up/email", {
        name: "Newcomer",
        email: w.sharedEmail,
        password: PASSWORD,
      }),
  },
  "platform creates a user with the shared address": {
    send: (w) =>
      w.clients.platform.post("/admin/create-user", {
        email: w.sharedEmail,
        password: PASSWORD,
        name: "Created",
      }),
  },
  // Platform admin
  "platform bans member": {
    send: (w) => w.clients.platform.post("/admin/ban-user", { userId: w.ids.member }),
  },
  "platform unbans member": {
    send: (w) => w.clients.platform.post("/admin/unban-user", { userId: w.ids.member }),
  },
  "platform removes member": {
    send: (w) => w.clients.platform.post("/admin/remove-user", { userId: w.ids.member }),
    deletes: true,
  },
  "platform removes owner": {
    send: (w) => w.clients.platform.post("/admin/remove-user", { userId: w.ids.owner }),
    deletes: true,
  },
  "platform removes invitee": {
    send: (w) => w.clients.platform.post("/admin/remove-user", { userId: w.ids.invitee }),
    deletes: true,
  },
  "platform renames member": {
    send: (w) =>
      w.clients.platform.post("/admin/update-user", {
        userId: w.ids.member,
        data: { name: "By admin" },
      }),
  },
  "platform sets member's password": {
    send: (w) =>
      w.clients.platform.post("/admin/set-user-password", {
        userId: w.ids.member,
        newPassword: "set by admin 3",
      }),
  },
  "platform impersonates member": {
    send: (w) => w.clients.platform.post("/admin/impersonate-user", { userId: w.ids.member }),
  },
  "platform revokes member's sessions": {
    send: (w) => w.clients.platform.post("/admin/revoke-user-sessions", { userId: w.ids.member }),
  },
};
const NAMES = Object.keys(CATALOGUE);

/** What is wrong with one answer, or null. */
function problemOf(response: LightMyRequestResponse): string | null {
  if (response.statusCode >= 500)
    return `answered ${response.statusCode}: ${response.body.slice(0, 300)}`;
  if (response.statusCode < 400) return null;
  let body: { code?: unknown; message?: unknown };
  try {
    body = response.json();
  } catch {
    return `answered ${response.statusCode} with a body that is not JSON`;
  }
  if (
    typeof body.code !== "string" ||
    !isErrorCode(body.code) ||
    typeof body.message !== "string"
  ) {
    return `answered ${response.statusCode} with ${response.body.slice(0, 200)}`;
  }
  return null;
}

/** What is wrong with the world's rows after a round, each as a sentence. */
async function brokenRows(world: World, someoneDeleted: boolean): Promise<string[]> {
  const problems: string[] = [];
  const orgs = [world.orgA, world.orgB];
  const strays = await sql<{ teamId: string; userId: string }[]>`
    select tm.team_id, tm.user_id from team_member tm join team on team.id = tm.team_id
    where team.organization_id in ${sql(orgs)}
      and not exists (select 1 from member m
                      where m.organization_id = team.organization_id and m.user_id = tm.user_id)`;
  for (const stray of strays) {
    problems.push(`user ${stray.userId} is in team ${stray.teamId} but not in its organization`);
  }
  const pending = await sql<{ id: string; organizationId: string; teamId: string }[]>`
    select id, organization_id, team_id from invitation
    where organization_id in ${sql(orgs)} and status = 'pending' and team_id is not null`;
  for (const invitation of pending) {
    for (const teamId of invitation.teamId.split(",")) {
      const [team] =
        await sql`select 1 from team where id = ${teamId} and organization_id = ${invitation.organizationId}`;
      if (!team)
        problems.push(`pending invitation ${invitation.id} names team ${teamId}, which is gone`);
    }
  }
  if (!someoneDeleted) {
    const ownerless = await sql<{ id: string }[]>`
      select o.id from organization o where o.id in ${sql(orgs)}
        and not exists (select 1 from member m where m.organization_id = o.id
                        and 'owner' = any (string_to_array(m.role, ',')))`;
    for (const org of ownerless) problems.push(`organization ${org.id} has no owner left`);
  }
  return problems;
}

describe("concurrent requests, generated", () => {
  it("answers every request of every round from the catalogue, and leaves the rows consistent", async () => {
    let round = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 7 }),
        async (drawn) => {
          const world = await buildWorld(round);
          errorLog.length = 0;
          // One more request in turn from the catalogue, so that every one is sent in some
          // round once the rounds outnumber it (they do by default).
          const picked = [NAMES[round % NAMES.length] ?? "", ...drawn];
          round += 1;
          const responses = await Promise.all(picked.map((name) => CATALOGUE[name]?.send(world)));
          const problems: string[] = [];
          let someoneDeleted = false;
          responses.forEach((response, index) => {
            const name = picked[index] ?? "";
            if (!response) return;
            if (CATALOGUE[name]?.deletes && response.statusCode === 200) someoneDeleted = true;
            const problem = problemOf(response);
            if (problem) problems.push(`${name}: ${problem}`);
          });
          problems.push(...(await brokenRows(world, someoneDeleted)));
          const sent = `round ${world.round}, sent at once: ${picked.join(" | ")}`;
          expect(problems, `${sent}\n${errorLog.join("").slice(0, 4_000)}`).toEqual([]);
        },
      ),
      // Shrinking replays a race, which need not repeat: the first failure is the report.
      { seed: SEED, numRuns: ROUNDS, endOnFailure: true },
    );
  }, 300_000);
});
