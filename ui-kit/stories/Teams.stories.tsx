import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, userEvent, waitFor, within } from "storybook/test";
import { loadMessages, Teams } from "../src/index.js";
import type { AuthdScenario } from "./mock/authd.js";
import { type PlayContext, strings } from "./play.js";

const meta = {
  title: "Teams",
  component: Teams,
} satisfies Meta<typeof Teams>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Waits for the section in the story's language (it stays hidden while the language loads). */
async function section({ canvasElement, globals }: PlayContext) {
  const canvas = within(canvasElement);
  const messages = await strings(globals);
  await canvas.findByRole("heading", { name: messages.teams.title });
  return { canvas, messages, text: messages.teams };
}

/** Waits for Acme's teams, Design and Platform. */
async function teams(context: PlayContext) {
  const found = await section(context);
  const list = within(await found.canvas.findByRole("list", { name: found.text.title }));
  await list.findByText("Platform");
  return { ...found, list };
}

/** Opens a team's members and waits for them. */
async function expand(context: PlayContext, team: string) {
  const found = await teams(context);
  const { canvas, text } = found;
  const toggle = canvas.getByRole("button", { name: text.membersOf({ name: team }) });
  await userEvent.click(toggle);
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  const panel = canvasElementOf(context, toggle);
  await within(panel).findByText(text.memberCount({ count: team === "Design" ? 2 : 0 }));
  return { ...found, panel: within(panel) };
}

/** The members panel a toggle controls. */
function canvasElementOf(context: PlayContext, toggle: HTMLElement): HTMLElement {
  const id = toggle.getAttribute("aria-controls") ?? "";
  return context.canvasElement.ownerDocument.getElementById(id) as HTMLElement;
}

function scenario(authd: AuthdScenario) {
  return { authd: { signedIn: true, ...authd } };
}

export const Owner: Story = {
  parameters: scenario({}),
  play: async (context) => {
    const { canvas, text, list } = await teams(context);
    await expect(list.getAllByRole("listitem")).toHaveLength(2);
    await expect(canvas.getByRole("form", { name: text.create })).toBeVisible();
    await expect(
      canvas.getByRole("button", { name: text.renameTeam({ name: "Design" }) }),
    ).toBeVisible();
    await expect(
      canvas.getByRole("button", { name: text.removeTeam({ name: "Design" }) }),
    ).toBeVisible();
  },
};

export const CreateTeam: Story = {
  parameters: scenario({}),
  play: async (context) => {
    const { canvas, text, list } = await teams(context);
    await userEvent.type(canvas.getByLabelText(text.nameLabel), "Research");
    await userEvent.click(canvas.getByRole("button", { name: text.create }));
    await expect(await canvas.findByText(text.created({ name: "Research" }))).toBeVisible();
    await expect(await list.findByText("Research")).toBeVisible();
    await expect(context.loaded.authd?.sent("/organization/create-team")[0]?.body).toMatchObject({
      name: "Research",
    });
  },
};

export const RenameTeam: Story = {
  parameters: scenario({}),
  play: async (context) => {
    const { canvas, messages, text, list } = await teams(context);
    await userEvent.click(
      canvas.getByRole("button", { name: text.renameTeam({ name: "Platform" }) }),
    );
    const field = await canvas.findByLabelText(text.renameLabel({ name: "Platform" }));
    await waitFor(() => expect(field).toHaveFocus());
    await userEvent.clear(field);
    await userEvent.type(field, "Infrastructure");
    await userEvent.click(canvas.getByRole("button", { name: messages.common.save }));
    await expect(await list.findByText("Infrastructure")).toBeVisible();
    await expect(list.queryByText("Platform")).toBeNull();
    await expect(context.loaded.authd?.sent("/organization/update-team")[0]?.body).toMatchObject({
      teamId: "team-platform",
      data: { name: "Infrastructure" },
    });
  },
};

