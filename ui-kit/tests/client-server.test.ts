/**
 * The client against a real authd on a socket (real PostgreSQL, real mail through
 * the SMTP sink): every call makes at least one round trip, as a browser would.
 */
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestApp, type TestApp } from "../../tests/helpers/app.js";
import { type AuthClient, createAuthClient, type Result } from "../src/client/index.js";
import { everyCall } from "./calls.js";
import { cookieFetch } from "./cookie-fetch.js";

const ORIGIN = "http://localhost:3000";
const PASSWORD = "correct-horse-battery";

let t: TestApp;
let baseURL: string;
/** "METHOD /path" of every request the clients sent, to check that each call made one. */
const sent = new Set<string>();

beforeAll(async () => {
  t = await createTestApp({
    config: {
      organization: { teams: { enabled: true } },
      user: {
        changeEmail: { enabled: true },
        deleteUser: { enabled: true, requireEmailConfirmation: false },
      },
      socialProviders: { github: { clientId: "kit-client", clientSecret: "kit-secret" } },
    },
  });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  baseURL = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await t?.close();
});

interface Browser {
  client: AuthClient;
  cookies: Map<string, string>;
  redirects: string[];
}

function browser(): Browser {
  const jar = cookieFetch(ORIGIN);
  const redirects: string[] = [];
  const client = createAuthClient({
    baseURL,
    fetch: (input, init) => {
      sent.add(`${init.method} ${new URL(input).pathname.replace("/api/auth", "")}`);
      return jar.fetch(input, init);
    },
    onRedirect: (url) => redirects.push(url),
  });
  return { client, cookies: jar.cookies, redirects };
}

/** The data of a result, failing the test with the error when there is one. */
function ok<T>(result: Result<T>): T {
  expect(result.error).toBeNull();
  return result.data as T;
}

async function mailedLink(to: string, pattern: RegExp): Promise<string> {
  const mail = await t.smtp.waitFor(to);
  const match = mail.decoded.match(pattern);
  expect(match, mail.decoded).not.toBeNull();
  return match?.[1] as string;
}

async function signedUp(name: string, email: string): Promise<Browser> {
  const b = browser();
  ok(await b.client.signUp.email({ name, email, password: PASSWORD }));
  return b;
}

