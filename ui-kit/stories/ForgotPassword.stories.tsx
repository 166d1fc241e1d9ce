import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, userEvent, waitFor } from "storybook/test";
import { ForgotPassword, type Messages } from "../src/index.js";
import type { AuthdScenario } from "./mock/authd.js";
import { type PlayContext, screenTitled } from "./play.js";

const meta = {
  title: "ForgotPassword",
  component: ForgotPassword,
} satisfies Meta<typeof ForgotPassword>;

export default meta;
type Story = StoryObj<typeof meta>;

const EMAIL = "ada@example.com";
const ROUTE = "/request-password-reset";

function form(context: PlayContext) {
  return screenTitled(context, (m) => m.auth.forgotPassword.title);
}

/** Types the address and asks for the link. */
async function request(context: PlayContext) {
  const { canvas, messages } = await form(context);
  await userEvent.type(canvas.getByLabelText(messages.common.email), EMAIL);
  await userEvent.click(canvas.getByRole("button", { name: messages.auth.forgotPassword.submit }));
  return { canvas, messages };
}

/** Asks for a link against a failing route and checks the alert's text and what was sent. */
function showsError(text: (messages: Messages) => string) {
  return async (context: PlayContext) => {
    const { canvas, messages } = await request(context);
    const alert = await canvas.findByRole("alert");
    await waitFor(() => expect(alert).toHaveTextContent(text(messages)));
    await waitFor(() => expect(alert).toHaveFocus());
    expect(context.loaded.authd?.sent(ROUTE)[0]?.body).toMatchObject({ email: EMAIL });
  };
}

function scenario(authd: AuthdScenario) {
  return { authd };
}

export const Default: Story = {
  play: async (context) => {
    const { canvas, messages } = await form(context);
    await expect(canvas.getByText(messages.auth.forgotPassword.description)).toBeVisible();
    await expect(canvas.getByLabelText(messages.common.email)).toHaveValue("");
    await expect(
      canvas.getByRole("link", { name: messages.auth.forgotPassword.backToSignIn }),
    ).toBeVisible();
  },
};

export const Sent: Story = {
  play: async (context) => {
    const { canvas, messages } = await request(context);
    const heading = await canvas.findByRole("heading", {
      name: messages.auth.forgotPassword.sentTitle,
    });
    await expect(
      canvas.getByText(messages.auth.forgotPassword.sent({ email: EMAIL })),
    ).toBeVisible();
    await waitFor(() => expect(heading).toHaveFocus());
    const body = context.loaded.authd?.sent(ROUTE)[0]?.body;
    await expect(body).toMatchObject({ email: EMAIL });
    await expect(String(body?.redirectTo)).toMatch(/\/reset-password$/);
    await userEvent.click(
      canvas.getByRole("button", { name: messages.auth.forgotPassword.useAnotherEmail }),
    );
    await expect(await canvas.findByLabelText(messages.common.email)).toHaveValue(EMAIL);
  },
};

export const InvalidEmail: Story = {
  play: async (context) => {
    const { canvas, messages } = await form(context);
    const email = canvas.getByLabelText(messages.common.email);
    await userEvent.type(email, "not-an-address");
    await userEvent.click(
      canvas.getByRole("button", { name: messages.auth.forgotPassword.submit }),
    );
    await expect(email).toHaveAttribute("aria-invalid", "true");
    await expect(email).toHaveAccessibleDescription(messages.common.invalidEmail);
    await waitFor(() => expect(email).toHaveFocus());
    await expect(context.loaded.authd?.sent(ROUTE)).toHaveLength(0);
  },
};

export const ResetPasswordDisabled: Story = {
  parameters: scenario({ failures: { [ROUTE]: "RESET_PASSWORD_DISABLED" } }),
  play: showsError((m) => m.errors.RESET_PASSWORD_DISABLED),
};

export const TooManyRequests: Story = {
  parameters: scenario({ failures: { [ROUTE]: "TOO_MANY_REQUESTS" } }),
  play: showsError((m) => m.errors.TOO_MANY_REQUESTS),
};

export const NetworkError: Story = {
  parameters: scenario({ failures: { [ROUTE]: "NETWORK_ERROR" } }),
  play: showsError((m) => m.errors.NETWORK_ERROR),
};

export const Loading: Story = {
  parameters: scenario({ pending: [ROUTE] }),
  play: async (context) => {
    const { canvas, messages } = await request(context);
    const submit = canvas.getByRole("button", { name: messages.auth.forgotPassword.submit });
    await waitFor(() => expect(submit).toHaveAttribute("aria-busy", "true"));
    await expect(submit).toBeDisabled();
    await expect(context.loaded.authd?.sent(ROUTE)).toHaveLength(1);
  },
};

export const Dark: Story = {
  globals: { appearance: "dark" },
  parameters: scenario({ failures: { [ROUTE]: "TOO_MANY_REQUESTS" } }),
  play: async (context) => {
    await showsError((m) => m.errors.TOO_MANY_REQUESTS)(context);
    const root = context.canvasElement.querySelector('[data-authd-component="forgot-password"]');
    await expect(root).toHaveAttribute("data-authd-theme", "dark");
  },
};
