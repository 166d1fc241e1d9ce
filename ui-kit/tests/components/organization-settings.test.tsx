// @vitest-environment jsdom
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { messages as german } from "../../src/i18n/locales/de/index.js";
import {
  InviteMember,
  OrganizationDetails,
  OrganizationMembers,
  OrganizationSettings,
  PendingInvitations,
} from "../../src/index.js";
import { errorBody, type Routes, renderWithAuth, sessionOf, USER } from "./harness.js";

const ORG = {
  id: "org-1",
  name: "Acme Inc",
  slug: "acme",
  logo: null,
  metadata: null,
  createdAt: "2026-01-01T00:00:00.000Z",
};

function person(id: string, name: string) {
  return { ...USER, id, name, email: `${name.toLowerCase()}@example.com` };
}
const OLIVIA = person("user-o", "Olivia");
const ADAM = person("user-a", "Adam");
const MIA = person("user-m", "Mia");

function memberOf(user: typeof USER, id: string, role: string) {
  return {
    id,
    organizationId: ORG.id,
    userId: user.id,
    role,
    createdAt: "2026-01-01T00:00:00.000Z",
    user: { id: user.id, name: user.name, email: user.email, image: null },
  };
}
const OWNER = memberOf(OLIVIA, "m-1", "owner");
const ADMIN = memberOf(ADAM, "m-2", "admin");
const MEMBER = memberOf(MIA, "m-3", "member");
const MEMBERS = { owner: OWNER, admin: ADMIN, member: MEMBER };
const USERS = { owner: OLIVIA, admin: ADAM, member: MIA };

const EXPIRES = "2026-12-24T18:30:00.000Z";
const PENDING = {
  id: "inv-1",
  organizationId: ORG.id,
  email: "grace@example.com",
  role: "admin",
  status: "pending",
  teamId: null,
  inviterId: OLIVIA.id,
  expiresAt: EXPIRES,
  createdAt: "2026-01-01T00:00:00.000Z",
};
const ACCEPTED = { ...PENDING, id: "inv-2", email: "alan@example.com", status: "accepted" };

type Role = keyof typeof MEMBERS;

function full(overrides: Record<string, unknown> = {}) {
  return {
    ...ORG,
    members: [OWNER, ADMIN, MEMBER],
    membersTotal: 3,
    invitations: [PENDING, ACCEPTED],
    teams: null,
    ...overrides,
  };
}

function routes(role: Role, overrides: Record<string, unknown> = {}, extra: Routes = {}): Routes {
  return {
    "/get-session": { body: sessionOf(USERS[role], { activeOrganizationId: ORG.id }) },
    "/organization/get-full-organization": { body: full(overrides) },
    "/organization/get-active-member": { body: MEMBERS[role] },
    ...extra,
  };
}

function section(component: string): HTMLElement {
  const element = document.querySelector<HTMLElement>(`[data-authd-component="${component}"]`);
  if (!element) throw new Error(`no ${component}`);
  return element;
}

const members = () => section("organization-members");
const details = () => section("organization-details");

