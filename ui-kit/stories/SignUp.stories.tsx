import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, userEvent, waitFor } from "storybook/test";
import { type Messages, SignUp } from "../src/index.js";
import type { AuthdScenario } from "./mock/authd.js";
import { type PlayContext, screenTitled } from "./play.js";

const meta = {
  title: "SignUp",
  component: SignUp,
} satisfies Meta<typeof SignUp>;

export default meta;
type Story = StoryObj<typeof meta>;

const NAME = "Lin Okafor";
const EMAIL = "lin@example.com";
const PASSWORD = "correct horse";

function form(context: PlayContext) {
  return screenTitled(context, (m) => m.auth.signUp.title);
}

/** Types a name, an address and a password, then presses the submit button. */
async function signUp(context: PlayContext, { email = EMAIL, password = PASSWORD } = {}) {
  const { canvas, messages } = await form(context);
  await userEvent.type(canvas.getByLabelText(messages.common.name), NAME);
  await userEvent.type(canvas.getByLabelText(messages.common.email), email);
  await userEvent.type(canvas.getByLabelText(messages.common.password), password);
  await userEvent.click(canvas.getByRole("button", { name: messages.auth.signUp.submit }));
  return { canvas, messages };
}

/** Signs up against a failing route and checks the alert's text and what was sent. */
function showsError(text: (messages: Messages) => string) {
  return async (context: PlayContext) => {
    const { canvas, messages } = await signUp(context);
    const alert = await canvas.findByRole("alert");
    await waitFor(() => expect(alert).toHaveTextContent(text(messages)));
    await waitFor(() => expect(alert).toHaveFocus());
    expect(context.loaded.authd?.sent("/sign-up/email")[0]?.body).toMatchObject({
      name: NAME,
      email: EMAIL,
      password: PASSWORD,
    });
  };
}

function scenario(authd: AuthdScenario) {
  return { authd };
}

export const Default: Story = {
  play: async (context) => {
    const { canvas, messages } = await form(context);
    await expect(canvas.getByLabelText(messages.common.name)).toHaveValue("");
    await expect(canvas.getByLabelText(messages.common.email)).toHaveValue("");
    await expect(canvas.getByLabelText(messages.common.password)).toHaveAccessibleDescription(
      messages.auth.signUp.passwordHint({ min: 8 }),
    );
    await expect(canvas.getByRole("link", { name: messages.auth.signUp.signInLink })).toBeVisible();
    await expect(canvas.queryByRole("button", { name: /GitHub/ })).toBeNull();
  },
};

export const SignedUp: Story = {
  play: async (context) => {
    const { canvas } = await signUp(context);
    await expect(await canvas.findByText("Navigated to /")).toBeVisible();
    expect(context.loaded.authd?.sent("/sign-up/email")[0]?.body).toMatchObject({
      name: NAME,
      email: EMAIL,
      password: PASSWORD,
    });
  },
};

export const CheckYourInbox: Story = {
  parameters: scenario({ emailVerificationRequired: true }),
  play: async (context) => {
    const { canvas, messages } = await signUp(context);
    const heading = await canvas.findByRole("heading", {
      name: messages.auth.signUp.checkEmailTitle,
    });
    await expect(canvas.getByText(messages.auth.signUp.checkEmail({ email: EMAIL }))).toBeVisible();
    await waitFor(() => expect(heading).toHaveFocus());
    await expect(canvas.queryByText(/Navigated to/)).toBeNull();
    await userEvent.click(
      canvas.getByRole("button", { name: messages.auth.signUp.useAnotherEmail }),
    );
    await expect(await canvas.findByLabelText(messages.common.email)).toHaveValue(EMAIL);
  },
};

export const MissingFields: Story = {
  play: async (context) => {
    const { canvas, messages } = await form(context);
    await userEvent.click(canvas.getByRole("button", { name: messages.auth.signUp.submit }));
    const name = canvas.getByLabelText(messages.common.name);
    await expect(name).toHaveAttribute("aria-invalid", "true");
    await expect(name).toHaveAccessibleDescription(messages.common.required);
    await waitFor(() => expect(name).toHaveFocus());
    await expect(context.loaded.authd?.sent("/sign-up/email")).toHaveLength(0);
  },
};

