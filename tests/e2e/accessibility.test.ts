/**
 * The served pages for people who do not use a mouse or see less: axe (serious and
 * critical violations) and exactly one <h1> on every page in light and dark, and sign-in
 * and invitation acceptance done with Tab, Shift+Tab, Enter, Space and typing alone,
 * with focus visible at every stop.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Authd,
  axeViolations,
  type FocusInfo,
  focused,
  launchBrowser,
  newContext,
  openPage,
  SEED_PASSWORD,
  startAuthd,
} from "./harness.js";
import { invitationId, seedTour, tour } from "./tour.js";

/** Who signs in and accepts an invitation with the keyboard, in each appearance. */
const KEYBOARD = {
  light: { email: "keys-light@example.test", name: "Kim Keys" },
  dark: { email: "keys-dark@example.test", name: "Kim Keys" },
} as const;

let authd: Authd;
let browser: Browser;

beforeAll(async () => {
  [authd, browser] = await Promise.all([startAuthd(), launchBrowser()]);
  await Promise.all([seedTour(authd, "light"), seedTour(authd, "dark")]);
  await authd.seed({
    users: Object.values(KEYBOARD).map((person) => ({
      ...person,
      emailVerified: true,
      password: true,
    })),
    organizations: [
      {
        slug: "keyboard-club",
        name: "Keyboard Club",
        owner: "owner-light@example.test",
        invitations: Object.values(KEYBOARD).map((person) => ({
          email: person.email,
          role: "admin",
        })),
      },
    ],
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await authd?.close();
});

describe("axe on every page", () => {
  for (const scheme of ["light", "dark"] as const) {
    it(`finds no serious or critical violation in ${scheme}, and one <h1> per page`, async () => {
      const problems: string[] = [];
      const visited: string[] = [];
      const started = performance.now();
      let axeMs = 0;
      await tour(authd, browser, scheme, async (stop, page) => {
        visited.push(stop);
        // Visually hidden or not, a page has exactly one top-level heading.
        const h1 = await page.locator("h1").allInnerTexts();
        if (h1.length !== 1) problems.push(`${stop} (${scheme}): <h1> ${JSON.stringify(h1)}`);
        const before = performance.now();
        for (const violation of await axeViolations(page)) {
          problems.push(`${stop} (${scheme}): ${violation}`);
        }
        axeMs += performance.now() - before;
      });
      const seconds = (ms: number) => (ms / 1000).toFixed(1);
      console.info(
        `axe ${scheme}: ${visited.length} pages in ${seconds(performance.now() - started)} s, axe itself ${seconds(axeMs)} s`,
      );
      expect(visited).toHaveLength(17);
      expect(problems, `axe found:\n${problems.join("\n")}`).toEqual([]);
    }, 180_000);
  }
});

/** Presses `key` and answers what has focus then; fails when focus is not drawn. */
async function press(page: Page, key: string): Promise<FocusInfo> {
  await page.keyboard.press(key);
  const info = await focused(page);
  if (!info) throw new Error(`after ${key} nothing has focus`);
  if (!info.visible) {
    throw new Error(
      `after ${key}, focus on <${info.tag}> "${info.name}" has no visible indicator (outline ${info.outline}, box-shadow ${info.boxShadow})`,
    );
  }
  return info;
}

/** Tabs forward until `name` has focus, recording every stop on the way. */
async function tabTo(page: Page, name: string | RegExp, stops: FocusInfo[] = [], limit = 15) {
  for (let i = 0; i < limit; i += 1) {
    const info = await press(page, "Tab");
    stops.push(info);
    if (typeof name === "string" ? info.name === name : name.test(info.name)) return stops;
  }
  throw new Error(
    `Tab never reached "${name}"; stops: ${stops.map((stop) => stop.name).join(" → ")}`,
  );
}

function describeStops(stops: FocusInfo[]): string[] {
  return stops.map((stop) => `${stop.tag}${stop.type ? `[${stop.type}]` : ""} ${stop.name}`);
}

/** Signs in on the sign-in page with the keyboard alone; the caller checks where it led. */
async function keyboardSignIn(page: Page, email: string, password: string) {
  const stops = await tabTo(page, "Email");
  await page.keyboard.type(email);
  await tabTo(page, "Password", stops);
  await page.keyboard.type(password);
  return stops;
}

describe("keyboard only", () => {
  for (const scheme of ["light", "dark"] as const) {
    const person = KEYBOARD[scheme];
    it(`signs in with Tab, Shift+Tab, Space and Enter, focus visible throughout (${scheme})`, async () => {
      const context = await newContext(browser, scheme);
      try {
        const page = await openPage(context);
        await page.goto(authd.page("/sign-in"));
        await page.getByRole("button", { name: "Sign in", exact: true }).waitFor();

        // Every control in reading order, forward and back.
        const forward = await tabTo(page, "Sign up");
        expect(describeStops(forward)).toEqual([
          "input[email] Email",
          "a Forgot password?",
          "input[password] Password",
          "button[button] Show password",
          "input[checkbox] Remember me",
          "button[submit] Sign in",
          "a Sign up",
        ]);
        const backward: FocusInfo[] = [];
        for (let i = 0; i < forward.length - 1; i += 1)
          backward.push(await press(page, "Shift+Tab"));
        expect(describeStops(backward)).toEqual(describeStops(forward).slice(0, -1).reverse());

        // Fill in, show the password with Space, tick "Remember me" with Space, send with Enter.
        expect((await focused(page))?.name).toBe("Email");
        await page.keyboard.type(person.email);
        await press(page, "Tab");
        await press(page, "Tab");
        await page.keyboard.type(SEED_PASSWORD);
        await press(page, "Tab");
        await page.keyboard.press("Space");
        expect(await page.getByLabel("Password", { exact: true }).getAttribute("type")).toBe(
          "text",
        );
        expect(await page.getByLabel("Password", { exact: true }).inputValue()).toBe(SEED_PASSWORD);
        await press(page, "Tab");
        const remember = page.getByLabel("Remember me");
        const wasChecked = await remember.isChecked();
        await page.keyboard.press("Space");
        expect(await remember.isChecked()).toBe(!wasChecked);
        await press(page, "Tab");
        expect((await focused(page))?.name).toBe("Sign in");
        await page.keyboard.press("Enter");
        await page.waitForURL(authd.page("/"));
        await page.getByRole("button", { name: person.name, exact: true }).waitFor();
        expect(page.errors).toEqual([]);
      } finally {
        await context.close();
      }
    }, 60_000);

    it(`accepts an invitation from its link with the keyboard alone (${scheme})`, async () => {
      const context = await newContext(browser, scheme);
      try {
        const page = await openPage(context);
        const id = await invitationId(authd, person.email);
        await page.goto(authd.page(`/accept-invitation/${id}`));
        await page.getByRole("heading", { name: "You have been invited" }).waitFor();

        // Signed out: the page offers to create an account or to sign in.
        const offered = await tabTo(page, "Sign in");
        expect(describeStops(offered).slice(-2)).toEqual(["a Create an account", "a Sign in"]);
        await page.keyboard.press("Enter");
        await page.getByRole("button", { name: "Sign in", exact: true }).waitFor();
        await keyboardSignIn(page, person.email, SEED_PASSWORD);
        await page.keyboard.press("Enter");

        // Back on the invitation: decline, then accept, in that order.
        await page.getByRole("heading", { name: "Join Keyboard Club" }).waitFor();
        await page.getByText("You will join as: Admin").waitFor();
        const choices = await tabTo(page, "Accept invitation");
        expect(describeStops(choices).slice(-2)).toEqual([
          "button[button] Decline",
          "button[button] Accept invitation",
        ]);
        expect((await press(page, "Shift+Tab")).name).toBe("Decline");
        expect((await press(page, "Tab")).name).toBe("Accept invitation");
        await page.keyboard.press("Enter");
        await page.getByRole("heading", { name: "Welcome to Keyboard Club" }).waitFor();
        const [member] = await authd.sql`
        select m.role from member m join "user" u on u.id = m.user_id
        join organization o on o.id = m.organization_id
        where u.email = ${person.email} and o.slug = 'keyboard-club'`;
        expect(member?.role).toBe("admin");

        // Continue, with Space this time, leaves the invitation.
        await tabTo(page, "Continue");
        await page.keyboard.press("Space");
        await page.waitForURL((url) => !url.pathname.includes("/accept-invitation/"));
        expect(page.errors).toEqual([]);
      } finally {
        await context.close();
      }
    }, 60_000);
  }
});
