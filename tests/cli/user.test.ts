import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAuthd } from "../helpers/cli.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";

let testDatabase: TestDatabase;
let env: Record<string, string>;
let sql: postgres.Sql;
let dir: string;
const PASSWORD = "correct horse battery";
const SECRET = "cli-test-secret-0123456789-0123456789";

beforeAll(async () => {
  testDatabase = await createTestDatabase();
  env = { DATABASE_URL: testDatabase.url, AUTHD_SECRET: SECRET };
  const migrated = await runAuthd(["migrate"], { env });
  expect(migrated.code, migrated.stderr).toBe(0);
  sql = postgres(testDatabase.url, { max: 1, onnotice: () => {} });
  dir = await mkdtemp(path.join(tmpdir(), "authd-user-cli-"));
});

afterAll(async () => {
  await sql?.end();
  await testDatabase?.drop();
});

async function authd(args: string[], input?: string) {
  return runAuthd(args, { env, input });
}

async function createUser(email: string, extra: string[] = []) {
  const result = await authd(
    ["user", "create", "--email", email, "--password-stdin", "--json", ...extra],
    PASSWORD,
  );
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as { id: string; email: string; role: string };
}

async function cliAudit(action: string, targetId: string) {
  return sql<{ actor_type: string; actor_id: string | null; ip_address: string | null }[]>`
    select actor_type, actor_id, ip_address from audit_event
    where action = ${action} and target_id = ${targetId}`;
}

describe("authd user create", () => {
  it("creates a user with the password from stdin and writes a cli audit row", async () => {
    const result = await authd(
      [
        "user",
        "create",
        "--email",
        "Ci@Example.test",
        "--name",
        "CI",
        "--password-stdin",
        "--email-verified",
        "--role",
        "admin",
        "--json",
      ],
      `${PASSWORD}\n`,
    );
    expect(result.code, result.stderr).toBe(0);
    const user = JSON.parse(result.stdout);
    expect(user).toMatchObject({
      email: "ci@example.test",
      name: "CI",
      emailVerified: true,
      role: "admin",
      banned: false,
    });
    expect(Object.keys(user).sort()).toEqual(
      [
        "id",
        "name",
        "email",
        "emailVerified",
        "image",
        "createdAt",
        "updatedAt",
        "role",
        "banned",
        "banReason",
        "banExpires",
      ].sort(),
    );
    const [account] = await sql<{ password: string }[]>`
      select password from account where user_id = ${user.id}`;
    expect(account?.password).toMatch(/^\$argon2id\$/);
    expect(await cliAudit("admin.create_user", user.id)).toEqual([
      { actor_type: "cli", actor_id: null, ip_address: null },
    ]);
  });

  it("answers 4 with USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL; --if-exists skip answers the existing user", async () => {
    const first = await createUser("dup@example.test");
    const again = await authd([
      "user",
      "create",
      "--email",
      "dup@example.test",
      "--no-password",
      "--json",
    ]);
    expect(again.code).toBe(4);
    expect(again.stdout).toBe("");
    expect(JSON.parse(again.stderr)).toEqual({
      error: {
        code: "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL",
        message: "User already exists. Use another email.",
        status: 422,
      },
    });
    const skip = await authd([
      "user",
      "create",
      "--email",
      "dup@example.test",
      "--no-password",
      "--if-exists",
      "skip",
      "--json",
    ]);
    expect(skip.code, skip.stderr).toBe(0);
    expect(JSON.parse(skip.stdout).id).toBe(first.id);
    const update = await authd([
      "user",
      "create",
      "--email",
      "dup@example.test",
      "--name",
      "Updated",
      "--no-password",
      "--if-exists",
      "update",
      "--json",
    ]);
    expect(update.code, update.stderr).toBe(0);
    expect(JSON.parse(update.stdout)).toMatchObject({ id: first.id, name: "Updated" });
  });

  it("warns about a password given as a flag value; refuses a bad email and an unknown role", async () => {
    const warned = await authd([
      "user",
      "create",
      "--email",
      "flag@example.test",
      "--password",
      PASSWORD,
      "--json",
    ]);
    expect(warned.code, warned.stderr).toBe(0);
    expect(warned.stderr).toContain("warning: a password given on the command line");
    const bad = await authd(["user", "create", "--email", "nope", "--no-password", "--json"]);
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stderr).error.code).toBe("INVALID_EMAIL");
    const role = await authd([
      "user",
      "create",
      "--email",
      "role@example.test",
      "--no-password",
      "--role",
      "root",
      "--json",
    ]);
    expect(role.code).toBe(2);
    expect(JSON.parse(role.stderr).error.code).toBe(
      "YOU_ARE_NOT_ALLOWED_TO_SET_NON_EXISTENT_VALUE",
    );
    const usage = await authd([
      "user",
      "create",
      "--email",
      "x@example.test",
      "--if-exists",
      "maybe",
    ]);
    expect(usage.code).toBe(2);
  });
});