async function verified(b: Browser, email: string): Promise<void> {
  ok(await b.client.sendVerificationEmail({ email }));
  const token = await mailedLink(email, /verify-email\?token=([^&\s"]+)/);
  const answer = ok(await b.client.verifyEmail({ token }));
  expect(answer.status).toBe(true);
}

describe("the client against authd", () => {
  it("signs up, reads and changes the account, and keeps the session store current", async () => {
    const ada = browser();
    expect(ok(await ada.client.socialProviders())).toEqual([{ id: "github", name: "GitHub" }]);
    expect(ok(await ada.client.getSession())).toBeNull();

    const listener = vi.fn();
    ada.client.session.subscribe(listener);
    await vi.waitFor(() => expect(ada.client.session.getSnapshot().isPending).toBe(false));
    expect(ada.client.session.getSnapshot().data).toBeNull();

    const signUp = ok(
      await ada.client.signUp.email({ name: "Ada", email: "ada@kit.test", password: PASSWORD }),
    );
    expect(signUp.token).toEqual(expect.any(String));
    expect(signUp.user.email).toBe("ada@kit.test");
    // The store asks get-session again 10 ms after a sign-up.
    await vi.waitFor(() =>
      expect(ada.client.session.getSnapshot().data?.user.email).toBe("ada@kit.test"),
    );

    await verified(ada, "ada@kit.test");
    ok(await ada.client.updateUser({ name: "Ada L." }));
    await vi.waitFor(() => expect(ada.client.session.getSnapshot().data?.user.name).toBe("Ada L."));
    const session = ok(await ada.client.getSession());
    expect(session?.user).toMatchObject({ name: "Ada L.", emailVerified: true });

    // A verified user confirms a change of address from the current one.
    ok(await ada.client.changeEmail({ newEmail: "ada.l@kit.test" }));
    await t.smtp.waitFor("ada@kit.test");

    const changed = ok(
      await ada.client.changePassword({ currentPassword: PASSWORD, newPassword: `${PASSWORD}!` }),
    );
    expect(changed.token).toBeNull();
    const wrong = await ada.client.changePassword({
      currentPassword: "not-the-password",
      newPassword: PASSWORD,
    });
    expect(wrong.error).toMatchObject({ status: 400, code: "INVALID_PASSWORD" });

    const accounts = ok(await ada.client.listAccounts());
    expect(accounts.map((account) => account.providerId)).toEqual(["credential"]);
    const unlink = await ada.client.unlinkAccount({ providerId: "credential" });
    expect(unlink.error).toMatchObject({ code: "FAILED_TO_UNLINK_LAST_ACCOUNT" });
  });

  it("manages sessions: list, revoke one, revoke others, revoke all, sign out", async () => {
    const phone = await signedUp("Bo", "bo@kit.test");
    const laptop = browser();
    const signIn = ok(
      await laptop.client.signIn.email({ email: "bo@kit.test", password: PASSWORD }),
    );
    expect(signIn).toMatchObject({ redirect: false, token: expect.any(String) });
    const tablet = browser();
    ok(await tablet.client.signIn.email({ email: "bo@kit.test", password: PASSWORD }));

    const sessions = ok(await laptop.client.listSessions());
    expect(sessions).toHaveLength(3);
    const tabletSession = ok(await tablet.client.getSession())?.session;
    expect(ok(await laptop.client.revokeSession({ token: tabletSession?.token ?? "" }))).toEqual({
      status: true,
    });
    expect(ok(await tablet.client.getSession())).toBeNull();

    ok(await laptop.client.revokeOtherSessions());
    expect(ok(await phone.client.getSession())).toBeNull();
    expect(ok(await laptop.client.listSessions())).toHaveLength(1);

    ok(await laptop.client.revokeSessions());
    expect(ok(await laptop.client.getSession())).toBeNull();
    const unauthorized = await laptop.client.listSessions();
    expect(unauthorized.error).toMatchObject({ status: 401, code: "UNAUTHORIZED" });

    ok(await laptop.client.signIn.email({ email: "bo@kit.test", password: PASSWORD }));
    laptop.client.session.subscribe(() => {});
    await vi.waitFor(() => expect(laptop.client.session.getSnapshot().data).not.toBeNull());
    expect(ok(await laptop.client.signOut())).toEqual({ success: true });
    // The store follows the sign-out 10 ms later.
    await vi.waitFor(() => expect(laptop.client.session.getSnapshot().data).toBeNull());
  });

  it("redirects on a sign-in with callbackURL and for social sign-in, not with disableRedirect", async () => {
    await signedUp("Cy", "cy@kit.test");
    const cy = browser();
    const signIn = ok(
      await cy.client.signIn.email({
        email: "cy@kit.test",
        password: PASSWORD,
        callbackURL: "/dashboard",
      }),
    );
    expect(signIn.redirect).toBe(true);
    expect(cy.redirects).toEqual([signIn.url]);

    const social = ok(await cy.client.signIn.social({ provider: "github", callbackURL: "/" }));
    expect(social.url).toMatch(/^https:\/\/github\.com\/login\/oauth\/authorize\?/);
    expect(cy.redirects).toHaveLength(2);
    expect(cy.redirects[1]).toBe(social.url);

    // The social sign-in left cy signed in (nothing was completed); link-social needs a session.
    ok(await cy.client.signIn.email({ email: "cy@kit.test", password: PASSWORD }));
    const link = ok(await cy.client.linkSocial({ provider: "github", disableRedirect: true }));
    expect(link).toMatchObject({ redirect: false, url: expect.stringContaining("github.com") });
    // disableRedirect answers redirect: false, so nothing navigates.
    expect(cy.redirects).toHaveLength(2);
    const missing = await cy.client.signIn.social({ provider: "nowhere" });
    expect(missing.error).toMatchObject({ status: 404, code: "PROVIDER_NOT_FOUND" });
  });

  it("resets a forgotten password with the mailed token, by either route", async () => {
    const dee = await signedUp("Dee", "dee@kit.test");
    ok(await dee.client.signOut());
    ok(await dee.client.requestPasswordReset({ email: "dee@kit.test", redirectTo: "/reset" }));
    await t.smtp.waitFor("dee@kit.test");
    expect(
      ok(await dee.client.forgetPassword({ email: "dee@kit.test", redirectTo: "/reset" })),
    ).toMatchObject({ status: true });
    // The later request withdrew the first link; the second one works.
    const token = await mailedLink("dee@kit.test", /reset-password\/([^?/\s"]+)/);
    expect(
      ok(await dee.client.resetPassword({ token, newPassword: "a-new-long-password" })),
    ).toEqual({ status: true });
    const again = await dee.client.resetPassword({ token, newPassword: "another-password" });
    expect(again.error).toMatchObject({ status: 400, code: "INVALID_TOKEN" });
    ok(await dee.client.signIn.email({ email: "dee@kit.test", password: "a-new-long-password" }));
  });

  it("runs organizations, invitations, members and teams", async () => {
    const owner = await signedUp("Owner", "owner@kit.test");
    const org = ok(await owner.client.organization.create({ name: "Kit", slug: "kit" }));
    expect(org).toMatchObject({ name: "Kit", slug: "kit", members: [{ role: "owner" }] });
    const taken = await owner.client.organization.checkSlug({ slug: "kit" });
    expect(taken.error).toMatchObject({ code: "SLUG_IS_TAKEN" });
    expect(ok(await owner.client.organization.checkSlug({ slug: "kit-2" }))).toEqual({
      status: true,
    });
    expect(ok(await owner.client.organization.list()).map((o) => o.id)).toEqual([org.id]);
    expect(ok(await owner.client.organization.setActive({ organizationId: org.id }))?.id).toBe(
      org.id,
    );
    const updated = ok(await owner.client.organization.update({ data: { name: "Kit Co" } }));
    expect(updated.name).toBe("Kit Co");

    // Invitations: one accepted, one rejected, one canceled.
    const invite = (email: string) =>
      owner.client.organization.inviteMember({
        email,
        role: "member",
        organizationId: org.id,
        sendEmail: false,
      });
    const forMia = ok(await invite("mia@kit.test"));
    expect(forMia.url).toContain(forMia.id);
    const forNed = ok(await invite("ned@kit.test"));
    const forOla = ok(await invite("ola@kit.test"));
    const pending = ok(await owner.client.organization.listInvitations({ organizationId: org.id }));
    expect(pending.map((i) => i.email).sort()).toEqual([
      "mia@kit.test",
      "ned@kit.test",
      "ola@kit.test",
    ]);
    expect(
      ok(await owner.client.organization.cancelInvitation({ invitationId: forOla.id })),
    ).toMatchObject({
      status: "canceled",
    });

    const mia = await signedUp("Mia", "mia@kit.test");
    await verified(mia, "mia@kit.test");
    const mine = ok(await mia.client.organization.listUserInvitations());
    expect(mine.map((i) => [i.id, i.organizationName])).toEqual([[forMia.id, "Kit Co"]]);
    const shown = ok(await mia.client.organization.getInvitation({ id: forMia.id }));
    expect(shown).toMatchObject({ organizationSlug: "kit", inviterEmail: "owner@kit.test" });
    const accepted = ok(
      await mia.client.organization.acceptInvitation({ invitationId: forMia.id }),
    );
    expect(accepted.member).toMatchObject({ organizationId: org.id, role: "member" });

    const ned = await signedUp("Ned", "ned@kit.test");
    const rejected = ok(
      await ned.client.organization.rejectInvitation({ invitationId: forNed.id }),
    );
    expect(rejected).toMatchObject({ invitation: { status: "rejected" }, member: null });

    const full = ok(
      await owner.client.organization.getFullOrganization({ organizationId: org.id }),
    );
    expect(full?.membersTotal).toBe(2);
    expect(full?.teams).toHaveLength(1);
    const miaMember = full?.members.find((m) => m.user.email === "mia@kit.test");
    expect(miaMember).toBeDefined();
    const promoted = ok(
      await owner.client.organization.updateMemberRole({
        memberId: miaMember?.id ?? "",
        role: "admin",
      }),
    );
    expect(promoted.role).toBe("admin");
    const active = ok(await mia.client.organization.getActiveMember());
    expect(active).toMatchObject({ role: "admin", user: { email: "mia@kit.test" } });

    // Teams.
    const team = ok(await owner.client.organization.createTeam({ name: "Design" }));
    expect(
      ok(await owner.client.organization.listTeams())
        .map((x) => x.name)
        .sort(),
      // The default team keeps the name the organization was created with.
    ).toEqual(["Design", "Kit"]);
    expect(
      ok(await owner.client.organization.updateTeam({ teamId: team.id, data: { name: "UX" } }))
        .name,
    ).toBe("UX");
    const added = ok(
      await owner.client.organization.addTeamMember({
        teamId: team.id,
        userId: accepted.member.userId,
      }),
    );
    expect(added.teamId).toBe(team.id);
    expect(
      ok(
        await owner.client.organization.removeTeamMember({
          teamId: team.id,
          userId: accepted.member.userId,
        }),
      ),
    ).toEqual({ message: "Team member removed successfully." });
    expect(ok(await owner.client.organization.removeTeam({ teamId: team.id }))).toEqual({
      message: "Team removed successfully.",
    });

    // Mia leaves; Ned joins by a second invitation and is removed.
    expect(ok(await mia.client.organization.leave({ organizationId: org.id })).user.email).toBe(
      "mia@kit.test",
    );
    const again = ok(await invite("ned@kit.test"));
    await verified(ned, "ned@kit.test");
    ok(await ned.client.organization.acceptInvitation({ invitationId: again.id }));
    const removed = ok(
      await owner.client.organization.removeMember({
        memberIdOrEmail: "ned@kit.test",
        organizationId: org.id,
      }),
    );
    expect(removed.member.user.email).toBe("ned@kit.test");

    expect(ok(await owner.client.organization.delete({ organizationId: org.id })).id).toBe(org.id);
    expect(ok(await owner.client.organization.list())).toEqual([]);
  });

  it("deletes the user, and the store follows", async () => {
    const eve = await signedUp("Eve", "eve@kit.test");
    eve.client.session.subscribe(() => {});
    await vi.waitFor(() => expect(eve.client.session.getSnapshot().data).not.toBeNull());
    const wrong = await eve.client.deleteUser({ password: "not-the-password" });
    expect(wrong.error).toMatchObject({ status: 400, code: "INVALID_PASSWORD" });
    expect(ok(await eve.client.deleteUser({ password: PASSWORD }))).toMatchObject({
      success: true,
    });
    await vi.waitFor(() => expect(eve.client.session.getSnapshot().data).toBeNull());
    const gone = await browser().client.signIn.email({ email: "eve@kit.test", password: PASSWORD });
    expect(gone.error).toMatchObject({ status: 401, code: "INVALID_EMAIL_OR_PASSWORD" });
  });

  it("reads members, roles and permissions, and switches the active organization", async () => {
    const boss = await signedUp("Boss", "boss@kit.test");
    const org = ok(await boss.client.organization.create({ name: "Crew", slug: "crew" }));
    // create made it the active organization; the store follows.
    boss.client.session.subscribe(() => {});
    await vi.waitFor(() =>
      expect(boss.client.session.getSnapshot().data?.session.activeOrganizationId).toBe(org.id),
    );

    // Three members besides the owner, by invitation.
    const joined: Record<string, Browser> = {};
    for (const name of ["Ann", "Cal", "Dot"]) {
      const email = `${name.toLowerCase()}@crew.test`;
      const invitation = ok(
        await boss.client.organization.inviteMember({
          email,
          role: name === "Ann" ? "admin" : "member",
          organizationId: org.id,
          sendEmail: false,
        }),
      );
      const b = await signedUp(name, email);
      ok(await b.client.organization.acceptInvitation({ invitationId: invitation.id }));
      joined[name] = b;
    }
    const cal = joined.Cal as Browser;
    // Accepting made the organization cal's active one; the store follows.
    cal.client.session.subscribe(() => {});
    await vi.waitFor(() =>
      expect(cal.client.session.getSnapshot().data?.session.activeOrganizationId).toBe(org.id),
    );

    expect(ok(await boss.client.organization.getOrganization())).toMatchObject({
      id: org.id,
      name: "Crew",
      slug: "crew",
      logo: null,
      metadata: null,
      createdAt: expect.any(String),
    });
    expect(
      ok(await cal.client.organization.getOrganization({ organizationSlug: "crew" }))?.id,
    ).toBe(org.id);
    const stranger = await signedUp("Stranger", "stranger@crew.test");
    expect(ok(await stranger.client.organization.getOrganization())).toBeNull();
    const foreign = await stranger.client.organization.getOrganization({ organizationId: org.id });
    expect(foreign.error).toMatchObject({
      status: 403,
      code: "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION",
    });

    // list-members: a page, sorted and filtered, with the total stated.
    const page = ok(
      await boss.client.organization.listMembers({ sortBy: "email", limit: 2, offset: 1 }),
    );
    expect(page).toMatchObject({ total: 4, limit: 2, offset: 1 });
    expect(page.members.map((m) => m.user.email)).toEqual(["boss@kit.test", "cal@crew.test"]);
    expect(page.members[0]).toEqual({
      id: expect.any(String),
      organizationId: org.id,
      userId: expect.any(String),
      role: "owner",
      createdAt: expect.any(String),
      user: { id: expect.any(String), name: "Boss", email: "boss@kit.test", image: null },
    });
    const desc = ok(
      await cal.client.organization.listMembers({
        organizationSlug: "crew",
        sortBy: "name",
        sortDirection: "desc",
      }),
    );
    expect(desc.members.map((m) => m.user.name)).toEqual(["Dot", "Cal", "Boss", "Ann"]);
    expect(desc.limit).toBe(100);
    const admins = ok(await boss.client.organization.listMembers({ role: "admin" }));
    expect(admins.members.map((m) => m.user.name)).toEqual(["Ann"]);
    expect(admins.total).toBe(1);
    const byFilter = ok(
      await boss.client.organization.listMembers({ filterField: "role", filterValue: "member" }),
    );
    expect(byFilter.members.map((m) => m.user.name).sort()).toEqual(["Cal", "Dot"]);
    const searched = ok(await boss.client.organization.listMembers({ search: "dot" }));
    expect(searched.members.map((m) => m.user.name)).toEqual(["Dot"]);
    const notMember = await stranger.client.organization.listMembers({ organizationId: org.id });
    expect(notMember.error).toMatchObject({
      status: 403,
      code: "YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION",
    });
    const badLimit = await boss.client.organization.listMembers({ limit: 5000 });
    expect(badLimit.error).toMatchObject({ status: 400, code: "VALIDATION_ERROR" });

    // get-active-member-role and has-permission.
    expect(ok(await boss.client.organization.getActiveMemberRole())).toEqual({ role: "owner" });
    expect(
      ok(await cal.client.organization.getActiveMemberRole({ organizationSlug: "crew" })),
    ).toEqual({ role: "member" });
    const noRole = await stranger.client.organization.getActiveMemberRole({
      organizationId: org.id,
    });
    expect(noRole.error).toMatchObject({
      status: 403,
      code: "YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION",
    });
    const ann = joined.Ann as Browser;
    expect(
      ok(await ann.client.organization.hasPermission({ permissions: { member: ["create"] } })),
    ).toEqual({ error: null, success: true });
    expect(
      ok(
        await ann.client.organization.hasPermission({
          permissions: { organization: ["delete"] },
        }),
      ),
    ).toEqual({ error: null, success: false });
    expect(
      ok(await cal.client.organization.hasPermission({ permissions: { invitation: ["create"] } })),
    ).toEqual({ error: null, success: false });
    expect(
      ok(
        await boss.client.organization.hasPermission({
          permissions: { organization: ["delete"], member: ["delete"] },
          organizationId: org.id,
        }),
      ),
    ).toEqual({ error: null, success: true });
    const noPermission = await stranger.client.organization.hasPermission({
      permissions: { member: ["create"] },
      organizationId: org.id,
    });
    expect(noPermission.error).toMatchObject({
      status: 401,
      code: "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION",
    });

    // set-active clears and sets the active organization; the store follows each time.
    expect(ok(await boss.client.organization.setActive({ organizationId: null }))).toBeNull();
    await vi.waitFor(() =>
      expect(boss.client.session.getSnapshot().data?.session.activeOrganizationId).toBeNull(),
    );
    const noActive = await boss.client.organization.getActiveMemberRole();
    expect(noActive.error).toMatchObject({ status: 400, code: "NO_ACTIVE_ORGANIZATION" });
    expect(ok(await boss.client.organization.getOrganization())).toBeNull();
    expect(ok(await boss.client.organization.setActive({ organizationSlug: "crew" }))?.id).toBe(
      org.id,
    );
    await vi.waitFor(() =>
      expect(boss.client.session.getSnapshot().data?.session.activeOrganizationId).toBe(org.id),
    );
    const refused = await stranger.client.organization.setActive({ organizationId: org.id });
    expect(refused.error).toMatchObject({
      status: 403,
      code: "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION",
    });

    // Leaving clears the active organization of the leaver's session.
    const dot = joined.Dot as Browser;
    dot.client.session.subscribe(() => {});
    await vi.waitFor(() =>
      expect(dot.client.session.getSnapshot().data?.session.activeOrganizationId).toBe(org.id),
    );
    ok(await dot.client.organization.leave({ organizationId: org.id }));
    await vi.waitFor(() =>
      expect(dot.client.session.getSnapshot().data?.session.activeOrganizationId).toBeNull(),
    );
  });

  it("switches the active team and lists a user's teams and a team's members", async () => {
    const lead = await signedUp("Lead", "lead@kit.test");
    const org = ok(await lead.client.organization.create({ name: "Squad", slug: "squad" }));
    const [defaultTeam] = ok(await lead.client.organization.listTeams());
    expect(defaultTeam?.name).toBe("Squad");
    const red = ok(await lead.client.organization.createTeam({ name: "Red" }));
    const blue = ok(await lead.client.organization.createTeam({ name: "Blue" }));

    const invitation = ok(
      await lead.client.organization.inviteMember({
        email: "rex@squad.test",
        role: "member",
        teamId: red.id,
        sendEmail: false,
      }),
    );
    const rex = await signedUp("Rex", "rex@squad.test");
    const accepted = ok(
      await rex.client.organization.acceptInvitation({ invitationId: invitation.id }),
    );
    rex.client.session.subscribe(() => {});
    // Accepting into a single team made it the active team too.
    await vi.waitFor(() =>
      expect(rex.client.session.getSnapshot().data?.session).toMatchObject({
        activeOrganizationId: org.id,
        activeTeamId: red.id,
      }),
    );

    // list-user-teams: the caller's teams, in every organization or in one.
    const rexTeams = ok(await rex.client.organization.listUserTeams());
    expect(rexTeams).toEqual([
      {
        id: red.id,
        name: "Red",
        organizationId: org.id,
        createdAt: expect.any(String),
        updatedAt: expect.toBeOneOf([null, expect.any(String)]),
      },
    ]);
    expect(
      ok(await rex.client.organization.listUserTeams({ organizationId: org.id })).map((t) => t.id),
    ).toEqual([red.id]);
    // The creator is in the default team only.
    expect(ok(await lead.client.organization.listUserTeams()).map((t) => t.id)).toEqual([
      defaultTeam?.id,
    ]);
    // An owner may list another member's teams; a member may not.
    expect(
      ok(await lead.client.organization.listUserTeams({ userId: accepted.member.userId })).map(
        (t) => t.name,
      ),
    ).toEqual(["Red"]);
    const leadUserId = ok(await lead.client.getSession())?.user.id ?? "";
    const forbidden = await rex.client.organization.listUserTeams({ userId: leadUserId });
    expect(forbidden.error).toMatchObject({
      status: 403,
      code: "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER",
    });

    // list-team-members: the active team by default, or the one named.
    const members = ok(await rex.client.organization.listTeamMembers());
    expect(members).toEqual([
      {
        id: expect.any(String),
        teamId: red.id,
        userId: accepted.member.userId,
        createdAt: expect.any(String),
      },
    ]);
    expect(ok(await lead.client.organization.listTeamMembers({ teamId: red.id }))).toHaveLength(1);
    const notInTeam = await rex.client.organization.listTeamMembers({ teamId: blue.id });
    expect(notInTeam.error).toMatchObject({
      status: 400,
      code: "USER_IS_NOT_A_MEMBER_OF_THE_TEAM",
    });

    // set-active-team: a team the caller is in; null clears it; the store follows.
    const notMine = await rex.client.organization.setActiveTeam({ teamId: blue.id });
    expect(notMine.error).toMatchObject({ status: 403, code: "USER_IS_NOT_A_MEMBER_OF_THE_TEAM" });
    expect(ok(await rex.client.organization.setActiveTeam({ teamId: null }))).toBeNull();
    await vi.waitFor(() =>
      expect(rex.client.session.getSnapshot().data?.session.activeTeamId).toBeNull(),
    );
    const noTeam = await rex.client.organization.listTeamMembers();
    expect(noTeam.error).toMatchObject({ status: 400, code: "YOU_DO_NOT_HAVE_AN_ACTIVE_TEAM" });
    ok(
      await lead.client.organization.addTeamMember({
        teamId: blue.id,
        userId: accepted.member.userId,
      }),
    );
    const active = ok(await rex.client.organization.setActiveTeam({ teamId: blue.id }));
    expect(active).toMatchObject({ id: blue.id, name: "Blue", organizationId: org.id });
    await vi.waitFor(() =>
      expect(rex.client.session.getSnapshot().data?.session.activeTeamId).toBe(blue.id),
    );
    // No teamId answers the current one.
    expect(ok(await rex.client.organization.setActiveTeam({}))?.id).toBe(blue.id);
    expect(ok(await rex.client.organization.listTeamMembers()).map((m) => m.teamId)).toEqual([
      blue.id,
    ]);
    const unknown = await rex.client.organization.setActiveTeam({ teamId: "no-such-team" });
    expect(unknown.error).toMatchObject({ status: 400, code: "TEAM_NOT_FOUND" });

    // Without an active organization there is no active team to set.
    ok(await rex.client.organization.setActive({ organizationId: null }));
    const noOrganization = await rex.client.organization.setActiveTeam({ teamId: red.id });
    expect(noOrganization.error).toMatchObject({ status: 400, code: "NO_ACTIVE_ORGANIZATION" });
  });

  it("reads the information of a linked account", async () => {
    const fay = await signedUp("Fay", "fay@kit.test");
    const [credential] = ok(await fay.client.listAccounts());
    const info = ok(await fay.client.accountInfo({ accountId: credential?.id ?? "" }));
    expect(info).toEqual({
      user: {
        id: credential?.userId,
        name: "Fay",
        email: "fay@kit.test",
        image: null,
        emailVerified: false,
      },
      data: {},
      account: {
        id: credential?.id,
        providerId: "credential",
        accountId: credential?.accountId,
      },
    });
    const missing = await fay.client.accountInfo({ accountId: "no-such-account" });
    expect(missing.error).toMatchObject({ status: 400, code: "ACCOUNT_NOT_FOUND" });
    const signedOut = await browser().client.accountInfo({ accountId: credential?.id ?? "" });
    expect(signedOut.error).toMatchObject({ status: 401, code: "UNAUTHORIZED" });
  });

  it("made a round trip with every call of the client", () => {
    const calls = everyCall(createAuthClient({ baseURL }));
    const missing = calls
      .map(([, method, path]) => `${method} ${path}`)
      .filter((call) => !sent.has(call));
    expect(missing).toEqual([]);
  });
});
