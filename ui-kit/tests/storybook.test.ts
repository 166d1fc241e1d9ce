/**
 * Every story of the kit's Storybook in a real browser: it renders, its play function
 * passes, and axe finds no serious or critical violation in light or dark. A static
 * Storybook shows a story whose play function threw as rendered, so the preview's
 * channel events are recorded and checked explicitly.
 */
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { promisify } from "node:util";
import axe, { type AxeResults } from "axe-core";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const KIT = path.join(ROOT, "ui-kit");
const STATIC = path.join(KIT, "storybook-static");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
/** Pages checked at once: enough to keep the run short on two cores. */
const PARALLEL = 3;
const STORY_TIMEOUT_MS = 20_000;
/** Checks only the stories whose id matches this pattern, e.g. `STORYBOOK_ONLY=signin--dark`. */
const ONLY = process.env.STORYBOOK_ONLY;

const TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
};

/** Channel events that mean the story failed. */
const FAILURE_EVENTS = [
  "playFunctionThrewException",
  "storyErrored",
  "storyThrewException",
  "unhandledErrorsWhilePlaying",
  "storyMissing",
];

// Runs in the page before Storybook: catches the preview channel as it is created and
// records its events (what Storybook's own UI would report), and lets the test switch
// stories and appearance without reloading the page.
const RECORDER = `(() => {
  const failures = ${JSON.stringify(FAILURE_EVENTS)};
  const names = [...failures, "storyFinished", "storyRenderPhaseChanged"];
  const events = [];
  const plain = (value) => {
    if (value instanceof Error) return { name: value.name, message: value.message };
    if (Array.isArray(value)) return value.map(plain);
    if (value && typeof value === "object") {
      const out = {};
      for (const key of ["name", "message", "title", "description", "status", "newPhase", "storyId"]) {
        if (key in value) out[key] = plain(value[key]);
      }
      return out;
    }
    return value;
  };
  let channel;
  Object.defineProperty(window, "__STORYBOOK_ADDONS_CHANNEL__", {
    configurable: true,
    get: () => channel,
    set: (value) => {
      channel = value;
      for (const name of names) value.on(name, (...args) => events.push({ name, args: plain(args) }));
    },
  });
  const errorShown = () => document.body.classList.contains("sb-show-errordisplay");
  window.__storyTest = {
    emit(name, payload) {
      events.length = 0;
      channel.emit(name, payload);
    },
    done(storyId) {
      return errorShown() || events.some((event) => {
        const [first] = event.args;
        if (failures.includes(event.name)) return true;
        if (!first || first.storyId !== storyId) return false;
        return event.name === "storyFinished" ||
          (event.name === "storyRenderPhaseChanged" && first.newPhase === "errored");
      });
    },
    report() {
      const display = document.querySelector(".sb-errordisplay");
      return {
        events: events.slice(),
        errorDisplay: errorShown() ? (display ? display.textContent : "error display") : null,
      };
    },
  };
})();`;

interface RecordedEvent {
  name: string;
  args: unknown[];
}

interface StoryEntry {
  id: string;
  title: string;
  name: string;
  type: string;
}

/** The first lines of an event's error, without colours or the DOM dump testing-library adds. */
function explain(event: RecordedEvent): string {
  const [first] = event.args as { message?: string; description?: string; title?: string }[];
  const text = first?.message ?? first?.description ?? first?.title ?? JSON.stringify(event.args);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: terminal colour codes
  const plain = text.replace(/\u001b\[[0-9;]*m/g, "");
  return (plain.split("\n\nIgnored nodes")[0] ?? plain).trim().slice(0, 600);
}

function newest(dir: string): number {
  let time = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    time = Math.max(time, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }
  return time;
}

/** A build made earlier in the same run (`npm run build-storybook`) is newer than every source. */
function buildIsCurrent(): boolean {
  const index = path.join(STATIC, "index.json");
  if (!existsSync(index)) return false;
  const sources = Math.max(
    newest(path.join(KIT, "src")),
    newest(path.join(KIT, "stories")),
    newest(path.join(KIT, ".storybook")),
    // The stories' mock answers with the server's error catalogue.
    statSync(path.join(ROOT, "server/errors.ts")).mtimeMs,
  );
  return statSync(index).mtimeMs > sources;
}

function serve(dir: string): Promise<Server> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    const file = path.normalize(path.join(dir, decodeURIComponent(url.pathname)));
    const target = file.endsWith(path.sep) ? path.join(file, "index.html") : file;
    if (!target.startsWith(dir) || !existsSync(target) || !statSync(target).isFile()) {
      response.writeHead(404).end("not found");
      return;
    }
    response.writeHead(200, {
      "content-type": TYPES[path.extname(target)] ?? "application/octet-stream",
    });
    response.end(readFileSync(target));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

/** Runs `work` over `items` in `lanes` lanes; each lane gets its own state from `open`. */
async function pool<T, Lane>(
  items: readonly T[],
  lanes: number,
  open: () => Promise<Lane>,
  close: (lane: Lane) => Promise<void>,
  work: (item: T, lane: Lane) => Promise<void>,
) {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      const lane = await open();
      try {
        for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
          await work(item, lane);
        }
      } finally {
        await close(lane);
      }
    }),
  );
}

/** A page showing one story at a time. */
interface Tab {
  page: Page;
  storyId: string;
  appearance: "light" | "dark";
  pageErrors: string[];
}

function emit(tab: Tab, name: string, payload: object): Promise<void> {
  return tab.page.evaluate(
    ([name, payload]) =>
      (
        globalThis as unknown as {
          __storyTest: { emit(name: string, payload: object): void };
        }
      ).__storyTest.emit(name, payload),
    [name, payload] as const,
  );
}

