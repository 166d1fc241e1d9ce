// @vitest-environment jsdom
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import { messages as english } from "../../src/i18n/locales/en/index.js";
import {
  AccountSettings,
  DeleteAccountSection,
  EmailSection,
  LinkedAccountsSection,
  lastActiveText,
  PasswordSection,
  ProfileSection,
  parseUserAgent,
  SessionsSection,
} from "../../src/index.js";
import { errorBody, renderWithAuth, sessionOf, USER } from "./harness.js";

const CREDENTIAL = {
  id: "acc-1",
  provider: "credential",
  providerId: "credential",
  accountId: "user-1",
  userId: "user-1",
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  scopes: [],
};
const GITHUB = {
  ...CREDENTIAL,
  id: "acc-2",
  provider: "github",
  providerId: "github",
  accountId: "gh-42",
  createdAt: "2026-02-03T00:00:00.000Z",
};

const base = {
  "/get-session": { body: sessionOf() },
  "/list-accounts": { body: [CREDENTIAL, GITHUB] },
};

function ago(ms: number): string {
  return new Date(Date.now() - ms).toISOString();
}

function sessionRow(id: string, userAgent: string | null, updatedAt: string, ip = "198.51.100.1") {
  return { ...sessionOf().session, id, token: id, userAgent, updatedAt, ipAddress: ip };
}

describe("parseUserAgent", () => {
  it.each([
    ["Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0", "Firefox", "Linux"],
    [
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36",
      "Chrome",
      "Windows",
    ],
    [
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36 Edg/138.0.0.0",
      "Edge",
      "Windows",
    ],
    [
      "Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1",
      "Safari",
      "iOS",
    ],
    [
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Safari/605.1.15",
      "Safari",
      "macOS",
    ],
    [
      "Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Mobile Safari/537.36",
      "Chrome",
      "Android",
    ],
    ["curl/8.5.0", "curl", null],
  ])("reads %s", (userAgent, browser, os) => {
    expect(parseUserAgent(userAgent)).toEqual({ browser, os });
  });

  it("knows nothing of a missing or strange header", () => {
    expect(parseUserAgent(null)).toEqual({ browser: null, os: null });
    expect(parseUserAgent("something/1.0")).toEqual({ browser: null, os: null });
  });
});

describe("lastActiveText", () => {
  const now = Date.parse("2026-06-15T12:00:00.000Z");
  it("says how long ago, in the language, and a date after a week", () => {
    expect(lastActiveText("2026-06-15T11:59:40.000Z", "en", english, now)).toBe(
      "Last active just now",
    );
    expect(lastActiveText("2026-06-15T11:55:00.000Z", "en", english, now)).toBe(
      "Last active 5 minutes ago",
    );
    expect(lastActiveText("2026-06-14T12:00:00.000Z", "en", english, now)).toBe(
      "Last active yesterday",
    );
    expect(lastActiveText("2026-05-01T12:00:00.000Z", "en", english, now)).toBe(
      "Last active May 1, 2026",
    );
  });
});

