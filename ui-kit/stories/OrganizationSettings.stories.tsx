import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, userEvent, waitFor, within } from "storybook/test";
import { loadMessages, OrganizationSettings } from "../src/index.js";
import type { AuthdScenario } from "./mock/authd.js";
import { type PlayContext, strings } from "./play.js";

const meta = {
  title: "OrganizationSettings",
  component: OrganizationSettings,
  // After deleting or leaving, the page goes home (the frame shows "Navigated to /").
  args: { redirectTo: "/" },
} satisfies Meta<typeof OrganizationSettings>;

export default meta;
type Story = StoryObj<typeof meta>;

const INVITED = "linus@example.com";

/** Waits for Acme's page and its members in the story's language. */
async function settings({ canvasElement, globals }: PlayContext) {
  const canvas = within(canvasElement);
  const messages = await strings(globals);
  const text = messages.organization;
  await canvas.findByRole("heading", { level: 2, name: "Acme" });
  const members = within(await canvas.findByRole("list", { name: text.members.title }));
  await members.findByText("Alan Turing");
  return { canvas, messages, text, members };
}

/** Types an address into the invitation form and sends it. */
async function invite(context: PlayContext, email: string) {
  const found = await settings(context);
  const { canvas, text } = found;
  const form = within(await canvas.findByRole("form", { name: text.invite.title }));
  await userEvent.type(form.getByLabelText(text.fields.email), email);
  await userEvent.click(form.getByRole("button", { name: text.invite.submit }));
  return { ...found, form };
}

function scenario(authd: AuthdScenario) {
  return { authd: { signedIn: true, ...authd } };
}

export const Owner: Story = {
  parameters: scenario({}),
  play: async (context) => {
    const { canvas, text, members } = await settings(context);
    await expect(members.getAllByRole("listitem")).toHaveLength(3);
    await expect(members.getByText(`Ada Lovelace ${text.members.you}`)).toBeVisible();
    await expect(
      members.getByRole("combobox", { name: text.members.roleOf({ name: "Grace Hopper" }) }),
    ).toHaveValue("admin");
    await expect(canvas.getByLabelText(text.fields.name)).toHaveValue("Acme");
    await expect(canvas.getByRole("button", { name: text.details.delete })).toBeVisible();
    // The only owner cannot leave.
    await expect(canvas.queryByRole("button", { name: text.details.leave })).toBeNull();
    await expect(await canvas.findByText(INVITED)).toBeVisible();
  },
};

export const Admin: Story = {
  parameters: scenario({ role: "admin" }),
  play: async (context) => {
    const { canvas, text, members } = await settings(context);
    // An admin manages members but not the owner, and cannot delete the organization.
    await expect(
      members.getByRole("combobox", { name: text.members.roleOf({ name: "Alan Turing" }) }),
    ).toBeEnabled();
    await expect(
      members.queryByRole("combobox", { name: text.members.roleOf({ name: "Grace Hopper" }) }),
    ).toBeNull();
    await expect(members.getByText(text.roles.owner)).toBeVisible();
    await expect(canvas.queryByRole("button", { name: text.details.delete })).toBeNull();
    await expect(canvas.getByRole("button", { name: text.details.leave })).toBeVisible();
    await expect(canvas.getByRole("form", { name: text.invite.title })).toBeVisible();
  },
};

export const Member: Story = {
  parameters: scenario({ role: "member" }),
  play: async (context) => {
    const { canvas, text, members } = await settings(context);
    await expect(await canvas.findByText(text.details.readOnly)).toBeVisible();
    await expect(canvas.getByLabelText(text.fields.name)).toHaveAttribute("readonly");
    await expect(members.queryByRole("combobox")).toBeNull();
    await expect(members.queryByRole("button")).toBeNull();
    await expect(canvas.queryByRole("form", { name: text.invite.title })).toBeNull();
    await expect(canvas.queryByRole("heading", { name: text.invitations.title })).toBeNull();
    await expect(canvas.queryByRole("button", { name: text.details.delete })).toBeNull();
  },
};

export const NoActiveOrganization: Story = {
  parameters: scenario({ organizations: false }),
  play: async ({ canvasElement, globals }) => {
    const canvas = within(canvasElement);
    const { organization: text } = await strings(globals);
    await canvas.findByRole("heading", { level: 2, name: text.settings.title });
    await expect((await canvas.findAllByText(text.settings.noOrganization)).length).toBeGreaterThan(
      0,
    );
    const [link] = canvas.getAllByRole("link", { name: text.settings.createLink });
    await expect(link).toHaveAttribute("href", "/organization/new");
  },
};

