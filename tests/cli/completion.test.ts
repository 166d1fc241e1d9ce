/** `authd completion bash|zsh`: scripts generated from the command tree, checked by bash itself. */
import { spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildProgram } from "../../bin/program.js";
import { runAuthd } from "../helpers/cli.js";

let dir: string;
let bashScript: string;
let scriptFile: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "authd-completion-"));
  const result = await runAuthd(["completion", "bash"]);
  expect(result.code, result.stderr).toBe(0);
  bashScript = result.stdout;
  scriptFile = path.join(dir, "authd.bash");
  await writeFile(scriptFile, bashScript);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** What bash completes after `words` (the last one being the word under the cursor). */
function complete(words: string[]): string[] {
  const array = words.map((word) => `'${word}'`).join(" ");
  const result = spawnSync(
    "bash",
    [
      "-c",
      `source '${scriptFile}'; COMP_WORDS=(authd ${array}); COMP_CWORD=${words.length}; _authd_completions; printf '%s\\n' "\${COMPREPLY[@]}"`,
    ],
    { encoding: "utf8" },
  );
  expect(result.status, result.stderr).toBe(0);
  return result.stdout.split("\n").filter(Boolean);
}

describe("authd completion bash", () => {
  it("mentions every top-level command of the program and migrate status", () => {
    const names = buildProgram().commands.map((command) => command.name());
    expect(names).toEqual(
      expect.arrayContaining(["migrate", "config", "healthcheck", "completion", "doctor"]),
    );
    for (const name of names) expect(bashScript).toMatch(new RegExp(`\\b${name}\\b`));
    expect(bashScript).toContain("'migrate status'");
    expect(bashScript).toContain("complete -o default -F _authd_completions authd");
  });

  it("is valid bash (bash -n)", () => {
    const result = spawnSync("bash", ["-n", scriptFile], { encoding: "utf8" });
    expect(result.status, result.stderr).toBe(0);
  });

  it("completes commands, subcommands and their long options", () => {
    expect(complete(["mig"])).toEqual(["migrate"]);
    expect(complete(["migrate", ""])).toEqual(["up", "down", "status", "create", "baseline"]);
    expect(complete(["--json", "config", "s"])).toEqual(["show", "schema"]);
    expect(complete(["migrate", "status", "--exit"])).toEqual(["--exit-code"]);
    expect(complete(["config", "show", "--re"])).toEqual(["--reveal"]);
    // Global flags are offered under every command.
    expect(complete(["healthcheck", "--js"])).toEqual(["--json"]);
  });
});

describe("authd completion zsh", () => {
  it("prints a #compdef script naming the commands", async () => {
    const result = await runAuthd(["completion", "zsh"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.startsWith("#compdef authd\n")).toBe(true);
    expect(result.stdout).toContain("'migrate status'");
    expect(result.stdout).toContain("'healthcheck:probe a running server\\: exit 0");
    // `path` is special in zsh (tied to PATH): the script must not assign it.
    expect(result.stdout).not.toMatch(/\blocal path\b|^\s*path=/m);
  });

  it("refuses other shells as a usage error", async () => {
    const result = await runAuthd(["completion", "fish"]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
  });
});
