import { describe, expect, it } from "vitest";
import { createTokenCipher } from "../../server/social/token-crypto.js";

const SECRET = "a-secret-of-at-least-thirty-two-characters-0001";
const OLD_SECRET = "an-older-secret-of-thirty-two-characters-or-more";
const TOKEN = "ya29.a0AfH6SMBx-provider-access-token_with.dots";

/** The stored value with one base64url character of a part replaced by another. */
function flip(stored: string, part: "iv" | "body", index: number): string {
  const [prefix, rest] = [stored.slice(0, 3), stored.slice(3)];
  const [iv, body] = rest.split(".") as [string, string];
  const target = part === "iv" ? iv : body;
  const at = index < 0 ? target.length + index : index;
  const replaced = `${target.slice(0, at)}${target[at] === "A" ? "B" : "A"}${target.slice(at + 1)}`;
  return part === "iv" ? `${prefix}${replaced}.${body}` : `${prefix}${iv}.${replaced}`;
}

describe("createTokenCipher", () => {
  it("round-trips a token through its stored form", () => {
    const cipher = createTokenCipher(SECRET);
    const stored = cipher.encrypt(TOKEN);
    expect(stored).toMatch(/^v1:[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
    expect(stored).not.toContain(TOKEN);
    expect(cipher.decrypt(stored)).toBe(TOKEN);
    // Another cipher over the same secret reads it: the key depends on the secret alone.
    expect(createTokenCipher([SECRET]).decrypt(stored)).toBe(TOKEN);
  });

  it("round-trips non-ASCII text and long tokens", () => {
    const cipher = createTokenCipher(SECRET);
    for (const plain of ["jeton-é-ü-✓-𝄞", "x".repeat(10_000)]) {
      expect(cipher.decrypt(cipher.encrypt(plain))).toBe(plain);
    }
  });

  it("draws a new IV for every value, so equal tokens are stored differently", () => {
    const cipher = createTokenCipher(SECRET);
    const stored = Array.from({ length: 50 }, () => cipher.encrypt(TOKEN));
    expect(new Set(stored).size).toBe(50);
    expect(new Set(stored.map((value) => value.slice(3).split(".")[0])).size).toBe(50);
    for (const value of stored) expect(cipher.decrypt(value)).toBe(TOKEN);
  });

  it("answers null for a changed ciphertext, tag or IV", () => {
    const cipher = createTokenCipher(SECRET);
    const stored = cipher.encrypt(TOKEN);
    // The body is ciphertext then the 16-byte tag: its first characters are ciphertext,
    // its last ones tag.
    expect(cipher.decrypt(flip(stored, "body", 0))).toBeNull();
    expect(cipher.decrypt(flip(stored, "body", 5))).toBeNull();
    expect(cipher.decrypt(flip(stored, "body", -2))).toBeNull();
    expect(cipher.decrypt(flip(stored, "body", -1))).toBeNull();
    expect(cipher.decrypt(flip(stored, "iv", 0))).toBeNull();
    expect(cipher.decrypt(flip(stored, "iv", -1))).toBeNull();
  });

  it("answers null for another spelling of the same bytes", () => {
    const cipher = createTokenCipher(SECRET);
    // One character of plaintext: 17 bytes of ciphertext and tag, 23 base64url characters,
    // whose last one carries 2 unused bits. Setting them spells the same bytes differently.
    const stored = cipher.encrypt("x");
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const last = alphabet.indexOf(stored.at(-1) as string);
    expect(last % 4).toBe(0);
    const respelled = `${stored.slice(0, -1)}${alphabet[last + 1]}`;
    expect(Buffer.from(respelled.split(".")[1] as string, "base64url")).toEqual(
      Buffer.from(stored.split(".")[1] as string, "base64url"),
    );
    expect(cipher.decrypt(stored)).toBe("x");
    expect(cipher.decrypt(respelled)).toBeNull();
  });

  it("answers null for a stored value of the wrong shape", () => {
    const cipher = createTokenCipher(SECRET);
    const stored = cipher.encrypt(TOKEN);
    const [iv, body] = stored.slice(3).split(".") as [string, string];
    for (const broken of [
      "v1:",
      "v1:.",
      `v1:${iv}`,
      `v1:${iv}.`,
      `v1:.${body}`,
      `v1:${iv}.${body}.extra`,
      `v1:${iv}=.${body}`,
      `v1:${iv}.${body}=`,
      `v1:${iv}.${body.slice(0, -4)}`,
      `v1:${iv.slice(0, -2)}.${body}`,
      `v1:${iv}.${body.slice(0, 20)}`,
      `v1:${iv}.${body}+`,
      `v1: ${iv}.${body}`,
      // A scheme this code does not know is unreadable, never taken as plaintext.
      `v2:${iv}.${body}`,
    ]) {
      expect(cipher.decrypt(broken), broken).toBeNull();
    }
  });

  it("answers null under a secret the value was not encrypted with", () => {
    const stored = createTokenCipher(SECRET).encrypt(TOKEN);
    expect(createTokenCipher(OLD_SECRET).decrypt(stored)).toBeNull();
    // Close secrets give unrelated keys.
    expect(createTokenCipher(`${SECRET}x`).decrypt(stored)).toBeNull();
  });

  it("reads values encrypted under a previous secret while rotating", () => {
    const stored = createTokenCipher(OLD_SECRET).encrypt(TOKEN);
    const rotated = createTokenCipher([SECRET, OLD_SECRET]);
    expect(rotated.decrypt(stored)).toBe(TOKEN);
    // New values are written under the first (current) secret only.
    const fresh = rotated.encrypt(TOKEN);
    expect(createTokenCipher(SECRET).decrypt(fresh)).toBe(TOKEN);
    expect(createTokenCipher(OLD_SECRET).decrypt(fresh)).toBeNull();
    // Once the old secret is dropped, its values are unreadable.
    expect(createTokenCipher(SECRET).decrypt(stored)).toBeNull();
  });

  it("passes a value without the version prefix through as plaintext", () => {
    const cipher = createTokenCipher(SECRET);
    for (const plain of [
      TOKEN,
      "gho_16C7e42F292c6912E7710c838347Ae178B4a",
      "eyJhbGciOi.x.y",
      "v1",
    ]) {
      expect(cipher.decrypt(plain)).toBe(plain);
    }
  });

  it("handles the empty string both ways", () => {
    const cipher = createTokenCipher(SECRET);
    const stored = cipher.encrypt("");
    expect(stored).toMatch(/^v1:[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}$/);
    expect(cipher.decrypt(stored)).toBe("");
    // An empty stored value has no prefix: it is plaintext, and empty.
    expect(cipher.decrypt("")).toBe("");
  });

  it("refuses to be made without a secret", () => {
    expect(() => createTokenCipher([])).toThrow(TypeError);
    expect(() => createTokenCipher("")).toThrow(TypeError);
    expect(() => createTokenCipher([SECRET, ""])).toThrow(TypeError);
  });

  it("never puts the value in an error", () => {
    const cipher = createTokenCipher(SECRET);
    // decrypt answers null rather than throwing, whatever it is given.
    for (const value of ["v1:%%%.%%%", "v1:AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA", "v9:x"]) {
      expect(() => cipher.decrypt(value)).not.toThrow();
    }
  });
});
