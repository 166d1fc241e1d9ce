// @vitest-environment jsdom
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { SignIn } from "../../src/index.js";
import { errorBody, renderWithAuth, sessionOf, USER } from "./harness.js";

describe("<SignIn/>", () => {
  it("signs in with email and password and goes to the page after sign-in", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(<SignIn />, {
      "/sign-in/email": { body: { redirect: false, token: "t", user: USER } },
    });
    await user.type(screen.getByLabelText("Email"), "ada@example.com");
    await user.type(screen.getByLabelText("Password"), "correct horse");
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    await waitFor(() => expect(harness.navigations).toEqual(["/"]));
    expect(harness.sent("/sign-in/email")[0]?.body).toMatchObject({
      email: "ada@example.com",
      password: "correct horse",
      rememberMe: true,
    });
  });

  it("checks the fields before asking the server and moves focus to the first invalid one", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(<SignIn />, {});
    await user.type(screen.getByLabelText("Email"), "not-an-email");
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    const email = screen.getByLabelText("Email");
    expect(email).toHaveAttribute("aria-invalid", "true");
    expect(email).toHaveAccessibleDescription("Enter a valid email address.");
    expect(screen.getByLabelText("Password")).toHaveAccessibleDescription(
      "This field is required.",
    );
    await waitFor(() => expect(email).toHaveFocus());
    expect(harness.sent("/sign-in/email")).toHaveLength(0);
  });

  it("announces a wrong password in the page's language", async () => {
    const user = userEvent.setup();
    renderWithAuth(
      <SignIn />,
      {
        "/sign-in/email": {
          status: 401,
          body: errorBody("INVALID_EMAIL_OR_PASSWORD", "Invalid email or password"),
        },
      },
      { locale: "de" },
    );
    await user.type(await screen.findByLabelText("E-Mail"), "ada@example.com");
    await user.type(screen.getByLabelText("Passwort"), "wrong");
    await user.click(screen.getByRole("button", { name: "Anmelden" }));
    const alert = await screen.findByRole("alert");
    await waitFor(() => expect(alert).toHaveTextContent(/E-Mail|Passwort/));
    expect(alert).not.toHaveTextContent("Invalid email or password");
    await waitFor(() => expect(alert).toHaveFocus());
  });

  it("offers to resend the verification link when the email is not verified", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(<SignIn />, {
      "/sign-in/email": { status: 403, body: errorBody("EMAIL_NOT_VERIFIED") },
      "/send-verification-email": { body: { status: true } },
    });
    await user.type(screen.getByLabelText("Email"), "ada@example.com");
    await user.type(screen.getByLabelText("Password"), "correct horse");
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    await user.click(await screen.findByRole("button", { name: "Send the link again" }));
    expect(await screen.findByRole("status")).toHaveTextContent(
      "We sent a new link to ada@example.com.",
    );
    expect(harness.sent("/send-verification-email")[0]?.body).toEqual({
      email: "ada@example.com",
      callbackURL: "http://localhost:3000/verify-email?verified=1&redirectTo=%2F",
    });
  });

  it("sends the new link to the verify-email page, which goes on to redirectTo", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(<SignIn redirectTo="/organization?tab=members" />, {
      "/sign-in/email": { status: 403, body: errorBody("EMAIL_NOT_VERIFIED") },
      "/send-verification-email": { body: { status: true } },
    });
    await user.type(screen.getByLabelText("Email"), "ada@example.com");
    await user.type(screen.getByLabelText("Password"), "correct horse");
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    await user.click(await screen.findByRole("button", { name: "Send the link again" }));
    await screen.findByRole("status");
    const sent = harness.sent("/send-verification-email")[0]?.body as { callbackURL: string };
    const callbackURL = new URL(sent.callbackURL);
    expect(callbackURL.pathname).toBe("/verify-email");
    expect(Object.fromEntries(callbackURL.searchParams)).toEqual({
      verified: "1",
      redirectTo: "/organization?tab=members",
    });
  });

  it("sends one new verification link however often it is clicked while the first is on its way", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(<SignIn />, {
      "/sign-in/email": { status: 403, body: errorBody("EMAIL_NOT_VERIFIED") },
      "/send-verification-email": "pending",
    });
    await user.type(screen.getByLabelText("Email"), "ada@example.com");
    await user.type(screen.getByLabelText("Password"), "correct horse");
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    const resend = await screen.findByRole("button", { name: "Send the link again" });
    await user.click(resend);
    expect(resend).toBeDisabled();
    expect(resend).toHaveAttribute("aria-busy", "true");
    await user.click(resend);
    await user.dblClick(resend);
    expect(harness.sent("/send-verification-email")).toHaveLength(1);
  });

  it("lists the providers the server has configured and starts a social sign-in", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(<SignIn redirectTo="/dashboard" />, {
      "/social-providers": { body: [{ id: "github", name: "GitHub" }] },
      "/sign-in/social": {
        body: { url: "https://github.com/login/oauth/authorize?x=1", redirect: true },
      },
    });
    await user.click(await screen.findByRole("button", { name: "Continue with GitHub" }));
    await waitFor(() =>
      expect(harness.navigations).toEqual(["https://github.com/login/oauth/authorize?x=1"]),
    );
    expect(harness.sent("/sign-in/social")[0]?.body).toMatchObject({
      provider: "github",
      callbackURL: "http://localhost:3000/dashboard",
      errorCallbackURL: "http://localhost:3000/",
    });
  });

  it("shows why a social sign-in came back without signing in", async () => {
    window.history.replaceState(
      null,
      "",
      "/sign-in?error=account_already_linked_to_different_user",
    );
    try {
      renderWithAuth(<SignIn />, {});
      await waitFor(() =>
        expect(screen.getByRole("alert")).toHaveTextContent(
          "This account is already linked to another user.",
        ),
      );
    } finally {
      window.history.replaceState(null, "", "/");
    }
  });

  it("shows a ban that ended a social sign-in in the page's language", async () => {
    window.history.replaceState(null, "", "/sign-in?error=BANNED_USER&error_description=spam");
    try {
      renderWithAuth(<SignIn />, {}, { locale: "fr" });
      await waitFor(() => expect(screen.getByRole("alert")).toHaveTextContent(/banni/));
    } finally {
      window.history.replaceState(null, "", "/");
    }
  });

  it("shows the form as busy while the answer is on its way", async () => {
    const user = userEvent.setup();
    renderWithAuth(<SignIn />, { "/sign-in/email": "pending" });
    await user.type(screen.getByLabelText("Email"), "ada@example.com");
    await user.type(screen.getByLabelText("Password"), "correct horse");
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    const button = screen.getByRole("button", { name: "Sign in" });
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute("aria-busy", "true");
    expect(button.closest('[data-authd-part="root"]')).toHaveAttribute("data-state", "pending");
  });

  it("takes providers from a prop without asking the server", async () => {
    const harness = renderWithAuth(<SignIn providers={["google"]} />, {});
    expect(await screen.findByRole("button", { name: "Continue with Google" })).toBeInTheDocument();
    expect(harness.sent("/social-providers")).toHaveLength(0);
  });

  it("renders the host's classes per part and stable part names", () => {
    const { container } = renderWithAuth(
      <SignIn classNames={{ button: "btn", root: "card" }} />,
      {},
    );
    const root = container.querySelector('[data-authd-part="root"]');
    expect(root).toHaveClass("authd-root", "card");
    expect(root).toHaveAttribute("data-authd-component", "sign-in");
    expect(screen.getByRole("button", { name: "Sign in" })).toHaveClass("btn");
  });

  it("shows the signed-in session's user nowhere: sign-in does not need one", async () => {
    renderWithAuth(<SignIn />, { "/get-session": { body: sessionOf() } });
    expect(screen.getByRole("heading", { name: "Sign in" })).toBeInTheDocument();
  });
});
