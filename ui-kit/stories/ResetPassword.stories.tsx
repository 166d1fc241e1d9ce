import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, userEvent, waitFor, within } from "storybook/test";
import { type Messages, ResetPassword } from "../src/index.js";
import { type AuthdScenario, VALID_TOKEN } from "./mock/authd.js";
import { type PlayContext, screenTitled, strings } from "./play.js";

const meta = {
  title: "ResetPassword",
  component: ResetPassword,
} satisfies Meta<typeof ResetPassword>;

export default meta;
type Story = StoryObj<typeof meta>;

const NEW_PASSWORD = "a new horse";
const ROUTE = "/reset-password";

function form(context: PlayContext) {
  return screenTitled(context, (m) => m.auth.resetPassword.title);
}

/** Types the new password and its confirmation, then presses the submit button. */
async function reset(context: PlayContext, password = NEW_PASSWORD, confirmation = password) {
  const { canvas, messages } = await form(context);
  await userEvent.type(canvas.getByLabelText(messages.auth.resetPassword.newPassword), password);
  await userEvent.type(
    canvas.getByLabelText(messages.auth.resetPassword.confirmPassword),
    confirmation,
  );
  await userEvent.click(canvas.getByRole("button", { name: messages.auth.resetPassword.submit }));
  return { canvas, messages };
}

/** The "this link does not work" screen, with its reason and the way to a new link. */
async function linkDoesNotWork(context: PlayContext, reason: (messages: Messages) => string) {
  const canvas = within(context.canvasElement);
  const messages = await strings(context.globals);
  const heading = await canvas.findByRole("heading", {
    name: messages.auth.resetPassword.invalidTitle,
  });
  await expect(canvas.getByText(reason(messages))).toBeVisible();
  await expect(
    canvas.getByRole("link", { name: messages.auth.resetPassword.requestNew }),
  ).toHaveAttribute("href", "/forgot-password");
  return { canvas, messages, heading };
}

function scenario(authd: AuthdScenario) {
  return { authd };
}

export const Default: Story = {
  args: { token: VALID_TOKEN },
  play: async (context) => {
    const { canvas, messages } = await form(context);
    const password = canvas.getByLabelText(messages.auth.resetPassword.newPassword);
    await expect(password).toHaveValue("");
    await expect(password).toHaveAccessibleDescription(
      messages.auth.signUp.passwordHint({ min: 8 }),
    );
    await expect(canvas.getByLabelText(messages.auth.resetPassword.confirmPassword)).toHaveValue(
      "",
    );
  },
};

export const Changed: Story = {
  args: { token: VALID_TOKEN },
  play: async (context) => {
    const { canvas, messages } = await reset(context);
    const heading = await canvas.findByRole("heading", {
      name: messages.auth.resetPassword.doneTitle,
    });
    await expect(canvas.getByText(messages.auth.resetPassword.done)).toBeVisible();
    await expect(
      canvas.getByRole("link", { name: messages.auth.resetPassword.signIn }),
    ).toHaveAttribute("href", "/sign-in");
    await waitFor(() => expect(heading).toHaveFocus());
    await expect(context.loaded.authd?.sent(ROUTE)[0]?.body).toMatchObject({
      newPassword: NEW_PASSWORD,
      token: VALID_TOKEN,
    });
  },
};

export const ChangedAndRedirected: Story = {
  args: { token: VALID_TOKEN, redirectTo: "/sign-in?reset=1" },
  play: async (context) => {
    const { canvas } = await reset(context);
    await expect(await canvas.findByText("Navigated to /sign-in?reset=1")).toBeVisible();
    await expect(context.loaded.authd?.sent(ROUTE)).toHaveLength(1);
  },
};

export const Mismatch: Story = {
  args: { token: VALID_TOKEN },
  play: async (context) => {
    const { canvas, messages } = await reset(context, NEW_PASSWORD, "another horse");
    const confirmation = canvas.getByLabelText(messages.auth.resetPassword.confirmPassword);
    await expect(confirmation).toHaveAttribute("aria-invalid", "true");
    await expect(confirmation).toHaveAccessibleDescription(messages.auth.resetPassword.mismatch);
    await waitFor(() => expect(confirmation).toHaveFocus());
    await expect(context.loaded.authd?.sent(ROUTE)).toHaveLength(0);
  },
};

