import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, userEvent, waitFor, within } from "storybook/test";
import { type Messages, VerifyEmail } from "../src/index.js";
import { type AuthdScenario, VALID_TOKEN } from "./mock/authd.js";
import { type PlayContext, strings } from "./play.js";

const meta = {
  title: "VerifyEmail",
  component: VerifyEmail,
} satisfies Meta<typeof VerifyEmail>;

export default meta;
type Story = StoryObj<typeof meta>;

const EMAIL = "ada@example.com";
const VERIFY = "/verify-email";
const RESEND = "/send-verification-email";

/** Waits for the screen whose title `title` picks, in the story's language. */
async function screen(
  { canvasElement, globals }: PlayContext,
  title: (text: Messages["auth"]["verifyEmail"]) => string,
) {
  const canvas = within(canvasElement);
  const messages = await strings(globals);
  const text = messages.auth.verifyEmail;
  const heading = await canvas.findByRole("heading", { name: title(text) });
  return { canvas, messages, text, heading };
}

/** A followed link the server refused: the reason, and a way to a new link. */
function fails(reason: (messages: Messages) => string) {
  return async (context: PlayContext) => {
    const { canvas, messages, text, heading } = await screen(context, (t) => t.failedTitle);
    await expect(canvas.getByText(reason(messages))).toBeVisible();
    await waitFor(() => expect(heading).toHaveFocus());
    await expect(canvas.getByRole("link", { name: text.signInForNewLink })).toHaveAttribute(
      "href",
      "/sign-in",
    );
    await expect(context.loaded.authd?.sent(VERIFY)).toHaveLength(1);
  };
}

/** Signed in with an unverified address: asks for the link again. */
async function resend(context: PlayContext) {
  const found = await screen(context, (t) => t.unverifiedTitle);
  await expect(found.canvas.getByText(found.text.unverified({ email: EMAIL }))).toBeVisible();
  await userEvent.click(found.canvas.getByRole("button", { name: found.text.resend }));
  return found;
}

function scenario(authd: AuthdScenario) {
  return { authd };
}

export const Loading: Story = {
  parameters: scenario({ pending: ["/get-session"] }),
  play: async ({ canvasElement, globals }) => {
    const canvas = within(canvasElement);
    const messages = await strings(globals);
    await expect(await canvas.findByRole("status")).toHaveTextContent(messages.common.loading);
    await expect(canvas.queryByRole("heading")).toBeNull();
  },
};

export const Verifying: Story = {
  args: { token: VALID_TOKEN },
  parameters: scenario({ pending: [VERIFY] }),
  play: async (context) => {
    const { canvas, text } = await screen(context, (t) => t.verifyingTitle);
    await expect(canvas.getByRole("status")).toHaveTextContent(text.verifying);
    await expect(context.loaded.authd?.sent(VERIFY)[0]?.query).toMatchObject({
      token: VALID_TOKEN,
    });
  },
};

export const Verified: Story = {
  args: { token: VALID_TOKEN },
  play: async (context) => {
    const { canvas, text, heading } = await screen(context, (t) => t.verifiedTitle);
    await expect(canvas.getByText(text.verified)).toBeVisible();
    await waitFor(() => expect(heading).toHaveFocus());
    await userEvent.click(canvas.getByRole("button", { name: text.continue }));
    await expect(await canvas.findByText("Navigated to /")).toBeVisible();
    // One link, one request.
    await expect(context.loaded.authd?.sent(VERIFY)).toHaveLength(1);
  },
};

export const InvalidToken: Story = {
  args: { token: "NOT_A_TOKEN" },
  play: fails((m) => m.errors.INVALID_TOKEN),
};

export const TokenExpired: Story = {
  args: { token: VALID_TOKEN },
  parameters: scenario({ failures: { [VERIFY]: "TOKEN_EXPIRED" } }),
  play: fails((m) => m.errors.TOKEN_EXPIRED),
};

