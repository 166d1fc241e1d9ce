/**
 * `authd` loads only the command group named on the command line (bin/run.ts): every
 * group of the whole tree must load alone into the same commands, and the words read
 * before it must be found as commander's root reads them.
 */
import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { buildProgram } from "../../bin/program.js";
import { createRoot, pointToHelp } from "../../bin/root.js";
import { leadingWords, loadGroup } from "../../bin/run.js";

/** Every command below `command` with its help, as the person asking for it sees it. */
function helpTexts(command: Command, path: string): Record<string, string> {
  const texts: Record<string, string> = { [path]: command.helpInformation() };
  for (const sub of command.commands) Object.assign(texts, helpTexts(sub, `${path} ${sub.name()}`));
  return texts;
}

describe("command groups loaded on demand", () => {
  const whole = buildProgram();

  it("loads every top-level command but completion, which needs the whole tree", () => {
    const names = whole.commands.map((command) => command.name());
    expect(names.filter((name) => loadGroup(name) === undefined)).toEqual(["completion"]);
    expect(loadGroup("help")).toBeUndefined();
    expect(loadGroup("constructor")).toBeUndefined();
  });

  it("gives each group alone the commands, options and help of the whole tree", async () => {
    for (const command of whole.commands) {
      const group = loadGroup(command.name());
      if (group === undefined) continue;
      const root = createRoot();
      (await group)(root);
      pointToHelp(root);
      expect(root.commands.map((loaded) => loaded.name())).toContain(command.name());
      for (const loaded of root.commands) {
        const same = whole.commands.find((other) => other.name() === loaded.name());
        expect(same, loaded.name()).toBeDefined();
        expect(helpTexts(loaded, loaded.name())).toEqual(helpTexts(same as Command, loaded.name()));
      }
    }
    const flags = (root: Command) => root.options.map((option) => option.flags);
    expect(flags(createRoot())).toEqual(flags(whole));
  });
});

describe("the words before the command's own flags", () => {
  const words = (...args: string[]) => leadingWords(args, createRoot(), 2);

  it("skips global flags and the values they take, in every form commander reads", () => {
    expect(words("serve", "--port", "3000")).toEqual(["serve"]);
    expect(words("-c", "authd.json", "--database-url", "postgres://x", "serve")).toEqual(["serve"]);
    expect(words("-cauthd.json", "user", "list")).toEqual(["user", "list"]);
    expect(words("--fields=id,email", "-qo", "json", "user", "list")).toEqual(["user", "list"]);
    expect(words("--timeout", "30s", "--profile", "test", "db", "seed")).toEqual(["db", "seed"]);
    expect(words("-o", "-q", "org")).toEqual(["org"]);
    expect(words("--json", "--no-color", "--no-input", "-yv", "--dry-run", "session")).toEqual([
      "session",
    ]);
    expect(words("help", "-o", "json", "db")).toEqual(["help", "db"]);
  });

  it("stops at what commander reads differently, so the whole tree is loaded", () => {
    expect(words("--help", "serve")).toEqual([]);
    expect(words("-h", "serve")).toEqual([]);
    expect(words("--bogus", "serve")).toEqual([]);
    expect(words("-qx", "serve")).toEqual([]);
    expect(words("--json=1", "serve")).toEqual([]);
    expect(words("--", "serve")).toEqual([]);
    expect(words("serve", "--help")).toEqual(["serve"]);
    expect(words("-", "serve")).toEqual(["-", "serve"]);
  });
});
