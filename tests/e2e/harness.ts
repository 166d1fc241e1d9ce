/**
 * The end-to-end harness: a fresh PostgreSQL database, the built `authd serve` with
 * the pages it serves itself, a real SMTP sink its mail goes to, and Chromium. Each
 * test file starts its own server, on its own port and database, so files run in
 * parallel with everything else.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { AxeBuilder } from "@axe-core/playwright";
import {
  type Browser,
  type BrowserContext,
  chromium,
  type Locator,
  type Page,
} from "playwright-core";
import postgres, { type Sql } from "postgres";
import { runAuthd, type ServeProcess, startServe, successJson } from "../helpers/cli.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";
import { type SmtpSink, startSmtpSink } from "../helpers/smtp.js";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
/** Every screenshot and every axe run sees the same window. */
export const VIEWPORT = { width: 1280, height: 800 } as const;
/** The password every seeded user has. */
export const SEED_PASSWORD = "seeded-password-1";

/** What the server runs with: verification before sign-in, teams, no rate limits. */
export const E2E_CONFIG = {
  emailAndPassword: { requireEmailVerification: true },
  emailVerification: { sendOnSignUp: true, autoSignInAfterVerification: true },
  organization: { teams: { enabled: true } },
  user: { deleteUser: { enabled: true }, changeEmail: { enabled: true } },
  // Many sign-ins from one address in a few seconds are the test, not an attack.
  rateLimit: { enabled: false },
  log: { requests: false },
};

export interface Authd {
  /** The server's origin, e.g. http://127.0.0.1:41234, also its baseURL. */
  url: string;
  /** An absolute URL of one of the served pages, e.g. page("/sign-in"). */
  page(pathname: string): string;
  database: TestDatabase;
  sql: Sql;
  smtp: SmtpSink;
  server: ServeProcess;
  /** Runs the authd CLI against the same database and configuration. */
  cli(args: string[], input?: string): ReturnType<typeof runAuthd>;
  /** Creates users and organizations through `authd seed` (a JSON seed document). */
  seed(document: object): Promise<void>;
  close(): Promise<void>;
}

/** A loopback port nobody listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts authd as an operator would: migrate, then `authd serve` with the database,
 * the secret, SMTP and a baseURL that is the URL it listens on, so mailed links are
 * absolute and open in the test's browser.
 */
export async function startAuthd(config: object = E2E_CONFIG): Promise<Authd> {
  const database = await createTestDatabase("authd_e2e");
  const smtp = await startSmtpSink();
  const dir = mkdtempSync(path.join(os.tmpdir(), "authd-e2e-"));
  const configFile = path.join(dir, "authd.config.json");
  writeFileSync(configFile, JSON.stringify(config, null, 2));
  writeFileSync(path.join(dir, "seed-password.txt"), SEED_PASSWORD);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = {
    DATABASE_URL: database.url,
    AUTHD_CONFIG: configFile,
    AUTHD_SECRET: "e2e-secret-0123456789-0123456789-0123456789",
    AUTHD_BASE_URL: url,
    SMTP_URL: smtp.url,
    MAIL_FROM: "authd <no-reply@example.test>",
  };
  const sql = postgres(database.url, { max: 2, onnotice: () => {} });
  const cli = (args: string[], input?: string) =>
    runAuthd(args, {
      cwd: dir,
      env: { ...env, LOG_LEVEL: "warn" },
      ...(input === undefined ? {} : { input }),
    });
  let server: ServeProcess | undefined;
  try {
    const migrated = await cli(["migrate"]);
    if (migrated.code !== 0) throw new Error(`authd migrate failed:\n${migrated.stderr}`);
    // The later --port wins over the helper's --port 0: the URL must be known up front.
    server = await startServe(["--port", String(port)], { cwd: dir, env });
  } catch (error) {
    await sql.end();
    await smtp.close();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const running = server;
  return {
    url,
    page: (pathname) => new URL(pathname, `${url}/`).toString(),
    database,
    sql,
    smtp,
    server: running,
    cli,
    async seed(document) {
      const file = path.join(dir, `seed-${Date.now()}.json`);
      writeFileSync(file, JSON.stringify({ version: 1, ...document }));
      successJson(
        await cli(["seed", file, "--password-file", "seed-password.txt", "--json"]),
        "authd seed",
      );
    },
    async close() {
      const code = await running.stop();
      await sql.end();
      await smtp.close();
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
      if (code !== 0) throw new Error(`authd serve exited with ${code}:\n${running.output()}`);
    },
  };
}

export function launchBrowser(): Promise<Browser> {
  // No sandbox: CI runs as root, where Chromium refuses to start with one.
  return chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
}

export type Scheme = "light" | "dark";

/** A fresh browser profile (its own cookies) at the fixed viewport. */
export async function newContext(browser: Browser, scheme: Scheme = "light") {
  const context = await browser.newContext({
    viewport: VIEWPORT,
    colorScheme: scheme,
    reducedMotion: "reduce",
    locale: "en-US",
  });
  context.setDefaultTimeout(10_000);
  return context;
}

/** A page that records its uncaught script errors, for the test to check. */
export type E2EPage = Page & { errors: string[] };

export async function openPage(context: BrowserContext): Promise<E2EPage> {
  const page = (await context.newPage()) as E2EPage;
  page.errors = [];
  page.on("pageerror", (error) => page.errors.push(error.message));
  return page;
}

/**
 * Serious and critical axe violations on the page as it is now, one readable line
 * each (rule, impact, what it means, where, and axe's summary of the first node).
 */
export async function axeViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => {
      const targets = violation.nodes.map((node) => node.target.join(" ")).slice(0, 3);
      const summary = violation.nodes[0]?.failureSummary?.replace(/\s+/g, " ").trim() ?? "";
      return `${violation.id} (${violation.impact}): ${violation.help} at ${targets.join(", ")}${summary ? ` — ${summary.slice(0, 300)}` : ""}`;
    });
}

