/**
 * A walk over every page authd serves, each in the state a person meets it in, handing
 * each one to `visit` once it has settled: the accessibility test runs axe there, the
 * screenshot script saves it. The people and the organization it needs are seeded per
 * appearance, so a light and a dark walk can run on the same server.
 */
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import {
  type Authd,
  mailedLink,
  newContext,
  openPage,
  type Scheme,
  SEED_PASSWORD,
  waitShown,
} from "./harness.js";

export const TOUR_ORG = { name: "Acme", slug: "acme" };

export type TourStop =
  | "sign-in"
  | "sign-in-error"
  | "sign-up"
  | "sign-up-sent"
  | "verify-email"
  | "verify-email-failed"
  | "forgot-password"
  | "forgot-password-sent"
  | "reset-password"
  | "accept-invitation-signed-out"
  | "accept-invitation"
  | "home"
  | "home-menu"
  | "account"
  | "organization"
  | "organization-switcher"
  | "organization-new";

export type Visit = (stop: TourStop, page: Page) => Promise<void>;

function people(scheme: Scheme) {
  return {
    owner: { email: `owner-${scheme}@example.test`, name: "Olivia Owner" },
    member: { email: `member-${scheme}@example.test`, name: "Max Member" },
    invitee: { email: `invitee-${scheme}@example.test`, name: "Ivy Invitee" },
    resetter: { email: `reset-${scheme}@example.test`, name: "Rita Reset" },
    newcomer: { email: `new-${scheme}@example.test`, name: "Nina Newcomer" },
  };
}

/** The users, the organization (with a team, a member and an invitation) of one walk. */
export async function seedTour(authd: Authd, scheme: Scheme): Promise<void> {
  const who = people(scheme);
  const slug = `${TOUR_ORG.slug}-${scheme}`;
  await authd.seed({
    users: [who.owner, who.member, who.invitee, who.resetter].map((person) => ({
      ...person,
      emailVerified: true,
      password: true,
    })),
    organizations: [
      {
        slug,
        name: TOUR_ORG.name,
        owner: who.owner.email,
        teams: [{ name: "Core" }],
        members: [{ user: who.member.email, role: "member", team: "Core" }],
        invitations: [{ email: who.invitee.email, role: "member" }],
      },
    ],
  });
}

export async function invitationId(authd: Authd, email: string): Promise<string> {
  const [row] = await authd.sql`
    select id from invitation where email = ${email} and status = 'pending'`;
  if (!row) throw new Error(`no pending invitation for ${email}`);
  return row.id as string;
}

async function shown(locator: Locator): Promise<void> {
  await waitShown(locator);
}

function heading(page: Page, name: string | RegExp): Locator {
  return page.getByRole("heading", { name });
}

