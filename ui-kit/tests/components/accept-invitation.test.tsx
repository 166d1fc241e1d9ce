// @vitest-environment jsdom
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { AcceptInvitation } from "../../src/index.js";
import { errorBody, type Routes, renderWithAuth, sessionOf, USER } from "./harness.js";

const CREATED = "2026-01-01T00:00:00.000Z";

const DETAILS = {
  id: "inv-1",
  organizationId: "org-1",
  email: USER.email,
  role: "admin",
  status: "pending",
  teamId: null,
  inviterId: "user-9",
  expiresAt: "2099-12-05T12:00:00.000Z",
  createdAt: CREATED,
  organizationName: "Acme",
  organizationSlug: "acme",
  inviterEmail: "grace@example.com",
};

const ACCEPTED = {
  invitation: { ...DETAILS, status: "accepted" },
  member: {
    id: "m-1",
    organizationId: "org-1",
    userId: USER.id,
    role: "admin",
    createdAt: CREATED,
  },
};

function routes(overrides: Routes = {}): Routes {
  return {
    "/get-session": { body: sessionOf() },
    "/organization/get-invitation": { body: DETAILS },
    "/organization/list": { body: [] },
    ...overrides,
  };
}

function visit(path: string) {
  window.history.pushState({}, "", path);
}

beforeEach(() => {
  visit("/");
  window.localStorage.clear();
});