describe("<ProfileSection/>", () => {
  it("shows the name, previews the picture and saves both", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(<ProfileSection />, {
      ...base,
      "/update-user": { body: { status: true } },
    });
    const name = await screen.findByDisplayValue("Ada Lovelace");
    await user.clear(name);
    await user.type(name, "Ada King");
    await user.type(screen.getByLabelText("Profile picture URL"), "https://example.com/ada.png");
    const section = screen.getByRole("region", { name: "Profile" });
    expect(section.querySelector("img")).toHaveAttribute("src", "https://example.com/ada.png");
    const sessionsBefore = harness.sent("/get-session").length;
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Your profile is saved.")).toHaveAttribute("role", "status");
    expect(harness.sent("/update-user")[0]?.body).toEqual({
      name: "Ada King",
      image: "https://example.com/ada.png",
    });
    expect(harness.sent("/get-session").length).toBeGreaterThan(sessionsBefore);
  });

  it("checks the fields first", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(<ProfileSection />, base);
    const name = await screen.findByDisplayValue("Ada Lovelace");
    await user.clear(name);
    await user.type(screen.getByLabelText("Profile picture URL"), "not a link");
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(name).toHaveAccessibleDescription("This field is required.");
    expect(screen.getByLabelText("Profile picture URL")).toHaveAccessibleDescription(
      expect.stringContaining("Enter a link that starts with https://."),
    );
    await waitFor(() => expect(name).toHaveFocus());
    expect(harness.sent("/update-user")).toHaveLength(0);
  });

  it("announces what the server refused", async () => {
    const user = userEvent.setup();
    renderWithAuth(<ProfileSection />, {
      ...base,
      "/update-user": { status: 401, body: errorBody("UNAUTHORIZED") },
    });
    await screen.findByDisplayValue("Ada Lovelace");
    await user.click(screen.getByRole("button", { name: "Save" }));
    const alert = await screen.findByRole("alert");
    await waitFor(() => expect(alert).not.toBeEmptyDOMElement());
    expect(screen.queryByText("Your profile is saved.")).toBeNull();
  });
});

describe("<EmailSection/>", () => {
  it("shows the address with its state and asks for a change confirmed from the inbox", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(<EmailSection />, {
      ...base,
      "/change-email": { body: { status: true } },
    });
    const section = await screen.findByRole("region", { name: "Email address" });
    await waitFor(() => expect(section).toHaveTextContent("ada@example.com"));
    expect(within(section).getByText("Verified")).toBeInTheDocument();
    await user.type(screen.getByLabelText("New email address"), "ada@lovelace.org");
    await user.click(screen.getByRole("button", { name: "Change email" }));
    expect(await screen.findByRole("status")).toHaveTextContent(
      "Check your inbox: we sent a link to ada@example.com to confirm the change.",
    );
    expect(harness.sent("/change-email")[0]?.body).toEqual({
      newEmail: "ada@lovelace.org",
      callbackURL: "http://localhost:3000/?changeEmail=1",
    });
  });

  it("sends an unverified user's link to the new address", async () => {
    const user = userEvent.setup();
    renderWithAuth(<EmailSection />, {
      "/get-session": { body: sessionOf({ ...USER, emailVerified: false }) },
      "/change-email": { body: { status: true } },
    });
    expect(await screen.findByText("Not verified")).toBeInTheDocument();
    await user.type(screen.getByLabelText("New email address"), "ada@lovelace.org");
    await user.click(screen.getByRole("button", { name: "Change email" }));
    expect(await screen.findByRole("status")).toHaveTextContent(
      "we sent a link to ada@lovelace.org to confirm the new address",
    );
  });

  it.each([
    ["EMAIL_IS_THE_SAME", "This is already your email address."],
    ["USER_ALREADY_EXISTS", "An account with this email already exists."],
    ["COULD_NOT_UPDATE_EMAIL", "Your email address could not be changed."],
  ])("ties %s to the new address", async (code, text) => {
    const user = userEvent.setup();
    renderWithAuth(<EmailSection />, {
      ...base,
      "/change-email": { status: 400, body: errorBody(code) },
    });
    const input = await screen.findByLabelText("New email address");
    await user.type(input, "ada@example.com");
    await user.click(screen.getByRole("button", { name: "Change email" }));
    await waitFor(() => expect(input).toHaveAccessibleDescription(text));
    expect(input).toHaveAttribute("aria-invalid", "true");
    await waitFor(() => expect(input).toHaveFocus());
  });

  it("says when changing the address is turned off", async () => {
    const user = userEvent.setup();
    renderWithAuth(<EmailSection />, {
      ...base,
      "/change-email": { status: 400, body: errorBody("CHANGE_EMAIL_DISABLED") },
    });
    await user.type(await screen.findByLabelText("New email address"), "ada@lovelace.org");
    await user.click(screen.getByRole("button", { name: "Change email" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Changing the email address is turned off.",
    );
  });

  it("checks the address before asking", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(<EmailSection />, base);
    const input = await screen.findByLabelText("New email address");
    await user.type(input, "nope");
    await user.click(screen.getByRole("button", { name: "Change email" }));
    expect(input).toHaveAccessibleDescription("Enter a valid email address.");
    expect(harness.sent("/change-email")).toHaveLength(0);
  });
});

