// @vitest-environment jsdom
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { OrganizationSwitcher } from "../../src/index.js";
import { errorBody, renderWithAuth, sessionOf, USER } from "./harness.js";

const ACME = {
  id: "org-1",
  name: "Acme Inc",
  slug: "acme",
  logo: null,
  metadata: null,
  createdAt: "2026-01-01T00:00:00.000Z",
};
const GLOBEX = { ...ACME, id: "org-2", name: "Globex", slug: "globex" };

function routes(activeOrganizationId: string | null) {
  return {
    "/get-session": { body: sessionOf(USER, { activeOrganizationId }) },
    "/organization/list": { body: [ACME, GLOBEX] },
  };
}

const trigger = () => screen.getByRole("button", { name: /switch organization/ });

describe("<OrganizationSwitcher/>", () => {
  it("names the active organization and lists the user's organizations with it checked", async () => {
    const user = userEvent.setup();
    renderWithAuth(<OrganizationSwitcher />, routes("org-1"));
    const button = await screen.findByRole("button", { name: "Acme Inc: switch organization" });
    expect(button).toHaveAttribute("aria-haspopup", "menu");
    expect(button).toHaveAttribute("aria-expanded", "false");
    await user.click(button);
    expect(button).toHaveAttribute("aria-expanded", "true");
    const menu = screen.getByRole("menu", { name: "Organizations" });
    expect(menu).toBeInTheDocument();
    const choices = screen.getAllByRole("menuitemradio");
    expect(choices.map((choice) => choice.textContent)).toEqual([
      "PAPersonal account",
      "AIAcme Inc✓",
      "GGlobex",
    ]);
    expect(screen.getByRole("menuitemradio", { name: /Acme Inc/ })).toHaveAttribute(
      "aria-checked",
      "true",
    );
    expect(screen.getByRole("menuitemradio", { name: /Globex/ })).toHaveAttribute(
      "aria-checked",
      "false",
    );
    // Opening puts focus on the checked choice.
    expect(screen.getByRole("menuitemradio", { name: /Acme Inc/ })).toHaveFocus();
  });

  it("switches: sends the organization, refetches the session and shows the new one", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(<OrganizationSwitcher />, {
      ...routes("org-1"),
      "/organization/set-active": (request) => {
        harness.answer("/get-session", {
          body: sessionOf(USER, { activeOrganizationId: "org-2" }),
        });
        expect(request.body).toEqual({ organizationId: "org-2" });
        return { body: GLOBEX };
      },
    });
    await user.click(await screen.findByRole("button", { name: /Acme Inc/ }));
    const sessionsBefore = harness.sent("/get-session").length;
    await user.click(screen.getByRole("menuitemradio", { name: /Globex/ }));
    expect(await screen.findByRole("button", { name: "Globex: switch organization" })).toBe(
      trigger(),
    );
    expect(harness.sent("/organization/set-active")).toHaveLength(1);
    expect(harness.sent("/organization/set-active")[0]?.body).toEqual({ organizationId: "org-2" });
    expect(harness.sent("/get-session").length).toBeGreaterThan(sessionsBefore);
    expect(screen.queryByRole("menu")).not.toBeInTheDocument();
  });

  it("works from the keyboard: arrows move, Enter picks, Escape closes and returns focus", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(<OrganizationSwitcher />, {
      ...routes("org-1"),
      "/organization/set-active": { body: null },
    });
    const button = await screen.findByRole("button", { name: /Acme Inc/ });
    button.focus();
    await user.keyboard("{ArrowDown}");
    expect(screen.getByRole("menu")).toBeInTheDocument();
    expect(screen.getByRole("menuitemradio", { name: /Personal account/ })).toHaveFocus();
    await user.keyboard("{ArrowDown}");
    expect(screen.getByRole("menuitemradio", { name: /Acme Inc/ })).toHaveFocus();
    await user.keyboard("{End}");
    expect(screen.getByRole("menuitem", { name: "Create organization" })).toHaveFocus();
    await user.keyboard("{ArrowDown}");
    expect(screen.getByRole("menuitemradio", { name: /Personal account/ })).toHaveFocus();
    await user.keyboard("{ArrowUp}");
    expect(screen.getByRole("menuitem", { name: "Create organization" })).toHaveFocus();
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("menu")).not.toBeInTheDocument();
    expect(button).toHaveFocus();
    expect(button).toHaveAttribute("aria-expanded", "false");

    await user.keyboard("{ArrowUp}");
    expect(screen.getByRole("menuitem", { name: "Create organization" })).toHaveFocus();
    await user.keyboard("{Home}{Enter}");
    await waitFor(() => expect(harness.sent("/organization/set-active")).toHaveLength(1));
    expect(harness.sent("/organization/set-active")[0]?.body).toEqual({ organizationId: null });
    expect(button).toHaveFocus();
  });

  it("closes when the user clicks outside", async () => {
    const user = userEvent.setup();
    renderWithAuth(
      <>
        <OrganizationSwitcher />
        <p>Elsewhere</p>
      </>,
      routes("org-1"),
    );
    await user.click(await screen.findByRole("button", { name: /Acme Inc/ }));
    expect(screen.getByRole("menu")).toBeInTheDocument();
    await user.click(screen.getByText("Elsewhere"));
    expect(screen.queryByRole("menu")).not.toBeInTheDocument();
  });

  it("shows the personal account when no organization is active", async () => {
    renderWithAuth(<OrganizationSwitcher />, routes(null));
    expect(
      await screen.findByRole("button", { name: "Personal account: switch organization" }),
    ).toBeInTheDocument();
  });

  it("leaves the personal choice out with hidePersonal", async () => {
    const user = userEvent.setup();
    renderWithAuth(<OrganizationSwitcher hidePersonal />, routes(null));
    await user.click(
      await screen.findByRole("button", { name: "No organization: switch organization" }),
    );
    expect(screen.getAllByRole("menuitemradio")).toHaveLength(2);
    expect(screen.queryByRole("menuitemradio", { name: /Personal account/ })).toBeNull();
    expect(screen.getAllByRole("menuitemradio").every((item) => item.ariaChecked === "false")).toBe(
      true,
    );
  });

  it("goes to the create-organization page", async () => {
    const user = userEvent.setup();
    const harness = renderWithAuth(<OrganizationSwitcher />, routes("org-1"), {
      paths: { createOrganization: "/orgs/new" },
    });
    await user.click(await screen.findByRole("button", { name: /Acme Inc/ }));
    await user.click(screen.getByRole("menuitem", { name: "Create organization" }));
    expect(harness.navigations).toEqual(["/orgs/new"]);
  });

  it("creates an organization in a dialog with createMode='dialog'", async () => {
    const user = userEvent.setup();
    const NEW = { ...ACME, id: "org-3", name: "Initech", slug: "initech" };
    const harness = renderWithAuth(<OrganizationSwitcher createMode="dialog" />, {
      ...routes("org-1"),
      "/organization/check-slug": { body: { status: true } },
      "/organization/create": () => {
        harness.answer("/organization/list", { body: [ACME, GLOBEX, NEW] });
        return { body: { ...NEW, members: [] } };
      },
      "/organization/set-active": () => {
        harness.answer("/get-session", {
          body: sessionOf(USER, { activeOrganizationId: "org-3" }),
        });
        return { body: NEW };
      },
    });
    await user.click(await screen.findByRole("button", { name: /Acme Inc/ }));
    await user.click(screen.getByRole("menuitem", { name: "Create organization" }));
    const dialog = screen.getByRole("dialog", { name: "Create an organization" });
    expect(dialog).toBeInTheDocument();
    await user.type(screen.getByLabelText("Organization name"), "Initech");
    await user.click(screen.getByRole("button", { name: "Create organization" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(await screen.findByRole("button", { name: "Initech: switch organization" })).toBe(
      trigger(),
    );
    expect(harness.sent("/organization/create")[0]?.body).toMatchObject({
      name: "Initech",
      slug: "initech",
    });
    expect(harness.navigations).toEqual([]);
  });

  it("announces a refused switch", async () => {
    const user = userEvent.setup();
    renderWithAuth(<OrganizationSwitcher />, {
      ...routes("org-1"),
      "/organization/set-active": {
        status: 403,
        body: errorBody("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION"),
      },
    });
    await user.click(await screen.findByRole("button", { name: /Acme Inc/ }));
    await user.click(screen.getByRole("menuitemradio", { name: /Globex/ }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "User is not a member of the organization.",
    );
  });

  it("shows a loading state until the organizations arrive", async () => {
    renderWithAuth(<OrganizationSwitcher />, {
      ...routes("org-1"),
      "/organization/list": () => ({ body: [ACME] }),
    });
    expect(screen.getByRole("status")).toHaveTextContent("Loading…");
    expect(await screen.findByRole("button", { name: /Acme Inc/ })).toBeInTheDocument();
  });
});