/** Waits until the story finished or failed; false when it did neither in time. */
function finished(tab: Tab, storyId: string, timeout: number): Promise<boolean> {
  return tab.page
    .waitForFunction(
      (id) =>
        (
          globalThis as unknown as { __storyTest?: { done(id: string): boolean } }
        ).__storyTest?.done(id) ?? false,
      storyId,
      { timeout, polling: 50 },
    )
    .then(
      () => true,
      () => false,
    );
}

describe("Storybook", () => {
  let server: Server | undefined;
  let browser: Browser | undefined;
  let base = "";
  let buildSeconds: number | null = null;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install -y chromium`);
    }
    if (!buildIsCurrent()) {
      const started = performance.now();
      await promisify(execFile)("npm", ["run", "build-storybook", "--silent"], {
        cwd: ROOT,
        env: { ...process.env, STORYBOOK_DISABLE_TELEMETRY: "1", CI: "true" },
        maxBuffer: 64 * 1024 * 1024,
      });
      buildSeconds = (performance.now() - started) / 1000;
    }
    server = await serve(STATIC);
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // No sandbox: CI runs as root, where Chromium refuses to start with one.
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  });

  it("renders every story, passes its play function and axe in light and dark", async () => {
    if (!browser) throw new Error("no browser");
    const started = performance.now();
    const index = JSON.parse(readFileSync(path.join(STATIC, "index.json"), "utf8")) as {
      entries: Record<string, StoryEntry>;
    };
    const stories = Object.values(index.entries).filter(
      (entry) => entry.type === "story" && (!ONLY || new RegExp(ONLY).test(entry.id)),
    );
    expect(stories.length).toBeGreaterThan(0);

    // Every story in light, then every story in dark: each lane changes appearance once.
    const runs = (["light", "dark"] as const).flatMap((appearance) =>
      stories.map((story) => ({ story, appearance })),
    );
    const failures: string[] = [];
    const open = browser;

    // Each lane keeps one page and switches stories through Storybook's channel, as its
    // own UI does: loading the preview once per lane instead of once per story is what
    // keeps the run short. A page that saw a failure is replaced, so nothing carries over.
    await pool(
      runs,
      PARALLEL,
      async () => ({ context: await open.newContext(), tab: null as Tab | null }),
      (lane) => lane.context.close(),
      async ({ story, appearance }, lane) => {
        const label = `${story.title} / ${story.name} (${appearance})`;
        const problems: string[] = [];
        if (!lane.tab) {
          const page = await lane.context.newPage();
          const current: Tab = { page, storyId: story.id, appearance, pageErrors: [] };
          page.on("pageerror", (error) => current.pageErrors.push(error.message));
          await page.addInitScript(RECORDER);
          await page.goto(
            `${base}/iframe.html?id=${story.id}&viewMode=story&globals=appearance:${appearance}`,
          );
          lane.tab = current;
        } else {
          const current = lane.tab;
          if (current.appearance !== appearance) {
            // The current story re-renders in the other appearance; wait for it to settle.
            await emit(current, "updateGlobals", { globals: { appearance } });
            await finished(current, current.storyId, 5_000);
            current.appearance = appearance;
          }
          current.pageErrors.length = 0;
          if (current.storyId === story.id) {
            await emit(current, "forceRemount", { storyId: story.id });
          } else {
            await emit(current, "setCurrentStory", { storyId: story.id, viewMode: "story" });
          }
          current.storyId = story.id;
        }
        const current = lane.tab;

        const done = await finished(current, story.id, STORY_TIMEOUT_MS);
        const { events, errorDisplay } = (await current.page.evaluate(
          "window.__storyTest.report()",
        )) as { events: RecordedEvent[]; errorDisplay: string | null };
        if (!done) problems.push(`did not finish within ${STORY_TIMEOUT_MS} ms`);
        for (const event of events) {
          if (FAILURE_EVENTS.includes(event.name))
            problems.push(`${event.name}: ${explain(event)}`);
          const status = (event.args[0] as { status?: string } | undefined)?.status;
          if (event.name === "storyFinished" && status === "error") {
            problems.push("storyFinished with status error");
          }
        }
        if (errorDisplay) problems.push(`error display: ${errorDisplay.trim().slice(0, 500)}`);
        for (const message of current.pageErrors) problems.push(`uncaught: ${message}`);

        if (problems.length === 0) {
          // axe is injected once per page and run in place: a page serves a whole lane
          // of stories, and injecting axe's source before every run took most of this
          // test's time.
          const page = current.page;
          if (!(await page.evaluate("typeof window.axe === 'object'"))) {
            await page.evaluate(axe.source);
          }
          const result = (await page.evaluate(
            "window.axe.run(document.querySelector('#storybook-root'), { resultTypes: ['violations'] })",
          )) as AxeResults;
          for (const violation of result.violations) {
            if (violation.impact !== "serious" && violation.impact !== "critical") continue;
            const targets = violation.nodes.map((node) => node.target.join(" ")).slice(0, 3);
            problems.push(
              `axe ${violation.id} (${violation.impact}): ${violation.help} at ${targets.join(", ")}`,
            );
          }
        } else {
          await current.page.close();
          lane.tab = null;
        }
        for (const problem of problems) failures.push(`${label}: ${problem}`);
      },
    );

    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const built = buildSeconds === null ? "reused build" : `built in ${buildSeconds.toFixed(1)} s`;
    console.info(`storybook: ${runs.length} story runs in ${seconds} s (${built})`);
    failures.sort();
    expect(failures, failures.join("\n")).toEqual([]);
  }, 900_000);
});
