// @vitest-environment jsdom
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { renderToString } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AuthProvider, createAuthClient, ResetPassword } from "../../src/index.js";
import { errorBody, renderWithAuth } from "./harness.js";

const DONE = { body: { status: true } };

afterEach(() => {
  window.history.replaceState(null, "", "/");
});

async function choose(
  user: ReturnType<typeof userEvent.setup>,
  password = "correct horse",
  confirm = password,
) {
  if (password) await user.type(await screen.findByLabelText("New password"), password);
  if (confirm) await user.type(screen.getByLabelText("Repeat new password"), confirm);
  await user.click(screen.getByRole("button", { name: "Save password" }));
}

function rootOf(container: HTMLElement) {
  return container.querySelector('[data-authd-component="reset-password"]');
}

describe("<ResetPassword/>", () => {
  it("reads the token from the page's address and sets the new password", async () => {
    window.history.replaceState(null, "", "/reset-password?token=abc");
    const user = userEvent.setup();
    const onSuccess = vi.fn();
    const harness = renderWithAuth(<ResetPassword onSuccess={onSuccess} />, {
      "/reset-password": DONE,
    });
    await choose(user);
    const heading = await screen.findByRole("heading", { name: "Password changed" });
    expect(harness.sent("/reset-password")[0]?.body).toEqual({
      newPassword: "correct horse",
      token: "abc",
    });
    expect(rootOf(harness.container)).toHaveAttribute("data-state", "done");
    await waitFor(() => expect(heading).toHaveFocus());
    expect(screen.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/sign-in");
    expect(harness.navigations).toEqual([]);
    expect(onSuccess).toHaveBeenCalledOnce();
  });

  it("does not read the address while rendering, so a server render shows it loading", () => {
    window.history.replaceState(null, "", "/reset-password?token=abc");
    const client = createAuthClient({
      baseURL: "http://auth.test",
      fetch: () => Promise.reject(new Error("no requests while rendering")),
    });
    const html = renderToString(
      <AuthProvider client={client} locale="en">
        <ResetPassword />
      </AuthProvider>,
    );
    expect(html).toContain('data-state="loading"');
    expect(html).not.toContain("New password");
  });

  it("prefers the token it is given and goes on to redirectTo", async () => {
    window.history.replaceState(null, "", "/reset-password?token=abc");
    const user = userEvent.setup();
    const harness = renderWithAuth(<ResetPassword token="xyz" redirectTo="/sign-in?reset=1" />, {
      "/reset-password": DONE,
    });
    await choose(user);
    await waitFor(() => expect(harness.navigations).toEqual(["/sign-in?reset=1"]));
    expect(harness.sent("/reset-password")[0]?.body).toMatchObject({ token: "xyz" });
  });

  it("requires the two passwords to match before asking the server", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(<ResetPassword token="xyz" />, { "/reset-password": DONE });
    await choose(user, "correct horse", "correct hose");
    const confirm = screen.getByLabelText("Repeat new password");
    expect(confirm).toHaveAccessibleDescription("The passwords do not match.");
    await waitFor(() => expect(confirm).toHaveFocus());
    expect(screen.getByLabelText("New password")).not.toHaveAttribute("aria-invalid");
    expect(harness.sent("/reset-password")).toHaveLength(0);
  });

  it("holds to the minimum length and asks for both fields", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(<ResetPassword token="xyz" minPasswordLength={10} />, {});
    const password = await screen.findByLabelText("New password");
    expect(password).toHaveAccessibleDescription("At least 10 characters.");
    await choose(user, "too short", "");
    expect(password).toHaveAccessibleDescription(
      "Use at least 10 characters. At least 10 characters.",
    );
    expect(screen.getByLabelText("Repeat new password")).toHaveAccessibleDescription(
      "This field is required.",
    );
    await waitFor(() => expect(password).toHaveFocus());
    expect(harness.sent("/reset-password")).toHaveLength(0);
  });

  it("offers a new link when authd sent the visitor back with an error", async () => {
    window.history.replaceState(null, "", "/reset-password?error=INVALID_TOKEN");
    const harness = renderWithAuth(<ResetPassword />, {}, { paths: { forgotPassword: "/forgot" } });
    expect(await screen.findByRole("heading", { name: "This link does not work" })).toHaveFocus();
    expect(
      screen.getByText("The link is not valid or was already used. Ask for a new one."),
    ).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Get a new link" })).toHaveAttribute("href", "/forgot");
    expect(rootOf(harness.container)).toHaveAttribute("data-state", "invalid-link");
    expect(screen.queryByLabelText("New password")).not.toBeInTheDocument();
    expect(harness.sent("/reset-password")).toHaveLength(0);
  });

  it("offers a new link when the address carries no token", async () => {
    window.history.replaceState(null, "", "/reset-password");
    renderWithAuth(<ResetPassword />, {});
    expect(
      await screen.findByRole("heading", { name: "This link does not work" }),
    ).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Get a new link" })).toHaveAttribute(
      "href",
      "/forgot-password",
    );
  });

  it.each([
    ["INVALID_TOKEN", "The link is not valid or was already used. Ask for a new one."],
    ["TOKEN_EXPIRED", "The link has expired. Ask for a new one."],
  ])("turns a refused token (%s) into the new-link offer", async (code, text) => {
    const user = userEvent.setup();
    const harness = renderWithAuth(<ResetPassword token="old" />, {
      "/reset-password": { status: 400, body: errorBody(code) },
    });
    await choose(user);
    const heading = await screen.findByRole("heading", { name: "This link does not work" });
    expect(screen.getByText(text)).toBeInTheDocument();
    await waitFor(() => expect(heading).toHaveFocus());
    expect(rootOf(harness.container)).toHaveAttribute("data-state", "invalid-link");
  });

  it("holds to the maximum password length it is given", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(<ResetPassword token="xyz" maxPasswordLength={20} />, {});
    const password = screen.getByLabelText("New password");
    await user.type(password, "twenty-one characters");
    await user.type(screen.getByLabelText("Repeat new password"), "twenty-one characters");
    await user.click(screen.getByRole("button", { name: "Save password" }));
    expect(password).toHaveAccessibleDescription(/Use at most 20 characters\./);
    expect(harness.sent("/reset-password")).toHaveLength(0);
  });

  it("ties a password the server refuses to the new-password field", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(<ResetPassword token="xyz" />, {
      "/reset-password": {
        status: 400,
        body: errorBody("PASSWORD_TOO_SHORT", "Password too short", { minPasswordLength: 12 }),
      },
    });
    await choose(user);
    const password = screen.getByLabelText("New password");
    await waitFor(() =>
      expect(password).toHaveAccessibleDescription(/^Use at least 12 characters\./),
    );
    await waitFor(() => expect(password).toHaveFocus());

    harness.answer("/reset-password", { status: 400, body: errorBody("PASSWORD_TOO_LONG") });
    await user.click(screen.getByRole("button", { name: "Save password" }));
    await waitFor(() =>
      expect(password).toHaveAccessibleDescription(/^The password is too long\./),
    );
    expect(screen.getByRole("alert")).toHaveTextContent("");
    expect(harness.sent("/reset-password")).toHaveLength(2);
  });

  it("says when the server cannot be reached and keeps the form", async () => {
    const user = userEvent.setup();
    renderWithAuth(<ResetPassword token="xyz" />, {
      "/reset-password": () => {
        throw new TypeError("fetch failed");
      },
    });
    await choose(user);
    const alert = screen.getByRole("alert");
    await waitFor(() =>
      expect(alert).toHaveTextContent(
        "The server could not be reached. Check your connection and try again.",
      ),
    );
    await waitFor(() => expect(alert).toHaveFocus());
    expect(screen.getByLabelText("New password")).toHaveValue("correct horse");
  });
});
