// @vitest-environment jsdom
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { AuthProvider, CreateOrganization, createAuthClient } from "../../src/index.js";
import { errorBody, renderWithAuth, sessionOf, USER } from "./harness.js";

const CREATED = {
  id: "org-9",
  name: "Acme Inc",
  slug: "acme-inc",
  logo: null,
  metadata: null,
  createdAt: "2026-01-01T00:00:00.000Z",
  members: [],
};

const SIGNED_IN = { "/get-session": { body: sessionOf(USER) } };

function routes(extra: Record<string, unknown> = {}) {
  return {
    ...SIGNED_IN,
    "/organization/check-slug": { body: { status: true } },
    "/organization/create": { body: CREATED },
    "/organization/set-active": { body: CREATED },
    ...extra,
  } as Parameters<typeof renderWithAuth>[1];
}

const slugStatus = () => document.querySelector('[data-authd-part="slug-status"]') as HTMLElement;

describe("<CreateOrganization/>", () => {
  it("derives the slug from the name until the user edits the slug", async () => {
    const user = userEvent.setup();
    renderWithAuth(<CreateOrganization />, routes());
    const name = screen.getByLabelText("Organization name");
    const slug = screen.getByLabelText("Slug");
    await user.type(name, "Ça Va  Café!");
    expect(slug).toHaveValue("ca-va-cafe");
    await user.clear(slug);
    await user.type(slug, "My Slug_2!");
    expect(slug).toHaveValue("my-slug-2");
    await user.type(name, " Bar");
    expect(slug).toHaveValue("my-slug-2");
  });

  it("checks the slug once typing pauses and announces that it is free", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(<CreateOrganization />, routes());
    await user.type(screen.getByLabelText("Organization name"), "Acme");
    expect(slugStatus()).toHaveAttribute("aria-live", "polite");
    expect(slugStatus()).toHaveTextContent("Checking whether this slug is free…");
    await waitFor(() => expect(slugStatus()).toHaveTextContent("This slug is available."));
    // One check for the settled slug, not one per keystroke.
    expect(harness.sent("/organization/check-slug").map((request) => request.body)).toEqual([
      { slug: "acme" },
    ]);
    expect(screen.getByLabelText("Slug")).toHaveAccessibleDescription("This slug is available.");
  });

  it("waits about 300 ms before checking", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      const harness = renderWithAuth(<CreateOrganization />, routes());
      await user.type(screen.getByLabelText("Slug"), "acme");
      vi.advanceTimersByTime(250);
      expect(harness.sent("/organization/check-slug")).toHaveLength(0);
      vi.advanceTimersByTime(100);
      await waitFor(() => expect(harness.sent("/organization/check-slug")).toHaveLength(1));
    } finally {
      vi.useRealTimers();
    }
  });

  it("says a taken slug is taken and does not submit it", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(
      <CreateOrganization />,
      routes({ "/organization/check-slug": { status: 400, body: errorBody("SLUG_IS_TAKEN") } }),
    );
    await user.type(screen.getByLabelText("Organization name"), "Acme");
    await waitFor(() =>
      expect(slugStatus()).toHaveTextContent("This slug is already taken. Try another one."),
    );
    await user.click(screen.getByRole("button", { name: "Create organization" }));
    expect(screen.getByLabelText("Slug")).toHaveAttribute("aria-invalid", "true");
    await waitFor(() => expect(screen.getByLabelText("Slug")).toHaveFocus());
    expect(harness.sent("/organization/create")).toHaveLength(0);
  });

  it("shows the answer to the latest slug, not one that arrives late", async () => {
    const user = userEvent.setup();
    const pending: Record<string, (response: Response) => void> = {};
    const fetch = async (input: string, init: RequestInit) => {
      const path = new URL(input).pathname.replace(/^\/api\/auth/, "");
      if (path === "/get-session") return Response.json(sessionOf(USER));
      if (path === "/organization/check-slug") {
        const { slug } = JSON.parse(String(init.body)) as { slug: string };
        return new Promise<Response>((resolve) => {
          pending[slug] = resolve;
        });
      }
      return Response.json(errorBody("NOT_FOUND"), { status: 404 });
    };
    const client = createAuthClient({ baseURL: "http://auth.test", fetch });
    render(
      <AuthProvider client={client} locale="en" navigate={() => {}}>
        <CreateOrganization slugCheckDelay={0} />
      </AuthProvider>,
    );
    const slug = screen.getByLabelText("Slug");
    await user.type(slug, "old");
    await waitFor(() => expect(pending.old).toBeDefined());
    await user.clear(slug);
    await user.type(slug, "new");
    await waitFor(() => expect(pending.new).toBeDefined());
    pending.new?.(Response.json({ status: true }));
    await waitFor(() => expect(slugStatus()).toHaveTextContent("This slug is available."));
    pending.old?.(Response.json(errorBody("SLUG_IS_TAKEN"), { status: 400 }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(slugStatus()).toHaveTextContent("This slug is available.");
  });

  it("creates the organization, makes it active and goes to the organization page", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(<CreateOrganization />, routes());
    await user.type(screen.getByLabelText("Organization name"), "Acme Inc");
    await user.type(
      screen.getByLabelText("Logo URL (optional)"),
      "https://cdn.example.com/acme.png",
    );
    await user.click(screen.getByRole("button", { name: "Create organization" }));
    await waitFor(() => expect(harness.navigations).toEqual(["/organization"]));
    expect(harness.sent("/organization/create")[0]?.body).toEqual({
      name: "Acme Inc",
      slug: "acme-inc",
      logo: "https://cdn.example.com/acme.png",
      keepCurrentActiveOrganization: false,
    });
    expect(harness.sent("/organization/set-active")[0]?.body).toEqual({ organizationId: "org-9" });
  });

  it("goes to redirectTo, or hands the organization to onSuccess instead", async () => {
    const user = userEvent.setup();
    const first = renderWithAuth(<CreateOrganization redirectTo="/orgs/acme" />, routes());
    await user.type(screen.getByLabelText("Organization name"), "Acme Inc");
    await user.click(screen.getByRole("button", { name: "Create organization" }));
    await waitFor(() => expect(first.navigations).toEqual(["/orgs/acme"]));
    first.unmount();

    const onSuccess = vi.fn();
    const second = renderWithAuth(<CreateOrganization onSuccess={onSuccess} />, routes());
    await user.type(screen.getByLabelText("Organization name"), "Acme Inc");
    await user.click(screen.getByRole("button", { name: "Create organization" }));
    await waitFor(() => expect(onSuccess).toHaveBeenCalledWith(CREATED));
    expect(second.navigations).toEqual([]);
  });

  it("keeps the current active organization when asked", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(<CreateOrganization keepCurrentActiveOrganization />, routes());
    await user.type(screen.getByLabelText("Organization name"), "Acme Inc");
    await user.click(screen.getByRole("button", { name: "Create organization" }));
    await waitFor(() => expect(harness.navigations).toEqual(["/organization"]));
    expect(harness.sent("/organization/create")[0]?.body).toMatchObject({
      keepCurrentActiveOrganization: true,
    });
    expect(harness.sent("/organization/set-active")).toHaveLength(0);
  });

  it("checks the fields before asking the server", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(<CreateOrganization />, routes());
    await user.type(screen.getByLabelText("Logo URL (optional)"), "not a link");
    await user.click(screen.getByRole("button", { name: "Create organization" }));
    expect(screen.getByLabelText("Organization name")).toHaveAccessibleDescription(
      "This field is required.",
    );
    expect(screen.getByLabelText("Logo URL (optional)")).toHaveAccessibleDescription(
      /^Enter a full link starting with https:\/\//,
    );
    await waitFor(() => expect(screen.getByLabelText("Organization name")).toHaveFocus());
    expect(harness.sent("/organization/create")).toHaveLength(0);
  });

  it.each([
    [
      "YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_ORGANIZATION",
      403,
      "You are not allowed to create a new organization.",
    ],
    [
      "YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_ORGANIZATIONS",
      403,
      "You have reached the maximum number of organizations.",
    ],
    ["VALIDATION_ERROR", 400, "Some of the information entered is not valid."],
  ])("announces %s", async (code, status, text) => {
    const user = userEvent.setup();
    const harness = renderWithAuth(
      <CreateOrganization />,
      routes({ "/organization/create": { status, body: errorBody(code) } }),
    );
    await user.type(screen.getByLabelText("Organization name"), "Acme Inc");
    await user.click(screen.getByRole("button", { name: "Create organization" }));
    const alert = await screen.findByRole("alert");
    await waitFor(() => expect(alert).toHaveTextContent(text));
    await waitFor(() => expect(alert).toHaveFocus());
    expect(harness.navigations).toEqual([]);
    expect(harness.sent("/organization/set-active")).toHaveLength(0);
  });

  it("ties a VALIDATION_ERROR naming a field to that field", async () => {
    const user = userEvent.setup();
    renderWithAuth(
      <CreateOrganization />,
      routes({
        "/organization/create": {
          status: 400,
          body: errorBody("VALIDATION_ERROR", "invalid", [{ path: "name", message: "too long" }]),
        },
      }),
    );
    await user.type(screen.getByLabelText("Organization name"), "Acme Inc");
    await user.click(screen.getByRole("button", { name: "Create organization" }));
    const name = screen.getByLabelText("Organization name");
    await waitFor(() => expect(name).toHaveAccessibleDescription("This value is not valid."));
    expect(screen.getByRole("alert")).toHaveTextContent("");
    await waitFor(() => expect(name).toHaveFocus());
  });

  it("marks the slug taken when another create won the race", async () => {
    const user = userEvent.setup();
    renderWithAuth(
      <CreateOrganization />,
      routes({
        "/organization/create": { status: 400, body: errorBody("ORGANIZATION_ALREADY_EXISTS") },
      }),
    );
    await user.type(screen.getByLabelText("Organization name"), "Acme Inc");
    await user.click(screen.getByRole("button", { name: "Create organization" }));
    await waitFor(() =>
      expect(screen.getByLabelText("Slug")).toHaveAttribute("aria-invalid", "true"),
    );
    expect(slugStatus()).toHaveTextContent("This slug is already taken. Try another one.");
  });
});