describe("<PasswordSection/>", () => {
  it("waits for the sign-in methods", () => {
    renderWithAuth(<PasswordSection />, base);
    expect(screen.getByRole("status")).toHaveTextContent("Loading…");
  });

  it("changes the password and can sign out the other devices", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(<PasswordSection />, {
      ...base,
      "/change-password": { body: { token: "new", user: USER } },
    });
    await user.type(await screen.findByLabelText("Current password"), "old secret");
    await user.type(screen.getByLabelText("New password"), "new secret phrase");
    await user.click(screen.getByLabelText("Sign out of all other devices"));
    await user.click(screen.getByRole("button", { name: "Change password" }));
    expect(await screen.findByText("Your password has been changed.")).toBeInTheDocument();
    expect(harness.sent("/change-password")[0]?.body).toEqual({
      currentPassword: "old secret",
      newPassword: "new secret phrase",
      revokeOtherSessions: true,
    });
    expect(screen.getByLabelText("Current password")).toHaveValue("");
    // This device got a new session: it is read again.
    await waitFor(() => expect(harness.sent("/get-session")).toHaveLength(2));
  });

  it("ties a wrong current password to its field", async () => {
    const user = userEvent.setup();
    renderWithAuth(<PasswordSection />, {
      ...base,
      "/change-password": { status: 400, body: errorBody("INVALID_PASSWORD") },
    });
    const current = await screen.findByLabelText("Current password");
    await user.type(current, "wrong");
    await user.type(screen.getByLabelText("New password"), "new secret phrase");
    await user.click(screen.getByRole("button", { name: "Change password" }));
    await waitFor(() =>
      expect(current).toHaveAccessibleDescription("The password is not correct."),
    );
    await waitFor(() => expect(current).toHaveFocus());
  });

  it("says how long a new password must be", async () => {
    const user = userEvent.setup();
    renderWithAuth(<PasswordSection />, {
      ...base,
      "/change-password": {
        status: 400,
        body: errorBody("PASSWORD_TOO_SHORT", "short", { minPasswordLength: 12 }),
      },
    });
    await user.type(await screen.findByLabelText("Current password"), "old secret");
    const next = screen.getByLabelText("New password");
    await user.type(next, "ten chars!");
    await user.click(screen.getByRole("button", { name: "Change password" }));
    await waitFor(() =>
      expect(next).toHaveAccessibleDescription(
        expect.stringMatching(/^Use at least 12 characters\./),
      ),
    );
  });

  it("hints at the new password's bounds it is given and holds to them before asking", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(
      <PasswordSection minPasswordLength={12} maxPasswordLength={20} />,
      {
        ...base,
        "/change-password": {
          status: 400,
          body: errorBody("PASSWORD_TOO_LONG", "long", { maxPasswordLength: 16 }),
        },
      },
    );
    await user.type(await screen.findByLabelText("Current password"), "old secret");
    const next = screen.getByLabelText("New password");
    expect(next).toHaveAccessibleDescription("At least 12 characters.");
    await user.type(next, "eleven char");
    await user.click(screen.getByRole("button", { name: "Change password" }));
    expect(next).toHaveAccessibleDescription(
      expect.stringContaining("Use at least 12 characters."),
    );
    await user.clear(next);
    await user.type(next, "twenty-one characters");
    await user.click(screen.getByRole("button", { name: "Change password" }));
    expect(next).toHaveAccessibleDescription(expect.stringContaining("Use at most 20 characters."));
    expect(harness.sent("/change-password")).toHaveLength(0);
    // Within the bounds it was given, the server's own bound decides.
    await user.clear(next);
    await user.type(next, "seventeen letters");
    await user.click(screen.getByRole("button", { name: "Change password" }));
    await waitFor(() =>
      expect(next).toHaveAccessibleDescription(
        expect.stringContaining("Use at most 16 characters."),
      ),
    );
  });

  it("passes the bounds from <AccountSettings/> to the password section", async () => {
    renderWithAuth(<AccountSettings minPasswordLength={14} sections={["password"]} />, base);
    expect(await screen.findByLabelText("New password")).toHaveAccessibleDescription(
      "At least 14 characters.",
    );
  });

  it("offers a user without a password a mailed link to set one", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(<PasswordSection />, {
      ...base,
      "/list-accounts": { body: [GITHUB] },
      "/request-password-reset": { body: { status: true, message: "sent" } },
    });
    expect(
      await screen.findByText(/You sign in with a linked account and have no password yet/),
    ).toBeInTheDocument();
    expect(screen.queryByLabelText("Current password")).toBeNull();
    await user.click(screen.getByRole("button", { name: "Email me a link to set a password" }));
    expect(await screen.findByRole("status")).toHaveTextContent(
      "we sent a link to ada@example.com to set your password",
    );
    expect(harness.sent("/request-password-reset")[0]?.body).toEqual({
      email: "ada@example.com",
      redirectTo: "http://localhost:3000/reset-password",
    });
  });
});