describe("<AcceptInvitation/>", () => {
  it("reads the invitation id from the link's last segment and shows the invitation", async () => {
    visit("/accept-invitation/inv-1");
    const harness = renderWithAuth(<AcceptInvitation />, routes());
    expect(screen.getByRole("status")).toHaveTextContent("Loading");
    expect(await screen.findByRole("heading", { name: "Join Acme" })).toBeInTheDocument();
    expect(screen.getByText("grace@example.com invited you to join Acme.")).toBeInTheDocument();
    expect(screen.getByText("You will join as: Admin")).toBeInTheDocument();
    expect(screen.getByText("The invitation is valid until Dec 5, 2099.")).toBeInTheDocument();
    expect(harness.sent("/organization/get-invitation")[0]?.query).toEqual({ id: "inv-1" });
  });

  it.each([
    ["/accept-invitation?invitationId=inv-q", "inv-q"],
    ["/invite?id=inv-i", "inv-i"],
  ])("reads the id from %s", async (path, id) => {
    visit(path);
    const harness = renderWithAuth(<AcceptInvitation />, routes());
    await screen.findByRole("heading", { name: "Join Acme" });
    expect(harness.sent("/organization/get-invitation")[0]?.query).toEqual({ id });
  });

  it("takes the id from its prop before the address", async () => {
    visit("/accept-invitation/from-url");
    const harness = renderWithAuth(<AcceptInvitation invitationId="from-prop" />, routes());
    await screen.findByRole("heading", { name: "Join Acme" });
    expect(harness.sent("/organization/get-invitation").map((r) => r.query.id)).toEqual([
      "from-prop",
    ]);
  });

  it("says when the address names no invitation", async () => {
    visit("/accept-invitation");
    const harness = renderWithAuth(<AcceptInvitation />, routes());
    expect(
      await screen.findByText(
        "This link does not name an invitation. Open the link from the email again.",
      ),
    ).toHaveAttribute("role", "alert");
    expect(harness.sent("/organization/get-invitation")).toHaveLength(0);
  });

  it("signed out: explains and links to sign-in and sign-up that come back here", async () => {
    visit("/accept-invitation/inv-1");
    const harness = renderWithAuth(
      <AcceptInvitation />,
      routes({ "/get-session": { body: null } }),
    );
    expect(
      await screen.findByRole("heading", { name: "You have been invited" }),
    ).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Sign in" })).toHaveAttribute(
      "href",
      "/sign-in?redirectTo=%2Faccept-invitation%2Finv-1",
    );
    expect(screen.getByRole("link", { name: "Create an account" })).toHaveAttribute(
      "href",
      "/sign-up?invitationId=inv-1&redirectTo=%2Faccept-invitation%2Finv-1%3FsignedUp%3D1",
    );
    expect(harness.sent("/organization/get-invitation")).toHaveLength(0);
  });

  it("signed out: the links use the provider's paths and come back to the current page", async () => {
    const harness = renderWithAuth(
      <AcceptInvitation invitationId="inv-7" />,
      routes({ "/get-session": { body: null } }),
      { paths: { signIn: "/login" } },
    );
    await userEvent.setup().click(await screen.findByRole("link", { name: "Sign in" }));
    expect(harness.navigations).toEqual(["/login?redirectTo=%2F"]);
  });

  it("accepts, then continues to the organization page", async () => {
    const user = userEvent.setup();
    const onAccept = vi.fn();
    visit("/accept-invitation/inv-1");
    const harness = renderWithAuth(
      <AcceptInvitation onAccept={onAccept} />,
      routes({ "/organization/accept-invitation": { body: ACCEPTED } }),
    );
    await user.click(await screen.findByRole("button", { name: "Accept invitation" }));
    const heading = await screen.findByRole("heading", { name: "Welcome to Acme" });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(screen.getByText("You are now a member of the organization.")).toBeInTheDocument();
    expect(harness.sent("/organization/accept-invitation")[0]?.body).toEqual({
      invitationId: "inv-1",
    });
    expect(onAccept).toHaveBeenCalledWith(ACCEPTED);
    await user.click(screen.getByRole("button", { name: "Continue" }));
    expect(harness.navigations).toEqual(["/organization"]);
  });

  it("continues to redirectTo when given", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(
      <AcceptInvitation invitationId="inv-1" redirectTo="/dashboard" />,
      routes({ "/organization/accept-invitation": { body: ACCEPTED } }),
    );
    await user.click(await screen.findByRole("button", { name: "Accept invitation" }));
    await user.click(await screen.findByRole("button", { name: "Continue" }));
    expect(harness.navigations).toEqual(["/dashboard"]);
  });

  it("declines after confirmation", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(
      <AcceptInvitation invitationId="inv-1" />,
      routes({
        "/organization/reject-invitation": {
          body: { invitation: { ...DETAILS, status: "rejected" }, member: null },
        },
      }),
    );
    await user.click(await screen.findByRole("button", { name: "Decline" }));
    const dialog = screen.getByRole("dialog", { name: "Decline the invitation to Acme?" });
    await user.click(within(dialog).getByRole("button", { name: "Decline invitation" }));
    expect(await screen.findByRole("heading", { name: "Invitation declined" })).toBeInTheDocument();
    expect(screen.getByText("You will not join Acme.")).toBeInTheDocument();
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(harness.sent("/organization/reject-invitation")[0]?.body).toEqual({
      invitationId: "inv-1",
    });
    expect(harness.sent("/organization/accept-invitation")).toHaveLength(0);
  });

  it("cancelling the decline sends nothing", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(<AcceptInvitation invitationId="inv-1" />, routes());
    await user.click(await screen.findByRole("button", { name: "Decline" }));
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(harness.sent("/organization/reject-invitation")).toHaveLength(0);
  });

  it("says the invitation is no longer valid when the server cannot find it", async () => {
    const { container } = renderWithAuth(
      <AcceptInvitation invitationId="inv-1" />,
      routes({
        "/organization/get-invitation": { status: 400, body: errorBody("INVITATION_NOT_FOUND") },
      }),
    );
    expect(
      await screen.findByRole("heading", { name: "This invitation is no longer valid" }),
    ).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Accept invitation" })).not.toBeInTheDocument();
    expect(container.querySelector('[data-authd-component="accept-invitation"]')).toHaveAttribute(
      "data-state",
      "not-found",
    );
  });

  it("says the invitation is no longer valid when it expired before accepting", async () => {
    const user = userEvent.setup();
    renderWithAuth(
      <AcceptInvitation invitationId="inv-1" />,
      routes({
        "/organization/accept-invitation": {
          status: 400,
          body: errorBody("INVITATION_NOT_FOUND"),
        },
      }),
    );
    await user.click(await screen.findByRole("button", { name: "Accept invitation" }));
    const heading = await screen.findByRole("heading", {
      name: "This invitation is no longer valid",
    });
    await waitFor(() => expect(heading).toHaveFocus());
  });

  it("tells a wrong recipient who they are signed in as and offers to switch", async () => {
    const user = userEvent.setup();
    visit("/accept-invitation/inv-1");
    const harness = renderWithAuth(
      <AcceptInvitation />,
      routes({
        "/organization/get-invitation": {
          status: 403,
          body: errorBody("YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION"),
        },
        "/sign-out": { body: { success: true } },
      }),
    );
    expect(
      await screen.findByRole("heading", {
        name: "This invitation is for another email address",
      }),
    ).toBeInTheDocument();
    expect(
      screen.getByText(
        "You are signed in as ada@example.com, but it was sent to another address. Sign in with the address that received it.",
      ),
    ).toBeInTheDocument();
    await user.click(
      screen.getByRole("button", { name: "Sign out and sign in with another account" }),
    );
    await waitFor(() =>
      expect(harness.navigations).toEqual(["/sign-in?redirectTo=%2Faccept-invitation%2Finv-1"]),
    );
    expect(harness.sent("/sign-out")).toHaveLength(1);
  });

  it("names the address the invitation went to when the answer says", async () => {
    renderWithAuth(
      <AcceptInvitation invitationId="inv-1" />,
      routes({
        "/organization/get-invitation": {
          status: 403,
          body: errorBody("YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION", "not yours", {
            email: "bob@example.com",
          }),
        },
      }),
    );
    expect(
      await screen.findByText(
        "It was sent to bob@example.com, but you are signed in as ada@example.com. Sign in with bob@example.com to accept it.",
      ),
    ).toBeInTheDocument();
  });

  it.each([
    ["get-invitation", "/organization/get-invitation"],
    ["accept-invitation", "/organization/accept-invitation"],
  ])("asks to verify the email when %s requires it", async (_, path) => {
    const user = userEvent.setup();
    renderWithAuth(
      <AcceptInvitation invitationId="inv-1" />,
      routes({
        [path]: { status: 403, body: errorBody("EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION") },
      }),
    );
    if (path.endsWith("accept-invitation")) {
      await user.click(await screen.findByRole("button", { name: "Accept invitation" }));
    }
    expect(
      await screen.findByRole("heading", { name: "Verify your email address first" }),
    ).toBeInTheDocument();
    expect(
      screen.getByText(
        "Open the verification link we sent to ada@example.com, then come back to this invitation.",
      ),
    ).toHaveAttribute("role", "alert");
  });

  it("tells a member they are already in the organization and opens it", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(
      <AcceptInvitation invitationId="inv-1" />,
      routes({
        "/organization/list": { body: [{ id: "org-1", name: "Acme", slug: "acme" }] },
        "/organization/accept-invitation": { body: ACCEPTED },
      }),
    );
    expect(
      await screen.findByRole("heading", { name: "You are already a member of Acme" }),
    ).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Accept invitation" })).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Open organization" }));
    await waitFor(() => expect(harness.navigations).toEqual(["/organization"]));
    expect(harness.sent("/organization/accept-invitation")[0]?.body).toEqual({
      invitationId: "inv-1",
    });
  });

  it("treats the server's already-a-member answer the same way", async () => {
    const user = userEvent.setup();
    renderWithAuth(
      <AcceptInvitation invitationId="inv-1" />,
      routes({
        "/organization/accept-invitation": {
          status: 400,
          body: errorBody("USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION"),
        },
      }),
    );
    await user.click(await screen.findByRole("button", { name: "Accept invitation" }));
    expect(
      await screen.findByRole("heading", { name: "You are already a member of Acme" }),
    ).toBeInTheDocument();
  });

  it("keeps the invitation open and says why an accept failed", async () => {
    const user = userEvent.setup();
    renderWithAuth(
      <AcceptInvitation invitationId="inv-1" />,
      routes({
        "/organization/accept-invitation": {
          status: 403,
          body: errorBody("ORGANIZATION_MEMBERSHIP_LIMIT_REACHED"),
        },
      }),
    );
    await user.click(await screen.findByRole("button", { name: "Accept invitation" }));
    const alert = await screen.findByText("Organization membership limit reached.");
    await waitFor(() => expect(alert).toHaveFocus());
    expect(screen.getByRole("heading", { name: "Join Acme" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Accept invitation" })).toBeEnabled();
  });

  it("shows other errors reading the invitation", async () => {
    renderWithAuth(
      <AcceptInvitation invitationId="inv-1" />,
      routes({
        "/organization/get-invitation": {
          status: 400,
          body: errorBody("INVITER_IS_NO_LONGER_A_MEMBER_OF_THE_ORGANIZATION"),
        },
      }),
    );
    expect(
      await screen.findByText("Inviter is no longer a member of the organization."),
    ).toHaveAttribute("role", "alert");
    expect(screen.queryByRole("button", { name: "Accept invitation" })).not.toBeInTheDocument();
  });

  describe("an invitation the server no longer shows, because it was used", () => {
    const GONE = { status: 400, body: errorBody("INVITATION_NOT_FOUND") };
    const ACME = { id: "org-1", name: "Acme", slug: "acme" };

    it("back from signing up with it, welcomes the new member of its organization", async () => {
      // The sign-up's verification link accepted it and made its organization active.
      visit("/accept-invitation/inv-1?signedUp=1");
      const user = userEvent.setup();
      const harness = renderWithAuth(
        <AcceptInvitation />,
        routes({
          "/get-session": { body: sessionOf(USER, { activeOrganizationId: "org-1" }) },
          "/organization/get-invitation": GONE,
          "/organization/list": { body: [ACME] },
        }),
      );
      const heading = await screen.findByRole("heading", { name: "Welcome to Acme" });
      await waitFor(() => expect(heading).toHaveFocus());
      expect(screen.getByText("You are now a member of the organization.")).toBeInTheDocument();
      expect(screen.queryByText(/no longer valid/)).not.toBeInTheDocument();
      await user.click(screen.getByRole("button", { name: "Continue" }));
      expect(harness.navigations).toEqual(["/organization"]);
    });

    it("reopened in this browser after joining, says they are a member and opens it", async () => {
      visit("/accept-invitation/inv-1?signedUp=1");
      const joined = routes({
        "/get-session": { body: sessionOf(USER, { activeOrganizationId: "org-1" }) },
        "/organization/get-invitation": GONE,
        "/organization/list": { body: [ACME, { id: "org-2", name: "Other", slug: "other" }] },
        "/organization/accept-invitation": GONE,
        "/organization/set-active": { body: ACME },
      });
      const first = renderWithAuth(<AcceptInvitation />, joined);
      await screen.findByRole("heading", { name: "Welcome to Acme" });
      first.unmount();

      // Later, another organization is active and the mailed link is opened again.
      visit("/accept-invitation/inv-1");
      const user = userEvent.setup();
      const harness = renderWithAuth(
        <AcceptInvitation />,
        routes({
          ...joined,
          "/get-session": { body: sessionOf(USER, { activeOrganizationId: "org-2" }) },
        }),
      );
      expect(
        await screen.findByRole("heading", { name: "You are already a member of Acme" }),
      ).toBeInTheDocument();
      await user.click(screen.getByRole("button", { name: "Open organization" }));
      await waitFor(() => expect(harness.navigations).toEqual(["/organization"]));
      expect(harness.sent("/organization/set-active")[0]?.body).toEqual({
        organizationId: "org-1",
      });
    });

    it("seen here once, then used elsewhere, says they are a member", async () => {
      const first = renderWithAuth(<AcceptInvitation invitationId="inv-1" />, routes());
      await screen.findByRole("heading", { name: "Join Acme" });
      first.unmount();

      renderWithAuth(
        <AcceptInvitation invitationId="inv-1" />,
        routes({
          "/organization/get-invitation": GONE,
          "/organization/list": { body: [ACME] },
        }),
      );
      expect(
        await screen.findByRole("heading", { name: "You are already a member of Acme" }),
      ).toBeInTheDocument();
    });

    it("does not guess: without the sign-up marker or a memory of it, it is no longer valid", async () => {
      visit("/accept-invitation/inv-1");
      renderWithAuth(
        <AcceptInvitation />,
        routes({
          "/get-session": { body: sessionOf(USER, { activeOrganizationId: "org-1" }) },
          "/organization/get-invitation": GONE,
          "/organization/list": { body: [ACME] },
        }),
      );
      expect(
        await screen.findByRole("heading", { name: "This invitation is no longer valid" }),
      ).toBeInTheDocument();
    });

    it("back from signing up but not in the active organization, it is no longer valid", async () => {
      visit("/accept-invitation/inv-1?signedUp=1");
      renderWithAuth(
        <AcceptInvitation />,
        routes({
          "/get-session": { body: sessionOf(USER) },
          "/organization/get-invitation": GONE,
          "/organization/list": { body: [] },
        }),
      );
      expect(
        await screen.findByRole("heading", { name: "This invitation is no longer valid" }),
      ).toBeInTheDocument();
    });

    it("still shows a pending invitation to someone back from signing up", async () => {
      visit("/accept-invitation/inv-1?signedUp=1");
      renderWithAuth(
        <AcceptInvitation />,
        routes({ "/get-session": { body: sessionOf(USER, { activeOrganizationId: "org-1" }) } }),
      );
      expect(await screen.findByRole("heading", { name: "Join Acme" })).toBeInTheDocument();
    });
  });

  it("speaks the page's language", async () => {
    renderWithAuth(<AcceptInvitation invitationId="inv-1" />, routes(), { locale: "es" });
    expect(await screen.findByRole("heading", { name: "Únete a Acme" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Aceptar invitación" })).toBeInTheDocument();
  });
});
