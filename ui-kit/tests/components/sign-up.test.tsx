// @vitest-environment jsdom
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { SignUp } from "../../src/index.js";
import { errorBody, renderWithAuth, USER } from "./harness.js";

const NEW_USER = { ...USER, emailVerified: false };

async function fillIn(
  user: ReturnType<typeof userEvent.setup>,
  { name = "Ada Lovelace", email = "ada@example.com", password = "correct horse" } = {},
) {
  if (name) await user.type(screen.getByLabelText("Name"), name);
  if (email) await user.type(screen.getByLabelText("Email"), email);
  if (password) await user.type(screen.getByLabelText("Password"), password);
  await user.click(screen.getByRole("button", { name: "Create account" }));
}

describe("<SignUp/>", () => {
  it("signs up and goes on when the server issued a session", async () => {
    const user = userEvent.setup();
    const onSuccess = vi.fn();
    const harness = renderWithAuth(<SignUp onSuccess={onSuccess} redirectTo="/welcome" />, {
      "/sign-up/email": { body: { token: "t", user: NEW_USER } },
    });
    await fillIn(user, { email: "  ada@example.com " });
    await waitFor(() => expect(harness.navigations).toEqual(["/welcome"]));
    const body = harness.sent("/sign-up/email")[0]?.body as Record<string, unknown>;
    expect(body).toEqual({
      name: "Ada Lovelace",
      email: "ada@example.com",
      password: "correct horse",
      callbackURL: "http://localhost:3000/verify-email?verified=1&redirectTo=%2Fwelcome",
    });
    expect(onSuccess).toHaveBeenCalledWith({ token: "t", user: NEW_USER });
  });

  it("sends the mailed link to the verify-email page, which goes on to redirectTo", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(
      <SignUp redirectTo="/accept-invitation/inv-1" invitationId="inv-1" />,
      { "/sign-up/email": { body: { token: null, user: NEW_USER } } },
      { paths: { verifyEmail: "/auth/verify" } },
    );
    await fillIn(user);
    await screen.findByRole("heading", { name: "Check your inbox" });
    const sent = harness.sent("/sign-up/email")[0]?.body as { callbackURL: string };
    const callbackURL = new URL(sent.callbackURL);
    // Success comes back with verified=1; a bad or expired link with authd's `error` added.
    expect(callbackURL.origin + callbackURL.pathname).toBe("http://localhost:3000/auth/verify");
    expect(Object.fromEntries(callbackURL.searchParams)).toEqual({
      verified: "1",
      redirectTo: "/accept-invitation/inv-1",
    });
    expect(harness.sent("/sign-up/email")[0]?.body).toMatchObject({ invitationId: "inv-1" });
  });

  it("asks to check the inbox, naming the address, when the server wants it verified", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(<SignUp />, {
      "/sign-up/email": { body: { token: null, user: NEW_USER } },
    });
    await fillIn(user);
    const heading = await screen.findByRole("heading", { name: "Check your inbox" });
    expect(harness.container.querySelector('[data-authd-component="sign-up"]')).toHaveAttribute(
      "data-state",
      "verify-email",
    );
    expect(screen.getByText(/We sent a link to ada@example\.com\./)).toBeInTheDocument();
    await waitFor(() => expect(heading).toHaveFocus());
    expect(harness.navigations).toEqual([]);
    expect(screen.queryByLabelText("Password")).not.toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Use another email" }));
    expect(screen.getByLabelText("Email")).toHaveValue("ada@example.com");
    await waitFor(() =>
      expect(screen.getByRole("heading", { name: "Create your account" })).toHaveFocus(),
    );
  });

  it("checks every field before asking the server and focuses the first invalid one", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(<SignUp />, {});
    await fillIn(user, { name: "", email: "not-an-email", password: "short" });
    const name = screen.getByLabelText("Name");
    expect(name).toHaveAccessibleDescription("This field is required.");
    expect(screen.getByLabelText("Email")).toHaveAccessibleDescription(
      "Enter a valid email address.",
    );
    const password = screen.getByLabelText("Password");
    expect(password).toHaveAttribute("aria-invalid", "true");
    expect(password).toHaveAccessibleDescription(
      "Use at least 8 characters. At least 8 characters.",
    );
    await waitFor(() => expect(name).toHaveFocus());
    expect(harness.sent("/sign-up/email")).toHaveLength(0);
  });

  it("hints at the minimum password length it is given and holds to it", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(<SignUp minPasswordLength={12} />, {});
    const password = screen.getByLabelText("Password");
    expect(password).toHaveAccessibleDescription("At least 12 characters.");
    await fillIn(user, { password: "eleven chars" });
    expect(harness.sent("/sign-up/email")).toHaveLength(1);
    await user.clear(password);
    await user.type(password, "ten chars!");
    await user.click(screen.getByRole("button", { name: "Create account" }));
    expect(password).toHaveAccessibleDescription(/Use at least 12 characters\./);
    expect(harness.sent("/sign-up/email")).toHaveLength(1);
  });

  it("holds to the maximum password length it is given, and names the server's", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(<SignUp maxPasswordLength={20} />, {
      "/sign-up/email": {
        status: 400,
        body: errorBody("PASSWORD_TOO_LONG", "Password too long", { maxPasswordLength: 16 }),
      },
    });
    await fillIn(user, { password: "twenty-one characters" });
    const password = screen.getByLabelText("Password");
    expect(password).toHaveAccessibleDescription(/Use at most 20 characters\./);
    expect(harness.sent("/sign-up/email")).toHaveLength(0);
    await user.clear(password);
    await user.type(password, "seventeen letters");
    await user.click(screen.getByRole("button", { name: "Create account" }));
    await waitFor(() =>
      expect(password).toHaveAccessibleDescription(/Use at most 16 characters\./),
    );
  });

  it("shows and hides the password", async () => {
    const user = userEvent.setup();
    renderWithAuth(<SignUp />, {});
    const password = screen.getByLabelText("Password");
    expect(password).toHaveAttribute("type", "password");
    await user.click(screen.getByRole("button", { name: "Show password" }));
    expect(password).toHaveAttribute("type", "text");
    await user.click(screen.getByRole("button", { name: "Hide password" }));
    expect(password).toHaveAttribute("type", "password");
  });

  it.each([
    ["USER_ALREADY_EXISTS", "An account with this email already exists."],
    [
      "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL",
      "An account with this email already exists. Use another email.",
    ],
  ])("ties %s to the email field", async (code, text) => {
    const user = userEvent.setup();
    renderWithAuth(<SignUp />, { "/sign-up/email": { status: 422, body: errorBody(code) } });
    await fillIn(user);
    const email = screen.getByLabelText("Email");
    await waitFor(() => expect(email).toHaveAccessibleDescription(text));
    expect(email).toHaveAttribute("aria-invalid", "true");
    await waitFor(() => expect(email).toHaveFocus());
    expect(screen.getByRole("alert")).toHaveTextContent("");
  });

  it("ties a password the server finds too short to the password field with its bound", async () => {
    const user = userEvent.setup();
    renderWithAuth(<SignUp />, {
      "/sign-up/email": {
        status: 400,
        body: errorBody("PASSWORD_TOO_SHORT", "Password too short", { minPasswordLength: 10 }),
      },
    });
    await fillIn(user, { password: "nine char" });
    const password = screen.getByLabelText("Password");
    await waitFor(() =>
      expect(password).toHaveAccessibleDescription(/Use at least 10 characters\./),
    );
    await waitFor(() => expect(password).toHaveFocus());
  });

  it("ties a password the server finds too long to the password field", async () => {
    const user = userEvent.setup();
    renderWithAuth(<SignUp />, {
      "/sign-up/email": { status: 400, body: errorBody("PASSWORD_TOO_LONG") },
    });
    await fillIn(user);
    const password = screen.getByLabelText("Password");
    await waitFor(() => expect(password).toHaveAccessibleDescription(/The password is too long\./));
    expect(screen.getByRole("alert")).toHaveTextContent("");
  });

  it("announces that email sign-up is turned off and moves focus to the message", async () => {
    const user = userEvent.setup();
    renderWithAuth(<SignUp />, {
      "/sign-up/email": { status: 400, body: errorBody("EMAIL_PASSWORD_SIGN_UP_DISABLED") },
    });
    await fillIn(user);
    const alert = screen.getByRole("alert");
    await waitFor(() =>
      expect(alert).toHaveTextContent("Signing up with email and password is turned off."),
    );
    await waitFor(() => expect(alert).toHaveFocus());
  });

  it("marks the fields a validation error names", async () => {
    const user = userEvent.setup();
    renderWithAuth(<SignUp />, {
      "/sign-up/email": {
        status: 400,
        body: errorBody("VALIDATION_ERROR", "Invalid body parameters", [
          { path: "name", message: "Too long" },
        ]),
      },
    });
    await fillIn(user);
    const name = screen.getByLabelText("Name");
    await waitFor(() => expect(name).toHaveAccessibleDescription("This value is not valid."));
    expect(screen.getByLabelText("Email")).not.toHaveAttribute("aria-invalid");
    expect(screen.getByRole("alert")).not.toHaveTextContent("Too long");
  });

  it("says when the server cannot be reached", async () => {
    const user = userEvent.setup();
    renderWithAuth(<SignUp />, {
      "/sign-up/email": () => {
        throw new TypeError("fetch failed");
      },
    });
    await fillIn(user);
    await waitFor(() =>
      expect(screen.getByRole("alert")).toHaveTextContent(
        "The server could not be reached. Check your connection and try again.",
      ),
    );
  });

  it("asks for a picture URL only when told to, checks it, and sends it with the invitation", async () => {
    const user = userEvent.setup();
    const first = renderWithAuth(<SignUp />, {});
    expect(screen.queryByLabelText("Profile picture URL")).not.toBeInTheDocument();
    first.unmount();

    const harness = renderWithAuth(<SignUp showImage invitationId="inv-1" />, {
      "/sign-up/email": { body: { token: "t", user: NEW_USER } },
    });
    const image = screen.getByLabelText("Profile picture URL");
    await user.type(image, "ftp://example.com/a.png");
    await fillIn(user);
    expect(image).toHaveAccessibleDescription(
      "Enter a full web address, starting with https://. Optional: a link to an image of you.",
    );
    await waitFor(() => expect(image).toHaveFocus());
    expect(harness.sent("/sign-up/email")).toHaveLength(0);

    await user.clear(image);
    await user.type(image, "https://example.com/ada.png");
    await user.click(screen.getByRole("button", { name: "Create account" }));
    await waitFor(() => expect(harness.sent("/sign-up/email")).toHaveLength(1));
    expect(harness.sent("/sign-up/email")[0]?.body).toMatchObject({
      image: "https://example.com/ada.png",
      invitationId: "inv-1",
    });
  });

  it("offers the social providers it is given and starts a social sign-in", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(<SignUp providers={["github"]} redirectTo="/dashboard" />, {
      "/sign-in/social": {
        body: { url: "https://github.com/login/oauth/authorize?x=1", redirect: true },
      },
    });
    await user.click(screen.getByRole("button", { name: "Continue with GitHub" }));
    await waitFor(() =>
      expect(harness.navigations).toEqual(["https://github.com/login/oauth/authorize?x=1"]),
    );
    expect(harness.sent("/sign-in/social")[0]?.body).toMatchObject({
      provider: "github",
      callbackURL: "http://localhost:3000/dashboard",
    });
    expect(harness.sent("/social-providers")).toHaveLength(0);
  });

  it("lists the providers the server has configured", async () => {
    renderWithAuth(<SignUp />, {
      "/social-providers": { body: [{ id: "google", name: "Google" }] },
    });
    expect(await screen.findByRole("button", { name: "Continue with Google" })).toBeEnabled();
  });

  it("links to sign-in and renders the host's classes per part", () => {
    const { container } = renderWithAuth(
      <SignUp classNames={{ root: "card", button: "btn" }} />,
      {},
      { paths: { signIn: "/login" } },
    );
    const root = container.querySelector('[data-authd-part="root"]');
    expect(root).toHaveClass("authd-root", "card");
    expect(root).toHaveAttribute("data-authd-component", "sign-up");
    expect(within(root as HTMLElement).getByRole("link", { name: "Sign in" })).toHaveAttribute(
      "href",
      "/login",
    );
    expect(screen.getByRole("button", { name: "Create account" })).toHaveClass("btn");
  });

  it("speaks the provider's language", async () => {
    renderWithAuth(<SignUp />, {}, { locale: "ru" });
    expect(await screen.findByRole("heading", { name: "Создайте аккаунт" })).toBeInTheDocument();
    expect(screen.getByText("Минимум 8 символов.")).toBeInTheDocument();
  });
});