describe("<OrganizationSettings/>", () => {
  it("shows a loading state, then the organization", async () => {
    renderWithAuth(<OrganizationSettings />, routes("owner"));
    expect(screen.getAllByRole("status")[0]).toHaveTextContent("Loading…");
    expect(await screen.findByRole("heading", { level: 2, name: "Acme Inc" })).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Members" })).toBeInTheDocument();
  });

  it("leaves the page's one <h1> to the page: its title is an <h2>, its sections <h3>", async () => {
    renderWithAuth(<OrganizationSettings />, routes("owner"));
    await screen.findByRole("heading", { level: 2, name: "Acme Inc" });
    expect(screen.queryAllByRole("heading", { level: 1 })).toEqual([]);
    expect(
      screen
        .getAllByRole("heading", { level: 3 })
        .map((heading) => heading.textContent)
        .sort(),
    ).toEqual(["Details", "Invite a member", "Members", "Pending invitations"]);
  });

  it("ranks a section shown alone as a card at <h2>", async () => {
    renderWithAuth(<OrganizationMembers />, routes("owner"));
    expect(await screen.findByRole("heading", { level: 2, name: "Members" })).toBeInTheDocument();
  });

  it("offers to create an organization when none is active", async () => {
    renderWithAuth(<OrganizationSettings />, {
      "/get-session": { body: sessionOf(USER) },
    });
    expect(await screen.findByText("You have no active organization.")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Create an organization" })).toHaveAttribute(
      "href",
      "/organization/new",
    );
  });

  it("lets an owner do everything but leave as the only owner", async () => {
    renderWithAuth(<OrganizationSettings />, routes("owner"));
    await screen.findByRole("heading", { level: 2, name: "Acme Inc" });
    expect(within(details()).getByRole("button", { name: "Save" })).toBeInTheDocument();
    expect(
      within(details()).getByRole("button", { name: "Delete organization" }),
    ).toBeInTheDocument();
    expect(within(details()).queryByRole("button", { name: "Leave organization" })).toBeNull();
    // Not their own row; every other row, owners' choices included.
    expect(within(members()).queryByLabelText("Role of Olivia")).toBeNull();
    const adamRole = within(members()).getByLabelText("Role of Adam");
    expect([...(adamRole as HTMLSelectElement).options].map((option) => option.text)).toEqual([
      "Owner",
      "Admin",
      "Member",
    ]);
    expect(within(members()).getByRole("button", { name: "Remove Mia" })).toBeInTheDocument();
    const invite = section("invite-member");
    expect(
      [...within(invite).getByLabelText<HTMLSelectElement>("Role").options].map((o) => o.text),
    ).toEqual(["Owner", "Admin", "Member"]);
    expect(
      within(section("pending-invitations")).getByRole("button", {
        name: "Cancel the invitation for grace@example.com",
      }),
    ).toBeInTheDocument();
  });

  it("lets an admin manage members but not owners, nor delete the organization", async () => {
    renderWithAuth(<OrganizationSettings />, routes("admin"));
    await screen.findByRole("heading", { level: 2, name: "Acme Inc" });
    expect(within(details()).getByRole("button", { name: "Save" })).toBeInTheDocument();
    expect(within(details()).queryByRole("button", { name: "Delete organization" })).toBeNull();
    expect(
      within(details()).getByRole("button", { name: "Leave organization" }),
    ).toBeInTheDocument();
    expect(within(members()).queryByLabelText("Role of Olivia")).toBeNull();
    expect(within(members()).queryByRole("button", { name: "Remove Olivia" })).toBeNull();
    expect(within(members()).getByText("Owner")).toBeInTheDocument();
    const miaRole = within(members()).getByLabelText<HTMLSelectElement>("Role of Mia");
    expect([...miaRole.options].map((option) => option.text)).toEqual(["Admin", "Member"]);
    expect(within(members()).getByRole("button", { name: "Remove Mia" })).toBeInTheDocument();
    expect(
      [...within(section("invite-member")).getByLabelText<HTMLSelectElement>("Role").options].map(
        (o) => o.value,
      ),
    ).toEqual(["admin", "member"]);
  });

  it("shows a member everything read-only, without invitations", async () => {
    renderWithAuth(<OrganizationSettings />, routes("member", { invitations: [] }));
    await screen.findByRole("heading", { level: 2, name: "Acme Inc" });
    expect(within(details()).queryByRole("button", { name: "Save" })).toBeNull();
    expect(
      within(details()).getByText("Only owners and admins can change these details."),
    ).toBeInTheDocument();
    expect(within(details()).getByLabelText("Organization name")).toHaveAttribute("readonly");
    expect(
      within(details()).getByRole("button", { name: "Leave organization" }),
    ).toBeInTheDocument();
    expect(within(details()).queryByRole("button", { name: "Delete organization" })).toBeNull();
    expect(within(members()).queryAllByRole("combobox")).toHaveLength(0);
    expect(within(members()).queryAllByRole("button", { name: /^Remove/ })).toHaveLength(0);
    expect(within(members()).getByText("Olivia")).toBeInTheDocument();
    expect(within(members()).getByText("adam@example.com")).toBeInTheDocument();
    expect(document.querySelector('[data-authd-component="invite-member"]')).toBeNull();
    expect(document.querySelector('[data-authd-component="pending-invitations"]')).toBeNull();
  });

  it("shows the settings of a named organization that is not the active one", async () => {
    const harness = renderWithAuth(<OrganizationSettings organizationId="org-7" />, {
      "/get-session": { body: sessionOf(ADAM, { activeOrganizationId: "org-1" }) },
      "/organization/get-full-organization": {
        body: full({ id: "org-7", name: "Seventh" }),
      },
    });
    expect(await screen.findByRole("heading", { level: 2, name: "Seventh" })).toBeInTheDocument();
    expect(harness.sent("/organization/get-full-organization")[0]?.query).toEqual({
      organizationId: "org-7",
    });
    // Adam's membership comes from the member list: an admin's actions are there.
    expect(within(members()).getByLabelText("Role of Mia")).toBeInTheDocument();
  });
});