describe("authd user get, list, update, set-role, set-password", () => {
  it("gets by email and id; an unknown user exits 3", async () => {
    const created = await createUser("get@example.test");
    const byEmail = await authd(["user", "get", "GET@example.test", "--json"]);
    expect(byEmail.code, byEmail.stderr).toBe(0);
    expect(JSON.parse(byEmail.stdout).id).toBe(created.id);
    const human = await authd(["user", "get", created.id]);
    expect(human.stdout).toMatch(/^FIELD\s+VALUE\n/);
    expect(human.stdout).toContain("get@example.test");
    const missing = await authd(["user", "get", "nobody@example.test", "--json"]);
    expect(missing.code).toBe(3);
    expect(JSON.parse(missing.stderr).error).toMatchObject({
      code: "USER_NOT_FOUND",
      message: "User not found",
      status: 404,
    });
  });

  it("lists by email glob, role and ban state", async () => {
    await createUser("a1@list.test");
    await createUser("a2@list.test", ["--role", "admin"]);
    const all = await authd(["user", "list", "--email", "*@list.test", "--json"]);
    expect(all.code, all.stderr).toBe(0);
    const parsed = JSON.parse(all.stdout);
    expect(parsed).toMatchObject({ total: 2, limit: 50, offset: 0 });
    expect(parsed.items.map((user: { email: string }) => user.email)).toEqual([
      "a1@list.test",
      "a2@list.test",
    ]);
    const admins = await authd([
      "user",
      "list",
      "--email",
      "*@list.test",
      "--role",
      "admin",
      "--json",
    ]);
    expect(JSON.parse(admins.stdout).items.map((user: { email: string }) => user.email)).toEqual([
      "a2@list.test",
    ]);
    const banned = await authd(["user", "list", "--email", "*@list.test", "--banned", "--json"]);
    expect(JSON.parse(banned.stdout).total).toBe(0);
    const table = await authd(["user", "list", "--email", "*@list.test"]);
    expect(table.stdout).toMatch(/^ID\s+EMAIL\s+NAME\s+ROLE\s+VERIFIED\s+BANNED\s+CREATED\n/);
    expect(table.stdout.trim().split("\n")).toHaveLength(3);
    const bad = await authd(["user", "list", "--limit", "0"]);
    expect(bad.code).toBe(2);
  });

  it("updates fields, sets a role and a password (from a file)", async () => {
    const created = await createUser("upd@example.test");
    const updated = await authd([
      "user",
      "update",
      "upd@example.test",
      "--name",
      "New Name",
      "--email-verified",
      "true",
      "--json",
    ]);
    expect(updated.code, updated.stderr).toBe(0);
    expect(JSON.parse(updated.stdout)).toMatchObject({
      id: created.id,
      name: "New Name",
      emailVerified: true,
    });
    const taken = await authd([
      "user",
      "update",
      created.id,
      "--email",
      "get@example.test",
      "--json",
    ]);
    expect(taken.code).toBe(4);
    const role = await authd(["user", "set-role", created.id, "admin", "--json"]);
    expect(JSON.parse(role.stdout).role).toBe("admin");
    expect(await cliAudit("admin.set_role", created.id)).toHaveLength(1);
    const file = path.join(dir, "password.txt");
    await writeFile(file, "a new password from file\n");
    const set = await authd([
      "user",
      "set-password",
      created.id,
      "--password-file",
      file,
      "--json",
    ]);
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({
      id: created.id,
      email: "upd@example.test",
      passwordSet: true,
    });
    expect(await cliAudit("admin.set_user_password", created.id)).toHaveLength(1);
    const none = await authd(["user", "set-password", created.id]);
    expect(none.code).toBe(2);
  });
});