describe("<LinkedAccountsSection/>", () => {
  const routes = {
    ...base,
    "/social-providers": {
      body: [
        { id: "github", name: "GitHub" },
        { id: "google", name: "Google" },
      ],
    },
  };

  it("lists the sign-in methods and links a provider not linked yet", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(<LinkedAccountsSection />, {
      ...routes,
      "/link-social": { body: { url: "https://accounts.google.com/o/oauth2?x=1", redirect: true } },
    });
    const list = await screen.findByRole("list");
    expect(within(list).getByText("Email and password")).toBeInTheDocument();
    expect(within(list).getByText("GitHub")).toBeInTheDocument();
    expect(within(list).getByText("Linked on Feb 3, 2026")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Link GitHub" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Unlink Email and password" })).toBeNull();
    await user.click(await screen.findByRole("button", { name: "Link Google" }));
    await waitFor(() =>
      expect(harness.navigations).toEqual(["https://accounts.google.com/o/oauth2?x=1"]),
    );
    expect(harness.sent("/link-social")[0]?.body).toEqual({
      provider: "google",
      callbackURL: "http://localhost:3000/",
    });
  });

  it("unlinks after confirming, and refreshes the list", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(<LinkedAccountsSection />, {
      ...routes,
      "/unlink-account": { body: { status: true } },
    });
    await user.click(await screen.findByRole("button", { name: "Unlink GitHub" }));
    const dialog = screen.getByRole("dialog", { name: "Unlink GitHub?" });
    expect(harness.sent("/unlink-account")).toHaveLength(0);
    harness.answer("/list-accounts", { body: [CREDENTIAL] });
    await user.click(within(dialog).getByRole("button", { name: "Unlink" }));
    expect(await screen.findByRole("status")).toHaveTextContent("GitHub is no longer linked.");
    expect(harness.sent("/unlink-account")[0]?.body).toEqual({
      providerId: "github",
      accountId: "gh-42",
    });
    await waitFor(() => expect(screen.queryByText("GitHub")).toBeNull());
    expect(screen.getByRole("button", { name: "Link GitHub" })).toBeInTheDocument();
  });

  it("cancels without asking the server and gives focus back", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(<LinkedAccountsSection />, routes);
    const unlink = await screen.findByRole("button", { name: "Unlink GitHub" });
    await user.click(unlink);
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(unlink).toHaveFocus();
    expect(harness.sent("/unlink-account")).toHaveLength(0);
  });

  it("says the last way to sign in cannot be unlinked", async () => {
    const user = userEvent.setup();
    renderWithAuth(<LinkedAccountsSection />, {
      ...routes,
      "/list-accounts": { body: [GITHUB] },
      "/unlink-account": { status: 400, body: errorBody("FAILED_TO_UNLINK_LAST_ACCOUNT") },
    });
    await user.click(await screen.findByRole("button", { name: "Unlink GitHub" }));
    await user.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Unlink" }));
    const alert = await screen.findByRole("alert");
    await waitFor(() =>
      expect(alert).toHaveTextContent("You cannot unlink your last way to sign in."),
    );
  });

  it("asks for the password when the session is not fresh, then unlinks", async () => {
    const user = userEvent.setup();
    let fresh = false;
    const harness = renderWithAuth(<LinkedAccountsSection />, {
      ...routes,
      "/unlink-account": () =>
        fresh ? { body: { status: true } } : { status: 403, body: errorBody("SESSION_NOT_FRESH") },
      "/sign-in/email": () => {
        fresh = true;
        return { body: { redirect: false, token: "t", user: USER } };
      },
    });
    await user.click(await screen.findByRole("button", { name: "Unlink GitHub" }));
    await user.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Unlink" }));
    const stepUp = await screen.findByRole("dialog", { name: "Confirm it is you" });
    expect(harness.sent("/unlink-account")).toHaveLength(1);
    await user.type(within(stepUp).getByLabelText("Password"), "correct horse");
    await user.click(within(stepUp).getByRole("button", { name: "Confirm" }));
    expect(await screen.findByRole("status")).toHaveTextContent("GitHub is no longer linked.");
    expect(harness.sent("/sign-in/email")[0]?.body).toMatchObject({
      email: "ada@example.com",
      password: "correct horse",
    });
    expect(harness.sent("/unlink-account")).toHaveLength(2);
    expect(screen.queryByRole("dialog")).toBeNull();
  });
});