export const TooShortBeforeAsking: Story = {
  args: { token: VALID_TOKEN },
  play: async (context) => {
    const { canvas, messages } = await reset(context, "short");
    const password = canvas.getByLabelText(messages.auth.resetPassword.newPassword);
    await expect(password).toHaveAttribute("aria-invalid", "true");
    await expect(
      await canvas.findByText(messages.common.passwordTooShort({ min: 8 })),
    ).toBeVisible();
    await waitFor(() => expect(password).toHaveFocus());
    await expect(context.loaded.authd?.sent(ROUTE)).toHaveLength(0);
  },
};

export const PasswordTooShort: Story = {
  args: { token: VALID_TOKEN },
  parameters: scenario({
    failures: { [ROUTE]: { code: "PASSWORD_TOO_SHORT", details: { minPasswordLength: 12 } } },
  }),
  play: async (context) => {
    const { canvas, messages } = await reset(context, "ten chars!");
    const password = canvas.getByLabelText(messages.auth.resetPassword.newPassword);
    await expect(
      await canvas.findByText(messages.common.passwordTooShort({ min: 12 })),
    ).toBeVisible();
    await expect(password).toHaveAttribute("aria-invalid", "true");
    await waitFor(() => expect(password).toHaveFocus());
    await expect(context.loaded.authd?.sent(ROUTE)[0]?.body).toMatchObject({
      newPassword: "ten chars!",
    });
  },
};

export const InvalidToken: Story = {
  args: { token: "ALREADY_USED" },
  play: async (context) => {
    const { canvas, messages } = await reset(context);
    await linkDoesNotWork(context, (m) => m.auth.resetPassword.invalid);
    await expect(
      canvas.queryByLabelText(messages.auth.resetPassword.newPassword),
    ).not.toBeInTheDocument();
    await expect(context.loaded.authd?.sent(ROUTE)[0]?.body).toMatchObject({
      token: "ALREADY_USED",
    });
  },
};

export const TokenExpired: Story = {
  args: { token: VALID_TOKEN },
  parameters: scenario({ failures: { [ROUTE]: "TOKEN_EXPIRED" } }),
  play: async (context) => {
    await reset(context);
    const { heading } = await linkDoesNotWork(context, (m) => m.auth.resetPassword.expired);
    await waitFor(() => expect(heading).toHaveFocus());
  },
};

export const MissingToken: Story = {
  play: async (context) => {
    await linkDoesNotWork(context, (m) => m.auth.resetPassword.invalid);
    await expect(context.loaded.authd?.sent(ROUTE)).toHaveLength(0);
  },
};

export const NetworkError: Story = {
  args: { token: VALID_TOKEN },
  parameters: scenario({ failures: { [ROUTE]: "NETWORK_ERROR" } }),
  play: async (context) => {
    const { canvas, messages } = await reset(context);
    const alert = await canvas.findByRole("alert");
    await waitFor(() => expect(alert).toHaveTextContent(messages.errors.NETWORK_ERROR));
    await waitFor(() => expect(alert).toHaveFocus());
    await expect(canvas.getByLabelText(messages.auth.resetPassword.newPassword)).toHaveValue(
      NEW_PASSWORD,
    );
  },
};

export const Loading: Story = {
  args: { token: VALID_TOKEN },
  parameters: scenario({ pending: [ROUTE] }),
  play: async (context) => {
    const { canvas, messages } = await reset(context);
    const submit = canvas.getByRole("button", { name: messages.auth.resetPassword.submit });
    await waitFor(() => expect(submit).toHaveAttribute("aria-busy", "true"));
    await expect(submit).toBeDisabled();
    await expect(context.loaded.authd?.sent(ROUTE)).toHaveLength(1);
  },
};

export const Dark: Story = {
  args: { token: VALID_TOKEN },
  globals: { appearance: "dark" },
  play: async (context) => {
    const { canvas, messages } = await reset(context, NEW_PASSWORD, "another horse");
    await expect(
      canvas.getByLabelText(messages.auth.resetPassword.confirmPassword),
    ).toHaveAccessibleDescription(messages.auth.resetPassword.mismatch);
    const root = context.canvasElement.querySelector('[data-authd-component="reset-password"]');
    await expect(root).toHaveAttribute("data-authd-theme", "dark");
  },
};
