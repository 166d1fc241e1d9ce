import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, userEvent, waitFor, within } from "storybook/test";
import { AcceptInvitation, loadMessages, type Messages } from "../src/index.js";
import type { AuthdScenario } from "./mock/authd.js";
import { type PlayContext, strings } from "./play.js";

const meta = {
  title: "AcceptInvitation",
  component: AcceptInvitation,
  // Ada's invitation to Initech; a story names another to see it missing or someone else's.
  args: { invitationId: "invitation-initech-ada" },
} satisfies Meta<typeof AcceptInvitation>;

export default meta;
type Story = StoryObj<typeof meta>;

const ORGANIZATION = "Initech";

/** Waits for the page's heading in the story's language. */
async function page(
  { canvasElement, globals }: PlayContext,
  heading: (text: Messages["invitations"]["page"]) => string,
) {
  const canvas = within(canvasElement);
  const messages = await strings(globals);
  await canvas.findByRole("heading", { name: heading(messages.invitations.page) });
  return { canvas, messages, text: messages.invitations.page };
}

const invited = (text: Messages["invitations"]["page"]) =>
  text.invitedTitle({ organization: ORGANIZATION });

function scenario(authd: AuthdScenario) {
  return { authd: { signedIn: true, ...authd } };
}

export const SignedOut: Story = {
  parameters: { authd: {} },
  play: async (context) => {
    const { canvas, text } = await page(context, (t) => t.signedOutTitle);
    await expect(canvas.getByText(text.signedOut)).toBeVisible();
    await expect(canvas.getByRole("link", { name: text.signIn })).toHaveAttribute(
      "href",
      expect.stringContaining("/sign-in?redirectTo="),
    );
    await expect(canvas.getByRole("link", { name: text.signUp })).toHaveAttribute(
      "href",
      expect.stringContaining("invitationId=invitation-initech-ada"),
    );
  },
};

export const SignedIn: Story = {
  parameters: scenario({}),
  play: async (context) => {
    const { canvas, text } = await page(context, invited);
    await expect(
      canvas.getByText(
        text.invitedBy({ inviter: "grace@example.com", organization: ORGANIZATION }),
      ),
    ).toBeVisible();
    await expect(canvas.getByRole("button", { name: text.accept })).toBeEnabled();
    await expect(canvas.getByRole("button", { name: text.decline })).toBeEnabled();
  },
};

export const Accept: Story = {
  parameters: scenario({}),
  play: async (context) => {
    const { canvas, text } = await page(context, invited);
    await userEvent.click(canvas.getByRole("button", { name: text.accept }));
    await canvas.findByRole("heading", {
      name: text.acceptedTitle({ organization: ORGANIZATION }),
    });
    await expect(canvas.getByText(text.acceptedText)).toBeVisible();
    await expect(
      context.loaded.authd?.sent("/organization/accept-invitation")[0]?.body,
    ).toMatchObject({ invitationId: "invitation-initech-ada" });
    await userEvent.click(canvas.getByRole("button", { name: text.continue }));
    await expect(await canvas.findByText("Navigated to /organization")).toBeVisible();
  },
};

export const Decline: Story = {
  parameters: scenario({}),
  play: async (context) => {
    const { canvas, messages, text } = await page(context, invited);
    await userEvent.click(canvas.getByRole("button", { name: text.decline }));
    const dialog = within(
      await canvas.findByRole("dialog", {
        name: messages.invitations.declineTitle({ organization: ORGANIZATION }),
      }),
    );
    await userEvent.click(
      dialog.getByRole("button", { name: messages.invitations.declineConfirm }),
    );
    await canvas.findByRole("heading", { name: text.declinedTitle });
    await expect(canvas.getByText(text.declinedText({ organization: ORGANIZATION }))).toBeVisible();
    await expect(
      context.loaded.authd?.sent("/organization/reject-invitation")[0]?.body,
    ).toMatchObject({ invitationId: "invitation-initech-ada" });
  },
};

