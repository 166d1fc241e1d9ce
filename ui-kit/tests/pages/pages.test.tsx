// @vitest-environment jsdom
/**
 * The served pages' components against a scripted authd: what each page hands the
 * kit's screens from the settings the server wrote.
 */
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import { Page } from "../../pages/pages.js";
import type { Route } from "../../pages/router.js";
import type { PageSettings } from "../../pages/settings.js";
import { type Routes, renderWithAuth, sessionOf } from "../components/harness.js";

const SETTINGS: PageSettings = {
  apiBasePath: "/api/auth",
  pagesPrefix: "",
  teams: false,
  deleteUser: true,
  organization: true,
  passwordMinLength: 12,
  passwordMaxLength: 20,
};

const CREDENTIAL = {
  id: "acc-1",
  providerId: "credential",
  accountId: "user-1",
  userId: "user-1",
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  scopes: [],
};

function visit(path: string) {
  window.history.replaceState(null, "", path);
}

function renderPage(route: Route, routes: Routes = {}, settings: Partial<PageSettings> = {}) {
  const replaced: string[] = [];
  const harness = renderWithAuth(
    <Page
      route={route}
      settings={{ ...SETTINGS, ...settings }}
      replace={(href) => replaced.push(href)}
    />,
    routes,
  );
  return { ...harness, replaced };
}

afterEach(() => visit("/"));

describe("the password bounds", () => {
  it("sign-up hints and checks the configured minimum and maximum", async () => {
    const user = userEvent.setup();
    visit("/sign-up");
    const harness = renderPage({ name: "sign-up" });
    const password = await screen.findByLabelText("Password");
    expect(password).toHaveAccessibleDescription("At least 12 characters.");
    await user.type(screen.getByLabelText("Name"), "Ada");
    await user.type(screen.getByLabelText("Email"), "ada@example.com");
    await user.type(password, "ten chars!");
    await user.click(screen.getByRole("button", { name: "Create account" }));
    expect(password).toHaveAccessibleDescription(
      expect.stringContaining("Use at least 12 characters."),
    );
    await user.clear(password);
    await user.type(password, "twenty-one characters");
    await user.click(screen.getByRole("button", { name: "Create account" }));
    expect(password).toHaveAccessibleDescription(
      expect.stringContaining("Use at most 20 characters."),
    );
    expect(harness.sent("/sign-up/email")).toHaveLength(0);
  });

  it("reset-password hints and checks them", async () => {
    const user = userEvent.setup();
    visit("/reset-password?token=t");
    const harness = renderPage({ name: "reset-password" });
    const password = await screen.findByLabelText("New password");
    expect(password).toHaveAccessibleDescription("At least 12 characters.");
    await user.type(password, "twenty-one characters");
    await user.type(screen.getByLabelText("Repeat new password"), "twenty-one characters");
    await user.click(screen.getByRole("button", { name: "Save password" }));
    expect(password).toHaveAccessibleDescription(
      expect.stringContaining("Use at most 20 characters."),
    );
    await user.clear(password);
    await user.type(password, "short one");
    await user.click(screen.getByRole("button", { name: "Save password" }));
    expect(password).toHaveAccessibleDescription(
      expect.stringContaining("Use at least 12 characters."),
    );
    expect(harness.sent("/reset-password")).toHaveLength(0);
  });

  it("the account page's password change hints and checks them", async () => {
    const user = userEvent.setup();
    visit("/account");
    const harness = renderPage(
      { name: "account" },
      { "/get-session": { body: sessionOf() }, "/list-accounts": { body: [CREDENTIAL] } },
    );
    const section = await screen.findByRole("region", { name: "Password" });
    const next = await within(section).findByLabelText("New password");
    expect(next).toHaveAccessibleDescription("At least 12 characters.");
    await user.type(within(section).getByLabelText("Current password"), "old secret");
    await user.type(next, "eleven char");
    await user.click(within(section).getByRole("button", { name: "Change password" }));
    await waitFor(() =>
      expect(next).toHaveAccessibleDescription(
        expect.stringContaining("Use at least 12 characters."),
      ),
    );
    expect(harness.sent("/change-password")).toHaveLength(0);
  });
});

describe("deleting the account", () => {
  const signedIn: Routes = {
    "/get-session": { body: sessionOf() },
    "/list-accounts": { body: [CREDENTIAL] },
    "/list-sessions": { body: [] },
  };

  async function deleteAccount(user: ReturnType<typeof userEvent.setup>) {
    const section = await screen.findByRole("region", { name: "Delete account" });
    await user.click(within(section).getByRole("button", { name: "Delete account…" }));
    const dialog = screen.getByRole("dialog");
    await user.type(within(dialog).getByLabelText("Password"), "correct horse");
    await user.click(within(dialog).getByRole("button", { name: "Delete my account" }));
  }

  it("at once, ends on sign-in saying the account was deleted", async () => {
    const user = userEvent.setup();
    visit("/account");
    const harness = renderPage(
      { name: "account" },
      { ...signedIn, "/delete-user": { body: { success: true, message: "User deleted" } } },
    );
    await deleteAccount(user);
    await waitFor(() => expect(harness.navigations).toEqual(["/sign-in?deleted=1"]));
  });

  it("by mail, sends a link that comes back to the account page", async () => {
    const user = userEvent.setup();
    visit("/account");
    const harness = renderPage(
      { name: "account" },
      {
        ...signedIn,
        "/delete-user": { body: { success: true, message: "Verification email sent" } },
      },
    );
    await deleteAccount(user);
    await screen.findByText(/Check your inbox/);
    const sent = harness.sent("/delete-user")[0]?.body as { callbackURL: string };
    expect(sent.callbackURL).toBe("http://localhost:3000/account?deleteAccount=1");
  });

  it("the link followed: the visitor is signed out, and sign-in says the account is gone", async () => {
    visit("/account?deleteAccount=1");
    const harness = renderPage({ name: "account" }, { "/get-session": { body: null } });
    await waitFor(() => expect(harness.replaced).toEqual(["/sign-in?deleted=1"]));
  });

  it("a link that failed: the signed-in visitor sees why on the account page", async () => {
    visit("/account?deleteAccount=1&error=INVALID_TOKEN");
    const harness = renderPage({ name: "account" }, signedIn);
    const alert = await screen.findByText(
      "The link to delete your account did not work. This link is not valid. Request a new one.",
    );
    expect(alert).toHaveAttribute("role", "alert");
    await waitFor(() => expect(alert).toHaveFocus());
    expect(window.location.search).toBe("");
    expect(harness.replaced).toEqual([]);
  });

  it("a link that failed, opened signed out: sign-in first, then the reason", async () => {
    visit("/account?deleteAccount=1&error=INVALID_TOKEN");
    const harness = renderPage({ name: "account" }, { "/get-session": { body: null } });
    await waitFor(() =>
      expect(harness.replaced).toEqual([
        `/sign-in?redirectTo=${encodeURIComponent("/account?deleteAccount=1&error=INVALID_TOKEN")}`,
      ]),
    );
  });

  it("sign-in says so for ?deleted=1", async () => {
    visit("/sign-in?deleted=1");
    renderPage({ name: "sign-in" });
    expect(await screen.findByText("Your account has been deleted.")).toHaveAttribute(
      "role",
      "status",
    );
  });
});