export const AlreadyVerified: Story = {
  args: { token: VALID_TOKEN },
  parameters: scenario({ failures: { [VERIFY]: "EMAIL_ALREADY_VERIFIED" } }),
  play: async (context) => {
    const { canvas, text } = await screen(context, (t) => t.verifiedTitle);
    await expect(canvas.getByText(text.alreadyVerified)).toBeVisible();
    await expect(canvas.getByRole("button", { name: text.continue })).toBeEnabled();
  },
};

export const SignedInVerified: Story = {
  parameters: scenario({ signedIn: true }),
  play: async (context) => {
    const { canvas, text } = await screen(context, (t) => t.verifiedTitle);
    await expect(canvas.getByText(text.verified)).toBeVisible();
    await expect(context.loaded.authd?.sent(VERIFY)).toHaveLength(0);
  },
};

export const Unverified: Story = {
  parameters: scenario({ signedIn: true, emailVerified: false }),
  play: async (context) => {
    const { canvas, text } = await screen(context, (t) => t.unverifiedTitle);
    await expect(canvas.getByText(text.unverified({ email: EMAIL }))).toBeVisible();
    await expect(canvas.getByRole("button", { name: text.resend })).toBeEnabled();
  },
};

export const Sent: Story = {
  parameters: scenario({ signedIn: true, emailVerified: false }),
  play: async (context) => {
    await resend(context);
    const { canvas, text, heading } = await screen(context, (t) => t.sentTitle);
    await expect(canvas.getByText(text.sent({ email: EMAIL }))).toBeVisible();
    await waitFor(() => expect(heading).toHaveFocus());
    const body = context.loaded.authd?.sent(RESEND)[0]?.body;
    await expect(body).toMatchObject({ email: EMAIL });
    await expect(String(body?.callbackURL)).toMatch(/\/verify-email\?verified=1$/);
  },
};

export const Resending: Story = {
  parameters: scenario({ signedIn: true, emailVerified: false, pending: [RESEND] }),
  play: async (context) => {
    const { canvas, text } = await resend(context);
    const button = canvas.getByRole("button", { name: text.resend });
    await waitFor(() => expect(button).toHaveAttribute("aria-busy", "true"));
    await expect(button).toBeDisabled();
  },
};

export const ResendFailed: Story = {
  parameters: scenario({
    signedIn: true,
    emailVerified: false,
    failures: { [RESEND]: "TOO_MANY_REQUESTS" },
  }),
  play: async (context) => {
    const { canvas, messages } = await resend(context);
    const alert = await canvas.findByRole("alert");
    await waitFor(() => expect(alert).toHaveTextContent(messages.errors.TOO_MANY_REQUESTS));
    await waitFor(() => expect(alert).toHaveFocus());
  },
};

export const FailedSignedIn: Story = {
  args: { token: "NOT_A_TOKEN" },
  parameters: scenario({ signedIn: true, emailVerified: false }),
  play: async (context) => {
    const { canvas, messages, text } = await screen(context, (t) => t.failedTitle);
    await expect(canvas.getByText(messages.errors.INVALID_TOKEN)).toBeVisible();
    await expect(canvas.queryByRole("link", { name: text.signInForNewLink })).toBeNull();
    await userEvent.click(canvas.getByRole("button", { name: text.resend }));
    await screen(context, (t) => t.sentTitle);
    await expect(context.loaded.authd?.sent(RESEND)).toHaveLength(1);
  },
};

export const SignedOut: Story = {
  play: async (context) => {
    const { canvas, text } = await screen(context, (t) => t.unverifiedTitle);
    await expect(canvas.getByText(text.signedOut)).toBeVisible();
    await expect(canvas.getByRole("link", { name: text.signIn })).toHaveAttribute(
      "href",
      "/sign-in",
    );
    await expect(canvas.queryByRole("button", { name: text.resend })).toBeNull();
    await expect(context.loaded.authd?.sent(VERIFY)).toHaveLength(0);
  },
};

export const Dark: Story = {
  args: { token: "NOT_A_TOKEN" },
  globals: { appearance: "dark" },
  play: async (context) => {
    await fails((m) => m.errors.INVALID_TOKEN)(context);
    const root = context.canvasElement.querySelector('[data-authd-component="verify-email"]');
    await expect(root).toHaveAttribute("data-authd-theme", "dark");
  },
};
