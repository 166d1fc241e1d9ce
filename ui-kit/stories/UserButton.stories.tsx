import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, userEvent, waitFor, within } from "storybook/test";
import { loadMessages, UserButton } from "../src/index.js";
import type { AuthdScenario } from "./mock/authd.js";
import { type PlayContext, strings } from "./play.js";

const meta = {
  title: "UserButton",
  component: UserButton,
  // Where the button usually sits: the end of a page's header, its menu opening below.
  decorators: [
    (Story) => (
      <header style={{ display: "flex", justifyContent: "flex-end", minHeight: "28rem" }}>
        <Story />
      </header>
    ),
  ],
} satisfies Meta<typeof UserButton>;

export default meta;
type Story = StoryObj<typeof meta>;

const NAME = "Ada Lovelace";

function scenario(authd: AuthdScenario) {
  return { authd };
}

/** Waits for the avatar button (named after the user) and clicks it open. */
async function openMenu({ canvasElement, globals }: PlayContext) {
  const canvas = within(canvasElement);
  const messages = await strings(globals);
  const button = await canvas.findByRole("button", { name: NAME });
  await userEvent.click(button);
  const menu = await canvas.findByRole("menu", {
    name: messages.account.userButton.openMenu({ name: NAME }),
  });
  return { canvas, messages, button, menu: within(menu) };
}

export const Loading: Story = {
  parameters: scenario({ signedIn: true, pending: ["/get-session"] }),
  play: async ({ canvasElement, globals }) => {
    const canvas = within(canvasElement);
    const messages = await strings(globals);
    const placeholder = await canvas.findByRole("img", {
      name: messages.account.userButton.loading,
    });
    await expect(placeholder).toHaveAttribute("aria-busy", "true");
    await expect(canvas.queryByRole("button")).toBeNull();
  },
};

export const SignedOut: Story = {
  play: async ({ canvasElement, loaded }) => {
    await waitFor(() => expect(loaded.authd?.sent("/get-session")).toHaveLength(1));
    await waitFor(() =>
      expect(canvasElement.querySelector('[data-authd-component="user-button"]')).toBeNull(),
    );
    await expect(within(canvasElement).queryByRole("button")).toBeNull();
  },
};

export const SignedOutWithSignInLink: Story = {
  args: { showSignInWhenSignedOut: true },
  play: async ({ canvasElement, globals }) => {
    const canvas = within(canvasElement);
    const messages = await strings(globals);
    const link = await canvas.findByRole("link", { name: messages.account.userButton.signIn });
    await expect(link).toHaveAttribute("href", "/sign-in");
  },
};

export const OpenMenu: Story = {
  parameters: scenario({ signedIn: true }),
  play: async (context) => {
    const { messages, button, menu } = await openMenu(context);
    const strings = messages.account.userButton;
    await expect(button).toHaveAttribute("aria-expanded", "true");
    await expect(menu.getByText(NAME)).toBeVisible();
    await expect(menu.getByText("ada@example.com")).toBeVisible();
    await expect(menu.getByRole("menuitem", { name: strings.account })).toHaveAttribute(
      "href",
      "/account",
    );
    const group = within(menu.getByRole("group", { name: strings.organizations }));
    await expect(await group.findByRole("menuitemradio", { name: "Acme" })).toHaveAttribute(
      "aria-checked",
      "true",
    );
    await expect(group.getByRole("menuitemradio", { name: "Globex" })).toHaveAttribute(
      "aria-checked",
      "false",
    );
    await expect(group.getByRole("menuitemradio", { name: strings.personal })).toHaveAttribute(
      "aria-checked",
      "false",
    );
    await expect(menu.getByRole("menuitem", { name: strings.signOut })).toBeVisible();
  },
};

export const KeyboardNavigation: Story = {
  args: { showOrganizations: false },
  parameters: scenario({ signedIn: true }),
  play: async ({ canvasElement, globals }) => {
    const canvas = within(canvasElement);
    const messages = await strings(globals);
    const labels = messages.account.userButton;
    const button = await canvas.findByRole("button", { name: NAME });
    button.focus();
    await userEvent.keyboard("{Enter}");
    const account = await canvas.findByRole("menuitem", { name: labels.account });
    await waitFor(() => expect(account).toHaveFocus());
    const signOut = canvas.getByRole("menuitem", { name: labels.signOut });
    await userEvent.keyboard("{ArrowDown}");
    await expect(signOut).toHaveFocus();
    await userEvent.keyboard("{ArrowDown}");
    await expect(account).toHaveFocus();
    await userEvent.keyboard("{End}");
    await expect(signOut).toHaveFocus();
    await userEvent.keyboard("{Home}");
    await expect(account).toHaveFocus();
    await userEvent.keyboard("{Escape}");
    await waitFor(() => expect(canvas.queryByRole("menu")).toBeNull());
    await expect(button).toHaveFocus();
    await expect(button).toHaveAttribute("aria-expanded", "false");
    // Enter on the account link follows it.
    await userEvent.keyboard("{ArrowDown}");
    await waitFor(() =>
      expect(canvas.getByRole("menuitem", { name: labels.account })).toHaveFocus(),
    );
    await userEvent.keyboard("{Enter}");
    await expect(await canvas.findByText("Navigated to /account")).toBeVisible();
  },
};

