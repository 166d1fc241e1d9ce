/**
 * `npm run screens`: the served pages at a fixed viewport, saved as
 * docs/screens/<page>.png for the README. Skipped unless $AUTHD_SCREENS is set, so
 * `npm test` never writes into docs/.
 */
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { type Authd, launchBrowser, type Scheme, screenshot, startAuthd } from "./harness.js";
import { seedTour, type TourStop, tour } from "./tour.js";

const OUT = path.join(ROOT, "docs/screens");

/** Which stops are saved, under which file name, in each appearance. */
const SHOTS: Record<Scheme, Partial<Record<TourStop, string>>> = {
  light: {
    "sign-in": "sign-in",
    "sign-up": "sign-up",
    "verify-email": "verify-email",
    "forgot-password": "forgot-password",
    "reset-password": "reset-password",
    "accept-invitation": "accept-invitation",
    home: "home",
    "home-menu": "home-menu",
    account: "account",
    organization: "organization",
    "organization-new": "organization-new",
  },
  dark: {
    "sign-in": "sign-in-dark",
    organization: "organization-dark",
  },
};

describe.skipIf(!process.env.AUTHD_SCREENS)("screens", () => {
  let authd: Authd;
  let browser: Browser;

  beforeAll(async () => {
    [authd, browser] = await Promise.all([startAuthd(), launchBrowser()]);
    await Promise.all([seedTour(authd, "light"), seedTour(authd, "dark")]);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await authd?.close();
  });

  for (const scheme of ["light", "dark"] as const) {
    it(`saves the ${scheme} pages into docs/screens`, async () => {
      const saved: string[] = [];
      await tour(authd, browser, scheme, async (stop, page) => {
        const name = SHOTS[scheme][stop];
        if (!name) return;
        // Blur what the walk left focused, so no focus ring or caret shows.
        await page.evaluate("document.activeElement && document.activeElement.blur()");
        saved.push(path.basename(await screenshot(page, name, OUT)));
      });
      expect(saved.sort()).toEqual(
        Object.values(SHOTS[scheme])
          .map((name) => `${name}.png`)
          .sort(),
      );
    }, 90_000);
  }
});