export const UserAlreadyExists: Story = {
  parameters: scenario({ failures: { "/sign-up/email": "USER_ALREADY_EXISTS" } }),
  play: async (context) => {
    const { canvas, messages } = await signUp(context);
    const email = canvas.getByLabelText(messages.common.email);
    await waitFor(() =>
      expect(email).toHaveAccessibleDescription(messages.errors.USER_ALREADY_EXISTS),
    );
    await expect(email).toHaveAttribute("aria-invalid", "true");
    await waitFor(() => expect(email).toHaveFocus());
    // The message sits on the field: the form's alert stays empty (and hidden).
    await expect(canvas.queryByRole("alert")).toBeNull();
  },
};

export const PasswordTooShort: Story = {
  parameters: scenario({
    failures: {
      "/sign-up/email": { code: "PASSWORD_TOO_SHORT", details: { minPasswordLength: 12 } },
    },
  }),
  play: async (context) => {
    const { canvas, messages } = await signUp(context, { password: "ten chars!" });
    const password = canvas.getByLabelText(messages.common.password);
    await expect(
      await canvas.findByText(messages.common.passwordTooShort({ min: 12 })),
    ).toBeVisible();
    await expect(password).toHaveAttribute("aria-invalid", "true");
    await waitFor(() => expect(password).toHaveFocus());
    expect(context.loaded.authd?.sent("/sign-up/email")[0]?.body).toMatchObject({
      password: "ten chars!",
    });
  },
};

export const SignUpDisabled: Story = {
  parameters: scenario({ failures: { "/sign-up/email": "EMAIL_PASSWORD_SIGN_UP_DISABLED" } }),
  play: showsError((m) => m.errors.EMAIL_PASSWORD_SIGN_UP_DISABLED),
};

export const TooManyRequests: Story = {
  parameters: scenario({ failures: { "/sign-up/email": "TOO_MANY_REQUESTS" } }),
  play: showsError((m) => m.errors.TOO_MANY_REQUESTS),
};

export const NetworkError: Story = {
  parameters: scenario({ failures: { "/sign-up/email": "NETWORK_ERROR" } }),
  play: showsError((m) => m.errors.NETWORK_ERROR),
};

export const WithSocialProviders: Story = {
  parameters: scenario({ socialProviders: ["github", "google"] }),
  play: async (context) => {
    const { canvas, messages } = await form(context);
    const github = await canvas.findByRole("button", {
      name: messages.common.continueWith({ provider: "GitHub" }),
    });
    await expect(
      canvas.getByRole("button", { name: messages.common.continueWith({ provider: "Google" }) }),
    ).toBeEnabled();
    await userEvent.click(github);
    await expect(
      await canvas.findByText("Navigated to https://github.example.com/authorize?state=story"),
    ).toBeVisible();
    expect(context.loaded.authd?.sent("/sign-in/social")[0]?.body).toMatchObject({
      provider: "github",
    });
  },
};

export const Loading: Story = {
  parameters: scenario({ pending: ["/sign-up/email"] }),
  play: async (context) => {
    const { canvas, messages } = await signUp(context);
    const submit = canvas.getByRole("button", { name: messages.auth.signUp.submit });
    await waitFor(() => expect(submit).toHaveAttribute("aria-busy", "true"));
    await expect(submit).toBeDisabled();
    await expect(context.loaded.authd?.sent("/sign-up/email")).toHaveLength(1);
  },
};

export const Dark: Story = {
  globals: { appearance: "dark" },
  parameters: scenario({ failures: { "/sign-up/email": "EMAIL_PASSWORD_SIGN_UP_DISABLED" } }),
  play: async (context) => {
    await showsError((m) => m.errors.EMAIL_PASSWORD_SIGN_UP_DISABLED)(context);
    const root = context.canvasElement.querySelector('[data-authd-component="sign-up"]');
    await expect(root).toHaveAttribute("data-authd-theme", "dark");
  },
};