describe("<SessionsSection/>", () => {
  const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0";
  const CHROME =
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36";

  function sessions() {
    return [
      sessionRow("session-2", CHROME, ago(3 * 60 * 60 * 1000), "198.51.100.2"),
      sessionRow("session-1", FIREFOX, ago(10 * 1000), "203.0.113.7"),
    ];
  }

  it("shows each device, this one first and marked", async () => {
    renderWithAuth(<SessionsSection />, { ...base, "/list-sessions": { body: sessions() } });
    const items = await screen.findAllByRole("listitem");
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent("Firefox on Linux");
    expect(items[0]).toHaveTextContent("This device");
    expect(items[0]).toHaveTextContent("IP address 203.0.113.7 · Last active just now");
    expect(within(items[0] as HTMLElement).queryByRole("button")).toBeNull();
    expect(items[1]).toHaveTextContent("Chrome on Windows");
    expect(items[1]).toHaveTextContent("Last active 3 hours ago");
    expect(items[1]).not.toHaveTextContent("This device");
  });

  it("signs out one other device", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(<SessionsSection />, {
      ...base,
      "/list-sessions": { body: sessions() },
      "/revoke-session": { body: { status: true } },
    });
    await user.click(await screen.findByRole("button", { name: "Sign out Chrome on Windows" }));
    expect(await screen.findByRole("status")).toHaveTextContent("The device is signed out.");
    expect(harness.sent("/revoke-session")[0]?.body).toEqual({ token: "session-2" });
    expect(harness.sent("/list-sessions")).toHaveLength(2);
  });

  it("signs out every other device after confirming", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(<SessionsSection />, {
      ...base,
      "/list-sessions": { body: sessions() },
      "/revoke-other-sessions": { body: { status: true } },
    });
    await user.click(await screen.findByRole("button", { name: "Sign out of all other devices" }));
    const dialog = screen.getByRole("dialog", { name: "Sign out of all other devices?" });
    harness.answer("/list-sessions", { body: [sessions()[1]] });
    await user.click(within(dialog).getByRole("button", { name: "Sign out of all other devices" }));
    expect(await screen.findByRole("status")).toHaveTextContent(
      "You are signed out of all other devices.",
    );
    expect(harness.sent("/revoke-other-sessions")).toHaveLength(1);
    expect(await screen.findByText("No other devices are signed in.")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Sign out of all other devices" })).toBeNull();
  });

  it("announces a failed sign-out", async () => {
    const user = userEvent.setup();
    renderWithAuth(<SessionsSection />, {
      ...base,
      "/list-sessions": { body: sessions() },
      "/revoke-session": { status: 401, body: errorBody("UNAUTHORIZED") },
    });
    await user.click(await screen.findByRole("button", { name: "Sign out Chrome on Windows" }));
    const alert = await screen.findByRole("alert");
    await waitFor(() => expect(alert).not.toBeEmptyDOMElement());
  });

  it("formats in the provider's language", async () => {
    renderWithAuth(
      <SessionsSection />,
      { ...base, "/list-sessions": { body: sessions() } },
      { locale: "de" },
    );
    expect(await screen.findByText("Chrome unter Windows")).toBeInTheDocument();
    expect(screen.getAllByRole("listitem")[1]).toHaveTextContent("Zuletzt aktiv: vor 3 Stunden");
  });
});

