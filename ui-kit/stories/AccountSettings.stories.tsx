import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, userEvent, waitFor, within } from "storybook/test";
import { AccountSettings, loadMessages, type Messages } from "../src/index.js";
import type { AuthdScenario } from "./mock/authd.js";
import { type PlayContext, strings } from "./play.js";

const meta = {
  title: "AccountSettings",
  component: AccountSettings,
} satisfies Meta<typeof AccountSettings>;

export default meta;
type Story = StoryObj<typeof meta>;

const EMAIL = "ada@example.com";

function scenario(authd: AuthdScenario) {
  return { authd };
}

/** Waits for one section (a region named by its title) and returns queries inside it. */
async function section(
  { canvasElement, globals }: PlayContext,
  title: (messages: Messages) => string,
) {
  const canvas = within(canvasElement);
  const messages = await strings(globals);
  const region = await canvas.findByRole("region", { name: title(messages) });
  return { canvas, messages, region: within(region), element: region };
}

/** Waits for a message with this text inside `region`: an error alert or a success status. */
async function alertSays(region: ReturnType<typeof within>, text: string) {
  await waitFor(() =>
    expect(
      [...region.queryAllByRole("alert"), ...region.queryAllByRole("status")].some(
        (alert: HTMLElement) => alert.textContent === text,
      ),
    ).toBe(true),
  );
}

/** The field has the server's error as its own message. */
async function fieldSays(field: HTMLElement, text: string) {
  await waitFor(() => expect(field).toHaveAttribute("aria-invalid", "true"));
  await expect(field).toHaveAccessibleDescription(expect.stringContaining(text));
}

export const Loading: Story = {
  parameters: scenario({ signedIn: true, pending: ["/get-session"] }),
  play: async ({ canvasElement, globals }) => {
    const canvas = within(canvasElement);
    const messages = await strings(globals);
    await canvas.findByRole("heading", { name: messages.account.settings.title });
    await expect(await canvas.findByRole("status")).toHaveTextContent(messages.common.loading);
    await expect(canvas.queryByRole("region")).toBeNull();
  },
};

export const SignedOut: Story = {
  play: async ({ canvasElement, globals }) => {
    const canvas = within(canvasElement);
    const messages = await strings(globals);
    await expect(
      await canvas.findByText(messages.account.settings.signedOut, { exact: false }),
    ).toBeVisible();
    await expect(
      canvas.getByRole("link", { name: messages.account.userButton.signIn }),
    ).toHaveAttribute("href", "/sign-in");
  },
};

export const Default: Story = {
  parameters: scenario({ signedIn: true, socialProviders: ["github", "google"] }),
  play: async (context) => {
    const { canvas, messages } = await section(context, (m) => m.account.profile.title);
    const account = messages.account;
    for (const title of [
      account.email.title,
      account.password.title,
      account.linkedAccounts.title,
      account.sessions.title,
      account.deleteAccount.title,
    ]) {
      await expect(await canvas.findByRole("region", { name: title })).toBeVisible();
    }
    await expect(canvas.getByLabelText(messages.common.name)).toHaveValue("Ada Lovelace");
    const email = within(canvas.getByRole("region", { name: account.email.title }));
    await expect(email.getByText(EMAIL)).toBeVisible();
    await expect(email.getByText(account.email.verified)).toBeVisible();
    const linked = within(canvas.getByRole("region", { name: account.linkedAccounts.title }));
    await expect(await linked.findByText(account.linkedAccounts.credential)).toBeVisible();
    await expect(
      await linked.findByRole("button", {
        name: account.linkedAccounts.unlinkLabel({ provider: "GitHub" }),
      }),
    ).toBeVisible();
    await expect(
      await linked.findByRole("button", {
        name: account.linkedAccounts.link({ provider: "Google" }),
      }),
    ).toBeEnabled();
    const devices = within(canvas.getByRole("region", { name: account.sessions.title }));
    await expect(await devices.findByText(account.sessions.thisDevice)).toBeVisible();
    await expect(devices.getAllByRole("listitem")).toHaveLength(3);
  },
};

export const ProfileSaved: Story = {
  parameters: scenario({ signedIn: true }),
  play: async (context) => {
    const { messages, region } = await section(context, (m) => m.account.profile.title);
    const name = region.getByLabelText(messages.common.name);
    await userEvent.clear(name);
    await userEvent.type(name, "Augusta Ada King");
    await userEvent.click(region.getByRole("button", { name: messages.common.save }));
    await alertSays(region, messages.account.profile.saved);
    await expect(context.loaded.authd?.sent("/update-user")[0]?.body).toEqual({
      name: "Augusta Ada King",
      image: null,
    });
    await expect(name).toHaveValue("Augusta Ada King");
  },
};

