/**
 * A ceiling on V8's young generation, set by the `authd` executable (bin/authd.cts)
 * before anything else runs.
 *
 * Node sizes the young generation from the memory the process may use: on a host with
 * gigabytes free and no container limit its two semi-spaces grow to 16 MiB each under
 * load (Node 20, 22), 64 MiB on Node 24, a large share of authd's peak memory
 * (bench/README.md "Accounts and sessions"). Requests allocate short-lived objects, so
 * a smaller young generation costs no throughput we could measure. V8's
 * `--max-semi-space-size` says exactly that, but V8 reads it only when the process
 * starts, and `npx authd serve` gives no place to pass it. Two ways around that:
 *
 * - Where Node can replace the running process (`process.execve`: Node 22.15+ and 24,
 *   not on Windows), `serve` starts over at once with the flag added: same process id,
 *   same arguments and environment, one more Node start-up (~40 ms).
 * - Elsewhere (Node 20, Windows, other commands) authd steers the one sizing flag V8
 *   reads on every scavenge, `--semi-space-growth-factor`: after each garbage
 *   collection it is 2 while one more doubling stays within the ceiling and 1 once it
 *   would not, so the young generation grows as V8 decides up to the ceiling and can
 *   grow again after V8 shrank it while idle. This follows each collection
 *   asynchronously and holds exactly on Node 20's V8; V8 12 and 13 (Node 22, 24) also
 *   grow by other steps, so there it only slows growth (tests/cli/young-generation.test.ts).
 *   A flag changed after start is outside Node's guarantees: the worst a future V8 can
 *   do is ignore it.
 *
 * An operator who gives Node `--max-semi-space-size` or `--semi-space-growth-factor`
 * (on its command line or in NODE_OPTIONS) keeps their own sizing.
 */
import { PerformanceObserver } from "node:perf_hooks";
import v8 from "node:v8";

/** The default ceiling of one semi-space, in MiB (the young generation holds two). */
export const DEFAULT_SEMI_SPACE_MIB = 4;

const MIB = 1024 * 1024;

/** Bytes V8 reserves for the young generation now (both semi-spaces). */
export function youngGenerationBytes(): number {
  const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space");
  return space?.space_size ?? 0;
}

/** Whether Node's own flags (command line, then NODE_OPTIONS) already size it. */
export function operatorSizesYoungGeneration(nodeFlags: readonly string[]): boolean {
  return nodeFlags.some((flag) =>
    /^--(max-semi-space-size|semi-space-growth-factor)(=|$)/.test(flag.replaceAll("_", "-")),
  );
}

/** The flags Node runs with: its command line's, then NODE_OPTIONS'. */
export function nodeFlags(nodeOptions: string | undefined): string[] {
  return [...process.execArgv, ...(nodeOptions ?? "").split(/\s+/).filter(Boolean)];
}

export interface YoungGenerationCeiling {
  /** Stop watching and give V8 back its own growth factor. */
  release(): void;
}

/**
 * Starts this process over with `--max-semi-space-size`, where Node can replace a
 * running process. Returns false (and changes nothing) where it cannot.
 */
export function restartWithSemiSpaceCeiling(semiSpaceMiB: number): boolean {
  // process.execve exists from Node 22.15 on; @types/node 20 does not know it.
  const { execve } = process as {
    execve?: (file: string, args: string[], env: NodeJS.ProcessEnv) => never;
  };
  if (typeof execve !== "function" || process.platform === "win32") return false;
  const flag = `--max-semi-space-size=${semiSpaceMiB}`;
  try {
    execve(
      process.execPath,
      [process.execPath, ...process.execArgv, flag, ...process.argv.slice(1)],
      process.env,
    );
  } catch {
    return false;
  }
  return true;
}

/** Keeps each semi-space at or under `semiSpaceMiB` by V8's growth factor, until released. */
export function capYoungGeneration(semiSpaceMiB: number): YoungGenerationCeiling {
  // new_space's size counts both semi-spaces; growing doubles it.
  const ceiling = 2 * semiSpaceMiB * MIB;
  let factor = 2;
  const setFactor = (next: number) => {
    if (next === factor) return;
    v8.setFlagsFromString(`--semi-space-growth-factor=${next}`);
    factor = next;
  };
  const decide = () => setFactor(youngGenerationBytes() * 2 <= ceiling ? 2 : 1);
  const observer = new PerformanceObserver(decide);
  observer.observe({ entryTypes: ["gc"] });
  decide();
  return {
    release() {
      observer.disconnect();
      setFactor(2);
    },
  };
}
