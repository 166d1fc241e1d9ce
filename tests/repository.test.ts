/**
 * The repository reads on its own: no file in it points at documents outside it (a
 * shared folder, a specification's sections, design notes) or at the tracker's issue
 * numbers. Rules are said in the product's words where they apply.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");

/** Built, installed, generated or local-only: not part of what a reader meets. */
const SKIPPED = new Set([
  ".git",
  "node_modules",
  "dist",
  ".authd",
  "coverage",
  "bench/results",
  "package-lock.json",
]);

const OUTSIDE_REFERENCES: ReadonlyArray<readonly [string, RegExp]> = [
  ["a folder beside the repository", /\.\.\/shared\b/],
  ["a specification's sections", /\bSPEC(?:\.md| ?§)/],
  ["the established implementation's notes", /\bapi-facts\b/],
  ["design notes", /\bDESIGN(?:\.md| ?§)|\bPRODUCT\.md\b/],
  ["a reference folder outside", /\breference\/(?:cli|api-facts)\.md\b/],
  ["an issue number", /\b[Ii]ssues? #?\d+\b/],
];

function filesUnder(relative: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(path.join(ROOT, relative), { withFileTypes: true })) {
    const child = relative ? `${relative}/${entry.name}` : entry.name;
    if (SKIPPED.has(child) || SKIPPED.has(entry.name)) continue;
    if (entry.isDirectory()) files.push(...filesUnder(child));
    else if (entry.isFile() && statSync(path.join(ROOT, child)).size < 2_000_000) files.push(child);
  }
  return files;
}

describe("the repository", () => {
  it("points at nothing outside itself, in any file", () => {
    const files = filesUnder("");
    // The walk reaches what a reader meets: the README, the docs, code and tests.
    for (const expected of ["README.md", "docs/security.md", "server/app.ts", "bin/authd.cts"]) {
      expect(files).toContain(expected);
    }
    const found: string[] = [];
    for (const file of files) {
      // This file names the patterns it looks for.
      if (file === "tests/repository.test.ts") continue;
      const lines = readFileSync(path.join(ROOT, file), "utf8").split("\n");
      lines.forEach((line, index) => {
        for (const [what, pattern] of OUTSIDE_REFERENCES) {
          if (pattern.test(line)) found.push(`${file}:${index + 1}: ${what}: ${line.trim()}`);
        }
      });
    }
    expect(found).toEqual([]);
  });

  it("keeps the README short, with the two set-up commands and links into docs/", () => {
    const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
    expect(readme).toContain("npm install && npx authd serve");
    expect(readme).toContain("npm test");
    expect(readme.split("\n").length).toBeLessThan(200);
    for (const page of [
      "configuration",
      "cli",
      "http-api",
      "operations",
      "security",
      "compatibility",
    ]) {
      expect(readme).toContain(`](docs/${page}.md)`);
      expect(statSync(path.join(ROOT, "docs", `${page}.md`)).isFile()).toBe(true);
    }
  });
});
