import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, userEvent, waitFor, within } from "storybook/test";
import { Invitations, loadMessages } from "../src/index.js";
import type { AuthdScenario } from "./mock/authd.js";
import { type PlayContext, screenTitled, strings } from "./play.js";

const meta = {
  title: "Invitations",
  component: Invitations,
} satisfies Meta<typeof Invitations>;

export default meta;
type Story = StoryObj<typeof meta>;

const ORGANIZATION = "Initech";

function section(context: PlayContext) {
  return screenTitled(context, (m) => m.invitations.title);
}

/** Waits for the list of Ada's invitations. */
async function list(context: PlayContext) {
  const { canvas, messages } = await section(context);
  const rows = within(await canvas.findByRole("list", { name: messages.invitations.title }));
  return { canvas, messages, rows };
}

function scenario(authd: AuthdScenario) {
  return { authd: { signedIn: true, ...authd } };
}

export const Default: Story = {
  parameters: scenario({}),
  play: async (context) => {
    const { canvas, messages, rows } = await list(context);
    await expect(rows.getAllByRole("listitem")).toHaveLength(1);
    await expect(rows.getByText(ORGANIZATION)).toBeVisible();
    await expect(
      canvas.getByText(messages.invitations.count({ count: 1 }), { exact: false }),
    ).toBeVisible();
    await expect(
      rows.getByRole("button", {
        name: messages.invitations.acceptFor({ organization: ORGANIZATION }),
      }),
    ).toBeEnabled();
  },
};

export const Accept: Story = {
  parameters: scenario({}),
  play: async (context) => {
    const { canvas, messages, rows } = await list(context);
    await userEvent.click(
      rows.getByRole("button", {
        name: messages.invitations.acceptFor({ organization: ORGANIZATION }),
      }),
    );
    const news = messages.invitations.accepted({ organization: ORGANIZATION });
    await waitFor(() => expect(canvas.getByText(news)).toBeVisible());
    await expect(await canvas.findByText(messages.invitations.empty)).toBeVisible();
    await expect(
      context.loaded.authd?.sent("/organization/accept-invitation")[0]?.body,
    ).toMatchObject({ invitationId: "invitation-initech-ada" });
  },
};

export const Decline: Story = {
  parameters: scenario({}),
  play: async (context) => {
    const { canvas, messages, rows } = await list(context);
    await userEvent.click(
      rows.getByRole("button", {
        name: messages.invitations.declineFor({ organization: ORGANIZATION }),
      }),
    );
    const dialog = within(
      await canvas.findByRole("dialog", {
        name: messages.invitations.declineTitle({ organization: ORGANIZATION }),
      }),
    );
    await userEvent.click(
      dialog.getByRole("button", { name: messages.invitations.declineConfirm }),
    );
    const news = messages.invitations.declined({ organization: ORGANIZATION });
    await waitFor(() => expect(canvas.getByText(news)).toBeVisible());
    await expect(canvas.queryByRole("dialog")).toBeNull();
    await expect(
      context.loaded.authd?.sent("/organization/reject-invitation")[0]?.body,
    ).toMatchObject({ invitationId: "invitation-initech-ada" });
  },
};

export const Empty: Story = {
  parameters: scenario({ invitedToInitech: false }),
  play: async (context) => {
    const { canvas, messages } = await section(context);
    await expect(await canvas.findByText(messages.invitations.empty)).toBeVisible();
    await expect(canvas.queryByRole("list")).toBeNull();
  },
};

export const VerificationRequired: Story = {
  parameters: scenario({
    emailVerified: false,
    failures: {
      "/organization/list-user-invitations": "EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION",
    },
  }),
  play: async (context) => {
    const { canvas, messages } = await section(context);
    await expect(await canvas.findByText(messages.invitations.verificationRequired)).toBeVisible();
    await expect(
      canvas.getByText(messages.invitations.verificationHint({ email: "ada@example.com" })),
    ).toBeVisible();
    await expect(canvas.queryByRole("list")).toBeNull();
  },
};

export const Loading: Story = {
  parameters: scenario({ pending: ["/organization/list-user-invitations"] }),
  play: async (context) => {
    const { canvas, messages } = await section(context);
    await expect(await canvas.findByRole("status")).toHaveTextContent(messages.invitations.loading);
    await expect(canvas.queryByRole("list")).toBeNull();
  },
};

export const AcceptFails: Story = {
  // The invitation was canceled while the list was open.
  parameters: scenario({ failures: { "/organization/accept-invitation": "INVITATION_NOT_FOUND" } }),
  play: async (context) => {
    const { canvas, messages, rows } = await list(context);
    await userEvent.click(
      rows.getByRole("button", {
        name: messages.invitations.acceptFor({ organization: ORGANIZATION }),
      }),
    );
    await waitFor(() =>
      expect(canvas.getAllByRole("alert")[0]).toHaveTextContent(
        messages.errors.INVITATION_NOT_FOUND,
      ),
    );
    await expect(rows.getByText(ORGANIZATION)).toBeVisible();
  },
};

export const NetworkError: Story = {
  parameters: scenario({ failures: { "/organization/list-user-invitations": "NETWORK_ERROR" } }),
  play: async (context) => {
    const { canvas, messages } = await section(context);
    await expect(await canvas.findByText(messages.errors.NETWORK_ERROR)).toBeVisible();
    await expect(canvas.getByRole("button", { name: messages.common.retry })).toBeEnabled();
    await expect(canvas.queryByRole("list")).toBeNull();
  },
};

export const SignedOut: Story = {
  parameters: { authd: {} },
  play: async (context) => {
    const { canvas, messages } = await section(context);
    await expect(await canvas.findByText(messages.invitations.signedOut)).toBeVisible();
    await expect(context.loaded.authd?.sent("/organization/list-user-invitations")).toHaveLength(0);
  },
};

export const Dark: Story = {
  globals: { appearance: "dark" },
  parameters: scenario({}),
  play: async (context) => {
    const { rows } = await list(context);
    await expect(rows.getByText(ORGANIZATION)).toBeVisible();
    const root = context.canvasElement.querySelector('[data-authd-component="invitations"]');
    await expect(root).toHaveAttribute("data-authd-theme", "dark");
  },
};

/** The page in German: the strings come from that language, and the root says so. */
export const German: Story = {
  globals: { locale: "de" },
  parameters: scenario({}),
  play: async (context) => {
    await list(context);
    const root = context.canvasElement.querySelector('[data-authd-component="invitations"]');
    await expect(root).toHaveAttribute("lang", "de");
    const english = await loadMessages("en");
    const messages = await strings(context.globals);
    await expect(messages.invitations.title).not.toBe(english.invitations.title);
  },
};
