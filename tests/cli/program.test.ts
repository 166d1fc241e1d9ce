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

  it("an unknown command exits 2 with usage on stderr", async () => {
    const result = await runAuthd(["frobnicate"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("error: unknown command 'frobnicate'");
    expect(result.stderr).toContain("Usage: authd");
    expect(result.stdout).toBe("");
  });

  it("an unknown flag exits 2 with the subcommand's usage", async () => {
    const result = await runAuthd(["serve", "--prot", "3000"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown option '--prot'");
    expect(result.stderr).toContain("Usage: authd serve");
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