describe("<DeleteAccountSection/>", () => {
  it("asks for the password and shows that a confirmation link was mailed", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(<DeleteAccountSection />, {
      ...base,
      "/delete-user": { status: 400, body: errorBody("INVALID_PASSWORD") },
    });
    await user.click(await screen.findByRole("button", { name: "Delete account…" }));
    const dialog = screen.getByRole("dialog", { name: "Delete your account?" });
    const password = await within(dialog).findByLabelText("Password");
    await user.click(within(dialog).getByRole("button", { name: "Delete my account" }));
    expect(password).toHaveAccessibleDescription(
      expect.stringContaining("This field is required."),
    );
    expect(harness.sent("/delete-user")).toHaveLength(0);

    await user.type(password, "wrong");
    await user.click(within(dialog).getByRole("button", { name: "Delete my account" }));
    await waitFor(() =>
      expect(password).toHaveAccessibleDescription(
        expect.stringContaining("The password is not correct."),
      ),
    );

    harness.answer("/delete-user", {
      body: { success: true, message: "Verification email sent" },
    });
    await user.clear(password);
    await user.type(password, "correct horse");
    await user.click(within(dialog).getByRole("button", { name: "Delete my account" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(screen.getByRole("status")).toHaveTextContent(
      "Check your inbox: we sent you a link. Your account will be deleted once you follow it.",
    );
    expect(harness.sent("/delete-user")[1]?.body).toEqual({
      password: "correct horse",
      callbackURL: "http://localhost:3000/sign-in",
    });
    expect(harness.navigations).toEqual([]);
  });

  it("goes to the page after sign-out when the account is deleted at once", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(<DeleteAccountSection />, {
      ...base,
      "/list-accounts": { body: [GITHUB] },
      "/delete-user": { body: { success: true, message: "User deleted" } },
    });
    await user.click(await screen.findByRole("button", { name: "Delete account…" }));
    const dialog = screen.getByRole("dialog");
    await waitFor(() =>
      expect(within(dialog).getByRole("button", { name: "Delete my account" })).toBeEnabled(),
    );
    expect(within(dialog).queryByLabelText("Password")).toBeNull();
    await user.click(within(dialog).getByRole("button", { name: "Delete my account" }));
    await waitFor(() => expect(harness.navigations).toEqual(["/sign-in"]));
    expect(harness.sent("/delete-user")[0]?.body).toEqual({
      callbackURL: "http://localhost:3000/sign-in",
    });
  });

  it("asks a user without a password to sign in again, not for a password, when not fresh", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(<DeleteAccountSection />, {
      ...base,
      "/list-accounts": { body: [GITHUB] },
      "/delete-user": { status: 400, body: errorBody("SESSION_EXPIRED") },
    });
    await user.click(await screen.findByRole("button", { name: "Delete account…" }));
    const confirm = screen.getByRole("button", { name: "Delete my account" });
    await waitFor(() => expect(confirm).toBeEnabled());
    await user.click(confirm);
    const stepUp = await screen.findByRole("dialog", { name: "Confirm it is you" });
    expect(stepUp).toHaveAccessibleDescription("For your security, sign in again to continue.");
    expect(within(stepUp).queryByLabelText("Password")).toBeNull();
    await user.click(within(stepUp).getByRole("link", { name: "Continue" }));
    expect(harness.navigations).toEqual(["/sign-in"]);
    expect(harness.sent("/sign-in/email")).toHaveLength(0);
  });

  it("ties USER_ALREADY_HAS_PASSWORD to the password field", async () => {
    const user = userEvent.setup();
    renderWithAuth(<DeleteAccountSection />, {
      ...base,
      "/delete-user": { status: 400, body: errorBody("USER_ALREADY_HAS_PASSWORD") },
    });
    await user.click(await screen.findByRole("button", { name: "Delete account…" }));
    const password = await screen.findByLabelText("Password");
    await user.type(password, "x");
    await user.click(screen.getByRole("button", { name: "Delete my account" }));
    await waitFor(() =>
      expect(password).toHaveAccessibleDescription(
        expect.stringContaining("You have a password: enter it to delete the account."),
      ),
    );
  });
});

