/**
 * The direction of dependencies (.dependency-cruiser.cjs): bin -> routes -> domains ->
 * db / crypto / mail, with no cycle between files and none between folders.
 * Any violation of a rule, and any cycle, fails the test.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");

interface CruiseResult {
  modules: Array<{
    source: string;
    dependencies: Array<{ resolved: string; dependencyTypes: string[] }>;
  }>;
  summary: {
    violations: Array<{ from: string; to: string; rule: { name: string; severity: string } }>;
  };
}

function cruise(): CruiseResult {
  const bin = path.join(ROOT, "node_modules/dependency-cruiser/bin/dependency-cruise.mjs");
  const output = execFileSync(
    process.execPath,
    [bin, "--config", ".dependency-cruiser.cjs", "--output-type", "json", "server", "bin"],
    { cwd: ROOT, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
  );
  return JSON.parse(output) as CruiseResult;
}

/**
 * A file's node in the folder graph: its folder (server/sessions). A file at the top of
 * server/ or bin/ is its own node, and so is each domain's routes.ts: it is the HTTP
 * face of its folder and belongs to the routes layer (bin -> routes -> domains), which
 * may use any domain; the domain code beside it may not use routes or http/.
 */
function folderOf(file: string): string {
  const parts = file.split("/");
  if (parts.length > 2 && parts.at(-1) === "routes.ts") return file;
  return parts.length > 2 ? parts.slice(0, 2).join("/") : file;
}

/** Groups of folders that reach each other (strongly connected, more than one). */
function folderCycles(result: CruiseResult): string[] {
  const edges = new Map<string, Set<string>>();
  for (const module of result.modules) {
    const from = folderOf(module.source);
    for (const dependency of module.dependencies) {
      // Type-only imports vanish from the program: a shared row type is no dependency.
      if (dependency.dependencyTypes.includes("type-only")) continue;
      if (!/^(server|bin)\//.test(dependency.resolved)) continue;
      const to = folderOf(dependency.resolved);
      if (to === from) continue;
      if (!edges.has(from)) edges.set(from, new Set());
      edges.get(from)?.add(to);
    }
  }
  // Tarjan's strongly connected components.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[] = [];
  let next = 0;
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of edges.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(target) ?? 0));
      }
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      for (;;) {
        const member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        group.push(member);
        if (member === node) break;
      }
      if (group.length > 1) groups.push(group.sort().join(" <-> "));
    }
  };
  for (const node of [...edges.keys()].sort()) if (!index.has(node)) visit(node);
  return groups.sort();
}

describe("the direction of dependencies", () => {
  const result = cruise();

  it("cruised the whole program", () => {
    const sources = result.modules.map((module) => module.source);
    for (const file of [
      "bin/authd.cts",
      "bin/program.ts",
      "server/app.ts",
      "server/sessions/queries.ts",
    ]) {
      expect(sources).toContain(file);
    }
  });

  it("breaks no rule: no cycle between files, no forbidden import", () => {
    const violations = [
      ...new Set(
        result.summary.violations.map(
          (violation) => `${violation.rule.name}: ${violation.from} -> ${violation.to}`,
        ),
      ),
    ].sort();
    expect(violations, "follow .dependency-cruiser.cjs").toEqual([]);
  });

  it("has no cycle between folders", () => {
    expect(folderCycles(result)).toEqual([]);
  });
});
