import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, userEvent, waitFor, within } from "storybook/test";
import { loadMessages, OrganizationSwitcher } from "../src/index.js";
import type { AuthdScenario } from "./mock/authd.js";
import { type PlayContext, strings } from "./play.js";

const meta = {
  title: "OrganizationSwitcher",
  component: OrganizationSwitcher,
} satisfies Meta<typeof OrganizationSwitcher>;

export default meta;
type Story = StoryObj<typeof meta>;

function scenario(authd: AuthdScenario) {
  return { authd };
}

/** Waits for the button naming the active organization (`current`). */
async function switcher({ canvasElement, globals }: PlayContext, current?: string) {
  const canvas = within(canvasElement);
  const messages = await strings(globals);
  const button = await canvas.findByRole("button", {
    name: messages.organization.switcher.label({ current: current ?? "Acme" }),
  });
  return { canvas, messages, button };
}

/** Opens the menu with a click. */
async function openMenu(context: PlayContext, current?: string) {
  const found = await switcher(context, current);
  await userEvent.click(found.button);
  const menu = await found.canvas.findByRole("menu", {
    name: found.messages.organization.switcher.menuLabel,
  });
  return { ...found, menu: within(menu) };
}

export const Loading: Story = {
  parameters: scenario({ signedIn: true, pending: ["/organization/list"] }),
  play: async ({ canvasElement, globals }) => {
    const canvas = within(canvasElement);
    const messages = await strings(globals);
    await expect(await canvas.findByRole("status")).toHaveTextContent(messages.common.loading);
    await expect(canvas.queryByRole("button")).toBeNull();
  },
};

export const WithOrganizations: Story = {
  parameters: scenario({ signedIn: true }),
  play: async (context) => {
    const { messages, button, menu } = await openMenu(context);
    await expect(button).toHaveAttribute("aria-expanded", "true");
    const choices = menu.getAllByRole("menuitemradio");
    await expect(choices).toHaveLength(3);
    await expect(
      menu.getByRole("menuitemradio", { name: messages.organization.switcher.personal }),
    ).toHaveAttribute("aria-checked", "false");
    const acme = menu.getByRole("menuitemradio", { name: /Acme/ });
    await expect(acme).toHaveAttribute("aria-checked", "true");
    await expect(acme).toHaveFocus();
    await expect(menu.getByRole("menuitemradio", { name: /Globex/ })).toHaveAttribute(
      "aria-checked",
      "false",
    );
    await expect(
      menu.getByRole("menuitem", { name: messages.organization.switcher.create }),
    ).toBeVisible();
  },
};

export const SwitchWithKeyboard: Story = {
  parameters: scenario({ signedIn: true }),
  play: async (context) => {
    const { canvas, messages, button } = await switcher(context);
    button.focus();
    await userEvent.keyboard("{ArrowDown}");
    const personal = await canvas.findByRole("menuitemradio", {
      name: messages.organization.switcher.personal,
    });
    await waitFor(() => expect(personal).toHaveFocus());
    await userEvent.keyboard("{ArrowDown}");
    await expect(canvas.getByRole("menuitemradio", { name: /Acme/ })).toHaveFocus();
    await userEvent.keyboard("{End}");
    await expect(
      canvas.getByRole("menuitem", { name: messages.organization.switcher.create }),
    ).toHaveFocus();
    await userEvent.keyboard("{Escape}");
    await waitFor(() => expect(canvas.queryByRole("menu")).toBeNull());
    await expect(button).toHaveFocus();
    // Open again, walk to Globex and pick it with Enter.
    await userEvent.keyboard("{ArrowDown}");
    await canvas.findByRole("menu");
    await userEvent.keyboard("{Home}{ArrowDown}{ArrowDown}");
    await expect(canvas.getByRole("menuitemradio", { name: /Globex/ })).toHaveFocus();
    await userEvent.keyboard("{Enter}");
    await waitFor(() =>
      expect(context.loaded.authd?.sent("/organization/set-active")[0]?.body).toEqual({
        organizationId: "org-globex",
      }),
    );
    const globex = await canvas.findByRole("button", {
      name: messages.organization.switcher.label({ current: "Globex" }),
    });
    await expect(globex).toHaveFocus();
    await expect(canvas.queryByRole("menu")).toBeNull();
  },
};

export const NoOrganizations: Story = {
  parameters: scenario({ signedIn: true, organizations: false }),
  play: async (context) => {
    const { messages, menu } = await openMenu(
      context,
      (await strings(context.globals)).organization.switcher.personal,
    );
    const personal = menu.getByRole("menuitemradio", {
      name: messages.organization.switcher.personal,
    });
    await expect(personal).toHaveAttribute("aria-checked", "true");
    await expect(menu.getAllByRole("menuitemradio")).toHaveLength(1);
    await expect(
      menu.getByRole("menuitem", { name: messages.organization.switcher.create }),
    ).toBeVisible();
  },
};