export const Loading: Story = {
  parameters: scenario({ pending: ["/organization/get-full-organization"] }),
  play: async ({ canvasElement, globals }) => {
    const canvas = within(canvasElement);
    const messages = await strings(globals);
    await canvas.findByRole("heading", { level: 2, name: messages.organization.settings.title });
    await expect((await canvas.findAllByRole("status"))[0]).toHaveTextContent(
      messages.common.loading,
    );
    await expect(canvas.queryByRole("list")).toBeNull();
  },
};

export const ChangeRole: Story = {
  parameters: scenario({}),
  play: async (context) => {
    const { text, members } = await settings(context);
    const role = members.getByRole("combobox", {
      name: text.members.roleOf({ name: "Alan Turing" }),
    });
    await userEvent.selectOptions(role, "admin");
    await waitFor(() =>
      expect(context.loaded.authd?.sent("/organization/update-member-role")[0]?.body).toMatchObject(
        { memberId: "member-alan-acme", role: "admin" },
      ),
    );
    await waitFor(() => expect(role).toHaveValue("admin"));
    await waitFor(() => expect(role).toBeEnabled());
  },
};

export const RemoveMember: Story = {
  parameters: scenario({}),
  play: async (context) => {
    const { canvas, text, members } = await settings(context);
    await userEvent.click(
      members.getByRole("button", { name: text.members.removeMember({ name: "Alan Turing" }) }),
    );
    const dialog = within(await canvas.findByRole("dialog", { name: text.members.removeTitle }));
    await expect(
      dialog.getByText(text.members.removeDescription({ name: "Alan Turing" })),
    ).toBeVisible();
    await userEvent.click(dialog.getByRole("button", { name: text.members.removeConfirm }));
    await waitFor(() => expect(members.queryByText("Alan Turing")).toBeNull());
    await expect(canvas.queryByRole("dialog")).toBeNull();
    await expect(context.loaded.authd?.sent("/organization/remove-member")[0]?.body).toMatchObject({
      memberIdOrEmail: "member-alan-acme",
    });
  },
};

export const Invite: Story = {
  parameters: scenario({}),
  play: async (context) => {
    const { canvas, text, form } = await invite(context, "charles@example.com");
    await expect(
      await form.findByText(text.invite.sent({ email: "charles@example.com" })),
    ).toBeVisible();
    await expect(form.getByLabelText(text.fields.email)).toHaveValue("");
    await expect(await canvas.findByText("charles@example.com")).toBeVisible();
    await expect(context.loaded.authd?.sent("/organization/invite-member")[0]?.body).toMatchObject({
      email: "charles@example.com",
      role: "member",
    });
  },
};

export const AlreadyInvited: Story = {
  parameters: scenario({}),
  play: async (context) => {
    // linus@example.com already has a pending invitation: the server answers
    // USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION, and the form offers to send it again.
    const { text, form } = await invite(context, INVITED);
    await expect(await form.findByRole("alert")).toHaveTextContent(text.invite.alreadyInvited);
    await userEvent.click(form.getByRole("button", { name: text.invite.resend }));
    await expect(await form.findByText(text.invite.resent({ email: INVITED }))).toBeVisible();
    const sent = context.loaded.authd?.sent("/organization/invite-member") ?? [];
    await expect(sent).toHaveLength(2);
    await expect(sent[1]?.body).toMatchObject({ email: INVITED, resend: true });
  },
};

export const RoleNotAllowed: Story = {
  parameters: scenario({
    failures: {
      "/organization/invite-member": "YOU_ARE_NOT_ALLOWED_TO_INVITE_USER_WITH_THIS_ROLE",
    },
  }),
  play: async (context) => {
    const { messages, form, text } = await invite(context, "charles@example.com");
    await waitFor(() =>
      expect(form.getByRole("alert")).toHaveTextContent(
        messages.errors.YOU_ARE_NOT_ALLOWED_TO_INVITE_USER_WITH_THIS_ROLE,
      ),
    );
    await expect(form.queryByRole("button", { name: text.invite.resend })).toBeNull();
  },
};

export const CancelInvitation: Story = {
  parameters: scenario({}),
  play: async (context) => {
    const { canvas, text } = await settings(context);
    await userEvent.click(
      await canvas.findByRole("button", { name: text.invitations.cancelFor({ email: INVITED }) }),
    );
    const dialog = within(
      await canvas.findByRole("dialog", { name: text.invitations.cancelTitle }),
    );
    await userEvent.click(dialog.getByRole("button", { name: text.invitations.cancelConfirm }));
    await expect(await canvas.findByText(text.invitations.empty)).toBeVisible();
    await expect(canvas.queryByText(INVITED)).toBeNull();
    await expect(
      context.loaded.authd?.sent("/organization/cancel-invitation")[0]?.body,
    ).toMatchObject({ invitationId: "invitation-acme-1" });
  },
};