describe("<OrganizationDetails/>", () => {
  it("saves the name, slug and logo and refreshes the organization", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(
      <OrganizationDetails />,
      routes("owner", {}, { "/organization/update": { body: { ...ORG, name: "Acme Corp" } } }),
    );
    const name = await screen.findByLabelText("Organization name");
    await waitFor(() => expect(name).toHaveValue("Acme Inc"));
    await user.clear(name);
    await user.type(name, "Acme Corp");
    await user.type(screen.getByLabelText("Logo URL (optional)"), "https://x.test/l.png");
    const fetches = harness.sent("/organization/get-full-organization").length;
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Changes saved.")).toBeInTheDocument();
    expect(harness.sent("/organization/update")[0]?.body).toEqual({
      data: { name: "Acme Corp", slug: "acme", logo: "https://x.test/l.png" },
      organizationId: "org-1",
    });
    expect(harness.sent("/organization/get-full-organization").length).toBeGreaterThan(fetches);
  });

  it("ties a taken slug to the slug field", async () => {
    const user = userEvent.setup();
    renderWithAuth(
      <OrganizationDetails />,
      routes(
        "admin",
        {},
        {
          "/organization/update": {
            status: 400,
            body: errorBody("ORGANIZATION_SLUG_ALREADY_TAKEN"),
          },
        },
      ),
    );
    const slug = await screen.findByLabelText("Slug");
    await waitFor(() => expect(slug).toHaveValue("acme"));
    await user.clear(slug);
    await user.type(slug, "globex");
    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() =>
      expect(slug).toHaveAccessibleDescription("This slug is already taken. Try another one."),
    );
    await waitFor(() => expect(slug).toHaveFocus());
  });

  it("deletes the organization only once its name is typed", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(
      <OrganizationDetails redirectTo="/" />,
      routes("owner", {}, { "/organization/delete": { body: ORG } }),
    );
    await user.click(await screen.findByRole("button", { name: "Delete organization" }));
    const dialog = screen.getByRole("dialog", { name: "Delete this organization?" });
    const confirm = within(dialog).getByRole("button", { name: "Delete for good" });
    expect(confirm).toBeDisabled();
    await user.type(within(dialog).getByLabelText("Type Acme Inc to confirm"), "Acme");
    expect(confirm).toBeDisabled();
    await user.type(within(dialog).getByLabelText("Type Acme Inc to confirm"), " Inc");
    expect(confirm).toBeEnabled();
    await user.click(confirm);
    await waitFor(() => expect(harness.navigations).toEqual(["/"]));
    expect(harness.sent("/organization/delete")[0]?.body).toEqual({ organizationId: "org-1" });
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("shows a refused delete in the dialog", async () => {
    const user = userEvent.setup();
    renderWithAuth(
      <OrganizationDetails />,
      routes(
        "owner",
        {},
        {
          "/organization/delete": {
            status: 403,
            body: errorBody("ORGANIZATION_DELETION_DISABLED"),
          },
        },
      ),
    );
    await user.click(await screen.findByRole("button", { name: "Delete organization" }));
    const dialog = screen.getByRole("dialog");
    await user.type(within(dialog).getByLabelText("Type Acme Inc to confirm"), "Acme Inc");
    await user.click(within(dialog).getByRole("button", { name: "Delete for good" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent(
      "Organization deletion is disabled.",
    );
  });

  it("lets a member leave after confirming", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(
      <OrganizationDetails />,
      routes("member", {}, { "/organization/leave": { body: MEMBER } }),
    );
    await user.click(await screen.findByRole("button", { name: "Leave organization" }));
    const dialog = screen.getByRole("dialog", { name: "Leave this organization?" });
    expect(dialog).toHaveAccessibleDescription(
      "You will lose access to Acme Inc until someone invites you again.",
    );
    await user.click(within(dialog).getByRole("button", { name: "Leave" }));
    await waitFor(() => expect(harness.sent("/organization/leave")).toHaveLength(1));
    expect(harness.sent("/organization/leave")[0]?.body).toEqual({ organizationId: "org-1" });
  });

  it("says why the server kept the only owner in", async () => {
    const user = userEvent.setup();
    // The page saw two owners; by the time of leaving the other one had gone.
    renderWithAuth(
      <OrganizationDetails />,
      routes(
        "owner",
        { members: [OWNER, { ...ADMIN, role: "owner" }, MEMBER] },
        {
          "/organization/leave": {
            status: 400,
            body: errorBody("YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER"),
          },
        },
      ),
    );
    await user.click(await screen.findByRole("button", { name: "Leave organization" }));
    await user.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Leave" }));
    const alert = await within(details()).findByRole("alert");
    await waitFor(() =>
      expect(alert).toHaveTextContent("You cannot leave the organization as the only owner."),
    );
    expect(screen.queryByRole("dialog")).toBeNull();
  });
});

describe("<OrganizationMembers/>", () => {
  it("changes a member's role and refreshes the members", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(
      <OrganizationMembers />,
      routes("owner", {}, { "/organization/update-member-role": { body: MEMBER } }),
    );
    const select = await screen.findByLabelText("Role of Mia");
    const fetches = harness.sent("/organization/get-full-organization").length;
    const activeFetches = harness.sent("/organization/get-active-member").length;
    await user.selectOptions(select, "admin");
    await waitFor(() => expect(harness.sent("/organization/update-member-role")).toHaveLength(1));
    expect(harness.sent("/organization/update-member-role")[0]?.body).toEqual({
      memberId: "m-3",
      role: "admin",
      organizationId: "org-1",
    });
    await waitFor(() =>
      expect(harness.sent("/organization/get-full-organization").length).toBeGreaterThan(fetches),
    );
    expect(harness.sent("/organization/get-active-member").length).toBeGreaterThan(activeFetches);
  });

  it.each([
    [
      "YOU_CANNOT_LEAVE_THE_ORGANIZATION_WITHOUT_AN_OWNER",
      "You cannot leave the organization without an owner.",
    ],
    ["YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER", "You are not allowed to update this member."],
  ])("announces a refused role change: %s", async (code, text) => {
    const user = userEvent.setup();
    renderWithAuth(
      <OrganizationMembers />,
      routes(
        "owner",
        {},
        { "/organization/update-member-role": { status: 400, body: errorBody(code) } },
      ),
    );
    await user.selectOptions(await screen.findByLabelText("Role of Adam"), "member");
    const alert = await screen.findByRole("alert");
    await waitFor(() => expect(alert).toHaveTextContent(text));
    await waitFor(() => expect(alert).toHaveFocus());
  });

  it("removes a member after confirming", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(
      <OrganizationMembers />,
      routes("admin", {}, { "/organization/remove-member": { body: { member: MEMBER } } }),
    );
    await user.click(await screen.findByRole("button", { name: "Remove Mia" }));
    const dialog = screen.getByRole("dialog", { name: "Remove this member?" });
    expect(dialog).toHaveAccessibleDescription("Mia will lose access to the organization.");
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(harness.sent("/organization/remove-member")).toHaveLength(0);
    await user.click(screen.getByRole("button", { name: "Remove Mia" }));
    await user.click(screen.getByRole("button", { name: "Remove member" }));
    await waitFor(() => expect(harness.sent("/organization/remove-member")).toHaveLength(1));
    expect(harness.sent("/organization/remove-member")[0]?.body).toEqual({
      memberIdOrEmail: "m-3",
      organizationId: "org-1",
    });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("shows the server's refusal to remove a member", async () => {
    const user = userEvent.setup();
    renderWithAuth(
      <OrganizationMembers />,
      routes(
        "admin",
        {},
        {
          "/organization/remove-member": {
            status: 403,
            body: errorBody("YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER"),
          },
        },
      ),
    );
    await user.click(await screen.findByRole("button", { name: "Remove Mia" }));
    await user.click(screen.getByRole("button", { name: "Remove member" }));
    const alert = await screen.findByRole("alert");
    await waitFor(() =>
      expect(alert).toHaveTextContent("You are not allowed to delete this member."),
    );
  });

  it("says when you are the only member", async () => {
    renderWithAuth(<OrganizationMembers />, routes("owner", { members: [OWNER] }));
    expect(
      await screen.findByText("You are the only member so far. Invite people to work with you."),
    ).toBeInTheDocument();
    expect(screen.getByText("Olivia (you)")).toBeInTheDocument();
  });

  it("translates built-in roles and keeps custom ones as they are", async () => {
    renderWithAuth(
      <OrganizationMembers />,
      routes("member", {
        members: [OWNER, { ...ADMIN, role: "admin,member" }, { ...MEMBER, role: "billing" }],
      }),
      { messages: german, locale: "de" },
    );
    expect(await screen.findByText("Inhaber")).toBeInTheDocument();
    expect(screen.getByText("Administrator, Mitglied")).toBeInTheDocument();
    expect(screen.getByText("billing")).toBeInTheDocument();
  });
});

describe("<InviteMember/>", () => {
  it("invites with a role and a team when teams are on", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(
      <InviteMember />,
      routes(
        "owner",
        {
          teams: [
            {
              id: "team-1",
              name: "Design",
              organizationId: ORG.id,
              createdAt: ORG.createdAt,
              updatedAt: null,
            },
          ],
        },
        { "/organization/invite-member": { body: { ...PENDING, url: "http://x" } } },
      ),
    );
    await user.type(await screen.findByLabelText("Email"), "grace@example.com");
    await user.selectOptions(screen.getByLabelText("Role"), "admin");
    await user.selectOptions(screen.getByLabelText("Team"), "Design");
    const fetches = harness.sent("/organization/get-full-organization").length;
    await user.click(screen.getByRole("button", { name: "Send invitation" }));
    expect(await screen.findByText("Invitation sent to grace@example.com.")).toBeInTheDocument();
    expect(harness.sent("/organization/invite-member")[0]?.body).toEqual({
      email: "grace@example.com",
      role: "admin",
      teamId: "team-1",
      organizationId: "org-1",
    });
    expect(harness.sent("/organization/get-full-organization").length).toBeGreaterThan(fetches);
    expect(screen.getByLabelText("Email")).toHaveValue("");
  });

  it("has no team choice when teams are off", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(
      <InviteMember />,
      routes("owner", {}, { "/organization/invite-member": { body: { ...PENDING, url: "x" } } }),
    );
    await user.type(await screen.findByLabelText("Email"), "grace@example.com");
    expect(screen.queryByLabelText("Team")).toBeNull();
    await user.click(screen.getByRole("button", { name: "Send invitation" }));
    await waitFor(() => expect(harness.sent("/organization/invite-member")).toHaveLength(1));
    expect(harness.sent("/organization/invite-member")[0]?.body).toEqual({
      email: "grace@example.com",
      role: "member",
      organizationId: "org-1",
    });
  });

  it("checks the address before asking the server", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(<InviteMember />, routes("owner"));
    await user.type(await screen.findByLabelText("Email"), "grace");
    await user.click(screen.getByRole("button", { name: "Send invitation" }));
    expect(screen.getByLabelText("Email")).toHaveAccessibleDescription(
      "Enter a valid email address.",
    );
    expect(harness.sent("/organization/invite-member")).toHaveLength(0);
  });

  it("offers to send a pending invitation again", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(
      <InviteMember />,
      routes(
        "admin",
        {},
        {
          "/organization/invite-member": (request) =>
            (request.body as { resend?: boolean }).resend
              ? { body: { ...PENDING, url: "x" } }
              : { status: 400, body: errorBody("USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION") },
        },
      ),
    );
    await user.type(await screen.findByLabelText("Email"), "grace@example.com");
    await user.click(screen.getByRole("button", { name: "Send invitation" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "This address already has a pending invitation.",
    );
    await user.click(screen.getByRole("button", { name: "Send it again" }));
    expect(
      await screen.findByText("Invitation sent to grace@example.com again."),
    ).toBeInTheDocument();
    expect(harness.sent("/organization/invite-member")[1]?.body).toEqual({
      email: "grace@example.com",
      role: "member",
      resend: true,
      organizationId: "org-1",
    });
    expect(screen.queryByRole("button", { name: "Send it again" })).toBeNull();
  });

  it.each([
    [
      "USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION",
      400,
      "User is already a member of this organization.",
    ],
    [
      "YOU_ARE_NOT_ALLOWED_TO_INVITE_USER_WITH_THIS_ROLE",
      403,
      "You are not allowed to invite a user with this role.",
    ],
    ["INVITATION_LIMIT_REACHED", 403, "Invitation limit reached."],
  ])("announces %s", async (code, status, text) => {
    const user = userEvent.setup();
    renderWithAuth(
      <InviteMember />,
      routes("owner", {}, { "/organization/invite-member": { status, body: errorBody(code) } }),
    );
    await user.type(await screen.findByLabelText("Email"), "grace@example.com");
    await user.click(screen.getByRole("button", { name: "Send invitation" }));
    const alert = await screen.findByRole("alert");
    await waitFor(() => expect(alert).toHaveTextContent(text));
    await waitFor(() => expect(alert).toHaveFocus());
    expect(screen.queryByRole("button", { name: "Send it again" })).toBeNull();
  });
});