export const CreateNavigates: Story = {
  parameters: scenario({ signedIn: true }),
  play: async (context) => {
    const { canvas, messages, menu } = await openMenu(context);
    await userEvent.click(
      menu.getByRole("menuitem", { name: messages.organization.switcher.create }),
    );
    await expect(await canvas.findByText("Navigated to /organization/new")).toBeVisible();
    await expect(canvas.queryByRole("dialog")).toBeNull();
  },
};

export const CreateInDialog: Story = {
  args: { createMode: "dialog" },
  parameters: scenario({ signedIn: true }),
  play: async (context) => {
    const { canvas, messages, menu } = await openMenu(context);
    await userEvent.click(
      menu.getByRole("menuitem", { name: messages.organization.switcher.create }),
    );
    const dialog = within(
      await canvas.findByRole("dialog", { name: messages.organization.create.title }),
    );
    await userEvent.type(dialog.getByLabelText(messages.organization.fields.name), "Hooli");
    await userEvent.click(
      dialog.getByRole("button", { name: messages.organization.create.submit }),
    );
    await waitFor(() => expect(canvas.queryByRole("dialog")).toBeNull());
    await expect(
      await canvas.findByRole("button", {
        name: messages.organization.switcher.label({ current: "Hooli" }),
      }),
    ).toBeVisible();
    await expect(context.loaded.authd?.sent("/organization/create")[0]?.body).toMatchObject({
      name: "Hooli",
      slug: "hooli",
    });
    await expect(canvas.queryByText(/^Navigated to/)).toBeNull();
  },
};

export const SwitchRefused: Story = {
  parameters: scenario({
    signedIn: true,
    failures: { "/organization/set-active": "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION" },
  }),
  play: async (context) => {
    const { canvas, messages, menu } = await openMenu(context);
    await userEvent.click(menu.getByRole("menuitemradio", { name: /Globex/ }));
    const alert = await canvas.findByRole("alert");
    await waitFor(() =>
      expect(alert).toHaveTextContent(messages.errors.USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION),
    );
    // The session still names Acme.
    await expect(
      canvas.getByRole("button", {
        name: messages.organization.switcher.label({ current: "Acme" }),
      }),
    ).toBeVisible();
  },
};

export const ListUnavailable: Story = {
  parameters: scenario({ signedIn: true, failures: { "/organization/list": "NETWORK_ERROR" } }),
  play: async ({ canvasElement, globals }) => {
    const canvas = within(canvasElement);
    const messages = await strings(globals);
    const alert = await canvas.findByRole("alert");
    await waitFor(() => expect(alert).toHaveTextContent(messages.errors.NETWORK_ERROR));
  },
};

export const Switching: Story = {
  parameters: scenario({ signedIn: true, pending: ["/organization/set-active"] }),
  play: async (context) => {
    const { canvas, button, menu } = await openMenu(context);
    await userEvent.click(menu.getByRole("menuitemradio", { name: /Globex/ }));
    await waitFor(() => expect(button).toHaveAttribute("aria-busy", "true"));
    await expect(canvas.queryByRole("menu")).toBeNull();
    await expect(context.loaded.authd?.sent("/organization/set-active")).toHaveLength(1);
  },
};

export const German: Story = {
  globals: { locale: "de" },
  parameters: scenario({ signedIn: true }),
  play: async (context) => {
    const { messages, menu } = await openMenu(context);
    const english = await loadMessages("en");
    await expect(messages.organization.switcher.create).not.toBe(
      english.organization.switcher.create,
    );
    await expect(
      menu.getByRole("menuitem", { name: messages.organization.switcher.create }),
    ).toBeVisible();
    const root = context.canvasElement.querySelector(
      '[data-authd-component="organization-switcher"]',
    );
    await expect(root).toHaveAttribute("lang", "de");
  },
};

export const Dark: Story = {
  globals: { appearance: "dark" },
  parameters: scenario({ signedIn: true }),
  play: async (context) => {
    const { menu } = await openMenu(context);
    await expect(menu.getByRole("menuitemradio", { name: /Acme/ })).toHaveAttribute(
      "aria-checked",
      "true",
    );
    const root = context.canvasElement.querySelector(
      '[data-authd-component="organization-switcher"]',
    );
    await expect(root).toHaveAttribute("data-authd-theme", "dark");
  },
};
