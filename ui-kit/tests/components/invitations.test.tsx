// @vitest-environment jsdom
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { Invitations, useListOrganizations } from "../../src/index.js";
import { errorBody, type Routes, renderWithAuth, sessionOf, USER } from "./harness.js";

const CREATED = "2026-01-01T00:00:00.000Z";
const FUTURE = "2099-12-05T12:00:00.000Z";

function invitation(id: string, organizationName: string, overrides: Record<string, unknown> = {}) {
  return {
    id,
    organizationId: `org-${id}`,
    email: USER.email,
    role: "member",
    status: "pending",
    teamId: null,
    inviterId: "user-9",
    expiresAt: FUTURE,
    createdAt: CREATED,
    organizationName,
    ...overrides,
  };
}

const ACME = invitation("a", "Acme");
const GLOBEX = invitation("b", "Globex", { role: "admin" });

function accepted(id: string) {
  return {
    invitation: { ...invitation(id, "x"), status: "accepted" },
    member: {
      id: "m-new",
      organizationId: `org-${id}`,
      userId: USER.id,
      role: "member",
      createdAt: CREATED,
    },
  };
}

function routes(overrides: Routes = {}, activeOrganizationId: string | null = null): Routes {
  return {
    "/get-session": { body: sessionOf(USER, { activeOrganizationId }) },
    "/organization/list-user-invitations": { body: [ACME, GLOBEX] },
    "/organization/list": { body: [] },
    ...overrides,
  };
}

/** Another component showing the user's organizations, to see that accepting refreshes it. */
function OrganizationCount() {
  const organizations = useListOrganizations();
  return <p data-testid="organizations">{organizations.data?.length ?? "…"}</p>;
}

