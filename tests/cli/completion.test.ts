/**
 * `authd completion bash|zsh|fish|powershell`: scripts generated from the command tree,
 * checked by bash (and fish, when installed) themselves.
 */
import { spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Command } from "commander";
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
    const result = await runAuthd(["completion", "tcsh"]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("bash, zsh, fish, powershell");
  });
});

/** Every command path of the program ("", "migrate", "migrate status", …). */
function commandPaths(): string[] {
  const paths: string[] = [];
  const walk = (command: Command, prefix: string) => {
    for (const sub of command.commands) {
      const path = prefix ? `${prefix} ${sub.name()}` : sub.name();
      paths.push(path);
      walk(sub, path);
    }
  };
  walk(buildProgram(), "");
  return paths;
}

describe("option values with a fixed set of choices", () => {
  it("bash completes -o/--output values under any command, and an option's own choices", () => {
    expect(complete(["-o", ""])).toEqual(["human", "json", "jsonl", "yaml", "csv", "env"]);
    expect(complete(["migrate", "status", "--output", "js"])).toEqual(["json", "jsonl"]);
    expect(complete(["secret", "generate", "--encoding", "b"])).toEqual(["base64url", "base64"]);
    expect(complete(["completion", ""])).toEqual(["bash", "zsh", "fish", "powershell"]);
    // A value is not taken for a command: the path is still migrate status.
    expect(complete(["-o", "json", "migrate", "st"])).toEqual(["status"]);
  });
});

const FISH = spawnSync("fish", ["--version"], { encoding: "utf8" }).status === 0;

describe("authd completion fish", () => {
  let fishScript: string;
  let fishFile: string;

  beforeAll(async () => {
    const result = await runAuthd(["completion", "fish"]);
    expect(result.code, result.stderr).toBe(0);
    fishScript = result.stdout;
    fishFile = path.join(dir, "authd.fish");
    await writeFile(fishFile, fishScript);
  });

  it("names every command path and the -o choices", () => {
    const known = /^ {4}set -l known (.*)$/m.exec(fishScript)?.[1] ?? "";
    for (const commandPath of commandPaths()) {
      expect(known, commandPath).toContain(`'${commandPath}'`);
      // Offered under its parent's path ('' for the top level).
      const parent = commandPath.split(" ").slice(0, -1).join(" ");
      const name = commandPath.split(" ").at(-1);
      expect(fishScript, commandPath).toContain(
        `complete -c authd -n '__authd_at \\'${parent}\\'' -a '${name}' -d `,
      );
    }
    expect(fishScript).toContain(
      "complete -c authd -s o -l output -x -a 'human json jsonl yaml csv env'",
    );
  });

  /** What fish completes for a command line (`complete -C`), candidates only. */
  function fishComplete(line: string): string[] {
    const result = spawnSync(
      "fish",
      ["--no-config", "-c", `source ${fishFile}; complete -C ${JSON.stringify(line)}`],
      { encoding: "utf8" },
    );
    expect(result.status, result.stderr).toBe(0);
    return result.stdout
      .split("\n")
      .filter(Boolean)
      .map((row) => row.split("\t")[0] ?? "");
  }

  it.skipIf(!FISH)(
    `is valid fish (fish -n) and completes commands, options and values${FISH ? "" : " [skipped: fish is not installed; apt-get install fish]"}`,
    () => {
      const check = spawnSync("fish", ["--no-config", "-n", fishFile], { encoding: "utf8" });
      expect(check.status, check.stderr).toBe(0);
      expect(fishComplete("authd mig")).toEqual(["migrate"]);
      expect(fishComplete("authd migrate ").sort()).toEqual(
        ["baseline", "create", "down", "status", "up"].sort(),
      );
      expect(fishComplete("authd --json config s").sort()).toEqual(["schema", "show"]);
      expect(fishComplete("authd migrate status --exit")).toEqual(["--exit-code"]);
      expect(fishComplete("authd healthcheck --js")).toEqual(["--json"]);
      expect(fishComplete("authd version -o j").sort()).toEqual(["json", "jsonl"]);
      expect(fishComplete("authd completion ").sort()).toEqual(
        ["bash", "fish", "powershell", "zsh"].sort(),
      );
    },
  );
});

describe("authd completion powershell", () => {
  it("registers a native completer holding every command path and the -o choices", async () => {
    const result = await runAuthd(["completion", "powershell"]);
    expect(result.code, result.stderr).toBe(0);
    const script = result.stdout;
    expect(script).toContain("Register-ArgumentCompleter -Native -CommandName 'authd'");
    expect(script).toContain("        '' = @{");
    for (const commandPath of commandPaths()) {
      expect(script, commandPath).toContain(`        '${commandPath}' = @{`);
    }
    expect(script).toContain("'*|-o' = @('human', 'json', 'jsonl', 'yaml', 'csv', 'env')");
    expect(script).toContain("'*|--output' = @('human', 'json', 'jsonl', 'yaml', 'csv', 'env')");
    expect(script).toContain(
      "@{ Name = 'status'; Description = 'list applied and pending migrations' }",
    );
    // Braces balance: a cheap guard against a broken script block without pwsh.
    const opened = script.split("{").length;
    expect(script.split("}").length).toBe(opened);
  });
});
