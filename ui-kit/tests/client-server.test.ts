/**
 * The client against a real authd on a socket (real PostgreSQL, real mail through
 * the SMTP sink): every call makes at least one round trip, as a browser would.
 */
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestApp, type TestApp } from "../../tests/helpers/app.js";
import { type AuthClient, createAuthClient, type Result } from "../src/index.js";
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

  it("made a round trip with every call of the client", () => {
    const calls = everyCall(createAuthClient({ baseURL }));
    const missing = calls
      .map(([, method, path]) => `${method} ${path}`)
      .filter((call) => !sent.has(call));
    expect(missing).toEqual([]);
  });
});
