// @vitest-environment jsdom
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ForgotPassword } from "../../src/index.js";
import { errorBody, renderWithAuth } from "./harness.js";

const ACCEPTED = { body: { status: true, message: "If this email exists, a link was sent" } };

async function request(user: ReturnType<typeof userEvent.setup>, email = "ada@example.com") {
  if (email) await user.type(screen.getByLabelText("Email"), email);
  await user.click(screen.getByRole("button", { name: "Send reset link" }));
}

describe("<ForgotPassword/>", () => {
  it("asks for a link back to the reset page and then says to check the inbox", async () => {
    const user = userEvent.setup();
    const onSuccess = vi.fn();
    const harness = renderWithAuth(<ForgotPassword onSuccess={onSuccess} />, {
      "/request-password-reset": ACCEPTED,
    });
    await request(user, " ada@example.com ");
    const heading = await screen.findByRole("heading", { name: "Check your inbox" });
    expect(harness.sent("/request-password-reset")[0]?.body).toEqual({
      email: "ada@example.com",
      redirectTo: "http://localhost:3000/reset-password",
    });
    // Worded the same whether or not the address has an account.
    expect(
      screen.getByText(
        "If an account uses ada@example.com, a link to reset its password is on its way. It can be used once.",
      ),
    ).toBeInTheDocument();
    expect(harness.container.querySelector('[data-authd-part="root"]')).toHaveAttribute(
      "data-state",
      "sent",
    );
    await waitFor(() => expect(heading).toHaveFocus());
    expect(onSuccess).toHaveBeenCalledWith("ada@example.com");

    await user.click(screen.getByRole("button", { name: "Use another email" }));
    expect(screen.getByLabelText("Email")).toHaveValue("ada@example.com");
    await waitFor(() =>
      expect(screen.getByRole("heading", { name: "Forgot your password?" })).toHaveFocus(),
    );
  });

  it("uses the provider's reset path, or the one it is given", async () => {
    const user = userEvent.setup();
    const first = renderWithAuth(
      <ForgotPassword />,
      { "/request-password-reset": ACCEPTED },
      { paths: { resetPassword: "/account/new-password" } },
    );
    await request(user);
    await screen.findByRole("heading", { name: "Check your inbox" });
    expect(first.sent("/request-password-reset")[0]?.body).toMatchObject({
      redirectTo: "http://localhost:3000/account/new-password",
    });
    first.unmount();

    const second = renderWithAuth(<ForgotPassword resetPasswordPath="/auth/reset" />, {
      "/request-password-reset": ACCEPTED,
    });
    await request(user);
    await screen.findByRole("heading", { name: "Check your inbox" });
    expect(second.sent("/request-password-reset")[0]?.body).toMatchObject({
      redirectTo: "http://localhost:3000/auth/reset",
    });
  });

  it("checks the address before asking and focuses it", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(<ForgotPassword />, {});
    await request(user, "");
    const email = screen.getByLabelText("Email");
    expect(email).toHaveAccessibleDescription("This field is required.");
    await waitFor(() => expect(email).toHaveFocus());
    await request(user, "ada@");
    expect(email).toHaveAccessibleDescription("Enter a valid email address.");
    expect(harness.sent("/request-password-reset")).toHaveLength(0);
  });

  it.each([
    ["RESET_PASSWORD_DISABLED", 400, "Resetting passwords is turned off."],
    ["TOO_MANY_REQUESTS", 429, "Too many requests. Please try again later."],
  ])("announces %s and stays on the form", async (code, status, text) => {
    const user = userEvent.setup();
    renderWithAuth(<ForgotPassword />, {
      "/request-password-reset": { status, body: errorBody(code) },
    });
    await request(user);
    const alert = screen.getByRole("alert");
    await waitFor(() => expect(alert).toHaveTextContent(text));
    await waitFor(() => expect(alert).toHaveFocus());
    expect(screen.getByRole("heading", { name: "Forgot your password?" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Send reset link" })).toBeEnabled();
  });

  it("says when the server cannot be reached", async () => {
    const user = userEvent.setup();
    renderWithAuth(<ForgotPassword />, {
      "/request-password-reset": () => {
        throw new TypeError("fetch failed");
      },
    });
    await request(user);
    await waitFor(() =>
      expect(screen.getByRole("alert")).toHaveTextContent(
        "The server could not be reached. Check your connection and try again.",
      ),
    );
  });

  it("links back to sign-in, on the form and after sending", async () => {
    const user = userEvent.setup();
    renderWithAuth(<ForgotPassword />, { "/request-password-reset": ACCEPTED });
    expect(screen.getByRole("link", { name: "Back to sign in" })).toHaveAttribute(
      "href",
      "/sign-in",
    );
    await request(user);
    await screen.findByRole("heading", { name: "Check your inbox" });
    expect(screen.getByRole("link", { name: "Back to sign in" })).toHaveAttribute(
      "href",
      "/sign-in",
    );
  });
});