describe("<AccountSettings/>", () => {
  it("shows the chosen sections in the chosen order", async () => {
    renderWithAuth(<AccountSettings sections={["sessions", "profile"]} />, {
      ...base,
      "/list-sessions": { body: [] },
    });
    const headings = await screen.findAllByRole("heading", { level: 3 });
    expect(headings.map((heading) => heading.textContent)).toEqual(["Devices", "Profile"]);
    expect(screen.getByRole("heading", { level: 2, name: "Account" })).toBeInTheDocument();
  });

  it("shows every section by default", async () => {
    renderWithAuth(<AccountSettings />, { ...base, "/list-sessions": { body: [] } });
    const headings = await screen.findAllByRole("heading", { level: 3 });
    expect(headings.map((heading) => heading.textContent)).toEqual([
      "Profile",
      "Email address",
      "Password",
      "Sign-in methods",
      "Devices",
      "Delete account",
    ]);
  });

  it("links to sign-in when signed out", async () => {
    renderWithAuth(<AccountSettings />, {});
    expect(await screen.findByRole("link", { name: "Sign in" })).toHaveAttribute(
      "href",
      "/sign-in",
    );
    expect(screen.queryByRole("heading", { level: 3 })).toBeNull();
  });

  it("passes the host's classes to every section's parts", async () => {
    renderWithAuth(<AccountSettings sections={["profile"]} classNames={{ button: "btn" }} />, base);
    expect(await screen.findByRole("button", { name: "Save" })).toHaveClass("btn");
  });
});

