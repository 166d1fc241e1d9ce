/**
 * Users imported with another system's password hashes (`authd user import`) sign in
 * over HTTP, and their hash becomes argon2id on the first successful sign-in.
 */
import { randomBytes, scryptSync } from "node:crypto";
import { verify as argonRsVerify } from "@node-rs/argon2";
import argon2 from "argon2";
import bcrypt from "bcryptjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  detectHashFormat,
  hashPassword,
  hashPasswordInBulk,
  needsRehash,
  verifyPassword,
} from "../../server/crypto/password.js";
import { importUsers, parseImportFile } from "../../server/users/import.js";
import { createTestApp, type TestApp } from "../helpers/app.js";
import { createClient } from "../helpers/client.js";

let t: TestApp;
const PASSWORD = "imported pa55word ünïcode";

/**
 * The established implementation's scrypt format, restated from its description:
 * 16 random bytes as hex are the salt *text*; N=16384, r=16, p=1, 64-byte key, NFKC.
 */
function scryptHash(password: string): string {
  const salt = randomBytes(16).toString("hex");
  const key = scryptSync(password.normalize("NFKC"), salt, 64, {
    N: 16384,
    r: 16,
    p: 1,
    maxmem: 64 * 1024 * 1024,
  });
  return `${salt}:${key.toString("hex")}`;
}

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t?.close();
});

async function storedHash(email: string): Promise<string | null> {
  const [row] = await t.db.sql<{ password: string | null }[]>`
    select a.password from account a join "user" u on u.id = a.user_id where u.email = ${email}`;
  return row?.password ?? null;
}

async function signIn(email: string, password: string) {
  return createClient(t.app).post("/sign-in/email", { email, password });
}

describe("verifyPassword with imported formats", () => {
  it("detects and verifies bcrypt ($2a$, $2b$, $2y$), scrypt and argon2id at any parameters", async () => {
    const b = bcrypt.hashSync(PASSWORD, 4);
    expect(b.startsWith("$2b$")).toBe(true);
    for (const variant of ["$2a$", "$2b$", "$2y$"]) {
      const hash = `${variant}${b.slice(4)}`;
      expect(detectHashFormat(hash)).toBe("bcrypt");
      expect(await verifyPassword(hash, PASSWORD)).toBe(true);
      expect(await verifyPassword(hash, "wrong password")).toBe(false);
    }
    const s = scryptHash(PASSWORD);
    expect(detectHashFormat(s)).toBe("scrypt");
    expect(await verifyPassword(s, PASSWORD)).toBe(true);
    // NFKC: the composed and decomposed forms are one password.
    expect(await verifyPassword(s, PASSWORD.normalize("NFD"))).toBe(true);
    expect(await verifyPassword(s, "wrong password")).toBe(false);
    const weak = await argon2.hash(PASSWORD, {
      type: argon2.argon2id,
      memoryCost: 4096,
      timeCost: 1,
      parallelism: 1,
    });
    expect(detectHashFormat(weak)).toBe("argon2id");
    expect(await verifyPassword(weak, PASSWORD)).toBe(true);
    expect(needsRehash(weak)).toBe(true);
    const strong = await argon2.hash(PASSWORD, {
      type: argon2.argon2id,
      memoryCost: 65536,
      timeCost: 3,
      parallelism: 1,
    });
    expect(needsRehash(strong)).toBe(false);
    expect(needsRehash(b)).toBe(true);
    expect(needsRehash(s)).toBe(true);
    expect(detectHashFormat("plain-text")).toBeUndefined();
    expect(await verifyPassword("plain-text", "plain-text")).toBe(false);
  });
});

describe("argon2id in bulk (seed, import)", () => {
  // hashPasswordInBulk computes with @node-rs/argon2, requests with the argon2 package:
  // each must verify what the other wrote.
  it("writes authd's PHC string, which verifies in both implementations, with a fresh salt each time", async () => {
    const bulk = await hashPasswordInBulk(PASSWORD);
    expect(bulk).toMatch(
      /^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/,
    );
    expect(await verifyPassword(bulk, PASSWORD)).toBe(true);
    expect(await verifyPassword(bulk, `${PASSWORD}!`)).toBe(false);
    expect(await argon2.verify(bulk, PASSWORD)).toBe(true);
    expect(needsRehash(bulk)).toBe(false);
    expect(await hashPasswordInBulk(PASSWORD)).not.toBe(bulk);

    const single = await hashPassword(PASSWORD);
    expect(await argonRsVerify(single, PASSWORD)).toBe(true);
    expect(await argonRsVerify(single, `${PASSWORD}!`)).toBe(false);
  });
});

describe("sign-in of imported users", () => {
  it("bcrypt, scrypt and weak argon2id users sign in; the hash becomes argon2id; a wrong password fails", async () => {
    const weak = await argon2.hash(PASSWORD, {
      type: argon2.argon2id,
      memoryCost: 4096,
      timeCost: 1,
      parallelism: 1,
    });
    const users = [
      { email: "bcrypt@import.test", passwordHash: bcrypt.hashSync(PASSWORD, 10) },
      { email: "scrypt@import.test", passwordHash: scryptHash(PASSWORD) },
      { email: "argon-weak@import.test", passwordHash: weak },
    ];
    const records = parseImportFile(users.map((user) => JSON.stringify(user)).join("\n"), "jsonl");
    const result = await importUsers(
      { sql: t.db.sql, config: t.config },
      { kind: "cli" },
      records,
      {
        ifExists: "fail",
        batchSize: 500,
        resumeFrom: 0,
        continueOnError: false,
        dryRun: false,
      },
    );
    expect(result).toMatchObject({ created: 3, updated: 0, skipped: 0, failed: [] });

    for (const user of users) {
      expect(await storedHash(user.email)).toBe(user.passwordHash);
      const wrong = await signIn(user.email, "not the password");
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json().code).toBe("INVALID_EMAIL_OR_PASSWORD");
      // A failed attempt leaves the imported hash alone.
      expect(await storedHash(user.email)).toBe(user.passwordHash);

      const ok = await signIn(user.email, PASSWORD);
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json().user.email).toBe(user.email);
      const upgraded = await storedHash(user.email);
      expect(upgraded).toMatch(/^\$argon2id\$v=19\$/);
      expect(upgraded).toContain("m=19456");
      expect(needsRehash(upgraded ?? "")).toBe(false);

      // The new hash serves the next sign-in and is not replaced again.
      const again = await signIn(user.email, PASSWORD);
      expect(again.statusCode).toBe(200);
      expect(await storedHash(user.email)).toBe(upgraded);
      expect((await signIn(user.email, "not the password")).statusCode).toBe(401);
    }
  });
});
