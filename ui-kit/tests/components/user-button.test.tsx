// @vitest-environment jsdom
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { UserButton } from "../../src/index.js";
import { renderWithAuth, sessionOf, USER } from "./harness.js";

const ORGANIZATIONS = [
  {
    id: "org-1",
    name: "Analytical Engines",
    slug: "engines",
    logo: null,
    metadata: null,
    createdAt: "2026-01-01T00:00:00.000Z",
  },
  {
    id: "org-2",
    name: "Difference Ltd",
    slug: "difference",
    logo: null,
    metadata: null,
    createdAt: "2026-01-02T00:00:00.000Z",
  },
];

function signedIn(active: string | null = "org-1") {
  return {
    "/get-session": { body: sessionOf(USER, { activeOrganizationId: active }) },
    "/organization/list": { body: ORGANIZATIONS },
  };
}

async function openMenu(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole("button", { name: "Ada Lovelace" }));
  return screen.getByRole("menu");
}

describe("<UserButton/>", () => {
  it("shows a busy placeholder while the session loads", () => {
    renderWithAuth(<UserButton />, signedIn());
    const placeholder = screen.getByRole("img", { name: "Loading your account" });
    expect(placeholder).toHaveAttribute("aria-busy", "true");
    expect(screen.queryByRole("button")).not.toBeInTheDocument();
  });

  it("renders nothing when signed out, or a sign-in link when asked to", async () => {
    const { container, sent } = renderWithAuth(<UserButton />, {});
    await waitFor(() => expect(sent("/get-session")).toHaveLength(1));
    await waitFor(() => expect(container).toBeEmptyDOMElement());

    renderWithAuth(<UserButton showSignInWhenSignedOut />, {});
    expect(await screen.findByRole("link", { name: "Sign in" })).toHaveAttribute(
      "href",
      "/sign-in",
    );
  });

  it("opens a menu with the user, the account page, the organizations and sign-out", async () => {
    const user = userEvent.setup();
    renderWithAuth(<UserButton />, signedIn());
    const button = await screen.findByRole("button", { name: "Ada Lovelace" });
    expect(button).toHaveAttribute("aria-haspopup", "menu");
    expect(button).toHaveAttribute("aria-expanded", "false");
    const menu = await openMenu(user);
    expect(button).toHaveAttribute("aria-expanded", "true");
    expect(button).toHaveAttribute("aria-controls", menu.id);
    expect(menu).toHaveTextContent("Ada Lovelace");
    expect(menu).toHaveTextContent("ada@example.com");
    expect(within(menu).getByRole("menuitem", { name: "Account" })).toHaveAttribute(
      "href",
      "/account",
    );
    expect(within(menu).getByRole("menuitem", { name: "Create organization" })).toHaveAttribute(
      "href",
      "/organization/new",
    );
    const group = within(menu).getByRole("group", { name: "Organizations" });
    await waitFor(() => expect(within(group).getAllByRole("menuitemradio")).toHaveLength(3));
    expect(
      within(group).getByRole("menuitemradio", { name: "Analytical Engines" }),
    ).toHaveAttribute("aria-checked", "true");
    expect(within(group).getByRole("menuitemradio", { name: "Difference Ltd" })).toHaveAttribute(
      "aria-checked",
      "false",
    );
    expect(within(group).getByRole("menuitemradio", { name: "Personal account" })).toHaveAttribute(
      "aria-checked",
      "false",
    );
    expect(within(menu).getByRole("menuitem", { name: "Sign out" })).toBeInTheDocument();
  });

  it("is used with the keyboard: arrows, Home, End, Escape and Tab", async () => {
    const user = userEvent.setup();
    renderWithAuth(
      <>
        <UserButton showOrganizations={false} />
        <button type="button">After</button>
      </>,
      signedIn(),
    );
    const button = await screen.findByRole("button", { name: "Ada Lovelace" });
    button.focus();
    await user.keyboard("{Enter}");
    const account = await screen.findByRole("menuitem", { name: "Account" });
    await waitFor(() => expect(account).toHaveFocus());
    const signOut = screen.getByRole("menuitem", { name: "Sign out" });
    await user.keyboard("{ArrowDown}");
    expect(signOut).toHaveFocus();
    await user.keyboard("{ArrowDown}");
    expect(account).toHaveFocus();
    await user.keyboard("{ArrowUp}");
    expect(signOut).toHaveFocus();
    await user.keyboard("{Home}");
    expect(account).toHaveFocus();
    await user.keyboard("{End}");
    expect(signOut).toHaveFocus();

    await user.keyboard("{Escape}");
    expect(screen.queryByRole("menu")).not.toBeInTheDocument();
    expect(button).toHaveFocus();
    expect(button).toHaveAttribute("aria-expanded", "false");

    await user.keyboard("{ArrowUp}");
    await waitFor(() => expect(screen.getByRole("menuitem", { name: "Sign out" })).toHaveFocus());
    await user.tab();
    expect(screen.queryByRole("menu")).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "After" })).toHaveFocus();
  });

  it("closes when the user clicks outside", async () => {
    const user = userEvent.setup();
    renderWithAuth(
      <>
        <UserButton />
        <p>Elsewhere</p>
      </>,
      signedIn(),
    );
    await openMenu(user);
    await user.click(screen.getByText("Elsewhere"));
    expect(screen.queryByRole("menu")).not.toBeInTheDocument();
  });

  it("switches the active organization and reads the session again", async () => {
    const user = userEvent.setup();
    let active: string | null = "org-1";
    const harness = renderWithAuth(<UserButton />, {
      "/get-session": () => ({ body: sessionOf(USER, { activeOrganizationId: active }) }),
      "/organization/list": { body: ORGANIZATIONS },
      "/organization/set-active": (request) => {
        active = (request.body as { organizationId: string }).organizationId;
        return { body: ORGANIZATIONS[1] };
      },
    });
    await openMenu(user);
    await user.click(await screen.findByRole("menuitemradio", { name: "Difference Ltd" }));
    await waitFor(() => expect(harness.sent("/organization/set-active")).toHaveLength(1));
    expect(harness.sent("/organization/set-active")[0]?.body).toEqual({ organizationId: "org-2" });
    await waitFor(() => expect(harness.sent("/get-session")).toHaveLength(2));
    expect(harness.sent("/organization/list")).toHaveLength(2);
    await openMenu(user);
    await waitFor(() =>
      expect(screen.getByRole("menuitemradio", { name: "Difference Ltd" })).toHaveAttribute(
        "aria-checked",
        "true",
      ),
    );
  });

  it("signs out and goes to the page after sign-out", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(<UserButton afterSignOutPath="/goodbye" />, {
      ...signedIn(),
      "/sign-out": { body: { success: true } },
    });
    await openMenu(user);
    await user.click(screen.getByRole("menuitem", { name: "Sign out" }));
    await waitFor(() => expect(harness.navigations).toEqual(["/goodbye"]));
    expect(harness.sent("/sign-out")).toHaveLength(1);
  });

  it("does not ask for organizations when they are not shown", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(<UserButton showOrganizations={false} />, signedIn());
    const menu = await openMenu(user);
    expect(within(menu).queryByRole("group")).not.toBeInTheDocument();
    expect(within(menu).queryByRole("menuitem", { name: "Create organization" })).toBeNull();
    expect(harness.sent("/organization/list")).toHaveLength(0);
  });

  it("speaks the provider's language", async () => {
    const user = userEvent.setup();
    renderWithAuth(<UserButton showOrganizations={false} />, signedIn(), { locale: "de" });
    await openMenu(user);
    expect(await screen.findByRole("menuitem", { name: "Abmelden" })).toBeInTheDocument();
    expect(screen.getByRole("menu")).toHaveAccessibleName("Kontomenü von Ada Lovelace");
  });

  it("follows a link item with Enter or Space and closes", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(<UserButton showOrganizations={false} />, signedIn());
    const button = await screen.findByRole("button", { name: "Ada Lovelace" });
    button.focus();
    await user.keyboard("{ArrowDown}");
    await waitFor(() => expect(screen.getByRole("menuitem", { name: "Account" })).toHaveFocus());
    await user.keyboard(" ");
    expect(harness.navigations).toEqual(["/account"]);
    expect(screen.queryByRole("menu")).toBeNull();
  });

  it("announces a failed switch", async () => {
    const user = userEvent.setup();
    renderWithAuth(<UserButton />, {
      ...signedIn(),
      "/organization/set-active": { status: 403, body: { code: "FORBIDDEN", message: "no" } },
    });
    await openMenu(user);
    await user.click(await screen.findByRole("menuitemradio", { name: "Difference Ltd" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(/./);
  });
});
