import { describe, expect, it } from "vitest";
import { runAuthd } from "../helpers/cli.js";

describe("the authd command line", () => {
  it("prints help and exits 0", async () => {
    const result = await runAuthd(["--help"]);
    expect(result.code).toBe(0);
    for (const command of ["init", "serve", "migrate", "doctor", "secret", "version"]) {
      expect(result.stdout).toMatch(new RegExp(`\\n  ${command}\\b`));
    }
  });

  it("an unknown command exits 2 with one line and where to read more, not the whole help", async () => {
    const result = await runAuthd(["frobnicate"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("error: unknown command 'frobnicate'\nsee 'authd --help'\n");
    expect(result.stdout).toBe("");
  });

  it("a usage error names the command's own help, at any depth", async () => {
    const unknownFlag = await runAuthd(["serve", "--prot", "3000"]);
    expect(unknownFlag.code).toBe(2);
    expect(unknownFlag.stderr).toBe(
      "error: unknown option '--prot'\n(Did you mean --port?)\nsee 'authd serve --help'\n",
    );
    const missing = await runAuthd(["user", "ban"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(
      "error: missing required argument 'users'\nsee 'authd user ban --help'\n",
    );
    const deep = await runAuthd(["org", "team", "member", "add", "acme"]);
    expect(deep.code).toBe(2);
    expect(deep.stderr).toMatch(/^error: missing required argument '\w+'\n/);
    expect(deep.stderr).toMatch(/\nsee 'authd org team member add --help'\n$/);
    for (const result of [unknownFlag, missing, deep])
      expect(result.stderr).not.toContain("Usage:");
  });

  it("with JSON output a parse error is one JSON document on stderr, nothing else", async () => {
    const cases: Array<[string[], string, Record<string, string>?]> = [
      [["user", "list", "--bogus", "--json"], "unknown option '--bogus'"],
      [["--json", "user", "ban"], "missing required argument 'users'"],
      [["user", "list", "--limit", "abc", "-o", "yaml"], "option '--limit <n>' argument 'abc'"],
      [["user", "list", "--limit", "abc", "--output=jsonl"], "option '--limit <n>' argument"],
      [["serve", "--prot", "3000"], "unknown option '--prot'", { AUTHD_OUTPUT: "json" }],
    ];
    for (const [args, message, env] of cases) {
      const result = await runAuthd(args, { env });
      const label = args.join(" ");
      expect(result.code, label).toBe(2);
      expect(result.stdout, label).toBe("");
      const lines = result.stderr.trim().split("\n");
      expect(lines, label).toHaveLength(1);
      const document = JSON.parse(lines[0] ?? "") as { error: { code: string; message: string } };
      expect(document.error.code, label).toBe("USAGE_ERROR");
      expect(document.error.message, label).toContain(message);
    }
  });

  it("a usage error found by the command itself says the same", async () => {
    const contradiction = await runAuthd(["serve", "--migrate", "--migrations", "check"]);
    expect(contradiction.code).toBe(2);
    expect(contradiction.stderr).toBe(
      "authd: --migrate contradicts --migrations check\nsee 'authd serve --help'\n",
    );
    const nothing = await runAuthd(["user", "update", "someone@example.com"]);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toMatch(
      /^authd: nothing to update: [^\n]*\nsee 'authd user update --help'\n$/,
    );
    // Machine output gets the error document alone.
    const json = await runAuthd(["user", "update", "someone@example.com", "--json"]);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stderr).error.code).toBe("USAGE_ERROR");
  });

  it("an invalid flag value exits 2", async () => {
    const result = await runAuthd(["serve", "--port", "99999"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("expected a port number from 0 to 65535");
  });

  it("prints the version", async () => {
    const short = await runAuthd(["--version"]);
    expect(short.code).toBe(0);
    expect(short.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const json = await runAuthd(["version", "--json"]);
    expect(JSON.parse(json.stdout)).toEqual({
      authd: short.stdout.trim(),
      node: process.versions.node,
    });
  });

  it("secret generate prints only the value", async () => {
    const result = await runAuthd(["secret", "generate"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^[A-Za-z0-9_-]{43}\n$/);
    const hex = await runAuthd(["secret", "generate", "--bytes", "48", "--encoding", "hex"]);
    expect(hex.stdout).toMatch(/^[0-9a-f]{96}\n$/);
    const other = await runAuthd(["secret", "generate"]);
    expect(other.stdout).not.toBe(result.stdout);
    const tooShort = await runAuthd(["secret", "generate", "--bytes", "8"]);
    expect(tooShort.code).toBe(2);
  });
});
