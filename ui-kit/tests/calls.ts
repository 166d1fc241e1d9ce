/**
 * Every call of the client with a minimal input, and the method and path it must use:
 * the unit tests check the method, the server tests that each path had a round trip.
 */
import type { AuthClient } from "../src/index.js";

export function everyCall(
  client: AuthClient,
): [string, "GET" | "POST", string, () => Promise<unknown>][] {
  const org = client.organization;
  return [
    ["getSession", "GET", "/get-session", () => client.getSession()],
    [
      "signIn.email",
      "POST",
      "/sign-in/email",
      () => client.signIn.email({ email: "a@b.c", password: "x" }),
    ],
    [
      "signIn.social",
      "POST",
      "/sign-in/social",
      () => client.signIn.social({ provider: "github" }),
    ],
    [
      "signUp.email",
      "POST",
      "/sign-up/email",
      () => client.signUp.email({ name: "A", email: "a@b.c", password: "x" }),
    ],
    ["signOut", "POST", "/sign-out", () => client.signOut()],
    ["forgetPassword", "POST", "/forget-password", () => client.forgetPassword({ email: "a@b.c" })],
    [
      "requestPasswordReset",
      "POST",
      "/request-password-reset",
      () => client.requestPasswordReset({ email: "a@b.c" }),
    ],
    [
      "resetPassword",
      "POST",
      "/reset-password",
      () => client.resetPassword({ newPassword: "x", token: "t" }),
    ],
    [
      "sendVerificationEmail",
      "POST",
      "/send-verification-email",
      () => client.sendVerificationEmail({ email: "a@b.c" }),
    ],
    ["verifyEmail", "GET", "/verify-email", () => client.verifyEmail({ token: "t" })],
    ["updateUser", "POST", "/update-user", () => client.updateUser({ name: "B" })],
    ["changeEmail", "POST", "/change-email", () => client.changeEmail({ newEmail: "b@b.c" })],
    [
      "changePassword",
      "POST",
      "/change-password",
      () => client.changePassword({ newPassword: "y", currentPassword: "x" }),
    ],
    ["listSessions", "GET", "/list-sessions", () => client.listSessions()],
    ["revokeSession", "POST", "/revoke-session", () => client.revokeSession({ token: "t" })],
    ["revokeSessions", "POST", "/revoke-sessions", () => client.revokeSessions()],
    ["revokeOtherSessions", "POST", "/revoke-other-sessions", () => client.revokeOtherSessions()],
    ["listAccounts", "GET", "/list-accounts", () => client.listAccounts()],
    ["linkSocial", "POST", "/link-social", () => client.linkSocial({ provider: "github" })],
    [
      "unlinkAccount",
      "POST",
      "/unlink-account",
      () => client.unlinkAccount({ providerId: "github" }),
    ],
    ["deleteUser", "POST", "/delete-user", () => client.deleteUser()],
    ["socialProviders", "GET", "/social-providers", () => client.socialProviders()],
    [
      "organization.create",
      "POST",
      "/organization/create",
      () => org.create({ name: "A", slug: "a" }),
    ],
    ["organization.list", "GET", "/organization/list", () => org.list()],
    [
      "organization.setActive",
      "POST",
      "/organization/set-active",
      () => org.setActive({ organizationId: "o" }),
    ],
    [
      "organization.getFullOrganization",
      "GET",
      "/organization/get-full-organization",
      () => org.getFullOrganization(),
    ],
    [
      "organization.checkSlug",
      "POST",
      "/organization/check-slug",
      () => org.checkSlug({ slug: "a" }),
    ],
    [
      "organization.update",
      "POST",
      "/organization/update",
      () => org.update({ data: { name: "B" } }),
    ],
    [
      "organization.delete",
      "POST",
      "/organization/delete",
      () => org.delete({ organizationId: "o" }),
    ],
    [
      "organization.inviteMember",
      "POST",
      "/organization/invite-member",
      () => org.inviteMember({ email: "a@b.c", role: "member" }),
    ],
    [
      "organization.cancelInvitation",
      "POST",
      "/organization/cancel-invitation",
      () => org.cancelInvitation({ invitationId: "i" }),
    ],
    [
      "organization.acceptInvitation",
      "POST",
      "/organization/accept-invitation",
      () => org.acceptInvitation({ invitationId: "i" }),
    ],
    [
      "organization.rejectInvitation",
      "POST",
      "/organization/reject-invitation",
      () => org.rejectInvitation({ invitationId: "i" }),
    ],
    [
      "organization.getInvitation",
      "GET",
      "/organization/get-invitation",
      () => org.getInvitation({ id: "i" }),
    ],
    [
      "organization.listInvitations",
      "GET",
      "/organization/list-invitations",
      () => org.listInvitations(),
    ],
    [
      "organization.listUserInvitations",
      "GET",
      "/organization/list-user-invitations",
      () => org.listUserInvitations(),
    ],
    [
      "organization.removeMember",
      "POST",
      "/organization/remove-member",
      () => org.removeMember({ memberIdOrEmail: "m" }),
    ],
    [
      "organization.updateMemberRole",
      "POST",
      "/organization/update-member-role",
      () => org.updateMemberRole({ memberId: "m", role: "admin" }),
    ],
    [
      "organization.getActiveMember",
      "GET",
      "/organization/get-active-member",
      () => org.getActiveMember(),
    ],
    ["organization.leave", "POST", "/organization/leave", () => org.leave({ organizationId: "o" })],
    [
      "organization.createTeam",
      "POST",
      "/organization/create-team",
      () => org.createTeam({ name: "T" }),
    ],
    ["organization.listTeams", "GET", "/organization/list-teams", () => org.listTeams()],
    [
      "organization.updateTeam",
      "POST",
      "/organization/update-team",
      () => org.updateTeam({ teamId: "t", data: { name: "U" } }),
    ],
    [
      "organization.removeTeam",
      "POST",
      "/organization/remove-team",
      () => org.removeTeam({ teamId: "t" }),
    ],
    [
      "organization.addTeamMember",
      "POST",
      "/organization/add-team-member",
      () => org.addTeamMember({ teamId: "t", userId: "u" }),
    ],
    [
      "organization.removeTeamMember",
      "POST",
      "/organization/remove-team-member",
      () => org.removeTeamMember({ teamId: "t", userId: "u" }),
    ],
  ];
}