export const ProfileSaveFailed: Story = {
  parameters: scenario({ signedIn: true, failures: { "/update-user": "NETWORK_ERROR" } }),
  play: async (context) => {
    const { messages, region } = await section(context, (m) => m.account.profile.title);
    await userEvent.type(region.getByLabelText(messages.common.name), " King");
    await userEvent.click(region.getByRole("button", { name: messages.common.save }));
    await alertSays(region, messages.errors.NETWORK_ERROR);
  },
};

export const ChangeEmailSent: Story = {
  parameters: scenario({ signedIn: true }),
  play: async (context) => {
    const { messages, region } = await section(context, (m) => m.account.email.title);
    const field = region.getByLabelText(messages.account.email.newEmail);
    await userEvent.type(field, "countess@example.com");
    await userEvent.click(region.getByRole("button", { name: messages.account.email.submit }));
    await alertSays(region, messages.account.email.sentToCurrent({ email: EMAIL }));
    await expect(context.loaded.authd?.sent("/change-email")[0]?.body).toMatchObject({
      newEmail: "countess@example.com",
    });
    await expect(field).toHaveValue("");
  },
};

export const ChangeEmailSameAddress: Story = {
  parameters: scenario({ signedIn: true, failures: { "/change-email": "EMAIL_IS_THE_SAME" } }),
  play: async (context) => {
    const { messages, region } = await section(context, (m) => m.account.email.title);
    const field = region.getByLabelText(messages.account.email.newEmail);
    await userEvent.type(field, EMAIL);
    await userEvent.click(region.getByRole("button", { name: messages.account.email.submit }));
    await fieldSays(field, messages.errors.EMAIL_IS_THE_SAME);
    await expect(context.loaded.authd?.sent("/change-email")).toHaveLength(1);
  },
};

export const ChangePassword: Story = {
  parameters: scenario({ signedIn: true }),
  play: async (context) => {
    const { messages, region } = await section(context, (m) => m.account.password.title);
    const strings = messages.account.password;
    await userEvent.type(
      await region.findByLabelText(strings.current),
      context.loaded.authd?.password ?? "",
    );
    await userEvent.type(region.getByLabelText(strings.new), "a much longer passphrase");
    await userEvent.click(region.getByLabelText(strings.revokeOtherSessions));
    await userEvent.click(region.getByRole("button", { name: strings.submit }));
    await alertSays(region, strings.changed);
    await expect(context.loaded.authd?.sent("/change-password")[0]?.body).toMatchObject({
      newPassword: "a much longer passphrase",
      revokeOtherSessions: true,
    });
    await expect(region.getByLabelText(strings.current)).toHaveValue("");
  },
};

/** Types a wrong current password: the server refuses it on the field. */
async function changePasswordWrongCurrent(context: PlayContext) {
  const { messages, region } = await section(context, (m) => m.account.password.title);
  const strings = messages.account.password;
  const current = await region.findByLabelText(strings.current);
  await userEvent.type(current, "not my password");
  await userEvent.type(region.getByLabelText(strings.new), "a much longer passphrase");
  await userEvent.click(region.getByRole("button", { name: strings.submit }));
  await fieldSays(current, messages.errors.INVALID_PASSWORD);
}

export const ChangePasswordWrongCurrent: Story = {
  parameters: scenario({ signedIn: true, failures: { "/change-password": "INVALID_PASSWORD" } }),
  play: changePasswordWrongCurrent,
};

export const SetPasswordByMail: Story = {
  parameters: scenario({ signedIn: true, hasPassword: false }),
  play: async (context) => {
    const { messages, region } = await section(context, (m) => m.account.password.title);
    const strings = messages.account.password;
    await expect(await region.findByText(strings.noPassword)).toBeVisible();
    await expect(region.queryByLabelText(strings.current)).toBeNull();
    await userEvent.click(region.getByRole("button", { name: strings.sendLink }));
    await alertSays(region, strings.linkSent({ email: EMAIL }));
    await expect(context.loaded.authd?.sent("/request-password-reset")[0]?.body).toMatchObject({
      email: EMAIL,
    });
    await expect(region.queryByRole("button", { name: strings.sendLink })).toBeNull();
  },
};

