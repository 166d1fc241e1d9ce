/**
 * V8's heap sized for a server (bin/heap-sizing.cts): the young generation's ceiling
 * measured inside real Node processes under an allocation load that grows an unbounded
 * young generation well past it, and the flags `serve` restarts with.
 */
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTHD_BIN, runAuthd, runProcess, startServe } from "../helpers/cli.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";

/** The built module, as the executable loads it (the test runner does not compile .cts). */
const MODULE_PATH = path.join(path.dirname(AUTHD_BIN), "heap-sizing.cjs");
const { DEFAULT_SEMI_SPACE_MIB, heapFlags, operatorSizesHeap } = createRequire(import.meta.url)(
  MODULE_PATH,
) as typeof import("../../bin/heap-sizing.cjs");

const MIB = 1024 * 1024;
/** Both semi-spaces at the default ceiling. */
const CEILING = 2 * DEFAULT_SEMI_SPACE_MIB * MIB;
const canRestart =
  typeof (process as { execve?: unknown }).execve === "function" && process.platform !== "win32";
/** Node 20's V8: the growth factor alone holds the ceiling exactly (see the module). */
const growthFactorIsExact = Number(process.versions.v8.split(".")[0]) < 12;

let dir: string;
let load: string;
let database: TestDatabase;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "authd-young-"));
  load = path.join(dir, "load.cjs");
  // Short tasks that keep part of what they allocate alive, as a busy server does,
  // many times over; then the largest young generation seen, on stderr.
  await writeFile(
    load,
    `const v8 = require("node:v8");
const young = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space").space_size;
const keep = [];
let largest = 0;
let round = 0;
const step = () => {
  for (let i = 0; i < 10000; i++) {
    keep.push({ a: i, b: "x" + i, c: [i, i + 1] });
    if (keep.length > 20000) keep.splice(0, 10000);
  }
  largest = Math.max(largest, young());
  if (++round < 300) setImmediate(step);
  else process.stderr.write("\\nyoung-generation-largest " + largest + "\\n");
};
setImmediate(step);
`,
  );
  database = await createTestDatabase();
  const migrated = await runAuthd(["migrate"], { env: { DATABASE_URL: database.url } });
  expect(migrated.code, migrated.stderr).toBe(0);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await database?.drop();
});

function largestIn(output: string): number {
  const match = /young-generation-largest (\d+)/.exec(output);
  if (!match?.[1]) throw new Error(`no measurement in:\n${output}`);
  return Number(match[1]);
}

/** A plain Node process under the load, with `setup` run first. */
async function measure(setup: string): Promise<number> {
  const result = await runProcess(process.execPath, [
    "-e",
    `${setup}\nrequire(${JSON.stringify(load)});`,
  ]);
  expect(result.code, result.stderr).toBe(0);
  return largestIn(result.stderr);
}

/** `authd serve` under the load; answers the largest young generation and its command line. */
async function measureServe(nodeOptions: string) {
  const server = await startServe([], {
    env: { DATABASE_URL: database.url, NODE_OPTIONS: `${nodeOptions} --require ${load}`.trim() },
  });
  try {
    const deadline = Date.now() + 30_000;
    while (!/young-generation-largest/.test(server.output()) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const commandLine = readFileSync(`/proc/${server.child.pid}/cmdline`, "utf8").split("\0");
    return { largest: largestIn(server.output()), commandLine };
  } finally {
    expect(await server.stop()).toBe(0);
  }
}

describe("the young generation's ceiling", () => {
  let unbounded: number;

  beforeAll(async () => {
    unbounded = await measure("");
  });

  it("is needed: the same load grows an unbounded young generation past it", () => {
    expect(unbounded).toBeGreaterThan(CEILING);
  });

  it("holds by V8's growth factor (exactly on Node 20; slower growth on later V8s)", async () => {
    const capped = await measure(
      `require(${JSON.stringify(MODULE_PATH)}).capYoungGeneration(${DEFAULT_SEMI_SPACE_MIB});`,
    );
    if (growthFactorIsExact) expect(capped).toBeLessThanOrEqual(CEILING);
    else expect(capped).toBeLessThan(unbounded);
  });

  it.runIf(process.platform === "linux")(
    "holds in authd serve under load, and leaves an operator's own sizing alone",
    async () => {
      const served = await measureServe("");
      const operator = await measureServe("--max-semi-space-size=16");
      // V8 12 and 13 count and grow the young generation their own way, even under
      // their own flag: there the ceiling shows as a young generation kept smaller.
      if (growthFactorIsExact) expect(served.largest).toBeLessThanOrEqual(CEILING);
      expect(served.largest).toBeLessThan(operator.largest);
      expect(operator.largest).toBeGreaterThan(CEILING);
      // Where Node can replace the process, serve started over with V8's own flags.
      const restarted = (commandLine: string[]) =>
        heapFlags(DEFAULT_SEMI_SPACE_MIB).every((flag) => commandLine.includes(flag));
      expect(restarted(served.commandLine)).toBe(canRestart);
      expect(restarted(operator.commandLine)).toBe(false);
      expect(operator.commandLine.some((arg) => arg.startsWith("--heap-growing-percent"))).toBe(
        false,
      );
    },
  );

  it("recognises the operator's flags in either spelling", () => {
    expect(operatorSizesHeap(["--max-semi-space-size=8"])).toBe(true);
    expect(operatorSizesHeap(["--max_semi_space_size", "8"])).toBe(true);
    expect(operatorSizesHeap(["--semi-space-growth-factor=3"])).toBe(true);
    expect(operatorSizesHeap(["--heap_growing_percent=80"])).toBe(true);
    expect(operatorSizesHeap(["--max-old-space-size=512", "--require", "x"])).toBe(false);
    expect(operatorSizesHeap(["--max-semi-space-sizes"])).toBe(false);
  });
});
