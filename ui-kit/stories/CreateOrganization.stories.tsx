import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, userEvent, waitFor } from "storybook/test";
import { CreateOrganization, loadMessages } from "../src/index.js";
import type { AuthdScenario } from "./mock/authd.js";
import { type PlayContext, screenTitled, strings } from "./play.js";

const meta = {
  title: "CreateOrganization",
  component: CreateOrganization,
} satisfies Meta<typeof CreateOrganization>;

export default meta;
type Story = StoryObj<typeof meta>;

function form(context: PlayContext) {
  return screenTitled(context, (m) => m.organization.create.title);
}

const slugStatus = (canvasElement: HTMLElement) =>
  canvasElement.querySelector('[data-authd-part="slug-status"]') as HTMLElement;

/** Types a name (the slug follows it) and waits for the live check's answer. */
async function typeName(context: PlayContext, name: string, status: "available" | "taken") {
  const { canvas, messages } = await form(context);
  await userEvent.type(canvas.getByLabelText(messages.organization.fields.name), name);
  const text =
    status === "available"
      ? messages.organization.create.slugAvailable
      : messages.organization.create.slugTaken;
  await waitFor(() => expect(slugStatus(context.canvasElement)).toHaveTextContent(text));
  return { canvas, messages };
}

/** Fills a free name and submits it. */
async function create(context: PlayContext) {
  const { canvas, messages } = await typeName(context, "Analytical Engines", "available");
  await userEvent.click(canvas.getByRole("button", { name: messages.organization.create.submit }));
  return { canvas, messages };
}

function scenario(authd: AuthdScenario) {
  return { authd: { signedIn: true, ...authd } };
}

export const Default: Story = {
  parameters: scenario({}),
  play: async (context) => {
    const { canvas, messages } = await form(context);
    await expect(canvas.getByLabelText(messages.organization.fields.name)).toHaveValue("");
    await expect(canvas.getByLabelText(messages.organization.fields.slug)).toHaveValue("");
    await expect(slugStatus(context.canvasElement)).toHaveTextContent(
      messages.organization.create.slugHint,
    );
    await expect(
      canvas.getByRole("button", { name: messages.organization.create.submit }),
    ).toBeEnabled();
  },
};

export const SlugAvailable: Story = {
  parameters: scenario({}),
  play: async (context) => {
    const { canvas, messages } = await typeName(context, "Analytical Engines", "available");
    await expect(canvas.getByLabelText(messages.organization.fields.slug)).toHaveValue(
      "analytical-engines",
    );
    await expect(context.loaded.authd?.sent("/organization/check-slug").at(-1)?.body).toEqual({
      slug: "analytical-engines",
    });
  },
};

export const SlugTaken: Story = {
  parameters: scenario({}),
  play: async (context) => {
    const { canvas, messages } = await typeName(context, "Acme", "taken");
    await expect(canvas.getByLabelText(messages.organization.fields.slug)).toHaveValue("acme");
    await userEvent.click(
      canvas.getByRole("button", { name: messages.organization.create.submit }),
    );
    const slug = canvas.getByLabelText(messages.organization.fields.slug);
    await waitFor(() => expect(slug).toHaveAttribute("aria-invalid", "true"));
    await expect(context.loaded.authd?.sent("/organization/create")).toHaveLength(0);
  },
};

export const Created: Story = {
  parameters: scenario({}),
  play: async (context) => {
    const { canvas } = await create(context);
    await expect(await canvas.findByText("Navigated to /organization")).toBeVisible();
    await expect(context.loaded.authd?.sent("/organization/create")[0]?.body).toMatchObject({
      name: "Analytical Engines",
      slug: "analytical-engines",
    });
  },
};

export const TooManyOrganizations: Story = {
  parameters: scenario({
    failures: { "/organization/create": "YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_ORGANIZATIONS" },
  }),
  play: async (context) => {
    const { canvas, messages } = await create(context);
    const alert = await canvas.findByRole("alert");
    await waitFor(() =>
      expect(alert).toHaveTextContent(
        messages.errors.YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_ORGANIZATIONS,
      ),
    );
    await expect(canvas.queryByText(/^Navigated to/)).toBeNull();
  },
};

export const Pending: Story = {
  parameters: scenario({ pending: ["/organization/create"] }),
  play: async (context) => {
    const { canvas, messages } = await create(context);
    const submit = canvas.getByRole("button", { name: messages.organization.create.submit });
    await waitFor(() => expect(submit).toHaveAttribute("aria-busy", "true"));
    await expect(submit).toBeDisabled();
  },
};

export const MissingFields: Story = {
  parameters: scenario({}),
  play: async (context) => {
    const { canvas, messages } = await form(context);
    await userEvent.click(
      canvas.getByRole("button", { name: messages.organization.create.submit }),
    );
    const name = canvas.getByLabelText(messages.organization.fields.name);
    await expect(name).toHaveAttribute("aria-invalid", "true");
    await expect(name).toHaveAccessibleDescription(messages.common.required);
    await expect(context.loaded.authd?.sent("/organization/create")).toHaveLength(0);
  },
};

export const AlreadyExists: Story = {
  // The slug was free when checked, but someone took it before the form was sent.
  parameters: scenario({ failures: { "/organization/create": "ORGANIZATION_ALREADY_EXISTS" } }),
  play: async (context) => {
    const { canvas, messages } = await create(context);
    const slug = canvas.getByLabelText(messages.organization.fields.slug);
    await waitFor(() => expect(slug).toHaveAttribute("aria-invalid", "true"));
    await expect(slug).toHaveAccessibleDescription(
      expect.stringContaining(messages.organization.create.slugTaken),
    );
    await expect(canvas.queryByText(/^Navigated to/)).toBeNull();
  },
};

export const NetworkError: Story = {
  parameters: scenario({ failures: { "/organization/create": "NETWORK_ERROR" } }),
  play: async (context) => {
    const { canvas, messages } = await create(context);
    const alert = await canvas.findByRole("alert");
    await waitFor(() => expect(alert).toHaveTextContent(messages.errors.NETWORK_ERROR));
  },
};

export const Dark: Story = {
  globals: { appearance: "dark" },
  parameters: scenario({}),
  play: async (context) => {
    await typeName(context, "Acme", "taken");
    const root = context.canvasElement.querySelector(
      '[data-authd-component="create-organization"]',
    );
    await expect(root).toHaveAttribute("data-authd-theme", "dark");
  },
};

/** The page in German: the strings come from that language, and the root says so. */
export const German: Story = {
  globals: { locale: "de" },
  parameters: scenario({}),
  play: async (context) => {
    await form(context);
    const root = context.canvasElement.querySelector(
      '[data-authd-component="create-organization"]',
    );
    await expect(root).toHaveAttribute("lang", "de");
    const english = await loadMessages("en");
    const messages = await strings(context.globals);
    await expect(messages.organization.create.title).not.toBe(english.organization.create.title);
  },
};
