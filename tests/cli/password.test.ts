import { describe, expect, it } from "vitest";
import { ARGON2_PARAMETERS } from "../../server/crypto/password.js";
import { runAuthd } from "../helpers/cli.js";

describe("authd password calibrate", () => {
  it("--json reports the current parameters and a suggestion reaching the target", async () => {
    const started = Date.now();
    const result = await runAuthd(
      ["password", "calibrate", "--target-ms", "5", "--max-memory", "32MiB", "--json"],
      { timeoutMs: 30_000 },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(Date.now() - started).toBeLessThan(20_000);
    const parsed = JSON.parse(result.stdout);
    expect(Object.keys(parsed).sort()).toEqual(["current", "suggested", "targetMs"]);
    expect(parsed.targetMs).toBe(5);
    expect(parsed.current).toEqual({
      memoryCost: ARGON2_PARAMETERS.memoryCost,
      timeCost: ARGON2_PARAMETERS.timeCost,
      parallelism: ARGON2_PARAMETERS.parallelism,
      ms: expect.any(Number),
    });
    expect(parsed.current.ms).toBeGreaterThan(0);
    const { suggested } = parsed;
    expect(suggested.memoryCost).toBeGreaterThanOrEqual(19456);
    expect(suggested.memoryCost).toBeLessThanOrEqual(32 * 1024);
    expect(suggested.timeCost).toBeGreaterThanOrEqual(2);
    expect(suggested.parallelism).toBe(1);
    expect(suggested.ms).toBeGreaterThanOrEqual(5);
  });

  it("human output is a table and says the parameters are fixed in the source", async () => {
    const result = await runAuthd(["password", "calibrate", "--target-ms", "1"], {
      timeoutMs: 30_000,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^\s+MEMORY\s+TIME COST\s+PARALLELISM\s+MEDIAN\n/);
    expect(result.stdout).toMatch(/\ncurrent\s+m=19456 KiB/);
    expect(result.stdout).toMatch(/\nsuggested\s+m=\d+ KiB/);
    expect(result.stdout).toContain("fixed in server/crypto/password.ts");
  });

  it("rejects a memory limit below OWASP's minimum and bad sizes (exit 2)", async () => {
    for (const args of [
      ["--max-memory", "16MiB"],
      ["--max-memory", "lots"],
      ["--target-ms", "0"],
    ]) {
      const result = await runAuthd(["password", "calibrate", ...args]);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stdout).toBe("");
    }
  });
});