export async function signIn(page: Page, email: string, password = SEED_PASSWORD) {
  await shown(page.getByLabel("Email", { exact: true }));
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/** Walks every page in `scheme`, calling `visit` at each stop. */
export async function tour(authd: Authd, browser: Browser, scheme: Scheme, visit: Visit) {
  const who = people(scheme);
  const contexts: BrowserContext[] = [];
  const open = async () => {
    const context = await newContext(browser, scheme);
    contexts.push(context);
    return openPage(context);
  };
  try {
    // Signed out: sign-in, a refused sign-in, sign-up and the verification link.
    const page = await open();
    await page.goto(authd.page("/sign-in"));
    await shown(page.getByRole("button", { name: "Sign in", exact: true }));
    await visit("sign-in", page);
    await signIn(page, who.owner.email, "not-the-password");
    await shown(page.getByText("Invalid email or password."));
    await visit("sign-in-error", page);

    await page.goto(authd.page("/sign-up"));
    await shown(heading(page, "Create your account"));
    await visit("sign-up", page);
    await page.getByLabel("Name", { exact: true }).fill(who.newcomer.name);
    await page.getByLabel("Email", { exact: true }).fill(who.newcomer.email);
    await page.getByLabel("Password", { exact: true }).fill(SEED_PASSWORD);
    await page.getByRole("button", { name: "Create account" }).click();
    await shown(heading(page, "Check your inbox"));
    await visit("sign-up-sent", page);
    // The verify-email page with the mailed token: the page checks it and shows the result.
    const link = new URL(await mailedLink(authd.smtp, who.newcomer.email, "verify-email"));
    const token = link.searchParams.get("token") ?? "";
    await page.goto(authd.page(`/verify-email?token=${encodeURIComponent(token)}`));
    await shown(heading(page, "Email verified"));
    await visit("verify-email", page);
    // A link that did not work comes back to the same page with the error's code.
    await page.goto(authd.page("/verify-email?error=INVALID_TOKEN"));
    await shown(heading(page, "Your email could not be verified"));
    await shown(page.getByText("This link is not valid. Request a new one."));
    await visit("verify-email-failed", page);

    // Forgot and reset, through the mailed link.
    const reset = await open();
    await reset.goto(authd.page("/forgot-password"));
    await shown(heading(reset, "Forgot your password?"));
    await visit("forgot-password", reset);
    await reset.getByLabel("Email", { exact: true }).fill(who.resetter.email);
    await reset.getByRole("button", { name: "Send reset link" }).click();
    await shown(heading(reset, "Check your inbox"));
    await visit("forgot-password-sent", reset);
    await reset.goto(await mailedLink(authd.smtp, who.resetter.email, "reset-password"));
    await shown(heading(reset, "Choose a new password"));
    await visit("reset-password", reset);

    // The invitation, signed out and then signed in as its recipient.
    const invited = await open();
    await invited.goto(
      authd.page(`/accept-invitation/${await invitationId(authd, who.invitee.email)}`),
    );
    await shown(heading(invited, "You have been invited"));
    await visit("accept-invitation-signed-out", invited);
    await invited
      .locator('[data-authd-component="accept-invitation"]')
      .getByRole("link", { name: "Sign in" })
      .click();
    await signIn(invited, who.invitee.email);
    await shown(heading(invited, `Join ${TOUR_ORG.name}`));
    await visit("accept-invitation", invited);

    // The owner's pages.
    const owner = await open();
    await owner.goto(authd.page("/sign-in"));
    await signIn(owner, who.owner.email);
    await owner.waitForURL(authd.page("/"));
    const menu = owner.getByRole("button", { name: who.owner.name, exact: true });
    await shown(menu);
    await shown(owner.getByRole("button", { name: /: switch organization$/ }));
    await visit("home", owner);
    await menu.click();
    await shown(owner.getByRole("menuitem", { name: "Sign out" }));
    await visit("home-menu", owner);
    await owner.keyboard.press("Escape");
    // The organization switcher, open; the owner picks the organization.
    await owner.getByRole("button", { name: /: switch organization$/ }).click();
    await shown(owner.getByRole("menuitemradio", { name: TOUR_ORG.name }));
    await visit("organization-switcher", owner);
    await owner.getByRole("menuitemradio", { name: TOUR_ORG.name }).click();
    await shown(owner.getByRole("button", { name: `${TOUR_ORG.name}: switch organization` }));

    await owner.goto(authd.page("/account"));
    await shown(owner.getByRole("region", { name: "Devices" }).getByRole("listitem"));
    await shown(owner.getByRole("region", { name: "Password" }).getByLabel("Current password"));
    await visit("account", owner);

    await owner.goto(authd.page("/organization"));
    await shown(heading(owner, TOUR_ORG.name));
    await shown(owner.getByRole("combobox", { name: `Role of ${who.member.name}` }));
    await shown(owner.getByText(who.invitee.email));
    await shown(owner.getByRole("button", { name: "Members of Core" }));
    await visit("organization", owner);

    await owner.goto(authd.page("/organization/new"));
    await shown(heading(owner, "Create an organization"));
    await visit("organization-new", owner);

    for (const visited of [page, reset, invited, owner]) {
      if (visited.errors.length > 0) {
        throw new Error(`uncaught errors in the page: ${visited.errors.join("; ")}`);
      }
    }
  } finally {
    for (const context of contexts) await context.close().catch(() => {});
  }
}