export const SwitchOrganization: Story = {
  parameters: scenario({ signedIn: true }),
  play: async (context) => {
    const { menu } = await openMenu(context);
    await userEvent.click(await menu.findByRole("menuitemradio", { name: "Globex" }));
    await waitFor(() =>
      expect(context.loaded.authd?.sent("/organization/set-active")[0]?.body).toEqual({
        organizationId: "org-globex",
      }),
    );
    // The session now names Globex: reopening shows it checked.
    const canvas = within(context.canvasElement);
    await waitFor(() => expect(canvas.queryByRole("menu")).toBeNull());
    await waitFor(() =>
      expect(context.loaded.authd?.sent("/get-session").length).toBeGreaterThan(1),
    );
    await userEvent.click(canvas.getByRole("button", { name: NAME }));
    await waitFor(() =>
      expect(canvas.getByRole("menuitemradio", { name: "Globex" })).toHaveAttribute(
        "aria-checked",
        "true",
      ),
    );
    await expect(canvas.getByRole("menuitemradio", { name: "Acme" })).toHaveAttribute(
      "aria-checked",
      "false",
    );
  },
};

export const SwitchRefused: Story = {
  parameters: scenario({
    signedIn: true,
    failures: { "/organization/set-active": "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION" },
  }),
  play: async (context) => {
    const { canvas, messages, menu } = await openMenu(context);
    await userEvent.click(await menu.findByRole("menuitemradio", { name: "Globex" }));
    const alert = await canvas.findByRole("alert");
    await waitFor(() =>
      expect(alert).toHaveTextContent(messages.errors.USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION),
    );
  },
};

export const SignOut: Story = {
  parameters: scenario({ signedIn: true }),
  play: async (context) => {
    const { canvas, messages, menu } = await openMenu(context);
    await userEvent.click(
      menu.getByRole("menuitem", { name: messages.account.userButton.signOut }),
    );
    await expect(await canvas.findByText("Navigated to /sign-in")).toBeVisible();
    await expect(context.loaded.authd?.sent("/sign-out")).toHaveLength(1);
  },
};

export const NoOrganizations: Story = {
  parameters: scenario({ signedIn: true, organizations: false }),
  play: async (context) => {
    const { messages, menu } = await openMenu(context);
    const strings = messages.account.userButton;
    const group = within(menu.getByRole("group", { name: strings.organizations }));
    await waitFor(() =>
      expect(context.loaded.authd?.sent("/organization/list").length).toBeGreaterThan(0),
    );
    await expect(group.getByRole("menuitemradio", { name: strings.personal })).toHaveAttribute(
      "aria-checked",
      "true",
    );
    await expect(group.getAllByRole("menuitemradio")).toHaveLength(1);
    await expect(menu.getByRole("menuitem", { name: strings.createOrganization })).toHaveAttribute(
      "href",
      "/organization/new",
    );
  },
};

export const SwitchToPersonalAccount: Story = {
  parameters: scenario({ signedIn: true }),
  play: async (context) => {
    const { canvas, messages, menu } = await openMenu(context);
    const personal = messages.account.userButton.personal;
    await userEvent.click(await menu.findByRole("menuitemradio", { name: personal }));
    await waitFor(() =>
      expect(context.loaded.authd?.sent("/organization/set-active")[0]?.body).toEqual({
        organizationId: null,
      }),
    );
    await waitFor(() =>
      expect(context.loaded.authd?.sent("/get-session").length).toBeGreaterThan(1),
    );
    await userEvent.click(canvas.getByRole("button", { name: NAME }));
    await waitFor(() =>
      expect(canvas.getByRole("menuitemradio", { name: personal })).toHaveAttribute(
        "aria-checked",
        "true",
      ),
    );
  },
};

export const SignOutFailed: Story = {
  parameters: scenario({ signedIn: true, failures: { "/sign-out": "NETWORK_ERROR" } }),
  play: async (context) => {
    const { canvas, messages, menu } = await openMenu(context);
    await userEvent.click(
      menu.getByRole("menuitem", { name: messages.account.userButton.signOut }),
    );
    const alert = await canvas.findByRole("alert");
    await waitFor(() => expect(alert).toHaveTextContent(messages.errors.NETWORK_ERROR));
    await expect(canvas.queryByText(/^Navigated to/)).toBeNull();
    await expect(canvas.getByRole("button", { name: NAME })).toBeVisible();
  },
};

export const German: Story = {
  globals: { locale: "de" },
  parameters: scenario({ signedIn: true }),
  play: async (context) => {
    const { messages, menu } = await openMenu(context);
    const english = await loadMessages("en");
    await expect(messages.account.userButton.signOut).not.toBe(english.account.userButton.signOut);
    await expect(
      menu.getByRole("menuitem", { name: messages.account.userButton.signOut }),
    ).toBeVisible();
    const root = context.canvasElement.querySelector('[data-authd-component="user-button"]');
    await expect(root).toHaveAttribute("lang", "de");
  },
};

export const Dark: Story = {
  globals: { appearance: "dark" },
  parameters: scenario({ signedIn: true }),
  play: async (context) => {
    const { messages, menu } = await openMenu(context);
    await expect(await menu.findByRole("menuitemradio", { name: "Acme" })).toHaveAttribute(
      "aria-checked",
      "true",
    );
    await expect(
      menu.getByRole("menuitem", { name: messages.account.userButton.signOut }),
    ).toBeVisible();
    const root = context.canvasElement.querySelector('[data-authd-component="user-button"]');
    await expect(root).toHaveAttribute("data-authd-theme", "dark");
  },
};
