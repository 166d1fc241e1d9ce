/**
 * The whole product as a person uses it, in Chromium against the built `authd serve`
 * and the pages it serves: every step is a click or a keystroke in the page, every
 * check is on what the page shows (and, where the page cannot show it, on the
 * database or the mail that was sent). The steps run in order and share the people.
 */
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Authd,
  type E2EPage,
  launchBrowser,
  mailedLink,
  newContext,
  openPage,
  SEED_PASSWORD,
  startAuthd,
  waitShown,
} from "./harness.js";

const ADA = { name: "Ada Lovelace", email: "ada@example.test", password: "first-password-1" };
const ADA_RESET = "after-reset-password-2";
const ADA_CHANGED = "changed-on-account-3";
const GRACE = { name: "Grace Hopper", email: "grace@example.test", password: SEED_PASSWORD };
const ORG = { name: "Analytical Engines", slug: "analytical-engines" };
const GRACE_ORG = { name: "Harvard Mark I", slug: "harvard-mark-i" };
const ADA_NEW_EMAIL = "countess@example.test";
const NINA = { name: "Nina Newcomer", email: "nina@example.test", password: "newcomer-password-4" };
const TEAM = "Compilers";

let authd: Authd;
let browser: Browser;
/** Ada's browser, signed in from the verification link on. */
let ada: { context: BrowserContext; page: E2EPage };
/** Grace's browser. */
let grace: { context: BrowserContext; page: E2EPage };
/** Nina's browser, from her sign-up on. */
let nina: E2EPage;
const contexts: BrowserContext[] = [];

async function browse(): Promise<{ context: BrowserContext; page: E2EPage }> {
  const context = await newContext(browser);
  contexts.push(context);
  return { context, page: await openPage(context) };
}

/** Waits until the element is shown: the person can see it. */
async function see(locator: Locator): Promise<Locator> {
  await waitShown(locator);
  return locator;
}

function heading(page: Page, name: string | RegExp): Locator {
  return page.getByRole("heading", { name });
}

/** Waits until `read` answers what `expected` accepts (the database after a click). */
async function eventually<T>(read: () => Promise<T>, expected: (value: T) => boolean) {
  const deadline = Date.now() + 10_000;
  let value = await read();
  while (!expected(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await read();
  }
  return value;
}

/** The sign-in form, filled and sent; the caller checks where it led. */
async function submitSignIn(page: Page, email: string, password: string) {
  await see(heading(page, "Sign in"));
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/** The user menu's button, named after the signed-in person. */
function userMenu(page: Page, name: string): Locator {
  return page.getByRole("button", { name, exact: true });
}

async function signedInHome(page: Page, name: string) {
  await page.waitForURL(authd.page("/"));
  await see(userMenu(page, name));
}

beforeAll(async () => {
  [authd, browser] = await Promise.all([startAuthd(), launchBrowser()]);
  // Grace already has an account and an organization of her own.
  await authd.seed({
    users: [{ email: GRACE.email, name: GRACE.name, emailVerified: true, password: true }],
    organizations: [{ slug: GRACE_ORG.slug, name: GRACE_ORG.name, owner: GRACE.email }],
  });
  ada = await browse();
  grace = await browse();
}, 120_000);

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => {});
  await browser?.close();
  await authd?.close();
});