export const NotFound: Story = {
  args: { invitationId: "invitation-gone" },
  parameters: scenario({}),
  play: async (context) => {
    const { canvas, text } = await page(context, (t) => t.notFoundTitle);
    await expect(canvas.getByText(text.notFoundText)).toBeVisible();
    await expect(canvas.queryByRole("button", { name: text.accept })).toBeNull();
  },
};

export const WrongRecipient: Story = {
  // The invitation to linus@example.com, opened by Ada.
  args: { invitationId: "invitation-acme-1" },
  parameters: scenario({}),
  play: async (context) => {
    const { canvas, text } = await page(context, (t) => t.wrongRecipientTitle);
    await userEvent.click(canvas.getByRole("button", { name: text.signOutAndSignIn }));
    await expect(await canvas.findByText(/^Navigated to \/sign-in/)).toBeVisible();
    await expect(context.loaded.authd?.sent("/sign-out")).toHaveLength(1);
  },
};

export const AlreadyMember: Story = {
  parameters: scenario({
    failures: {
      "/organization/accept-invitation": "USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION",
    },
  }),
  play: async (context) => {
    const { canvas, text } = await page(context, invited);
    await userEvent.click(canvas.getByRole("button", { name: text.accept }));
    await canvas.findByRole("heading", {
      name: text.alreadyMemberTitle({ organization: ORGANIZATION }),
    });
    await expect(canvas.getByText(text.alreadyMemberText)).toBeVisible();
    await expect(canvas.getByRole("button", { name: text.openOrganization })).toBeEnabled();
  },
};

export const Loading: Story = {
  parameters: scenario({ pending: ["/organization/get-invitation"] }),
  play: async (context) => {
    const { canvas, text } = await page(context, (t) => t.title);
    await expect(await canvas.findByRole("status")).toHaveTextContent(text.loading);
    await expect(canvas.queryByRole("button", { name: text.accept })).toBeNull();
  },
};

export const VerificationRequired: Story = {
  parameters: scenario({
    emailVerified: false,
    failures: { "/organization/get-invitation": "EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION" },
  }),
  play: async (context) => {
    const { canvas, text } = await page(context, (t) => t.verifyTitle);
    await expect(canvas.getByText(text.verifyText({ email: "ada@example.com" }))).toBeVisible();
    await expect(canvas.queryByRole("button", { name: text.accept })).toBeNull();
  },
};

export const NetworkError: Story = {
  parameters: scenario({ failures: { "/organization/get-invitation": "NETWORK_ERROR" } }),
  play: async (context) => {
    const { canvas, messages, text } = await page(context, (t) => t.title);
    await expect(await canvas.findByRole("alert")).toHaveTextContent(messages.errors.NETWORK_ERROR);
    await expect(canvas.queryByRole("button", { name: text.accept })).toBeNull();
  },
};

export const Dark: Story = {
  globals: { appearance: "dark" },
  parameters: scenario({}),
  play: async (context) => {
    const { canvas, text } = await page(context, invited);
    await waitFor(() => expect(canvas.getByRole("button", { name: text.accept })).toBeEnabled());
    const root = context.canvasElement.querySelector('[data-authd-component="accept-invitation"]');
    await expect(root).toHaveAttribute("data-authd-theme", "dark");
  },
};

/** The page in German: the strings come from that language, and the root says so. */
export const German: Story = {
  globals: { locale: "de" },
  parameters: scenario({}),
  play: async (context) => {
    await ((c) => page(c, invited))(context);
    const root = context.canvasElement.querySelector('[data-authd-component="accept-invitation"]');
    await expect(root).toHaveAttribute("lang", "de");
    const english = await loadMessages("en");
    const messages = await strings(context.globals);
    await expect(messages.invitations.page.accept).not.toBe(english.invitations.page.accept);
  },
};
