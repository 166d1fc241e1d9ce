/**
 * The stories' in-memory authd through the kit's real client: the answers stories rely
 * on (shapes, roles, error codes) and the scenario switches (failures, pending, latency).
 */
import { describe, expect, it } from "vitest";
import { createAuthClient } from "../src/client/client.js";
import type { Team } from "../src/client/types.js";
import {
  type AuthdScenario,
  BASE_URL,
  createMockAuthd,
  type MockAuthd,
  PASSWORD,
  VALID_TOKEN,
} from "../stories/mock/authd.js";

function clientFor(scenario: AuthdScenario = {}) {
  const authd = createMockAuthd(scenario);
  const redirects: string[] = [];
  const client = createAuthClient({
    baseURL: BASE_URL,
    fetch: authd.fetch,
    onRedirect: (url) => redirects.push(url),
  });
  return { authd, client, redirects };
}

describe("the stories' mock authd", () => {
  it("signs in with the seeded password and refuses a wrong one, a banned or unverified user", async () => {
    const { client, authd } = clientFor();
    expect((await client.getSession()).data).toBeNull();
    const wrong = await client.signIn.email({ email: "ada@example.com", password: "nope" });
    expect(wrong.error).toMatchObject({ status: 401, code: "INVALID_EMAIL_OR_PASSWORD" });
    const banned = await client.signIn.email({ email: "banned@example.com", password: PASSWORD });
    expect(banned.error).toMatchObject({ status: 403, code: "BANNED_USER" });
    const unverified = await client.signIn.email({
      email: "unverified@example.com",
      password: PASSWORD,
    });
    expect(unverified.error).toMatchObject({ status: 403, code: "EMAIL_NOT_VERIFIED" });
    const ok = await client.signIn.email({ email: "ADA@example.com ", password: PASSWORD });
    expect(ok.data).toMatchObject({ redirect: false, user: { email: "ada@example.com" } });
    expect((await client.getSession()).data?.user.name).toBe("Ada Lovelace");
    expect(authd.sent("/sign-in/email")).toHaveLength(4);
  });

  it("answers the signed-in user's organization, members, invitations and teams", async () => {
    const { client } = clientFor({ signedIn: true });
    const session = await client.getSession();
    expect(session.data?.session.activeOrganizationId).toBe("org-acme");
    const list = await client.organization.list();
    expect(list.data?.map((o) => o.slug)).toEqual(["acme", "globex"]);
    const full = await client.organization.getFullOrganization();
    expect(full.data?.members.map((m) => [m.user.name, m.role])).toContainEqual([
      "Ada Lovelace",
      "owner",
    ]);
    expect(full.data?.invitations.map((i) => i.email)).toEqual(["linus@example.com"]);
    expect(full.data?.teams?.map((t) => t.name)).toEqual(["Design", "Platform"]);
    expect((await client.organization.getActiveMember()).data?.role).toBe("owner");
    const invited = await client.organization.inviteMember({
      email: "new@example.com",
      role: "member",
    });
    expect(invited.data).toMatchObject({ email: "new@example.com", status: "pending" });
    const again = await client.organization.inviteMember({
      email: "new@example.com",
      role: "member",
    });
    expect(again.error?.code).toBe("USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION");
    const mine = await client.organization.listUserInvitations();
    expect(mine.data?.map((i) => i.organizationName)).toEqual(["Initech"]);
    const accepted = await client.organization.acceptInvitation({
      invitationId: "invitation-initech-ada",
    });
    expect(accepted.data?.member.organizationId).toBe("org-initech");
    const team = await client.organization.createTeam({
      name: "Research",
      organizationId: "org-acme",
    });
    expect(team.data?.name).toBe("Research");
  });

  it("refuses a member what only owners and admins may do", async () => {
    const { client } = clientFor({ signedIn: true, role: "member" });
    const invite = await client.organization.inviteMember({
      email: "x@example.com",
      role: "member",
    });
    expect(invite.error).toMatchObject({
      status: 403,
      code: "YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION",
    });
    const update = await client.organization.update({ data: { name: "Mine" } });
    expect(update.error?.code).toBe("YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_ORGANIZATION");
    const leave = await client.organization.leave({ organizationId: "org-acme" });
    expect(leave.data?.role).toBe("member");
  });

  it("has no organization and no teams when the scenario says so", async () => {
    const { client } = clientFor({ signedIn: true, organizations: false, teams: false });
    expect((await client.organization.list()).data).toEqual([]);
    expect((await client.organization.getFullOrganization()).data).toBeNull();
    expect((await client.organization.listTeams({ organizationId: "org-acme" })).error?.code).toBe(
      "NOT_FOUND",
    );
  });

  it("answers account routes: sessions, accounts, tokens, freshness", async () => {
    const { client } = clientFor({ signedIn: true, freshSession: false });
    expect((await client.listSessions()).data).toHaveLength(3);
    expect((await client.listAccounts()).data?.map((a) => a.providerId)).toEqual([
      "credential",
      "github",
    ]);
    expect((await client.unlinkAccount({ providerId: "github" })).error).toMatchObject({
      status: 403,
      code: "SESSION_NOT_FRESH",
    });
    expect(
      (await client.resetPassword({ newPassword: "long enough", token: "bad" })).error?.code,
    ).toBe("INVALID_TOKEN");
    expect(
      (await client.resetPassword({ newPassword: "long enough", token: VALID_TOKEN })).data,
    ).toEqual({ status: true });
    const short = await client.changePassword({ currentPassword: PASSWORD, newPassword: "short" });
    expect(short.error).toMatchObject({
      code: "PASSWORD_TOO_SHORT",
      details: { minPasswordLength: 8 },
    });
  });

  it("fails, delays and withholds answers as the scenario says", async () => {
    const { client } = clientFor({
      failures: {
        "/sign-in/email": { code: "BANNED_USER", details: { reason: "Spam" } },
        "/social-providers": "NETWORK_ERROR",
      },
      pending: ["/forget-password"],
      latencyMs: { "/get-session": 30 },
    });
    expect((await client.signIn.email({ email: "a@b.co", password: "x" })).error).toMatchObject({
      status: 403,
      code: "BANNED_USER",
      details: { reason: "Spam" },
    });
    expect((await client.socialProviders()).error).toMatchObject({
      status: 0,
      code: "NETWORK_ERROR",
    });
    const started = performance.now();
    await client.getSession();
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
    const never = await Promise.race([
      client.forgetPassword({ email: "ada@example.com" }).then(() => "answered"),
      new Promise((resolve) => setTimeout(() => resolve("pending"), 50)),
    ]);
    expect(never).toBe("pending");
  });

  it("answers permissions, member pages, roles and teams of the organization routes", async () => {
    // The kit's client gains these calls later; the mock answers them already.
    const call = async <T>(authd: MockAuthd, path: string, body?: object): Promise<T> => {
      const response = await authd.fetch(`${BASE_URL}/api/auth${path}`, {
        method: body ? "POST" : "GET",
        body: body ? JSON.stringify(body) : undefined,
      });
      return (await response.json()) as T;
    };
    type Allowed = { error: null; success: boolean };
    const owner = createMockAuthd({ signedIn: true });
    const member = createMockAuthd({ signedIn: true, role: "member" });
    const ask = { permissions: { team: ["create"] } };
    expect(await call<Allowed>(owner, "/organization/has-permission", ask)).toEqual({
      error: null,
      success: true,
    });
    expect((await call<Allowed>(member, "/organization/has-permission", ask)).success).toBe(false);
    const deleteOrg = { permissions: { organization: ["delete"] } };
    const admin = createMockAuthd({ signedIn: true, role: "admin" });
    expect((await call<Allowed>(admin, "/organization/has-permission", deleteOrg)).success).toBe(
      false,
    );
    expect(await call(member, "/organization/get-active-member-role")).toEqual({
      role: "member",
    });
    const page = await call<{ members: { user: { name: string } }[]; total: number }>(
      owner,
      "/organization/list-members?limit=2&sortBy=name",
    );
    expect(page).toMatchObject({ total: 3, limit: 2, offset: 0 });
    expect(page.members.map((m) => m.user.name)).toEqual(["Ada Lovelace", "Alan Turing"]);
    expect((await call<{ slug: string }>(owner, "/organization/get-organization")).slug).toBe(
      "acme",
    );
    expect((await call<Team[]>(owner, "/organization/list-user-teams")).map((t) => t.name)).toEqual(
      ["Design"],
    );
    expect(
      (await call<Team>(owner, "/organization/set-active-team", { teamId: "team-design" })).id,
    ).toBe("team-design");
    expect(await call<unknown[]>(owner, "/organization/list-team-members")).toHaveLength(2);
    const info = await call(owner, "/account-info", { accountId: "4242" });
    expect(info).toMatchObject({ account: { providerId: "github" }, data: { login: "ada" } });
  });

  it("lists the configured providers and redirects a social sign-in", async () => {
    const { client, redirects } = clientFor({
      socialProviders: ["github", { id: "acme", name: "Acme SSO" }],
    });
    expect((await client.socialProviders()).data).toEqual([
      { id: "github", name: "GitHub" },
      { id: "acme", name: "Acme SSO" },
    ]);
    await client.signIn.social({ provider: "github" });
    expect(redirects).toEqual(["https://github.example.com/authorize?state=story"]);
  });

  it("signs a new user up with a session, or mails a link when verification is required", async () => {
    const body = { name: "Lin", email: "lin@example.com", password: "long enough" };
    const open = clientFor();
    expect((await open.client.signUp.email(body)).data?.token).toBeTruthy();
    expect((await open.client.getSession()).data?.user.email).toBe("lin@example.com");
    const again = await open.client.signUp.email(body);
    expect(again.error).toMatchObject({ status: 422, code: "USER_ALREADY_EXISTS" });

    const verifying = clientFor({ emailVerificationRequired: true });
    const answer = await verifying.client.signUp.email(body);
    expect(answer.data).toMatchObject({ token: null, user: { emailVerified: false } });
    expect((await verifying.client.getSession()).data).toBeNull();
  });

  it("drops Ada's invitation to Initech when the scenario says she has none", async () => {
    const invited = clientFor({ signedIn: true });
    expect((await invited.client.organization.listUserInvitations()).data).toMatchObject([
      { id: "invitation-initech-ada", organizationName: "Initech" },
    ]);
    const none = clientFor({ signedIn: true, invitedToInitech: false });
    expect((await none.client.organization.listUserInvitations()).data).toEqual([]);
  });
  it("gives Acme no teams when the scenario says so", async () => {
    const seeded = clientFor({ signedIn: true });
    expect((await seeded.client.organization.listTeams()).data).toHaveLength(2);
    const none = clientFor({ signedIn: true, acmeTeams: false });
    expect((await none.client.organization.listTeams()).data).toEqual([]);
  });

  it("knows a social-only Ada: GitHub her one account, no password, the last account stays", async () => {
    const { client } = clientFor({ signedIn: true, hasPassword: false });
    expect((await client.listAccounts()).data?.map((a) => a.providerId)).toEqual(["github"]);
    const signIn = await client.signIn.email({ email: "ada@example.com", password: PASSWORD });
    expect(signIn.error).toMatchObject({ code: "INVALID_EMAIL_OR_PASSWORD" });
    const unlink = await client.unlinkAccount({ providerId: "github" });
    expect(unlink.error).toMatchObject({ status: 400, code: "FAILED_TO_UNLINK_LAST_ACCOUNT" });
    expect((await client.deleteUser({})).data).toMatchObject({ success: true });
  });
});
