import { describe, expect, it } from "vitest";
import { generateId, randomString } from "../../server/crypto/random.js";

describe("randomString", () => {
  it("draws ids of 32 alphanumerics, none repeated", () => {
    const ids = new Set<string>();
    // 20,000 ids use 640,000+ bytes: the 4 KiB pool refills over 150 times.
    for (let i = 0; i < 20_000; i++) {
      const id = generateId();
      expect(id).toMatch(/^[A-Za-z0-9]{32}$/);
      ids.add(id);
    }
    expect(ids.size).toBe(20_000);
  });

  it("uses every symbol of the alphabet about equally often (no modulo bias)", () => {
    // 62 symbols: a byte of 248 or more is rejected, so each symbol has 4 of 248 bytes.
    // A modulo without rejection would give the first 8 symbols 5 of 256 (25% more).
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

  it("draws from a small alphabet too, and refuses alphabets it cannot draw from", () => {
    expect(randomString(64, "ab")).toMatch(/^[ab]{64}$/);
    expect(() => randomString(4, "a")).toThrow(RangeError);
    expect(() => randomString(4, "x".repeat(257))).toThrow(RangeError);
  });
});
