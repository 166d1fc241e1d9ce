import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, userEvent, waitFor } from "storybook/test";
import { type LocaleCode, loadMessages, type Messages, SignIn } from "../src/index.js";
import type { AuthdScenario } from "./mock/authd.js";
import { type PlayContext, screenTitled } from "./play.js";

const meta = {
  title: "SignIn",
  component: SignIn,
} satisfies Meta<typeof SignIn>;

export default meta;
type Story = StoryObj<typeof meta>;

const EMAIL = "ada@example.com";

function form(context: PlayContext) {
  return screenTitled(context, (m) => m.auth.signIn.title);
}

/** Types the address and a password, then presses the submit button. */
async function signIn(context: PlayContext, password: string) {
  const { canvas, messages } = await form(context);
  await userEvent.type(canvas.getByLabelText(messages.common.email), EMAIL);
  await userEvent.type(canvas.getByLabelText(messages.common.password), password);
  await userEvent.click(canvas.getByRole("button", { name: messages.auth.signIn.submit }));
  return { canvas, messages };
}

/** Signs in against a failing route and checks the alert's text and what was sent. */
function showsError(text: (messages: Messages) => string) {
  return async (context: PlayContext) => {
    const { canvas, messages } = await signIn(context, "wrong password");
    const alert = await canvas.findByRole("alert");
    await waitFor(() => expect(alert).toHaveTextContent(text(messages)));
    await waitFor(() => expect(alert).toHaveFocus());
    expect(context.loaded.authd?.sent("/sign-in/email")[0]?.body).toMatchObject({
      email: EMAIL,
      password: "wrong password",
    });
  };
}

function scenario(authd: AuthdScenario) {
  return { authd };
}

export const Default: Story = {
  play: async (context) => {
    const { canvas, messages } = await form(context);
    await expect(canvas.getByLabelText(messages.common.email)).toHaveValue("");
    await expect(canvas.getByLabelText(messages.auth.signIn.rememberMe)).toBeChecked();
    await expect(canvas.queryByRole("button", { name: /GitHub/ })).toBeNull();
  },
};

export const Filled: Story = {
  play: async (context) => {
    const { canvas, messages } = await form(context);
    await userEvent.type(canvas.getByLabelText(messages.common.email), EMAIL);
    await userEvent.type(canvas.getByLabelText(messages.common.password), "correct horse");
    await expect(canvas.getByLabelText(messages.common.email)).toHaveValue(EMAIL);
    await expect(canvas.getByLabelText(messages.common.password)).toHaveValue("correct horse");
  },
};

export const SignedIn: Story = {
  play: async (context) => {
    const { canvas } = await signIn(context, context.loaded.authd?.password ?? "");
    await expect(await canvas.findByText("Navigated to /")).toBeVisible();
  },
};

export const MissingFields: Story = {
  play: async (context) => {
    const { canvas, messages } = await form(context);
    await userEvent.click(canvas.getByRole("button", { name: messages.auth.signIn.submit }));
    const email = canvas.getByLabelText(messages.common.email);
    await expect(email).toHaveAttribute("aria-invalid", "true");
    await expect(email).toHaveAccessibleDescription(messages.common.required);
    await waitFor(() => expect(email).toHaveFocus());
    await expect(context.loaded.authd?.sent("/sign-in/email")).toHaveLength(0);
  },
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
  },
};

export const Loading: Story = {
  parameters: scenario({ pending: ["/sign-in/email"] }),
  play: async (context) => {
    const { canvas, messages } = await signIn(context, "correct horse");
    const submit = canvas.getByRole("button", { name: messages.auth.signIn.submit });
    await waitFor(() => expect(submit).toHaveAttribute("aria-busy", "true"));
    await expect(submit).toBeDisabled();
  },
};

export const InvalidCredentials: Story = {
  parameters: scenario({ failures: { "/sign-in/email": "INVALID_EMAIL_OR_PASSWORD" } }),
  play: showsError((m) => m.errors.INVALID_EMAIL_OR_PASSWORD),
};

export const EmailNotVerified: Story = {
  parameters: scenario({ failures: { "/sign-in/email": "EMAIL_NOT_VERIFIED" } }),
  play: async (context) => {
    await showsError((m) => m.auth.signIn.emailNotVerified)(context);
    const { canvas, messages } = await form(context);
    await userEvent.click(
      canvas.getByRole("button", { name: messages.auth.signIn.resendVerification }),
    );
    await expect(await canvas.findByRole("status")).toHaveTextContent(
      messages.auth.signIn.verificationSent({ email: EMAIL }),
    );
    await expect(context.loaded.authd?.sent("/send-verification-email")).toHaveLength(1);
  },
};

export const Banned: Story = {
  parameters: scenario({
    failures: {
      "/sign-in/email": { code: "BANNED_USER", details: { reason: "Spam", expiresAt: null } },
    },
  }),
  play: showsError((m) => m.errors.BANNED_USER),
};

export const TooManyRequests: Story = {
  parameters: scenario({ failures: { "/sign-in/email": "TOO_MANY_REQUESTS" } }),
  play: showsError((m) => m.errors.TOO_MANY_REQUESTS),
};

export const NetworkError: Story = {
  parameters: scenario({ failures: { "/sign-in/email": "NETWORK_ERROR" } }),
  play: showsError((m) => m.errors.NETWORK_ERROR),
};

export const Dark: Story = {
  globals: { appearance: "dark" },
  parameters: scenario({ failures: { "/sign-in/email": "INVALID_EMAIL_OR_PASSWORD" } }),
  play: async (context) => {
    await showsError((m) => m.errors.INVALID_EMAIL_OR_PASSWORD)(context);
    const root = context.canvasElement.querySelector('[data-authd-component="sign-in"]');
    await expect(root).toHaveAttribute("data-authd-theme", "dark");
  },
};

/** One story per language: the form in that language, and a wrong password announced in it. */
function inLanguage(locale: LocaleCode | "pseudo"): Story {
  return {
    globals: { locale },
    parameters: scenario({ failures: { "/sign-in/email": "INVALID_EMAIL_OR_PASSWORD" } }),
    play: async (context) => {
      await showsError((m) => m.errors.INVALID_EMAIL_OR_PASSWORD)(context);
      const root = context.canvasElement.querySelector('[data-authd-component="sign-in"]');
      await expect(root).toHaveAttribute("lang", locale === "pseudo" ? "en" : locale);
      if (locale !== "en") {
        // The language really loaded: the title is not the English one.
        const english = await loadMessages("en");
        const { messages } = await form(context);
        await expect(messages.auth.signIn.title).not.toBe(english.auth.signIn.title);
      }
    },
  };
}

export const English = inLanguage("en");
export const Russian = inLanguage("ru");
export const Ukrainian = inLanguage("uk");
export const Spanish = inLanguage("es");
export const German = inLanguage("de");
export const Polish = inLanguage("pl");
export const French = inLanguage("fr");
export const Turkish = inLanguage("tr");
export const Pseudo = inLanguage("pseudo");