export const LinkAccount: Story = {
  parameters: scenario({ signedIn: true, socialProviders: ["github", "google"] }),
  play: async (context) => {
    const { canvas, messages, region } = await section(
      context,
      (m) => m.account.linkedAccounts.title,
    );
    await userEvent.click(
      await region.findByRole("button", {
        name: messages.account.linkedAccounts.link({ provider: "Google" }),
      }),
    );
    await expect(
      await canvas.findByText("Navigated to https://google.example.com/authorize?state=link"),
    ).toBeVisible();
    await expect(context.loaded.authd?.sent("/link-social")[0]?.body).toMatchObject({
      provider: "google",
    });
  },
};

/** Unlinks GitHub: the button, then the confirmation dialog's Unlink. */
async function unlinkGitHub(context: PlayContext) {
  const found = await section(context, (m) => m.account.linkedAccounts.title);
  const strings = found.messages.account.linkedAccounts;
  await userEvent.click(
    await found.region.findByRole("button", { name: strings.unlinkLabel({ provider: "GitHub" }) }),
  );
  const dialog = within(
    await found.canvas.findByRole("dialog", { name: strings.confirmTitle({ provider: "GitHub" }) }),
  );
  await expect(dialog.getByText(strings.confirmDescription)).toBeVisible();
  await userEvent.click(dialog.getByRole("button", { name: strings.unlink }));
  return found;
}

export const UnlinkAccount: Story = {
  parameters: scenario({ signedIn: true }),
  play: async (context) => {
    const { canvas, messages, region } = await unlinkGitHub(context);
    const strings = messages.account.linkedAccounts;
    await alertSays(region, strings.unlinked({ provider: "GitHub" }));
    await waitFor(() =>
      expect(
        region.queryByRole("button", { name: strings.unlinkLabel({ provider: "GitHub" }) }),
      ).toBeNull(),
    );
    await expect(canvas.queryByRole("dialog")).toBeNull();
    await expect(context.loaded.authd?.sent("/unlink-account")[0]?.body).toMatchObject({
      providerId: "github",
    });
  },
};

export const UnlinkLastAccount: Story = {
  parameters: scenario({
    signedIn: true,
    hasPassword: false,
    failures: { "/unlink-account": "FAILED_TO_UNLINK_LAST_ACCOUNT" },
  }),
  play: async (context) => {
    const { messages, region } = await unlinkGitHub(context);
    await alertSays(region, messages.errors.FAILED_TO_UNLINK_LAST_ACCOUNT);
    await expect(
      region.getByRole("button", {
        name: messages.account.linkedAccounts.unlinkLabel({ provider: "GitHub" }),
      }),
    ).toBeVisible();
  },
};

export const UnlinkNeedsFreshSession: Story = {
  parameters: scenario({ signedIn: true, freshSession: false }),
  play: async (context) => {
    const { canvas, messages, region } = await unlinkGitHub(context);
    const stepUp = within(
      await canvas.findByRole("dialog", { name: messages.common.stepUp.title }),
    );
    await expect(stepUp.getByText(messages.common.stepUp.description)).toBeVisible();
    await userEvent.type(
      stepUp.getByLabelText(messages.common.password),
      context.loaded.authd?.password ?? "",
    );
    await userEvent.click(stepUp.getByRole("button", { name: messages.common.stepUp.confirm }));
    await alertSays(region, messages.account.linkedAccounts.unlinked({ provider: "GitHub" }));
    await waitFor(() =>
      expect(canvas.queryByRole("dialog", { name: messages.common.stepUp.title })).toBeNull(),
    );
    // Refused once as not fresh, then retried after signing in again.
    await expect(context.loaded.authd?.sent("/unlink-account")).toHaveLength(2);
    await expect(context.loaded.authd?.sent("/sign-in/email")[0]?.body).toMatchObject({
      email: EMAIL,
    });
  },
};