describe("<AccountSettings/> after a mailed link came back", () => {
  afterEach(() => window.history.replaceState(null, "", "/"));

  it("says why an email-change link failed, then takes the error out of the address", async () => {
    window.history.replaceState(null, "", "/account?tab=x&changeEmail=1&error=INVALID_TOKEN#top");
    renderWithAuth(<AccountSettings sections={["email"]} />, base);
    const alert = await screen.findByText(
      "The link to change your email address did not work. This link is not valid. Request a new one.",
    );
    expect(alert).toHaveAttribute("role", "alert");
    await waitFor(() => expect(alert).toHaveFocus());
    expect(`${window.location.pathname}${window.location.search}${window.location.hash}`).toBe(
      "/account?tab=x#top",
    );
  });

  it("says it in the page's language", async () => {
    window.history.replaceState(null, "", "/account?changeEmail=1&error=token_expired");
    renderWithAuth(<AccountSettings sections={["email"]} />, base, { locale: "de" });
    expect(
      await screen.findByText(
        "Der Link zum Ändern deiner E-Mail-Adresse hat nicht funktioniert. Dieser Link ist abgelaufen. Fordere einen neuen an.",
      ),
    ).toHaveAttribute("role", "alert");
  });

  it("says the address changed, and that the new one gets a verification link", async () => {
    window.history.replaceState(null, "", "/account?changeEmail=1");
    renderWithAuth(<AccountSettings sections={["email"]} />, {
      ...base,
      "/get-session": {
        body: sessionOf({ ...USER, email: "ada@new.example", emailVerified: false }),
      },
    });
    expect(
      await screen.findByText(
        "Your email address is now ada@new.example. We sent a link to it: open it to verify the address.",
      ),
    ).toHaveAttribute("role", "status");
    expect(window.location.search).toBe("");
  });

  it("says the address changed when the new one is verified already", async () => {
    window.history.replaceState(null, "", "/account?changeEmail=1");
    renderWithAuth(<AccountSettings sections={["email"]} />, base);
    expect(
      await screen.findByText("Your email address is now ada@example.com."),
    ).toBeInTheDocument();
  });

  it("says why an account-deletion link failed", async () => {
    window.history.replaceState(null, "", "/account?deleteAccount=1&error=INVALID_TOKEN");
    renderWithAuth(
      <AccountSettings />,
      { ...base, "/list-sessions": { body: [] } },
      {
        locale: "fr",
      },
    );
    expect(
      await screen.findByText(
        "Le lien pour supprimer votre compte n'a pas fonctionné. Ce lien n'est pas valide. Demandez-en un nouveau.",
      ),
    ).toHaveAttribute("role", "alert");
    expect(window.location.search).toBe("");
  });

  it("sends the deletion link where deleteCallbackURL says", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(
      <AccountSettings sections={["deleteAccount"]} deleteCallbackURL="/account?deleteAccount=1" />,
      {
        ...base,
        "/delete-user": { body: { success: true, message: "Verification email sent" } },
      },
    );
    await user.click(await screen.findByRole("button", { name: "Delete account…" }));
    const dialog = screen.getByRole("dialog");
    await user.type(within(dialog).getByLabelText("Password"), "correct horse");
    await user.click(within(dialog).getByRole("button", { name: "Delete my account" }));
    await screen.findByText(/Check your inbox/);
    expect(harness.sent("/delete-user")[0]?.body).toEqual({
      password: "correct horse",
      callbackURL: "http://localhost:3000/account?deleteAccount=1",
    });
  });

  it("shows an error of another origin as it is", async () => {
    window.history.replaceState(null, "", "/account?error=INVALID_TOKEN");
    renderWithAuth(<AccountSettings sections={["email"]} />, base);
    expect(await screen.findByText("This link is not valid. Request a new one.")).toHaveAttribute(
      "role",
      "alert",
    );
    expect(window.location.search).toBe("");
  });

  it("shows nothing without a link's parameters", async () => {
    window.history.replaceState(null, "", "/account?tab=x");
    renderWithAuth(<AccountSettings sections={["email"]} />, base);
    await screen.findByRole("region", { name: "Email address" });
    expect(screen.getByRole("status")).toHaveTextContent("");
    expect(window.location.search).toBe("?tab=x");
  });
});

describe("loading and failing lists", () => {
  it("shows a placeholder while the devices load", async () => {
    renderWithAuth(<SessionsSection />, { ...base, "/list-sessions": { body: [] } });
    expect(await screen.findByRole("status")).toHaveTextContent("Loading…");
    expect(await screen.findByText("No other devices are signed in.")).toBeInTheDocument();
  });

  it("announces sign-in methods that cannot be read", async () => {
    renderWithAuth(<LinkedAccountsSection />, {
      ...base,
      "/list-accounts": { status: 401, body: errorBody("UNAUTHORIZED") },
    });
    await waitFor(() => expect(screen.getAllByRole("alert")[0]).not.toBeEmptyDOMElement());
    expect(screen.queryByRole("list")).toBeNull();
  });
});