describe("authd user ban, unban, delete", () => {
  it("needs --yes off a TTY; bans with reason and expiry; unbans", async () => {
    const created = await createUser("ban@example.test");
    const unconfirmed = await authd(["user", "ban", created.id, "--json"]);
    expect(unconfirmed.code).toBe(2);
    expect(JSON.parse(unconfirmed.stderr).error.code).toBe("USAGE_ERROR");
    const [row] = await sql<
      { banned: boolean }[]
    >`select banned from "user" where id = ${created.id}`;
    expect(row?.banned).toBe(false);
    const banned = await authd([
      "user",
      "ban",
      "ban@example.test",
      "--reason",
      "spam",
      "--expires-in",
      "7d",
      "--yes",
      "--json",
    ]);
    expect(banned.code, banned.stderr).toBe(0);
    const [user] = JSON.parse(banned.stdout).items;
    expect(user).toMatchObject({ id: created.id, banned: true, banReason: "spam" });
    const expires = new Date(user.banExpires).getTime();
    expect(Math.abs(expires - (Date.now() + 7 * 86400_000))).toBeLessThan(60_000);
    expect(await cliAudit("admin.ban_user", created.id)).toEqual([
      { actor_type: "cli", actor_id: null, ip_address: null },
    ]);
    const missing = await authd([
      "user",
      "ban",
      created.id,
      "nobody@example.test",
      "--yes",
      "--json",
    ]);
    expect(missing.code).toBe(3);
    const unbanned = await authd(["user", "unban", created.id, "--json"]);
    expect(JSON.parse(unbanned.stdout).items[0]).toMatchObject({ banned: false, banReason: null });
  });

  it("deletes one with --yes; several need --confirm=<count>", async () => {
    const one = await createUser("del1@example.test");
    const two = await createUser("del2@example.test");
    const three = await createUser("del3@example.test");
    const noYes = await authd(["user", "delete", one.id]);
    expect(noYes.code).toBe(2);
    const deleted = await authd(["user", "delete", one.id, "--yes", "--json"]);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(JSON.parse(deleted.stdout)).toEqual({
      deleted: [{ id: one.id, email: "del1@example.test" }],
    });
    expect(await cliAudit("admin.remove_user", one.id)).toHaveLength(1);
    const severe = await authd(["user", "delete", two.id, three.id, "--yes", "--json"]);
    expect(severe.code).toBe(2);
    expect(JSON.parse(severe.stderr).error.message).toContain("--confirm=2");
    const confirmed = await authd(["user", "delete", two.id, three.id, "--confirm=2", "--json"]);
    expect(confirmed.code, confirmed.stderr).toBe(0);
    expect(JSON.parse(confirmed.stdout).deleted).toHaveLength(2);
    const gone = await authd(["user", "delete", one.id, "--yes"]);
    expect(gone.code).toBe(3);
  });
});

describe("authd session", () => {
  it("create is refused unless cli.allowSessionMint is on", async () => {
    await createUser("mint@example.test");
    const refused = await authd(["session", "create", "--user", "mint@example.test", "--json"]);
    expect(refused.code).toBe(2);
    expect(JSON.parse(refused.stderr).error.message).toContain("allowSessionMint: true");
  });

  it("mints, lists, revokes and revokes all, with cli audit rows", async () => {
    const config = path.join(dir, "authd.config.json");
    await writeFile(config, JSON.stringify({ cli: { allowSessionMint: true } }));
    const user = await createUser("sessions@example.test");
    const minted = await authd([
      "--config",
      config,
      "session",
      "create",
      "--user",
      "sessions@example.test",
      "--ttl",
      "30m",
      "--json",
    ]);
    expect(minted.code, minted.stderr).toBe(0);
    const body = JSON.parse(minted.stdout);
    expect(body.cookieName).toBe("authd.session_token");
    expect(decodeURIComponent(body.cookieValue).startsWith(`${body.token}.`)).toBe(true);
    expect(body.user.id).toBe(user.id);
    const lifetime = new Date(body.session.expiresAt).getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(29 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(30 * 60_000);
    expect(await cliAudit("admin.create_session", body.session.id)).toHaveLength(1);
    const human = await authd(["--config", config, "session", "create", "--user", user.id]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout.trim()).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9%_-]+$/);

    const listed = await authd(["session", "list", "--user", user.id, "--json"]);
    expect(listed.code, listed.stderr).toBe(0);
    const { items } = JSON.parse(listed.stdout);
    expect(items).toHaveLength(2);
    expect(items.map((session: { id: string }) => session.id)).toContain(body.session.id);
    const revoked = await authd(["session", "revoke", body.session.id, "--json"]);
    expect(JSON.parse(revoked.stdout)).toEqual({ revoked: [body.session.id] });
    expect(await cliAudit("admin.revoke_user_session", body.session.id)).toHaveLength(1);
    const again = await authd(["session", "revoke", body.session.id, "--json"]);
    expect(again.code).toBe(3);
    expect(JSON.parse(again.stderr).error.code).toBe("SESSION_NOT_FOUND");
    const all = await authd(["session", "revoke-all", "--user", "sessions@example.test", "--json"]);
    expect(JSON.parse(all.stdout)).toEqual({ userId: user.id, revoked: 1 });
    const none = await authd(["session", "list", "--user", user.id, "--json"]);
    expect(JSON.parse(none.stdout).items).toEqual([]);
    const unknown = await authd(["session", "list", "--user", "ghost@example.test"]);
    expect(unknown.code).toBe(3);
  });
});
