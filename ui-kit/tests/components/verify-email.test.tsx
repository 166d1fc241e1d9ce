// @vitest-environment jsdom
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { StrictMode } from "react";
import { renderToString } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AuthProvider, createAuthClient, VerifyEmail } from "../../src/index.js";
import { errorBody, renderWithAuth, sessionOf, USER } from "./harness.js";

const UNVERIFIED = sessionOf({ ...USER, emailVerified: false });
const VERIFIED = { body: { status: true, user: USER } };

afterEach(() => {
  window.history.replaceState(null, "", "/");
});

function stateOf(container: HTMLElement) {
  return container
    .querySelector('[data-authd-component="verify-email"]')
    ?.getAttribute("data-state");
}

describe("<VerifyEmail/>", () => {
  it("verifies the token in the page's address once, even in strict mode", async () => {
    window.history.replaceState(null, "", "/verify-email?token=abc");
    const user = userEvent.setup();
    const onVerified = vi.fn();
    const harness = renderWithAuth(
      <StrictMode>
        <VerifyEmail onVerified={onVerified} />
      </StrictMode>,
      { "/verify-email": VERIFIED },
    );
    const heading = await screen.findByRole("heading", { name: "Email verified" });
    expect(screen.getByText("Thank you: your email address is confirmed.")).toBeInTheDocument();
    expect(stateOf(harness.container)).toBe("verified");
    await waitFor(() => expect(heading).toHaveFocus());
    const sent = harness.sent("/verify-email");
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ method: "GET", query: { token: "abc" } });
    expect(onVerified).toHaveBeenCalledOnce();

    await user.click(screen.getByRole("button", { name: "Continue" }));
    expect(harness.navigations).toEqual(["/"]);
  });

  it("sends a token given as a prop once, though strict mode runs effects twice", async () => {
    const harness = renderWithAuth(
      <StrictMode>
        <VerifyEmail token="abc" />
      </StrictMode>,
      { "/verify-email": VERIFIED },
    );
    expect(await screen.findByRole("heading", { name: "Email verified" })).toBeInTheDocument();
    expect(harness.sent("/verify-email")).toHaveLength(1);
  });

  it("shows that it is verifying while the answer is on its way", async () => {
    let answer: (response: Response) => void = () => {};
    const client = createAuthClient({
      baseURL: "http://auth.test",
      fetch: (input: string) =>
        input.includes("/verify-email")
          ? new Promise<Response>((resolve) => {
              answer = resolve;
            })
          : Promise.resolve(Response.json(null)),
    });
    const { container } = render(
      <AuthProvider client={client} locale="en" navigate={() => {}}>
        <VerifyEmail token="abc" />
      </AuthProvider>,
    );
    expect(
      await screen.findByRole("heading", { name: "Verifying your email" }),
    ).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent("Confirming your address…");
    expect(stateOf(container)).toBe("verifying");
    answer(Response.json({ status: true, user: USER }));
    expect(await screen.findByRole("heading", { name: "Email verified" })).toBeInTheDocument();
  });

  it("takes the token from a prop and continues to redirectTo", async () => {
    window.history.replaceState(null, "", "/verify-email?token=from-url");
    const user = userEvent.setup();
    const harness = renderWithAuth(<VerifyEmail token="from-prop" redirectTo="/dashboard" />, {
      "/verify-email": VERIFIED,
    });
    await user.click(await screen.findByRole("button", { name: "Continue" }));
    expect(harness.navigations).toEqual(["/dashboard"]);
    expect(harness.sent("/verify-email").map((request) => request.query.token)).toEqual([
      "from-prop",
    ]);
  });

  it("continues to the redirectTo the link came back with", async () => {
    window.history.replaceState(
      null,
      "",
      "/verify-email?verified=1&redirectTo=%2Faccept-invitation%2Finv-1",
    );
    const user = userEvent.setup();
    const harness = renderWithAuth(<VerifyEmail />, {});
    await screen.findByRole("heading", { name: "Email verified" });
    await user.click(screen.getByRole("button", { name: "Continue" }));
    expect(harness.navigations).toEqual(["/accept-invitation/inv-1"]);
  });

  it.each([
    ["another origin", "https://evil.example/"],
    ["a protocol-relative URL", "//evil.example/"],
    ["a tab the browser drops", "/%09/evil.example/"],
    ["a backslash", "/%5Cevil.example/"],
  ])("ignores a redirectTo that is %s", async (_, target) => {
    window.history.replaceState(null, "", `/verify-email?verified=1&redirectTo=${target}`);
    const user = userEvent.setup();
    const harness = renderWithAuth(<VerifyEmail />, {});
    await screen.findByRole("heading", { name: "Email verified" });
    await user.click(screen.getByRole("button", { name: "Continue" }));
    expect(harness.navigations).toEqual(["/"]);
  });

  it("shows why a link that came back with redirectTo failed", async () => {
    window.history.replaceState(
      null,
      "",
      "/verify-email?verified=1&redirectTo=%2Fdashboard&error=INVALID_TOKEN",
    );
    renderWithAuth(<VerifyEmail />, {});
    expect(
      await screen.findByRole("heading", { name: "Your email could not be verified" }),
    ).toBeInTheDocument();
    expect(screen.getByText("This link is not valid. Request a new one.")).toBeInTheDocument();
  });

  it("treats an address verified before as verified", async () => {
    const harness = renderWithAuth(<VerifyEmail token="abc" />, {
      "/verify-email": { status: 400, body: errorBody("EMAIL_ALREADY_VERIFIED") },
    });
    expect(await screen.findByRole("heading", { name: "Email verified" })).toBeInTheDocument();
    expect(screen.getByText("Your email address was already confirmed.")).toBeInTheDocument();
    expect(stateOf(harness.container)).toBe("verified");
  });

  it.each([
    ["INVALID_TOKEN", "This link is not valid. Request a new one."],
    ["TOKEN_EXPIRED", "This link has expired. Request a new one."],
  ])(
    "explains a refused token (%s) and, signed out, sends to sign-in for a new link",
    async (code, text) => {
      const harness = renderWithAuth(<VerifyEmail token="bad" />, {
        "/verify-email": { status: 401, body: errorBody(code) },
      });
      const heading = await screen.findByRole("heading", {
        name: "Your email could not be verified",
      });
      expect(screen.getByText(text)).toBeInTheDocument();
      expect(stateOf(harness.container)).toBe("failed");
      await waitFor(() => expect(heading).toHaveFocus());
      expect(screen.getByRole("link", { name: "Sign in to get a new link" })).toHaveAttribute(
        "href",
        "/sign-in",
      );
      expect(screen.queryByRole("button", { name: "Send the link again" })).not.toBeInTheDocument();
    },
  );

  it("shows the error authd redirected with, without asking the server", async () => {
    window.history.replaceState(null, "", "/verify-email?error=token_expired");
    const harness = renderWithAuth(<VerifyEmail />, { "/verify-email": VERIFIED });
    expect(
      await screen.findByRole("heading", { name: "Your email could not be verified" }),
    ).toBeInTheDocument();
    expect(screen.getByText("This link has expired. Request a new one.")).toBeInTheDocument();
    expect(harness.sent("/verify-email")).toHaveLength(0);
  });

  it("says the address is verified when only the invitation behind the sign-up failed", async () => {
    window.history.replaceState(
      null,
      "",
      "/verify-email?verified=1&redirectTo=%2Faccept-invitation%2Finv-1&error=ORGANIZATION_MEMBERSHIP_LIMIT_REACHED",
    );
    const user = userEvent.setup();
    const harness = renderWithAuth(<VerifyEmail />, { "/get-session": { body: sessionOf() } });
    expect(await screen.findByRole("heading", { name: "Email verified" })).toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent("Organization membership limit reached.");
    await user.click(screen.getByRole("button", { name: "Continue" }));
    expect(harness.navigations).toEqual(["/accept-invitation/inv-1"]);
  });

  it("lets a signed-in user whose link failed ask for a new one", async () => {
    window.history.replaceState(null, "", "/verify-email?error=INVALID_TOKEN");
    const user = userEvent.setup();
    const harness = renderWithAuth(<VerifyEmail />, {
      "/get-session": { body: UNVERIFIED },
      "/send-verification-email": { body: { status: true } },
    });
    await user.click(await screen.findByRole("button", { name: "Send the link again" }));
    expect(await screen.findByRole("heading", { name: "Check your inbox" })).toBeInTheDocument();
    expect(harness.sent("/send-verification-email")).toHaveLength(1);
  });

  it("offers a signed-in, unverified user to send the link again", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(<VerifyEmail />, {
      "/get-session": { body: UNVERIFIED },
      "/send-verification-email": { body: { status: true } },
    });
    expect(await screen.findByRole("heading", { name: "Verify your email" })).toBeInTheDocument();
    expect(stateOf(harness.container)).toBe("unverified");
    expect(screen.getByText(/Open the link we sent to ada@example\.com/)).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Send the link again" }));
    const heading = await screen.findByRole("heading", { name: "Check your inbox" });
    expect(screen.getByText("We sent a new link to ada@example.com.")).toBeInTheDocument();
    expect(stateOf(harness.container)).toBe("sent");
    await waitFor(() => expect(heading).toHaveFocus());
    expect(harness.sent("/send-verification-email")[0]?.body).toEqual({
      email: "ada@example.com",
      callbackURL: "http://localhost:3000/verify-email?verified=1",
    });
    expect(harness.sent("/verify-email")).toHaveLength(0);
  });

  it("announces why a new link could not be sent", async () => {
    const user = userEvent.setup();
    renderWithAuth(<VerifyEmail />, {
      "/get-session": { body: UNVERIFIED },
      "/send-verification-email": { status: 429, body: errorBody("TOO_MANY_REQUESTS") },
    });
    await user.click(await screen.findByRole("button", { name: "Send the link again" }));
    const alert = screen.getByRole("alert");
    await waitFor(() =>
      expect(alert).toHaveTextContent("Too many requests. Please try again later."),
    );
    await waitFor(() => expect(alert).toHaveFocus());
    expect(screen.getByRole("heading", { name: "Verify your email" })).toBeInTheDocument();
  });

  it("shows a signed-in user with a verified address as verified", async () => {
    const harness = renderWithAuth(<VerifyEmail />, { "/get-session": { body: sessionOf() } });
    expect(await screen.findByRole("heading", { name: "Email verified" })).toBeInTheDocument();
    expect(harness.sent("/verify-email")).toHaveLength(0);
  });

  it("tells a signed-out visitor without a link where to look", async () => {
    const harness = renderWithAuth(<VerifyEmail />, {});
    expect(
      await screen.findByText("Open the link in the email we sent you to confirm your address."),
    ).toBeInTheDocument();
    expect(stateOf(harness.container)).toBe("signed-out");
    expect(screen.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/sign-in");
  });

  it("does not read the address while rendering, so a server render shows it loading", () => {
    window.history.replaceState(null, "", "/verify-email?token=abc");
    const client = createAuthClient({
      baseURL: "http://auth.test",
      fetch: () => Promise.reject(new Error("no requests while rendering")),
    });
    const html = renderToString(
      <AuthProvider client={client} locale="en">
        <VerifyEmail />
      </AuthProvider>,
    );
    expect(html).toContain('data-state="loading"');
  });
});