export const DeleteOrganization: Story = {
  parameters: scenario({}),
  play: async (context) => {
    const { canvas, text } = await settings(context);
    await userEvent.click(canvas.getByRole("button", { name: text.details.delete }));
    const dialog = within(await canvas.findByRole("dialog", { name: text.details.deleteTitle }));
    const confirm = dialog.getByRole("button", { name: text.details.deleteConfirm });
    await expect(confirm).toBeDisabled();
    await userEvent.type(
      dialog.getByLabelText(text.details.deleteConfirmLabel({ name: "Acme" })),
      "Acme",
    );
    await expect(confirm).toBeEnabled();
    await userEvent.click(confirm);
    await expect(await canvas.findByText("Navigated to /")).toBeVisible();
    await expect(context.loaded.authd?.sent("/organization/delete")).toHaveLength(1);
  },
};

export const Leave: Story = {
  parameters: scenario({ role: "member" }),
  play: async (context) => {
    const { canvas, text } = await settings(context);
    await userEvent.click(canvas.getByRole("button", { name: text.details.leave }));
    const dialog = within(await canvas.findByRole("dialog", { name: text.details.leaveTitle }));
    await expect(dialog.getByText(text.details.leaveDescription({ name: "Acme" }))).toBeVisible();
    await userEvent.click(dialog.getByRole("button", { name: text.details.leaveConfirm }));
    await expect(await canvas.findByText("Navigated to /")).toBeVisible();
    await expect(context.loaded.authd?.sent("/organization/leave")).toHaveLength(1);
  },
};

export const SaveDetails: Story = {
  parameters: scenario({}),
  play: async (context) => {
    const { canvas, messages, text } = await settings(context);
    const name = canvas.getByLabelText(text.fields.name);
    await userEvent.clear(name);
    await userEvent.type(name, "Acme Corp");
    await userEvent.click(canvas.getByRole("button", { name: messages.common.save }));
    await expect(await canvas.findByText(text.details.saved)).toBeVisible();
    await expect(await canvas.findByRole("heading", { level: 2, name: "Acme Corp" })).toBeVisible();
    await expect(context.loaded.authd?.sent("/organization/update")[0]?.body).toMatchObject({
      data: { name: "Acme Corp", slug: "acme" },
    });
  },
};

export const SlugTaken: Story = {
  // Globex already uses the slug: the server answers ORGANIZATION_SLUG_ALREADY_TAKEN.
  parameters: scenario({}),
  play: async (context) => {
    const { canvas, messages, text } = await settings(context);
    const slug = canvas.getByLabelText(text.fields.slug);
    await userEvent.clear(slug);
    await userEvent.type(slug, "globex");
    await userEvent.click(canvas.getByRole("button", { name: messages.common.save }));
    await waitFor(() => expect(slug).toHaveAttribute("aria-invalid", "true"));
    await expect(slug).toHaveAccessibleDescription(text.create.slugTaken);
  },
};

export const LoadError: Story = {
  parameters: scenario({ failures: { "/organization/get-full-organization": "NETWORK_ERROR" } }),
  play: async ({ canvasElement, globals }) => {
    const canvas = within(canvasElement);
    const messages = await strings(globals);
    await expect(
      (await canvas.findAllByText(messages.errors.NETWORK_ERROR)).length,
    ).toBeGreaterThan(0);
    await expect(
      canvas.getAllByRole("button", { name: messages.common.retry }).length,
    ).toBeGreaterThan(0);
    await expect(canvas.queryByRole("list")).toBeNull();
  },
};

export const Dark: Story = {
  globals: { appearance: "dark" },
  parameters: scenario({}),
  play: async (context) => {
    const { canvas, text } = await settings(context);
    await expect(await canvas.findByText(INVITED)).toBeVisible();
    await expect(canvas.getByRole("button", { name: text.details.delete })).toBeVisible();
    const root = context.canvasElement.querySelector(
      '[data-authd-component="organization-settings"]',
    );
    await expect(root).toHaveAttribute("data-authd-theme", "dark");
  },
};

/** The page in German: the strings come from that language, and the root says so. */
export const German: Story = {
  globals: { locale: "de" },
  parameters: scenario({}),
  play: async (context) => {
    await settings(context);
    const root = context.canvasElement.querySelector(
      '[data-authd-component="organization-settings"]',
    );
    await expect(root).toHaveAttribute("lang", "de");
    const english = await loadMessages("en");
    const messages = await strings(context.globals);
    await expect(messages.organization.members.title).not.toBe(english.organization.members.title);
  },
};