describe("<Invitations/>", () => {
  it("loads, then lists each invitation's organization, role and expiry", async () => {
    renderWithAuth(<Invitations />, routes());
    expect(screen.getByRole("status")).toHaveTextContent("Loading");
    const list = await screen.findByRole("list", { name: "Invitations" });
    const items = within(list).getAllByRole("listitem");
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent("Acme");
    expect(items[0]).toHaveTextContent("Role: Member");
    expect(items[0]).toHaveTextContent("Expires on Dec 5, 2099");
    expect(items[1]).toHaveTextContent("Globex");
    expect(items[1]).toHaveTextContent("Role: Admin");
    expect(screen.getByText("You have 2 pending invitations.")).toBeInTheDocument();
  });

  it("names the inviter when the server tells", async () => {
    renderWithAuth(
      <Invitations />,
      routes({
        "/organization/list-user-invitations": {
          body: [{ ...ACME, inviterEmail: "grace@example.com" }],
        },
      }),
    );
    expect(await screen.findByText(/Invited by grace@example.com/)).toBeInTheDocument();
    expect(screen.getByText("You have 1 pending invitation.")).toBeInTheDocument();
  });

  it("says when there are none", async () => {
    const { container } = renderWithAuth(
      <Invitations />,
      routes({ "/organization/list-user-invitations": { body: [] } }),
    );
    expect(await screen.findByText("You have no pending invitations.")).toBeInTheDocument();
    expect(container.querySelector('[data-authd-component="invitations"]')).toHaveAttribute(
      "data-state",
      "empty",
    );
  });

  it("explains that the email must be verified to list invitations", async () => {
    const { container } = renderWithAuth(
      <Invitations />,
      routes({
        "/organization/list-user-invitations": {
          status: 403,
          body: errorBody("EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION"),
        },
      }),
    );
    expect(
      await screen.findByText("Verify your email address to see the invitations sent to it."),
    ).toHaveAttribute("role", "alert");
    expect(
      screen.getByText(
        "Open the verification link we sent to ada@example.com, then come back here.",
      ),
    ).toBeInTheDocument();
    expect(container.querySelector('[data-authd-component="invitations"]')).toHaveAttribute(
      "data-state",
      "verification-required",
    );
    expect(screen.queryByRole("button", { name: /Accept/ })).not.toBeInTheDocument();
  });

  it("shows other errors with a retry", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(
      <Invitations />,
      routes({
        "/organization/list-user-invitations": {
          status: 500,
          body: errorBody("INTERNAL_SERVER_ERROR"),
        },
      }),
    );
    expect(
      await screen.findByText("Something went wrong on our side. Please try again."),
    ).toBeInTheDocument();
    harness.answer("/organization/list-user-invitations", { body: [ACME] });
    await user.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByRole("list", { name: "Invitations" })).toHaveTextContent("Acme");
  });

  it("asks to sign in when signed out, without asking the server", async () => {
    const harness = renderWithAuth(<Invitations />, { "/get-session": { body: null } });
    expect(await screen.findByText("Sign in to see your invitations.")).toBeInTheDocument();
    expect(harness.sent("/organization/list-user-invitations")).toHaveLength(0);
  });

  it("does not offer to act on an invitation that expired", async () => {
    renderWithAuth(
      <Invitations />,
      routes({
        "/organization/list-user-invitations": {
          body: [invitation("old", "Initech", { expiresAt: "2020-01-01T00:00:00.000Z" })],
        },
      }),
    );
    const item = await screen.findByRole("listitem");
    expect(item).toHaveAttribute("data-state", "expired");
    expect(item).toHaveTextContent("Expired");
    expect(item).toHaveTextContent("This invitation has expired. Ask for a new one.");
    expect(within(item).queryByRole("button")).not.toBeInTheDocument();
  });

  it("accepts, makes the organization active, and refreshes what it changed", async () => {
    const user = userEvent.setup();
    const onAccept = vi.fn();
    const harness = renderWithAuth(
      <>
        <Invitations onAccept={onAccept} />
        <OrganizationCount />
      </>,
      routes({
        "/organization/accept-invitation": { body: accepted("a") },
        "/organization/set-active": { body: { id: "org-a" } },
      }),
    );
    await waitFor(() => expect(screen.getByTestId("organizations")).toHaveTextContent("0"));
    const sessionsBefore = harness.sent("/get-session").length;
    harness.answer("/organization/list-user-invitations", { body: [GLOBEX] });
    harness.answer("/organization/list", { body: [{ id: "org-a", name: "Acme" }] });
    await user.click(await screen.findByRole("button", { name: "Accept the invitation to Acme" }));
    const news = await screen.findByText("You joined Acme.");
    await waitFor(() => expect(news).toHaveFocus());
    expect(harness.sent("/organization/accept-invitation")[0]?.body).toEqual({
      invitationId: "a",
    });
    expect(harness.sent("/organization/set-active")[0]?.body).toEqual({
      organizationId: "org-a",
    });
    expect(harness.sent("/get-session").length).toBeGreaterThan(sessionsBefore);
    await waitFor(() => expect(screen.getByTestId("organizations")).toHaveTextContent("1"));
    expect(screen.getByRole("list", { name: "Invitations" })).not.toHaveTextContent("Acme");
    expect(onAccept).toHaveBeenCalledWith(accepted("a"));
  });

  it("with activateOnAccept off, goes back to the organization that was active", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(
      <Invitations activateOnAccept={false} />,
      routes(
        {
          "/organization/accept-invitation": { body: accepted("a") },
          "/organization/set-active": { body: { id: "org-home" } },
        },
        "org-home",
      ),
    );
    await user.click(await screen.findByRole("button", { name: "Accept the invitation to Acme" }));
    await screen.findByText("You joined Acme.");
    expect(harness.sent("/organization/set-active").map((r) => r.body)).toEqual([
      { organizationId: "org-home" },
    ]);
  });

  it("with activateOnAccept off and nothing active before, clears the active organization", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(
      <Invitations activateOnAccept={false} />,
      routes({
        "/organization/accept-invitation": { body: accepted("a") },
        "/organization/set-active": { body: null },
      }),
    );
    await user.click(await screen.findByRole("button", { name: "Accept the invitation to Acme" }));
    await screen.findByText("You joined Acme.");
    expect(harness.sent("/organization/set-active")[0]?.body).toEqual({ organizationId: null });
  });

  it.each([
    ["ORGANIZATION_MEMBERSHIP_LIMIT_REACHED", 403, "Organization membership limit reached."],
    ["INVITATION_NOT_FOUND", 400, "Invitation not found."],
    [
      "EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION",
      403,
      "Verify your email address to see your invitations.",
    ],
  ])("shows why an accept failed: %s", async (code, status, text) => {
    const user = userEvent.setup();
    const harness = renderWithAuth(
      <Invitations />,
      routes({ "/organization/accept-invitation": { status, body: errorBody(code) } }),
    );
    await user.click(await screen.findByRole("button", { name: "Accept the invitation to Acme" }));
    const alert = await screen.findByText(text);
    expect(alert).toHaveAttribute("role", "alert");
    expect(harness.sent("/organization/set-active")).toHaveLength(0);
    expect(screen.getByRole("button", { name: "Accept the invitation to Acme" })).toBeEnabled();
  });

  it("declines only after confirmation", async () => {
    const user = userEvent.setup();
    const onDecline = vi.fn();
    const harness = renderWithAuth(
      <Invitations onDecline={onDecline} />,
      routes({
        "/organization/reject-invitation": {
          body: { invitation: { ...GLOBEX, status: "rejected" }, member: null },
        },
      }),
    );
    await user.click(
      await screen.findByRole("button", { name: "Decline the invitation to Globex" }),
    );
    let dialog = screen.getByRole("dialog", { name: "Decline the invitation to Globex?" });
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(harness.sent("/organization/reject-invitation")).toHaveLength(0);

    await user.click(screen.getByRole("button", { name: "Decline the invitation to Globex" }));
    dialog = screen.getByRole("dialog");
    harness.answer("/organization/list-user-invitations", { body: [ACME] });
    await user.click(within(dialog).getByRole("button", { name: "Decline invitation" }));
    expect(await screen.findByText("You declined the invitation to Globex.")).toBeInTheDocument();
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(harness.sent("/organization/reject-invitation")[0]?.body).toEqual({
      invitationId: "b",
    });
    await waitFor(() =>
      expect(screen.getByRole("list", { name: "Invitations" })).not.toHaveTextContent("Globex"),
    );
    expect(onDecline).toHaveBeenCalledWith({ ...GLOBEX, status: "rejected" });
  });

  it("keeps the confirmation open with the reason a decline failed", async () => {
    const user = userEvent.setup();
    renderWithAuth(
      <Invitations />,
      routes({
        "/organization/reject-invitation": {
          status: 400,
          body: errorBody("INVITATION_NOT_FOUND"),
        },
      }),
    );
    await user.click(await screen.findByRole("button", { name: "Decline the invitation to Acme" }));
    const dialog = screen.getByRole("dialog");
    await user.click(within(dialog).getByRole("button", { name: "Decline invitation" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent("Invitation not found.");
  });

  it("speaks the page's language", async () => {
    renderWithAuth(<Invitations />, routes(), { locale: "fr" });
    expect(await screen.findByText("Vous avez 2 invitations en attente.")).toBeInTheDocument();
    expect(
      screen.getByRole("button", { name: "Accepter l’invitation à rejoindre Acme" }),
    ).toBeInTheDocument();
  });
});
