// @vitest-environment jsdom
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { Teams } from "../../src/index.js";
import {
  errorBody,
  type Routes,
  renderWithAuth,
  type SentRequest,
  sessionOf,
  USER,
} from "./harness.js";

const CREATED = "2026-01-01T00:00:00.000Z";
const ORG = {
  id: "org-1",
  name: "Acme",
  slug: "acme",
  logo: null,
  metadata: null,
  createdAt: CREATED,
};

function member(id: string, userId: string, name: string, email: string, role: string) {
  return {
    id,
    organizationId: ORG.id,
    userId,
    role,
    createdAt: CREATED,
    user: { id: userId, name, email, image: null },
  };
}

const MEMBERS = [
  member("m-1", USER.id, USER.name, USER.email, "owner"),
  member("m-2", "user-2", "Bob Builder", "bob@example.com", "member"),
  member("m-3", "user-3", "Cy Young", "cy@example.com", "admin"),
];

function team(id: string, name: string) {
  return { id, name, organizationId: ORG.id, createdAt: CREATED, updatedAt: null };
}

const TEAMS = [team("team-1", "Design"), team("team-2", "Ops")];

function teamMember(teamId: string, userId: string) {
  return { id: `${teamId}-${userId}`, teamId, userId, createdAt: CREATED };
}

/** What the server answers for an owner (every permission) or a plain member (none). */
function routes(role: "owner" | "member" = "owner", overrides: Routes = {}): Routes {
  return {
    "/get-session": { body: sessionOf(USER, { activeOrganizationId: ORG.id }) },
    "/organization/get-full-organization": {
      body: { ...ORG, members: MEMBERS, membersTotal: 3, invitations: [], teams: TEAMS },
    },
    "/organization/list-teams": { body: TEAMS },
    "/organization/has-permission": { body: { error: null, success: role === "owner" } },
    "/organization/list-team-members": (request: SentRequest) => ({
      body: request.query.teamId === "team-1" ? [teamMember("team-1", "user-2")] : [],
    }),
    ...overrides,
  };
}

async function listed() {
  return screen.findByRole("list", { name: "Teams" });
}