describe("the journey", () => {
  it("signs up, then follows the mailed link: verified and signed in", async () => {
    const { page } = ada;
    await page.goto(authd.page("/sign-up"));
    await see(heading(page, "Create your account"));
    await page.getByLabel("Name", { exact: true }).fill(ADA.name);
    await page.getByLabel("Email", { exact: true }).fill(ADA.email);
    await page.getByLabel("Password", { exact: true }).fill(ADA.password);
    await page.getByRole("button", { name: "Create account" }).click();
    await see(heading(page, "Check your inbox"));
    await see(page.getByText(`We sent a link to ${ADA.email}.`));
    const [before] = await authd.sql`select email_verified from "user" where email = ${ADA.email}`;
    expect(before?.email_verified).toBe(false);

    // A link that does not work (here: its token tampered with) lands on the
    // verify-email page, which says why, rather than on a sign-in page that says nothing.
    const link = await mailedLink(authd.smtp, ADA.email, "verify-email");
    const broken = new URL(link);
    broken.searchParams.set("token", `${broken.searchParams.get("token")}x`);
    await page.goto(broken.toString());
    await see(heading(page, "Your email could not be verified"));
    await see(page.getByText("This link is not valid. Request a new one."));
    expect(new URL(page.url()).pathname).toBe("/verify-email");

    // The real link verifies and signs in; the verify-email page says so and goes on to
    // where sign-up said to go (the home page).
    await page.goto(link);
    await see(heading(page, "Email verified"));
    await see(page.getByText("Thank you: your email address is confirmed."));
    await page.getByRole("button", { name: "Continue" }).click();
    await signedInHome(page, ADA.name);
    const [after] = await authd.sql`select email_verified from "user" where email = ${ADA.email}`;
    expect(after?.email_verified).toBe(true);
  });

  it("signs out from the user menu and signs in again", async () => {
    const { page } = ada;
    await userMenu(page, ADA.name).click();
    await page.getByRole("menuitem", { name: "Sign out" }).click();
    await page.waitForURL((url) => url.pathname.endsWith("/sign-in"));
    await see(heading(page, "Sign in"));
    await submitSignIn(page, ADA.email, ADA.password);
    await signedInHome(page, ADA.name);
  });

  it("resets a forgotten password through the mailed link", async () => {
    const { context, page } = await browse();
    await page.goto(authd.page("/sign-in"));
    await page.getByRole("link", { name: "Forgot password?" }).click();
    await see(heading(page, "Forgot your password?"));
    await page.getByLabel("Email", { exact: true }).fill(ADA.email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await see(heading(page, "Check your inbox"));

    await page.goto(await mailedLink(authd.smtp, ADA.email, "reset-password"));
    await see(heading(page, "Choose a new password"));
    await page.getByLabel("New password", { exact: true }).fill(ADA_RESET);
    await page.getByLabel("Repeat new password", { exact: true }).fill(ADA_RESET);
    await page.getByRole("button", { name: "Save password" }).click();
    await see(heading(page, "Password changed"));
    await page.getByRole("link", { name: "Sign in" }).click();

    // The old password is refused, the new one works.
    await submitSignIn(page, ADA.email, ADA.password);
    await see(page.getByRole("alert").filter({ hasText: "Invalid email or password." }));
    expect(new URL(page.url()).pathname).toMatch(/\/sign-in$/);
    await page.getByLabel("Password", { exact: true }).fill(ADA_RESET);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await signedInHome(page, ADA.name);
    await userMenu(page, ADA.name).click();
    await page.getByRole("menuitem", { name: "Sign out" }).click();
    await page.waitForURL((url) => url.pathname.endsWith("/sign-in"));
    await context.close();
  });

  it("changes the password on the account page", async () => {
    const { page } = ada;
    await page.goto(authd.page("/account"));
    const section = page.getByRole("region", { name: "Password" });
    await see(section.getByLabel("Current password", { exact: true }));
    await section.getByLabel("Current password", { exact: true }).fill(ADA_RESET);
    await section.getByLabel("New password", { exact: true }).fill(ADA_CHANGED);
    await section.getByRole("button", { name: "Change password" }).click();
    await see(section.getByText("Your password has been changed."));
  });

  it("signs out another browser from the account page", async () => {
    // A second browser signs in with the changed password (the change took).
    const other = await browse();
    await other.page.goto(authd.page("/sign-in"));
    await submitSignIn(other.page, ADA.email, ADA_CHANGED);
    await signedInHome(other.page, ADA.name);
    await other.page.goto(authd.page("/account"));
    await see(heading(other.page, "Account"));

    const { page } = ada;
    await page.reload();
    const devices = page.getByRole("region", { name: "Devices" });
    const otherDevice = devices.locator('li:not([data-state="current"])');
    await see(otherDevice);
    expect(await otherDevice.count()).toBe(1);
    await otherDevice.getByRole("button", { name: /^Sign out / }).click();
    await see(devices.getByText("The device is signed out."));
    await see(devices.getByText("No other devices are signed in."));

    // The other browser's next action finds it signed out.
    await other.page.goto(authd.page("/account"));
    await see(
      heading(other.page, "Sign in").or(other.page.getByText("Sign in to manage your account.")),
    );
    expect(await userMenu(other.page, ADA.name).count()).toBe(0);
    const sessions = await authd.sql`
      select count(*)::int as count from session s join "user" u on u.id = s.user_id
      where u.email = ${ADA.email} and s.expires_at > now()`;
    expect(sessions[0]?.count).toBe(1);
    await other.context.close();
  });

  it("creates an organization", async () => {
    const { page } = ada;
    await page.goto(authd.page("/organization/new"));
    await see(heading(page, "Create an organization"));
    await page.getByLabel("Organization name").fill(ORG.name);
    const slug = page.getByLabel("Slug", { exact: true });
    expect(await slug.inputValue()).toBe(ORG.slug);
    await see(page.getByText("This slug is available."));
    await page.getByRole("button", { name: "Create organization", exact: true }).click();
    await see(page.getByRole("heading", { level: 2, name: ORG.name }));
    const owners = await authd.sql`
      select m.role from member m join organization o on o.id = m.organization_id
      join "user" u on u.id = m.user_id where o.slug = ${ORG.slug} and u.email = ${ADA.email}`;
    expect(owners.map((row) => row.role)).toEqual(["owner"]);
  });

  it("invites Grace, who signs in from the mailed link and accepts", async () => {
    const { page } = ada;
    const form = page.getByRole("form", { name: "Invite a member" });
    await see(form);
    await form.getByLabel("Email").fill(GRACE.email);
    await form.getByLabel("Role").selectOption({ label: "Member" });
    await form.getByRole("button", { name: "Send invitation" }).click();
    await see(form.getByText(`Invitation sent to ${GRACE.email}.`));
    await see(page.getByText(GRACE.email));

    const link = await mailedLink(authd.smtp, GRACE.email, "accept-invitation");
    const invitation = grace.page;
    await invitation.goto(link);
    await see(heading(invitation, "You have been invited"));
    await invitation
      .locator('[data-authd-component="accept-invitation"]')
      .getByRole("link", { name: "Sign in" })
      .click();
    await submitSignIn(invitation, GRACE.email, GRACE.password);
    // Signing in brings her back to the invitation.
    await see(heading(invitation, `Join ${ORG.name}`));
    await see(invitation.getByText(`${ADA.email} invited you to join ${ORG.name}.`));
    await see(invitation.getByText("You will join as: Member"));
    await invitation.getByRole("button", { name: "Accept invitation" }).click();
    await see(heading(invitation, `Welcome to ${ORG.name}`));
    const members = await authd.sql`
      select u.email, m.role from member m join organization o on o.id = m.organization_id
      join "user" u on u.id = m.user_id where o.slug = ${ORG.slug} order by u.email`;
    expect(members.map((row) => [row.email, row.role])).toEqual([
      [ADA.email, "owner"],
      [GRACE.email, "member"],
    ]);
  });

  it("switches Grace's active organization", async () => {
    const page = grace.page;
    const activeSlug = async () => {
      const rows = await authd.sql`
        select o.slug from session s join "user" u on u.id = s.user_id
        left join organization o on o.id = s.active_organization_id
        where u.email = ${GRACE.email} and s.expires_at > now()`;
      return rows.map((row) => row.slug as string | null);
    };
    for (const target of [GRACE_ORG, ORG]) {
      await page.goto(authd.page("/"));
      const switcher = page.getByRole("button", { name: /: switch organization$/ });
      await see(switcher);
      await switcher.click();
      await page.getByRole("menuitemradio", { name: target.name }).click();
      await see(page.getByRole("button", { name: `${target.name}: switch organization` }));
      expect(await eventually(activeSlug, (slugs) => slugs[0] === target.slug)).toEqual([
        target.slug,
      ]);
    }
    await page.goto(authd.page("/organization"));
    await see(page.getByRole("heading", { level: 2, name: ORG.name }));
    await see(page.getByText("Only owners and admins can change these details."));
  });

  it("creates a team and adds Grace to it", async () => {
    const { page } = ada;
    await page.goto(authd.page("/organization"));
    const create = page.getByRole("form", { name: "Create team" });
    await see(create);
    await create.getByLabel("Team name").fill(TEAM);
    await create.getByRole("button", { name: "Create team" }).click();
    await see(page.getByText(`Team “${TEAM}” created.`));

    await page.getByRole("button", { name: `Members of ${TEAM}` }).click();
    const add = page.getByRole("form", { name: `Add a member to ${TEAM}` });
    await see(add);
    await add
      .getByLabel("Organization member")
      .selectOption({ label: `${GRACE.name} (${GRACE.email})` });
    await add.getByRole("button", { name: "Add to team" }).click();
    await see(page.getByRole("list", { name: `Members of ${TEAM}` }).getByText(GRACE.name));
    const inTeam = await authd.sql`
      select u.email from team_member tm join team t on t.id = tm.team_id
      join "user" u on u.id = tm.user_id where t.name = ${TEAM}`;
    expect(inTeam.map((row) => row.email)).toContain(GRACE.email);
  });

  it("makes Grace an admin, and she sees it", async () => {
    const { page } = ada;
    const role = page.getByRole("combobox", { name: `Role of ${GRACE.name}` });
    await see(role);
    await role.selectOption({ label: "Admin" });
    const read = () => authd.sql`
      select m.role from member m join "user" u on u.id = m.user_id
      join organization o on o.id = m.organization_id
      where u.email = ${GRACE.email} and o.slug = ${ORG.slug}`;
    expect((await eventually(read, (rows) => rows[0]?.role === "admin"))[0]?.role).toBe("admin");
    await page.reload();
    await see(page.getByRole("combobox", { name: `Role of ${GRACE.name}` }));
    expect(await page.getByRole("combobox", { name: `Role of ${GRACE.name}` }).inputValue()).toBe(
      "admin",
    );

    // Grace, now an admin, may edit the organization's details.
    await grace.page.reload();
    await see(grace.page.getByRole("heading", { level: 2, name: ORG.name }));
    await see(
      grace.page.getByRole("form", { name: "Details" }).getByRole("button", { name: "Save" }),
    );
    expect(
      await grace.page.getByText("Only owners and admins can change these details.").count(),
    ).toBe(0);
  });

  it("lets Grace leave the organization", async () => {
    const page = grace.page;
    await page.getByRole("button", { name: "Leave organization" }).click();
    const dialog = page.getByRole("dialog", { name: "Leave this organization?" });
    await see(dialog);
    await dialog.getByRole("button", { name: "Leave", exact: true }).click();
    await dialog.waitFor({ state: "detached" });
    const read = () => authd.sql`
      select u.email from member m join "user" u on u.id = m.user_id
      join organization o on o.id = m.organization_id where o.slug = ${ORG.slug}`;
    const left = await eventually(read, (rows) => rows.length === 1);
    expect(left.map((row) => row.email)).toEqual([ADA.email]);
    // The settings re-read the session after the leave: the organization's heading goes.
    await page
      .getByRole("heading", { level: 2, name: ORG.name })
      .waitFor({ state: "detached", timeout: 10_000 });

    // Ada no longer sees her among the members.
    await ada.page.reload();
    const members = ada.page.getByRole("list", { name: "Members" });
    await see(members.getByText(ADA.email));
    expect(await members.getByText(GRACE.email).count()).toBe(0);
    expect(ada.page.errors).toEqual([]);
    expect(grace.page.errors).toEqual([]);
  });

  it("invites Nina, who signs up from the invitation and is welcomed as a member", async () => {
    const { page } = ada;
    await page.goto(authd.page("/organization"));
    const form = page.getByRole("form", { name: "Invite a member" });
    await see(form);
    await form.getByLabel("Email").fill(NINA.email);
    await form.getByRole("button", { name: "Send invitation" }).click();
    await see(form.getByText(`Invitation sent to ${NINA.email}.`));

    const link = await mailedLink(authd.smtp, NINA.email, "accept-invitation");
    nina = (await browse()).page;
    await nina.goto(link);
    await see(heading(nina, "You have been invited"));
    await nina.getByRole("link", { name: "Create an account" }).click();
    await see(heading(nina, "Create your account"));
    await nina.getByLabel("Name", { exact: true }).fill(NINA.name);
    await nina.getByLabel("Email", { exact: true }).fill(NINA.email);
    await nina.getByLabel("Password", { exact: true }).fill(NINA.password);
    await nina.getByRole("button", { name: "Create account" }).click();
    await see(heading(nina, "Check your inbox"));

    // Following the link verifies her, signs her in and accepts the invitation; the
    // pages then say so instead of calling the used invitation invalid.
    await nina.goto(await mailedLink(authd.smtp, NINA.email, "verify-email"));
    await see(heading(nina, "Email verified"));
    await nina.getByRole("button", { name: "Continue" }).click();
    await see(heading(nina, `Welcome to ${ORG.name}`));
    expect(await nina.getByText("This invitation is no longer valid").count()).toBe(0);
    const members = await authd.sql`
      select m.role from member m join organization o on o.id = m.organization_id
      join "user" u on u.id = m.user_id where o.slug = ${ORG.slug} and u.email = ${NINA.email}`;
    expect(members.map((row) => row.role)).toEqual(["member"]);
    await nina.getByRole("button", { name: "Continue" }).click();
    await nina.waitForURL(authd.page("/organization"));
    await see(heading(nina, ORG.name));

    // The mailed invitation, opened again, says she is a member and opens the organization.
    await nina.goto(link);
    await see(heading(nina, `You are already a member of ${ORG.name}`));
    await nina.getByRole("button", { name: "Open organization" }).click();
    await nina.waitForURL(authd.page("/organization"));
    expect(nina.errors).toEqual([]);
  });

  it("changes Ada's email through the mailed link, and says why a bad link failed", async () => {
    const { page } = ada;
    await page.goto(authd.page("/account"));
    const section = page.getByRole("region", { name: "Email address" });
    await see(section.getByLabel("New email address"));
    await section.getByLabel("New email address").fill(ADA_NEW_EMAIL);
    await section.getByRole("button", { name: "Change email" }).click();
    await see(section.getByText(`we sent a link to ${ADA.email} to confirm the change`));

    // A verified user confirms from the current address; a broken copy of the link
    // comes back to the account page, which says why and drops the error from the address.
    const link = await mailedLink(authd.smtp, ADA.email, "verify-email");
    const broken = new URL(link);
    broken.searchParams.set("token", `${broken.searchParams.get("token")}x`);
    await page.goto(broken.toString());
    await see(
      page.getByText(
        "The link to change your email address did not work. This link is not valid. Request a new one.",
      ),
    );
    expect(new URL(page.url()).search).toBe("");

    // The real link changes it; the new address gets a link to verify it.
    await page.goto(link);
    await see(
      page.getByText(
        `Your email address is now ${ADA_NEW_EMAIL}. We sent a link to it: open it to verify the address.`,
      ),
    );
    expect(new URL(page.url()).search).toBe("");
    const [row] = await authd.sql`select email from "user" where name = ${ADA.name}`;
    expect(row?.email).toBe(ADA_NEW_EMAIL);
    expect(page.errors).toEqual([]);
  });

  it("deletes Nina's account by the mailed link, and sign-in says it is gone", async () => {
    await nina.goto(authd.page("/account"));
    const section = nina.getByRole("region", { name: "Delete account" });
    await see(section.getByRole("button", { name: "Delete account…" }));
    await section.getByRole("button", { name: "Delete account…" }).click();
    const dialog = nina.getByRole("dialog", { name: "Delete your account?" });
    await see(dialog);
    await dialog.getByLabel("Password", { exact: true }).fill(NINA.password);
    await dialog.getByRole("button", { name: "Delete my account" }).click();
    await see(section.getByText(/Check your inbox/));
    const [before] =
      await authd.sql`select count(*)::int as count from "user" where email = ${NINA.email}`;
    expect(before?.count).toBe(1);

    // The link comes back to the account page, which shows authd's ?error= should it
    // fail; followed, it signs her out there, and sign-in says the account is gone.
    const link = await mailedLink(authd.smtp, NINA.email, "delete-user");
    expect(new URL(link).searchParams.get("callbackURL")).toBe(
      authd.page("/account?deleteAccount=1"),
    );
    await nina.goto(link);
    await see(nina.getByText("Your account has been deleted."));
    await see(heading(nina, "Sign in"));
    expect(new URL(nina.url()).pathname).toBe("/sign-in");
    const [after] =
      await authd.sql`select count(*)::int as count from "user" where email = ${NINA.email}`;
    expect(after?.count).toBe(0);
    expect(nina.errors).toEqual([]);
  });
});