export const Sessions: Story = {
  parameters: scenario({ signedIn: true }),
  play: async (context) => {
    const { canvas, messages, region } = await section(context, (m) => m.account.sessions.title);
    const strings = messages.account.sessions;
    const rows = await region.findAllByRole("listitem");
    await expect(rows).toHaveLength(3);
    // This device comes first, with its badge and no sign-out button.
    const first = within(rows[0] as HTMLElement);
    await expect(first.getByText(strings.thisDevice)).toBeVisible();
    await expect(first.getByText(strings.device({ browser: "Chrome", os: "Linux" }))).toBeVisible();
    await expect(first.queryByRole("button")).toBeNull();

    // Sign out one other device.
    const phone = strings.device({ browser: strings.unknownBrowser, os: "iOS" });
    await userEvent.click(
      region.getByRole("button", { name: strings.revokeLabel({ device: phone }) }),
    );
    await alertSays(region, strings.revoked);
    await waitFor(() => expect(region.getAllByRole("listitem")).toHaveLength(2));
    await expect(context.loaded.authd?.sent("/revoke-session")[0]?.body).toEqual({
      token: "session-phone",
    });

    // Sign out every other device, confirmed in a dialog.
    await userEvent.click(region.getByRole("button", { name: strings.revokeOthers }));
    const dialog = within(await canvas.findByRole("dialog", { name: strings.confirmRevokeOthers }));
    await userEvent.click(dialog.getByRole("button", { name: strings.revokeOthers }));
    await alertSays(region, strings.othersRevoked);
    await waitFor(() => expect(region.getAllByRole("listitem")).toHaveLength(1));
    await expect(region.getByText(strings.none)).toBeVisible();
    await expect(context.loaded.authd?.sent("/revoke-other-sessions")).toHaveLength(1);
  },
};

/** Opens the delete dialog, types the password and confirms. */
async function deleteAccount(context: PlayContext, password: string) {
  const found = await section(context, (m) => m.account.deleteAccount.title);
  const strings = found.messages.account.deleteAccount;
  await userEvent.click(found.region.getByRole("button", { name: strings.open }));
  const element = await found.canvas.findByRole("dialog", { name: strings.confirmTitle });
  const dialog = within(element);
  const field = await dialog.findByLabelText(found.messages.common.password);
  await userEvent.type(field, password);
  await waitFor(() => expect(dialog.getByRole("button", { name: strings.confirm })).toBeEnabled());
  await userEvent.click(dialog.getByRole("button", { name: strings.confirm }));
  return { ...found, dialog, field };
}

export const DeleteAccount: Story = {
  parameters: scenario({ signedIn: true }),
  play: async (context) => {
    const password = context.loaded.authd?.password ?? "";
    const { canvas, messages, region } = await deleteAccount(context, password);
    await alertSays(region, messages.account.deleteAccount.emailSent);
    await expect(canvas.queryByRole("dialog")).toBeNull();
    await expect(context.loaded.authd?.sent("/delete-user")[0]?.body).toMatchObject({ password });
  },
};

export const DeleteAccountWrongPassword: Story = {
  parameters: scenario({ signedIn: true, failures: { "/delete-user": "INVALID_PASSWORD" } }),
  play: async (context) => {
    const { messages, field } = await deleteAccount(context, "not my password");
    await fieldSays(field, messages.errors.INVALID_PASSWORD);
  },
};

export const DeleteAccountWithoutPassword: Story = {
  parameters: scenario({ signedIn: true, hasPassword: false }),
  play: async (context) => {
    const { canvas, messages, region } = await section(
      context,
      (m) => m.account.deleteAccount.title,
    );
    const strings = messages.account.deleteAccount;
    await userEvent.click(region.getByRole("button", { name: strings.open }));
    const dialog = within(await canvas.findByRole("dialog", { name: strings.confirmTitle }));
    const confirm = dialog.getByRole("button", { name: strings.confirm });
    await waitFor(() => expect(confirm).toBeEnabled());
    // No password to give: the confirmation asks for none.
    await expect(dialog.queryByLabelText(messages.common.password)).toBeNull();
    await userEvent.click(confirm);
    await alertSays(region, strings.emailSent);
    await expect(context.loaded.authd?.sent("/delete-user")[0]?.body).not.toHaveProperty(
      "password",
    );
  },
};

export const DeleteAccountNeedsFreshSession: Story = {
  parameters: scenario({ signedIn: true, hasPassword: false, freshSession: false }),
  play: async (context) => {
    const { canvas, messages, region } = await section(
      context,
      (m) => m.account.deleteAccount.title,
    );
    const strings = messages.account.deleteAccount;
    await userEvent.click(region.getByRole("button", { name: strings.open }));
    const dialog = within(await canvas.findByRole("dialog", { name: strings.confirmTitle }));
    const confirm = dialog.getByRole("button", { name: strings.confirm });
    await waitFor(() => expect(confirm).toBeEnabled());
    await userEvent.click(confirm);
    // Without a password, confirming means signing in again with the provider.
    const stepUp = within(
      await canvas.findByRole("dialog", { name: messages.common.stepUp.title }),
    );
    await expect(stepUp.getByText(messages.common.stepUp.descriptionSocial)).toBeVisible();
    await expect(stepUp.queryByLabelText(messages.common.password)).toBeNull();
    await userEvent.click(stepUp.getByRole("link", { name: messages.common.continue }));
    await expect(await canvas.findByText("Navigated to /sign-in")).toBeVisible();
    await expect(context.loaded.authd?.sent("/delete-user")).toHaveLength(1);
  },
};

