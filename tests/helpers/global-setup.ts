/**
 * CLI tests spawn the real built binary, so `dist/` must exist: `npm test` builds
 * first; a bare `vitest` run is told to.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(full));
    else if (entry.name.endsWith(".ts")) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

export default function setup(): void {
  const root = path.resolve(import.meta.dirname, "../..");
  const bin = process.env.AUTHD_TEST_BIN
    ? path.resolve(root, process.env.AUTHD_TEST_BIN)
    : path.join(root, "dist/bin/authd.cjs");
  if (!existsSync(bin)) {
    throw new Error("dist/ is missing: run `npm run build` (npm test does it for you)");
  }
  const built = statSync(bin).mtimeMs;
  const sources = Math.max(
    newestSource(path.join(root, "server")),
    newestSource(path.join(root, "bin")),
  );
  if (sources > built + 1000) {
    process.stderr.write("warning: dist/ is older than the sources; run `npm run build`\n");
  }
}
