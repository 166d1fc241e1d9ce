/**
 * Users imported with another system's password hashes (`authd user import`) sign in
 * over HTTP, and their hash becomes argon2id on the first successful sign-in.
 */
import { randomBytes, scryptSync } from "node:crypto";
import bcrypt from "bcryptjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operator } from "../../server/actor.js";
import {
  createPasswordHasher,
  detectHashFormat,
  hashPassword,
  needsRehash,
  verifyPassword,
} from "../../server/crypto/password.js";
import { importUsers } from "../../server/import/import.js";
import { parseImportFile } from "../../server/import/parse.js";
import {
  ARGON2_PACKAGE_HASHES,
  ARGON2_PACKAGE_PASSWORD,
} from "../fixtures/argon2-package-hashes.js";
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

/** `authd user import` of users with the given stored hashes, as the CLI runs it. */
function importHashes(users: Array<{ email: string; passwordHash: string }>) {
  const records = parseImportFile(users.map((user) => JSON.stringify(user)).join("\n"), "jsonl");
  return importUsers(
    { sql: t.db.sql, config: t.config, passwords: createPasswordHasher() },
    operator(),
    records,
    {
      ifExists: "fail",
      batchSize: 500,
      resumeFrom: 0,
      continueOnError: false,
      dryRun: false,
    },
  );
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
    const weak = ARGON2_PACKAGE_HASHES.weaker;
    expect(detectHashFormat(weak)).toBe("argon2id");
    expect(await verifyPassword(weak, PASSWORD)).toBe(true);
    expect(needsRehash(weak)).toBe(true);
    expect(needsRehash(ARGON2_PACKAGE_HASHES.stronger)).toBe(false);
    expect(needsRehash(b)).toBe(true);
    expect(needsRehash(s)).toBe(true);
    expect(detectHashFormat("plain-text")).toBeUndefined();
    expect(await verifyPassword("plain-text", "plain-text")).toBe(false);
  });
});

describe("argon2 hashes", () => {
  it("hashPassword writes authd's PHC string with a fresh salt each time", async () => {
    const hash = await hashPassword(PASSWORD);
    expect(hash).toMatch(
      /^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/,
    );
    expect(await verifyPassword(hash, PASSWORD)).toBe(true);
    expect(await verifyPassword(hash, `${PASSWORD}!`)).toBe(false);
    expect(needsRehash(hash)).toBe(false);
    expect(await hashPassword(PASSWORD)).not.toBe(hash);
  });

  it("verifies what the argon2 package wrote, at any parameters and in either variant", async () => {
    expect(ARGON2_PACKAGE_PASSWORD).toBe(PASSWORD);
    for (const [label, hash] of Object.entries(ARGON2_PACKAGE_HASHES)) {
      expect(await verifyPassword(hash, PASSWORD), label).toBe(true);
      expect(await verifyPassword(hash, `${PASSWORD}!`), label).toBe(false);
      expect(await verifyPassword(hash, PASSWORD.normalize("NFD")), label).toBe(false);
    }
    // Its parameter order (m, p, t) reads the same as authd's (m, t, p).
    expect(needsRehash(ARGON2_PACKAGE_HASHES.current)).toBe(false);
    expect(needsRehash(ARGON2_PACKAGE_HASHES.stronger)).toBe(false);
    expect(needsRehash(ARGON2_PACKAGE_HASHES.weaker)).toBe(true);
    // Another variant becomes argon2id at the next sign-in.
    expect(needsRehash(ARGON2_PACKAGE_HASHES.argon2i)).toBe(true);
    // A damaged hash is a failed verification, not an error.
    const damaged = ARGON2_PACKAGE_HASHES.current.replace(/.$/, "A");
    expect(await verifyPassword(damaged, PASSWORD)).toBe(false);
    expect(await verifyPassword("$argon2id$v=19$m=19456,p=1,t=2$short$short", PASSWORD)).toBe(
      false,
    );
  });
});

describe("sign-in of imported users", () => {
  it("bcrypt, scrypt and weak argon2id users sign in; the hash becomes argon2id; a wrong password fails", async () => {
    const weak = ARGON2_PACKAGE_HASHES.weaker;
    const users = [
      { email: "bcrypt@import.test", passwordHash: bcrypt.hashSync(PASSWORD, 10) },
      { email: "scrypt@import.test", passwordHash: scryptHash(PASSWORD) },
      { email: "argon-weak@import.test", passwordHash: weak },
    ];
    const result = await importHashes(users);
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

describe("sign-in with a hash the argon2 package wrote", () => {
  it("signs in, and a hash at authd's parameters is kept as it is", async () => {
    const email = "argon2-package@import.test";
    const result = await importHashes([{ email, passwordHash: ARGON2_PACKAGE_HASHES.current }]);
    expect(result).toMatchObject({ created: 1, failed: [] });
    expect((await signIn(email, `${PASSWORD}!`)).statusCode).toBe(401);
    const ok = await signIn(email, PASSWORD);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await storedHash(email)).toBe(ARGON2_PACKAGE_HASHES.current);
  });
});
