import { describe, expect, it } from "vitest";
import { generateId, randomString } from "../../server/crypto/random.js";

describe("randomString", () => {
  it("draws ids of 32 alphanumerics, none repeated", () => {
    const ids = new Set<string>();
    // 20,000 ids: 80,000 draws from the CSPRNG, none of them shared between ids.
    for (let i = 0; i < 20_000; i++) {
      const id = generateId();
      expect(id).toMatch(/^[A-Za-z0-9]{32}$/);
      ids.add(id);
    }
    expect(ids.size).toBe(20_000);
  });

  it("uses every symbol of the alphabet about equally often (no modulo bias)", () => {
    // 62 symbols: a draw modulo a range that is not a multiple of 62 would favour the
    // first symbols; each draw is uniform below 62^8, whose base-62 digits are uniform.
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    const counts = new Map<string, number>();
    const text = randomString(620_000, alphabet);
    for (const symbol of text) counts.set(symbol, (counts.get(symbol) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // Expected 10,000 each, standard deviation ~99: 9,400..10,600 is six of them.
    for (const count of counts.values()) {
      expect(count).toBeGreaterThan(9_400);
      expect(count).toBeLessThan(10_600);
    }
  });

  it("draws neighbouring characters independently (each pair about equally often)", () => {
    // Eight characters come from one draw: a slip in taking its digits apart would tie
    // neighbours together. 310,000 pairs over 62 × 62 = 3,844: about 81 each, sd ~9.
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    const text = randomString(620_000, alphabet);
    const pairs = new Map<string, number>();
    for (let i = 0; i + 1 < text.length; i += 2) {
      const pair = text.slice(i, i + 2);
      pairs.set(pair, (pairs.get(pair) ?? 0) + 1);
    }
    expect(pairs.size).toBe(62 * 62);
    for (const count of pairs.values()) {
      expect(count).toBeGreaterThan(30);
      expect(count).toBeLessThan(140);
    }
  });

  it("draws from a small alphabet too, and refuses alphabets it cannot draw from", () => {
    expect(randomString(64, "ab")).toMatch(/^[ab]{64}$/);
    expect(() => randomString(4, "a")).toThrow(RangeError);
    expect(() => randomString(4, "x".repeat(257))).toThrow(RangeError);
  });
});
