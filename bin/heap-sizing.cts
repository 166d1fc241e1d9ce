/**
 * V8's heap sized for a long-running server that holds little, set by the `authd`
 * executable (bin/authd.cts) before anything else runs.
 *
 * Node sizes V8's heap from the memory the process may use. On a host with gigabytes
 * free and no container limit, under load, the young generation's two semi-spaces grow
 * to 16 MiB each (Node 20, 22) or 64 MiB (Node 24), and on Node 22 and 24 the old
 * generation grows to three times its live data between full collections: most of
 * authd's peak memory above its idle size (bench/README.md "Accounts and sessions").
 * Requests allocate short-lived objects, and neither limit below cost throughput we
 * could measure. V8 takes them as flags when the process starts, and `npx authd serve`
 * gives no place to pass them. Two ways around that:
 *
 * - Where Node can replace the running process (`process.execve`: Node 22.15+ and 24,
 *   not on Windows), `serve` starts over at once with `--max-semi-space-size=4` and
 *   `--heap-growing-percent=50` (the old generation may grow by half its live data
 *   before a full collection): same process id, arguments and environment, one more
 *   Node start-up (~40 ms).
 * - Elsewhere (Node 20, Windows, the other commands) authd steers the one young
 *   generation flag V8 reads on every scavenge, `--semi-space-growth-factor`: after
 *   each garbage collection it is 2 while one more doubling stays within the ceiling and
 *   1 once it would not, so the young generation grows as V8 decides up to the ceiling
 *   and can grow again after V8 shrank it while idle. This follows each collection
 *   asynchronously and holds exactly on Node 20's V8 (whose old generation stays small
 *   here); V8 12 and 13 also grow by other steps, so there it only slows growth
 *   (tests/cli/heap-sizing.test.ts). A flag changed after start is outside Node's
 *   guarantees: the worst a future V8 can do is ignore it.
 *
 * An operator who gives Node any of these flags (on its command line or in
 * NODE_OPTIONS) keeps their own sizing: authd then changes nothing.
 */
import { PerformanceObserver } from "node:perf_hooks";
import v8 from "node:v8";

/** The default ceiling of one semi-space, in MiB (the young generation holds two). */
export const DEFAULT_SEMI_SPACE_MIB = 4;

/** How far the old generation may outgrow its live data before a full collection. */
const HEAP_GROWING_PERCENT = 50;

const MIB = 1024 * 1024;

/** Bytes V8 reserves for the young generation now (both semi-spaces). */
function youngGenerationBytes(): number {
  const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space");
  return space?.space_size ?? 0;
}

/** Whether Node's own flags (command line, then NODE_OPTIONS) already size the heap. */
export function operatorSizesHeap(nodeFlags: readonly string[]): boolean {
  return nodeFlags.some((flag) =>
    /^--(max-semi-space-size|semi-space-growth-factor|heap-growing-percent)(=|$)/.test(
      flag.replaceAll("_", "-"),
    ),
  );
}

/** The flags Node runs with: its command line's, then NODE_OPTIONS'. */
export function nodeFlags(nodeOptions: string | undefined): string[] {
  return [...process.execArgv, ...(nodeOptions ?? "").split(/\s+/).filter(Boolean)];
}

/** The flags `serve` restarts with. */
export function heapFlags(semiSpaceMiB: number): string[] {
  return [
    `--max-semi-space-size=${semiSpaceMiB}`,
    `--heap-growing-percent=${HEAP_GROWING_PERCENT}`,
  ];
}

/**
 * Starts this process over with heapFlags, where Node can replace a running process.
 * Returns false (and changes nothing) where it cannot.
 */
export function restartWithHeapFlags(semiSpaceMiB: number): boolean {
  // process.execve exists from Node 22.15 on (documented as experimental; its warning
  // is emitted on a later tick, so the replaced process never prints it); @types/node 20
  // does not know it. Releases before nodejs/node#62878 abort instead of throwing when
  // execve(2) fails: here it runs the very binary already running, so it does not.
  const { execve } = process as {
    execve?: (file: string, args: string[], env: NodeJS.ProcessEnv) => never;
  };
  if (typeof execve !== "function" || process.platform === "win32") return false;
  const args = [
    process.execPath,
    ...process.execArgv,
    ...heapFlags(semiSpaceMiB),
    ...process.argv.slice(1),
  ];
  try {
    execve(process.execPath, args, process.env);
  } catch {
    return false;
  }
  return true;
}

/** Keeps each semi-space at or under `semiSpaceMiB` by V8's growth factor. */
export function capYoungGeneration(semiSpaceMiB: number): void {
  // new_space's size counts both semi-spaces; growing doubles it.
  const ceiling = 2 * semiSpaceMiB * MIB;
  let factor = 2;
  const decide = () => {
    const next = youngGenerationBytes() * 2 <= ceiling ? 2 : 1;
    if (next === factor) return;
    v8.setFlagsFromString(`--semi-space-growth-factor=${next}`);
    factor = next;
  };
  new PerformanceObserver(decide).observe({ entryTypes: ["gc"] });
  decide();
}