describe("<Teams/>", () => {
  it("shows a loading state, then the active organization's teams", async () => {
    const harness = renderWithAuth(<Teams />, routes());
    expect(screen.getByRole("status")).toHaveTextContent("Loading");
    const list = await listed();
    expect(within(list).getByText("Design")).toBeInTheDocument();
    expect(within(list).getByText("Ops")).toBeInTheDocument();
    expect(harness.sent("/organization/list-teams")[0]?.query).toEqual({ organizationId: "org-1" });
    expect(harness.container.querySelector('[data-authd-component="teams"]')).toHaveAttribute(
      "data-state",
      "ready",
    );
  });

  it("asks the server what the member may change, for each change", async () => {
    const harness = renderWithAuth(<Teams />, routes());
    await screen.findByRole("button", { name: "Rename Design" });
    const asked = harness
      .sent("/organization/has-permission")
      .map((request) => JSON.stringify((request.body as { permissions: unknown }).permissions));
    expect(asked.sort()).toEqual(
      [
        { member: ["delete"] },
        { member: ["update"] },
        { team: ["create"] },
        { team: ["delete"] },
        { team: ["update"] },
      ]
        .map((p) => JSON.stringify(p))
        .sort(),
    );
    expect(harness.sent("/organization/has-permission")[0]?.body).toMatchObject({
      organizationId: "org-1",
    });
  });

  it("lets an owner create, rename and remove", async () => {
    renderWithAuth(<Teams />, routes());
    await listed();
    expect(await screen.findByRole("form", { name: "Create team" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Rename Design" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Remove Design" })).toBeInTheDocument();
    expect(
      screen.queryByText("Only the organization's owners and admins can change its teams."),
    ).not.toBeInTheDocument();
  });

  it("shows a plain member the teams read only", async () => {
    const user = userEvent.setup();
    renderWithAuth(<Teams />, routes("member"));
    await listed();
    expect(
      await screen.findByText("Only the organization's owners and admins can change its teams."),
    ).toBeInTheDocument();
    expect(screen.queryByRole("form", { name: "Create team" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Rename Design" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Remove Design" })).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Members of Design" }));
    const members = await screen.findByRole("list", { name: "Members of Design" });
    expect(within(members).getByText("Bob Builder")).toBeInTheDocument();
    expect(within(members).queryByRole("button")).not.toBeInTheDocument();
    expect(screen.queryByLabelText("Organization member")).not.toBeInTheDocument();
  });

  it("creates a team, refreshes the list and the organization, and says so", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(
      <Teams />,
      routes("owner", {
        "/organization/create-team": { body: team("team-3", "Research") },
      }),
    );
    await listed();
    await user.type(await screen.findByLabelText("Team name"), "  Research ");
    harness.answer("/organization/list-teams", { body: [...TEAMS, team("team-3", "Research")] });
    await user.click(screen.getByRole("button", { name: "Create team" }));
    expect(await screen.findByText("Team “Research” created.")).toBeInTheDocument();
    expect(harness.sent("/organization/create-team")[0]?.body).toEqual({
      name: "Research",
      organizationId: "org-1",
    });
    expect(within(await listed()).getByText("Research")).toBeInTheDocument();
    expect(harness.sent("/organization/list-teams").length).toBeGreaterThanOrEqual(2);
    expect(harness.sent("/organization/get-full-organization").length).toBeGreaterThanOrEqual(2);
    expect(screen.getByLabelText("Team name")).toHaveValue("");
  });

  it("asks for a name before sending anything", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(<Teams />, routes());
    await listed();
    await user.click(await screen.findByRole("button", { name: "Create team" }));
    const input = screen.getByLabelText("Team name");
    expect(input).toHaveAccessibleDescription("This field is required.");
    await waitFor(() => expect(input).toHaveFocus());
    expect(harness.sent("/organization/create-team")).toHaveLength(0);
  });

  it.each([
    [
      "YOU_ARE_NOT_ALLOWED_TO_CREATE_TEAMS_IN_THIS_ORGANIZATION",
      403,
      "You are not allowed to create teams in this organization.",
    ],
    ["TEAM_ALREADY_EXISTS", 400, "Team already exists."],
    [
      "YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_TEAMS",
      400,
      "You have reached the maximum number of teams.",
    ],
  ])("shows the server's %s when creating", async (code, status, text) => {
    const user = userEvent.setup();
    renderWithAuth(
      <Teams />,
      routes("owner", { "/organization/create-team": { status, body: errorBody(code) } }),
    );
    await listed();
    await user.type(await screen.findByLabelText("Team name"), "Design");
    await user.click(screen.getByRole("button", { name: "Create team" }));
    const alert = await screen.findByText(text);
    expect(alert).toHaveAttribute("role", "alert");
    await waitFor(() => expect(alert).toHaveFocus());
  });

  it("renames a team inline", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(
      <Teams />,
      routes("owner", { "/organization/update-team": { body: team("team-1", "Brand") } }),
    );
    await user.click(await screen.findByRole("button", { name: "Rename Design" }));
    const input = screen.getByLabelText("New name for Design");
    expect(input).toHaveValue("Design");
    await waitFor(() => expect(input).toHaveFocus());
    await user.clear(input);
    await user.type(input, "Brand");
    harness.answer("/organization/list-teams", { body: [team("team-1", "Brand"), TEAMS[1]] });
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await within(await listed()).findByText("Brand")).toBeInTheDocument();
    expect(harness.sent("/organization/update-team")[0]?.body).toEqual({
      teamId: "team-1",
      data: { name: "Brand" },
    });
    expect(screen.queryByLabelText("New name for Design")).not.toBeInTheDocument();
  });

  it("cancels a rename with Escape and returns focus to its button", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(<Teams />, routes());
    await user.click(await screen.findByRole("button", { name: "Rename Design" }));
    await user.type(screen.getByLabelText("New name for Design"), "x{Escape}");
    expect(screen.queryByLabelText("New name for Design")).not.toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole("button", { name: "Rename Design" })).toHaveFocus(),
    );
    expect(harness.sent("/organization/update-team")).toHaveLength(0);
  });

  it("shows why a rename was refused and keeps the field", async () => {
    const user = userEvent.setup();
    renderWithAuth(
      <Teams />,
      routes("owner", {
        "/organization/update-team": {
          status: 400,
          body: errorBody("TEAM_ALREADY_EXISTS"),
        },
      }),
    );
    await user.click(await screen.findByRole("button", { name: "Rename Design" }));
    const input = screen.getByLabelText("New name for Design");
    await user.clear(input);
    await user.type(input, "Ops{Enter}");
    expect(await screen.findByText("Team already exists.")).toBeInTheDocument();
    expect(screen.getByLabelText("New name for Design")).toHaveValue("Ops");
  });

  it("removes a team only after confirmation", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(
      <Teams />,
      routes("owner", {
        "/organization/remove-team": { body: { message: "Team removed successfully." } },
      }),
    );
    await user.click(await screen.findByRole("button", { name: "Remove Design" }));
    let dialog = screen.getByRole("dialog", { name: "Remove the team “Design”?" });
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(harness.sent("/organization/remove-team")).toHaveLength(0);

    await user.click(screen.getByRole("button", { name: "Remove Design" }));
    dialog = screen.getByRole("dialog");
    harness.answer("/organization/list-teams", { body: [TEAMS[1]] });
    await user.click(within(dialog).getByRole("button", { name: "Remove team" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(harness.sent("/organization/remove-team")[0]?.body).toEqual({
      teamId: "team-1",
      organizationId: "org-1",
    });
    await waitFor(() =>
      expect(
        within(screen.getByRole("list", { name: "Teams" })).queryByText("Design"),
      ).not.toBeInTheDocument(),
    );
  });

  it("keeps the dialog open with the reason when the last team cannot go", async () => {
    const user = userEvent.setup();
    renderWithAuth(
      <Teams />,
      routes("owner", {
        "/organization/remove-team": { status: 400, body: errorBody("UNABLE_TO_REMOVE_LAST_TEAM") },
      }),
    );
    await user.click(await screen.findByRole("button", { name: "Remove Design" }));
    const dialog = screen.getByRole("dialog");
    await user.click(within(dialog).getByRole("button", { name: "Remove team" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent(
      "Unable to remove last team.",
    );
    expect(screen.getByRole("dialog")).toBeInTheDocument();
  });

  it("expands a team to its members, named from the organization's member list", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(<Teams />, routes());
    const toggle = await screen.findByRole("button", { name: "Members of Design" });
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    await user.click(toggle);
    expect(toggle).toHaveAttribute("aria-expanded", "true");
    const members = await screen.findByRole("list", { name: "Members of Design" });
    expect(within(members).getByText("Bob Builder")).toBeInTheDocument();
    expect(within(members).getByText("bob@example.com")).toBeInTheDocument();
    expect(within(members).getByText("Member")).toBeInTheDocument();
    expect(screen.getByText("1 member")).toBeInTheDocument();
    expect(harness.sent("/organization/list-team-members")[0]?.query).toEqual({
      teamId: "team-1",
    });
    await user.click(toggle);
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    expect(screen.queryByRole("list", { name: "Members of Design" })).not.toBeInTheDocument();
  });

  it("says when a team has no one in it", async () => {
    const user = userEvent.setup();
    renderWithAuth(<Teams />, routes());
    await user.click(await screen.findByRole("button", { name: "Members of Ops" }));
    expect(await screen.findByText("No one is in this team yet.")).toBeInTheDocument();
    expect(screen.getByText("0 members")).toBeInTheDocument();
  });

  it("adds an organization member who is not in the team yet", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(
      <Teams />,
      routes("owner", {
        "/organization/add-team-member": { body: teamMember("team-1", "user-3") },
      }),
    );
    await user.click(await screen.findByRole("button", { name: "Members of Design" }));
    const select = await screen.findByLabelText("Organization member");
    const options = within(select)
      .getAllByRole("option")
      .map((option) => option.textContent);
    expect(options).toEqual([
      "Choose a member…",
      "Ada Lovelace (ada@example.com)",
      "Cy Young (cy@example.com)",
    ]);
    expect(screen.getByRole("button", { name: "Add to team" })).toBeDisabled();
    harness.answer("/organization/list-team-members", {
      body: [teamMember("team-1", "user-2"), teamMember("team-1", "user-3")],
    });
    await user.selectOptions(select, "user-3");
    await user.click(screen.getByRole("button", { name: "Add to team" }));
    const members = screen.getByRole("list", { name: "Members of Design" });
    expect(await within(members).findByText("Cy Young")).toBeInTheDocument();
    expect(harness.sent("/organization/add-team-member")[0]?.body).toEqual({
      teamId: "team-1",
      userId: "user-3",
      organizationId: "org-1",
    });
  });

  it("shows the team member limit", async () => {
    const user = userEvent.setup();
    renderWithAuth(
      <Teams />,
      routes("owner", {
        "/organization/add-team-member": {
          status: 403,
          body: errorBody("TEAM_MEMBER_LIMIT_REACHED"),
        },
      }),
    );
    await user.click(await screen.findByRole("button", { name: "Members of Design" }));
    await user.selectOptions(await screen.findByLabelText("Organization member"), "user-3");
    await user.click(screen.getByRole("button", { name: "Add to team" }));
    const alert = await screen.findByText("Team member limit reached.");
    await waitFor(() => expect(alert).toHaveFocus());
  });

  it("says when everyone is already in the team", async () => {
    const user = userEvent.setup();
    renderWithAuth(
      <Teams />,
      routes("owner", {
        "/organization/list-team-members": {
          body: MEMBERS.map((m) => teamMember("team-1", m.userId)),
        },
      }),
    );
    await user.click(await screen.findByRole("button", { name: "Members of Design" }));
    expect(
      await screen.findByText("Every member of the organization is already in this team."),
    ).toBeInTheDocument();
    expect(screen.getByText("3 members")).toBeInTheDocument();
  });

  it("removes a member from a team after confirmation", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(
      <Teams />,
      routes("owner", {
        "/organization/remove-team-member": {
          body: { message: "Team member removed successfully." },
        },
      }),
    );
    await user.click(await screen.findByRole("button", { name: "Members of Design" }));
    await user.click(await screen.findByRole("button", { name: "Remove Bob Builder from Design" }));
    const dialog = screen.getByRole("dialog", { name: "Remove Bob Builder from Design?" });
    harness.answer("/organization/list-team-members", { body: [] });
    await user.click(within(dialog).getByRole("button", { name: "Remove from team" }));
    expect(await screen.findByText("No one is in this team yet.")).toBeInTheDocument();
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(harness.sent("/organization/remove-team-member")[0]?.body).toEqual({
      teamId: "team-1",
      userId: "user-2",
      organizationId: "org-1",
    });
  });

  it("shows why a team member could not be removed", async () => {
    const user = userEvent.setup();
    renderWithAuth(
      <Teams />,
      routes("owner", {
        "/organization/remove-team-member": {
          status: 403,
          body: errorBody("YOU_ARE_NOT_ALLOWED_TO_REMOVE_A_TEAM_MEMBER"),
        },
      }),
    );
    await user.click(await screen.findByRole("button", { name: "Members of Design" }));
    await user.click(await screen.findByRole("button", { name: "Remove Bob Builder from Design" }));
    const dialog = screen.getByRole("dialog");
    await user.click(within(dialog).getByRole("button", { name: "Remove from team" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent(
      "You are not allowed to remove a team member.",
    );
  });

  it("shows why a team's members could not be listed", async () => {
    const user = userEvent.setup();
    renderWithAuth(
      <Teams />,
      routes("member", {
        "/organization/list-team-members": {
          status: 400,
          body: errorBody("USER_IS_NOT_A_MEMBER_OF_THE_TEAM"),
        },
      }),
    );
    await user.click(await screen.findByRole("button", { name: "Members of Ops" }));
    expect(await screen.findByText("User is not a member of the team.")).toBeInTheDocument();
  });

  it("says teams are not enabled when the organization has none at all", async () => {
    const harness = renderWithAuth(
      <Teams />,
      routes("owner", {
        "/organization/get-full-organization": {
          body: { ...ORG, members: MEMBERS, membersTotal: 3, invitations: [], teams: null },
        },
        "/organization/list-teams": { status: 404, body: errorBody("NOT_FOUND") },
      }),
    );
    expect(await screen.findByText("Teams are not enabled.")).toBeInTheDocument();
    expect(screen.queryByRole("list")).not.toBeInTheDocument();
    expect(harness.container.querySelector('[data-authd-component="teams"]')).toHaveAttribute(
      "data-state",
      "disabled",
    );
  });

  it("says teams are not enabled when the team routes answer 404", async () => {
    renderWithAuth(
      <Teams />,
      routes("owner", {
        "/organization/list-teams": { status: 404, body: errorBody("NOT_FOUND") },
      }),
    );
    expect(await screen.findByText("Teams are not enabled.")).toBeInTheDocument();
  });

  it("shows other list errors with a retry", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(
      <Teams />,
      routes("owner", {
        "/organization/list-teams": {
          status: 403,
          body: errorBody("YOU_ARE_NOT_ALLOWED_TO_ACCESS_THIS_ORGANIZATION"),
        },
      }),
    );
    expect(
      await screen.findByText("You are not allowed to access this organization."),
    ).toBeInTheDocument();
    harness.answer("/organization/list-teams", { body: TEAMS });
    await user.click(screen.getByRole("button", { name: "Try again" }));
    expect(within(await listed()).getByText("Design")).toBeInTheDocument();
  });

  it("says when the organization has no teams", async () => {
    renderWithAuth(<Teams />, routes("owner", { "/organization/list-teams": { body: [] } }));
    expect(await screen.findByText("This organization has no teams yet.")).toBeInTheDocument();
  });

  it("asks for an organization when none is active", async () => {
    const harness = renderWithAuth(
      <Teams />,
      routes("owner", { "/get-session": { body: sessionOf() } }),
    );
    expect(await screen.findByText("Choose an organization to see its teams.")).toBeInTheDocument();
    expect(harness.sent("/organization/list-teams")).toHaveLength(0);
  });

  it("manages the organization it is given instead of the active one", async () => {
    const harness = renderWithAuth(<Teams organizationId="org-2" />, routes());
    await listed();
    expect(harness.sent("/organization/list-teams")[0]?.query).toEqual({ organizationId: "org-2" });
    expect(harness.sent("/organization/get-full-organization")[0]?.query).toEqual({
      organizationId: "org-2",
    });
    expect(harness.sent("/organization/has-permission")[0]?.body).toMatchObject({
      organizationId: "org-2",
    });
  });

  it("speaks the page's language", async () => {
    renderWithAuth(<Teams />, routes("member"), { locale: "de" });
    expect(await screen.findByRole("heading", { name: "Teams" })).toBeInTheDocument();
    expect(
      await screen.findByText(
        "Nur Inhaber und Administratoren der Organisation können ihre Teams ändern.",
      ),
    ).toBeInTheDocument();
  });
});