/**
 * Where screenshots go: `docs/screens` only for `npm run screens`; tests write theirs
 * into a folder under the system's temporary directory ($AUTHD_E2E_ARTIFACTS).
 */
export function screenshotDirectory(): string {
  const dir =
    process.env.AUTHD_E2E_ARTIFACTS ??
    path.join(os.tmpdir(), "authd-e2e-screens", `${process.pid}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Saves a PNG of the viewport (not the full page: fixed size, small files). */
export async function screenshot(page: Page, name: string, dir = screenshotDirectory()) {
  const file = path.join(dir, `${name}.png`);
  await page.screenshot({ path: file, animations: "disabled", caret: "hide" });
  return file;
}

/** What keyboard focus is on, and whether it draws a visible indicator. */
export interface FocusInfo {
  tag: string;
  /** Accessible-ish name: aria-label, the label of an input, or the text. */
  name: string;
  role: string | null;
  type: string | null;
  outline: string;
  boxShadow: string;
  visible: boolean;
}

// Runs in the page (the tests' TypeScript has no DOM types, so it is plain source).
const FOCUS_PROBE = `(() => {
  const element = document.activeElement;
  if (!element || element === document.body) return null;
  const style = getComputedStyle(element);
  const label = element.labels && element.labels[0] ? element.labels[0].textContent : null;
  const outline =
    style.outlineStyle === "none" || Number.parseFloat(style.outlineWidth) === 0
      ? "none"
      : style.outlineWidth + " " + style.outlineStyle + " " + style.outlineColor;
  const boxShadow = style.boxShadow;
  return {
    tag: element.tagName.toLowerCase(),
    name: (element.getAttribute("aria-label") || label || element.textContent || "")
      .replace(/\\s+/g, " ")
      .trim(),
    role: element.getAttribute("role"),
    type: element.getAttribute("type"),
    outline,
    boxShadow,
    visible: outline !== "none" || (boxShadow !== "none" && boxShadow !== ""),
  };
})()`;

export function focused(page: Page): Promise<FocusInfo | null> {
  return page.evaluate(FOCUS_PROBE) as Promise<FocusInfo | null>;
}

/**
 * Waits until the element is shown; when it is not, the error says what the page
 * showed instead (its address and the start of its text), not only what was missing.
 */
export async function waitShown(locator: Locator, timeout = 10_000): Promise<void> {
  try {
    await locator.first().waitFor({ state: "visible", timeout });
  } catch (error) {
    const page = locator.page();
    const text = await page
      .locator("body")
      .innerText({ timeout: 1_000 })
      .catch(() => "(no text)");
    const shownText = text.replace(/\s+/g, " ").trim().slice(0, 600);
    const picture = await screenshot(page, `failure-${Date.now()}`).catch(() => "(none)");
    throw new Error(
      `${(error as Error).message.split("\n")[0]}\n  at ${page.url()}\n  the page shows: ${shownText}\n  screenshot: ${picture}`,
    );
  }
}

/** The latest mail to `to` whose link contains `fragment`, as an absolute URL. */
export async function mailedLink(smtp: SmtpSink, to: string, fragment: string): Promise<string> {
  const message = await smtp.waitFor(to, 15_000);
  return smtp.linkIn(message, fragment);
}