describe("<PendingInvitations/>", () => {
  it("lists pending invitations with role and expiry in the page's language", async () => {
    renderWithAuth(<PendingInvitations />, routes("owner"));
    const list = await screen.findByRole("list", { name: "Pending invitations" });
    const rows = within(list).getAllByRole("listitem");
    expect(rows).toHaveLength(1);
    const expiry = new Intl.DateTimeFormat("en", {
      dateStyle: "medium",
      timeStyle: "short",
    }).format(new Date(EXPIRES));
    expect(rows[0]).toHaveTextContent("grace@example.com");
    expect(rows[0]).toHaveTextContent("Admin");
    expect(rows[0]).toHaveTextContent(`Expires ${expiry}`);
    expect(screen.queryByText("alan@example.com")).toBeNull();
  });

  it("cancels an invitation after confirming", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(
      <PendingInvitations />,
      routes(
        "admin",
        {},
        { "/organization/cancel-invitation": { body: { ...PENDING, status: "canceled" } } },
      ),
    );
    await user.click(
      await screen.findByRole("button", { name: "Cancel the invitation for grace@example.com" }),
    );
    const dialog = screen.getByRole("dialog", { name: "Cancel this invitation?" });
    harness.answer("/organization/get-full-organization", { body: full({ invitations: [] }) });
    await user.click(within(dialog).getByRole("button", { name: "Cancel invitation" }));
    expect(
      await screen.findByText("No invitations are waiting for an answer."),
    ).toBeInTheDocument();
    expect(harness.sent("/organization/cancel-invitation")[0]?.body).toEqual({
      invitationId: "inv-1",
    });
  });

  it("shows a refused cancel", async () => {
    const user = userEvent.setup();
    renderWithAuth(
      <PendingInvitations />,
      routes(
        "owner",
        {},
        {
          "/organization/cancel-invitation": {
            status: 403,
            body: errorBody("YOU_ARE_NOT_ALLOWED_TO_CANCEL_THIS_INVITATION"),
          },
        },
      ),
    );
    await user.click(
      await screen.findByRole("button", { name: "Cancel the invitation for grace@example.com" }),
    );
    await user.click(screen.getByRole("button", { name: "Cancel invitation" }));
    const alert = await screen.findByRole("alert");
    await waitFor(() =>
      expect(alert).toHaveTextContent("You are not allowed to cancel this invitation."),
    );
  });

  it("says when no invitation is pending", async () => {
    renderWithAuth(<PendingInvitations />, routes("owner", { invitations: [ACCEPTED] }));
    expect(
      await screen.findByText("No invitations are waiting for an answer."),
    ).toBeInTheDocument();
  });
});