export const RemoveTeam: Story = {
  parameters: scenario({}),
  play: async (context) => {
    const { canvas, text, list } = await teams(context);
    await userEvent.click(
      canvas.getByRole("button", { name: text.removeTeam({ name: "Platform" }) }),
    );
    const dialog = within(
      await canvas.findByRole("dialog", { name: text.removeTitle({ name: "Platform" }) }),
    );
    await userEvent.click(dialog.getByRole("button", { name: text.removeConfirm }));
    await waitFor(() => expect(list.queryByText("Platform")).toBeNull());
    await expect(canvas.queryByRole("dialog")).toBeNull();
    await expect(context.loaded.authd?.sent("/organization/remove-team")[0]?.body).toMatchObject({
      teamId: "team-platform",
    });
  },
};

export const LastTeam: Story = {
  parameters: scenario({ failures: { "/organization/remove-team": "UNABLE_TO_REMOVE_LAST_TEAM" } }),
  play: async (context) => {
    const { canvas, messages, text, list } = await teams(context);
    await userEvent.click(
      canvas.getByRole("button", { name: text.removeTeam({ name: "Design" }) }),
    );
    const dialog = within(
      await canvas.findByRole("dialog", { name: text.removeTitle({ name: "Design" }) }),
    );
    await userEvent.click(dialog.getByRole("button", { name: text.removeConfirm }));
    await waitFor(() =>
      expect(dialog.getByRole("alert")).toHaveTextContent(
        messages.errors.UNABLE_TO_REMOVE_LAST_TEAM,
      ),
    );
    await expect(list.getByText("Design")).toBeVisible();
  },
};

export const TeamMembers: Story = {
  parameters: scenario({}),
  play: async (context) => {
    const { panel } = await expand(context, "Design");
    await expect(await panel.findByText("Grace Hopper")).toBeVisible();
    await expect(panel.getByText("Ada Lovelace")).toBeVisible();
  },
};

export const AddTeamMember: Story = {
  parameters: scenario({}),
  play: async (context) => {
    const { text, panel } = await expand(context, "Platform");
    await expect(panel.getByText(text.noMembers)).toBeVisible();
    const add = panel.getByRole("button", { name: text.addMember });
    await expect(add).toBeDisabled();
    await userEvent.selectOptions(panel.getByLabelText(text.addMemberLabel), "user-alan");
    await userEvent.click(add);
    await expect(await panel.findByText(text.memberCount({ count: 1 }))).toBeVisible();
    await expect(panel.getByText("Alan Turing")).toBeVisible();
    await expect(
      context.loaded.authd?.sent("/organization/add-team-member")[0]?.body,
    ).toMatchObject({ teamId: "team-platform", userId: "user-alan" });
  },
};

export const RemoveTeamMember: Story = {
  parameters: scenario({}),
  play: async (context) => {
    const { canvas, text, panel } = await expand(context, "Design");
    await userEvent.click(
      await panel.findByRole("button", {
        name: text.removeMember({ name: "Grace Hopper", team: "Design" }),
      }),
    );
    const dialog = within(
      await canvas.findByRole("dialog", {
        name: text.removeMemberTitle({ name: "Grace Hopper", team: "Design" }),
      }),
    );
    await userEvent.click(dialog.getByRole("button", { name: text.removeMemberConfirm }));
    await expect(await panel.findByText(text.memberCount({ count: 1 }))).toBeVisible();
    await expect(panel.queryByText("Grace Hopper")).toBeNull();
    await expect(
      context.loaded.authd?.sent("/organization/remove-team-member")[0]?.body,
    ).toMatchObject({ teamId: "team-design", userId: "user-grace" });
  },
};