export const ChangeEmailRefused: Story = {
  parameters: scenario({ signedIn: true, failures: { "/change-email": "COULD_NOT_UPDATE_EMAIL" } }),
  play: async (context) => {
    const { messages, region } = await section(context, (m) => m.account.email.title);
    const field = region.getByLabelText(messages.account.email.newEmail);
    await userEvent.type(field, "grace@example.com");
    await userEvent.click(region.getByRole("button", { name: messages.account.email.submit }));
    await fieldSays(field, messages.errors.COULD_NOT_UPDATE_EMAIL);
  },
};

export const ChangePasswordTooShort: Story = {
  parameters: scenario({
    signedIn: true,
    failures: {
      "/change-password": { code: "PASSWORD_TOO_SHORT", details: { minPasswordLength: 8 } },
    },
  }),
  play: async (context) => {
    const { messages, region } = await section(context, (m) => m.account.password.title);
    const strings = messages.account.password;
    await userEvent.type(
      await region.findByLabelText(strings.current),
      context.loaded.authd?.password ?? "",
    );
    const next = region.getByLabelText(strings.new);
    await userEvent.type(next, "short");
    await userEvent.click(region.getByRole("button", { name: strings.submit }));
    await fieldSays(next, messages.common.passwordTooShort({ min: 8 }));
  },
};

export const LinkProviderUnavailable: Story = {
  parameters: scenario({
    signedIn: true,
    socialProviders: ["github", "google"],
    failures: { "/link-social": "PROVIDER_NOT_FOUND" },
  }),
  play: async (context) => {
    const { canvas, messages, region } = await section(
      context,
      (m) => m.account.linkedAccounts.title,
    );
    const link = await region.findByRole("button", {
      name: messages.account.linkedAccounts.link({ provider: "Google" }),
    });
    await userEvent.click(link);
    await alertSays(region, messages.errors.PROVIDER_NOT_FOUND);
    await waitFor(() => expect(link).toBeEnabled());
    await expect(canvas.queryByText(/^Navigated to/)).toBeNull();
  },
};

export const SignOutDeviceFailed: Story = {
  parameters: scenario({ signedIn: true, failures: { "/revoke-session": "NETWORK_ERROR" } }),
  play: async (context) => {
    const { messages, region } = await section(context, (m) => m.account.sessions.title);
    const strings = messages.account.sessions;
    const phone = strings.device({ browser: strings.unknownBrowser, os: "iOS" });
    await userEvent.click(
      await region.findByRole("button", { name: strings.revokeLabel({ device: phone }) }),
    );
    await alertSays(region, messages.errors.NETWORK_ERROR);
    await expect(region.getAllByRole("listitem")).toHaveLength(3);
  },
};

export const DevicesUnavailable: Story = {
  parameters: scenario({ signedIn: true, failures: { "/list-sessions": "NETWORK_ERROR" } }),
  play: async (context) => {
    const { messages, region } = await section(context, (m) => m.account.sessions.title);
    await alertSays(region, messages.errors.NETWORK_ERROR);
    await expect(region.queryByRole("list")).toBeNull();
  },
};

export const German: Story = {
  globals: { locale: "de" },
  parameters: scenario({ signedIn: true }),
  play: async (context) => {
    await changePasswordWrongCurrent(context);
    const english = await loadMessages("en");
    const { messages } = await section(context, (m) => m.account.password.title);
    await expect(messages.account.password.title).not.toBe(english.account.password.title);
  },
};

export const Dark: Story = {
  globals: { appearance: "dark" },
  parameters: scenario({ signedIn: true, socialProviders: ["github", "google"] }),
  play: async (context) => {
    const { canvas, messages, region } = await section(
      context,
      (m) => m.account.linkedAccounts.title,
    );
    await expect(await region.findByText(messages.account.linkedAccounts.credential)).toBeVisible();
    await expect(await canvas.findByText(messages.account.sessions.thisDevice)).toBeVisible();
    const root = context.canvasElement.querySelector('[data-authd-component="account-settings"]');
    await expect(root).toHaveAttribute("data-authd-theme", "dark");
  },
};