export const Member: Story = {
  parameters: scenario({ role: "member" }),
  play: async (context) => {
    const { canvas, text } = await teams(context);
    await expect(await canvas.findByText(text.readOnly)).toBeVisible();
    await expect(canvas.queryByRole("form", { name: text.create })).toBeNull();
    await expect(
      canvas.queryByRole("button", { name: text.renameTeam({ name: "Design" }) }),
    ).toBeNull();
    await expect(
      canvas.queryByRole("button", { name: text.removeTeam({ name: "Design" }) }),
    ).toBeNull();
    const { panel } = await expand(context, "Design");
    await expect(await panel.findByText("Grace Hopper")).toBeVisible();
    await expect(panel.queryByRole("button")).toBeNull();
  },
};

export const Disabled: Story = {
  parameters: scenario({ teams: false }),
  play: async (context) => {
    const { canvas, text } = await section(context);
    await expect(await canvas.findByText(text.disabled)).toBeVisible();
    await expect(canvas.getByText(text.disabledHint, { exact: false })).toBeVisible();
    await expect(canvas.queryByRole("list")).toBeNull();
  },
};

export const Empty: Story = {
  parameters: scenario({ acmeTeams: false }),
  play: async (context) => {
    const { canvas, text } = await section(context);
    await expect(await canvas.findByText(text.empty)).toBeVisible();
    await expect(canvas.getByRole("form", { name: text.create })).toBeVisible();
    await expect(canvas.queryByRole("list")).toBeNull();
  },
};

export const Loading: Story = {
  parameters: scenario({ pending: ["/organization/list-teams"] }),
  play: async (context) => {
    const { canvas, text } = await section(context);
    await expect(await canvas.findByRole("status")).toHaveTextContent(text.loading);
    await expect(canvas.queryByRole("list")).toBeNull();
  },
};

export const TeamAlreadyExists: Story = {
  parameters: scenario({ failures: { "/organization/create-team": "TEAM_ALREADY_EXISTS" } }),
  play: async (context) => {
    const { canvas, messages, text } = await teams(context);
    await userEvent.type(canvas.getByLabelText(text.nameLabel), "Design");
    await userEvent.click(canvas.getByRole("button", { name: text.create }));
    const form = within(canvas.getByRole("form", { name: text.create }));
    await waitFor(() =>
      expect(form.getByRole("alert")).toHaveTextContent(messages.errors.TEAM_ALREADY_EXISTS),
    );
  },
};

export const ListError: Story = {
  parameters: scenario({ failures: { "/organization/list-teams": "NETWORK_ERROR" } }),
  play: async (context) => {
    const { canvas, messages } = await section(context);
    await expect(await canvas.findByText(messages.errors.NETWORK_ERROR)).toBeVisible();
    await expect(canvas.getByRole("button", { name: messages.common.retry })).toBeEnabled();
    await expect(canvas.queryByRole("list")).toBeNull();
  },
};

export const NoOrganization: Story = {
  parameters: scenario({ organizations: false }),
  play: async (context) => {
    const { canvas, text } = await section(context);
    await expect(await canvas.findByText(text.noOrganization)).toBeVisible();
    await expect(canvas.queryByRole("list")).toBeNull();
  },
};

export const Dark: Story = {
  globals: { appearance: "dark" },
  parameters: scenario({}),
  play: async (context) => {
    const { panel } = await expand(context, "Design");
    await expect(await panel.findByText("Grace Hopper")).toBeVisible();
    const root = context.canvasElement.querySelector('[data-authd-component="teams"]');
    await expect(root).toHaveAttribute("data-authd-theme", "dark");
  },
};

/** The page in German: the strings come from that language, and the root says so. */
export const German: Story = {
  globals: { locale: "de" },
  parameters: scenario({}),
  play: async (context) => {
    await teams(context);
    const root = context.canvasElement.querySelector('[data-authd-component="teams"]');
    await expect(root).toHaveAttribute("lang", "de");
    const english = await loadMessages("en");
    const messages = await strings(context.globals);
    await expect(messages.teams.create).not.toBe(english.teams.create);
  },
};
