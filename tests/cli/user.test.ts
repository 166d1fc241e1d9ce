import { randomBytes } from "node:crypto";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTHD_BIN, runAuthd, runProcess } from "../helpers/cli.js";
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
  it("a password of the wrong length says the bound (exit 2), and creates nothing", async () => {
    const short = await authd(
      ["user", "create", "--email", "short@example.test", "--password-stdin"],
      "short",
    );
    expect(short.code).toBe(2);
    expect(short.stderr).toBe("authd: Password too short (at least 8 characters)\n");
    const long = await authd(
      ["user", "create", "--email", "long@example.test", "--password-stdin", "--json"],
      "x".repeat(129),
    );
    expect(long.code).toBe(2);
    expect(JSON.parse(long.stderr).error).toMatchObject({
      code: "PASSWORD_TOO_LONG",
      details: { maxPasswordLength: 128 },
    });
    expect(
      await sql`select id from "user" where email in ('short@example.test', 'long@example.test')`,
    ).toHaveLength(0);
  });

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
        details: {
          email: "dup@example.test",
          id: first.id,
          hint: expect.stringContaining("--if-exists"),
        },
      },
    });
    // A person reads what to do about it.
    const human = await authd(["user", "create", "--email", "dup@example.test", "--no-password"]);
    expect(human.code).toBe(4);
    expect(human.stderr).toBe(
      "authd: User already exists. Use another email.\npass --if-exists skip (keep the user) or --if-exists update (change it) to re-run without failing\n",
    );
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

  it("updates with the global flags on the command line: -q prints the id, --dry-run keeps it", async () => {
    const created = await createUser("upd-flags@example.test");
    const quiet = await authd(["user", "update", "upd-flags@example.test", "--name", "Q", "-q"]);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stdout).toBe(`${created.id}\n`);
    const dry = await authd([
      "user",
      "update",
      created.id,
      "--name",
      "Not kept",
      "--dry-run",
      "--json",
    ]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ id: created.id, name: "Not kept" });
    const [row] = await sql<{ name: string }[]>`select name from "user" where id = ${created.id}`;
    expect(row?.name).toBe("Q");
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
      sessionsRevoked: 0,
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
      items: [{ id: one.id, email: "del1@example.test" }],
    });
    expect(await cliAudit("admin.remove_user", one.id)).toHaveLength(1);
    const severe = await authd(["user", "delete", two.id, three.id, "--yes", "--json"]);
    expect(severe.code).toBe(2);
    expect(JSON.parse(severe.stderr).error.message).toContain("--confirm=2");
    const confirmed = await authd(["user", "delete", two.id, three.id, "--confirm=2", "--json"]);
    expect(confirmed.code, confirmed.stderr).toBe(0);
    expect(JSON.parse(confirmed.stdout).items).toHaveLength(2);
    const gone = await authd(["user", "delete", one.id, "--yes"]);
    expect(gone.code).toBe(3);
  });
});

/** A user written straight into the table, with a chosen id and creation time. */
async function insertUser(
  id: string,
  email: string,
  options: { createdAt?: string; verified?: boolean; banned?: boolean } = {},
) {
  await sql`
    insert into "user" (id, email, name, email_verified, banned, created_at)
    values (${id}, ${email}, '', ${options.verified ?? false}, ${options.banned ?? false},
            coalesce(${options.createdAt ?? null}::text::timestamptz, now()))`;
}

async function addSession(userId: string) {
  const id = randomBytes(12).toString("hex");
  await sql`
    insert into session (id, user_id, token_hash, expires_at)
    values (${id}, ${userId}, ${`hash-${id}`}, now() + interval '1 day')`;
}

async function sessionCount(userId: string): Promise<number> {
  const [row] = await sql<{ count: number }[]>`
    select count(*)::int as count from session where user_id = ${userId}`;
  return row?.count ?? 0;
}

/** Runs a shell pipeline of authd commands (`"$NODE" "$BIN"` is authd). */
function shell(script: string) {
  return runProcess("sh", ["-c", script], {
    env: { ...env, NODE: process.execPath, BIN: AUTHD_BIN },
  });
}

describe("authd user list: filters and keyset paging", () => {
  const dayAgo = new Date(Date.now() - 86400_000).toISOString();
  const hourAgo = new Date(Date.now() - 3600_000).toISOString();

  beforeAll(async () => {
    // pg1 and pg2 lie within one millisecond; pg3 and pg4 share their creation time.
    await insertUser("pg1", "p1@page.test", {
      createdAt: "2020-01-01T00:00:00.000100Z",
      verified: true,
    });
    await insertUser("pg2", "p2@page.test", { createdAt: "2020-01-01T00:00:00.000200Z" });
    await insertUser("pg3", "p3@page.test", { createdAt: dayAgo, verified: true });
    await insertUser("pg4", "p4@page.test", { createdAt: dayAgo });
    await insertUser("pg5", "p5@page.test", { createdAt: hourAgo, banned: true });
  });

  const ids = (stdout: string) =>
    (JSON.parse(stdout) as { items: { id: string }[] }).items.map((user) => user.id);

  it("pages with --cursor until nextCursor is null, without repeats or gaps", async () => {
    const first = await authd(["user", "list", "--email", "*@page.test", "--limit", "2", "--json"]);
    expect(first.code, first.stderr).toBe(0);
    const page1 = JSON.parse(first.stdout);
    expect(page1).toMatchObject({ total: 5, limit: 2, offset: 0 });
    expect(ids(first.stdout)).toEqual(["pg1", "pg2"]);
    expect(page1.nextCursor).toMatch(/^[A-Za-z0-9_-]+$/);
    const second = await authd([
      "user",
      "list",
      "--email",
      "*@page.test",
      "--limit",
      "2",
      "--cursor",
      page1.nextCursor,
      "--json",
    ]);
    expect(second.code, second.stderr).toBe(0);
    expect(ids(second.stdout)).toEqual(["pg3", "pg4"]);
    const third = await authd([
      "user",
      "list",
      "--email",
      "*@page.test",
      "--limit",
      "2",
      "--cursor",
      JSON.parse(second.stdout).nextCursor,
      "--json",
    ]);
    expect(JSON.parse(third.stdout)).toMatchObject({ total: 5, nextCursor: null });
    expect(ids(third.stdout)).toEqual(["pg5"]);
  });

  it("--all fetches every page: -q streams ids, json is one document, jsonl one line each", async () => {
    const quiet = await authd([
      "user",
      "list",
      "--email",
      "*@page.test",
      "--all",
      "--limit",
      "2",
      "-q",
    ]);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stdout).toBe("pg1\npg2\npg3\npg4\npg5\n");
    const json = await authd([
      "user",
      "list",
      "--email",
      "*@page.test",
      "--all",
      "--limit",
      "2",
      "--json",
    ]);
    const document = JSON.parse(json.stdout);
    expect(Object.keys(document).sort()).toEqual(["items", "nextCursor", "total"]);
    expect(document).toMatchObject({ total: 5, nextCursor: null });
    expect(ids(json.stdout)).toEqual(["pg1", "pg2", "pg3", "pg4", "pg5"]);
    const jsonl = await authd([
      "user",
      "list",
      "--email",
      "*@page.test",
      "--all",
      "--limit",
      "2",
      "-o",
      "jsonl",
    ]);
    const lines = jsonl.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines.map((user: { id: string }) => user.id)).toEqual([
      "pg1",
      "pg2",
      "pg3",
      "pg4",
      "pg5",
    ]);
    expect(lines[0]).toMatchObject({ email: "p1@page.test", emailVerified: true });
  });

  it("filters by --verified, --no-verified, --banned, --no-banned and --created-after", async () => {
    const list = async (...flags: string[]) => {
      const result = await authd(["user", "list", "--email", "*@page.test", ...flags, "--json"]);
      expect(result.code, result.stderr).toBe(0);
      return ids(result.stdout);
    };
    expect(await list("--verified")).toEqual(["pg1", "pg3"]);
    expect(await list("--no-verified")).toEqual(["pg2", "pg4", "pg5"]);
    expect(await list("--banned")).toEqual(["pg5"]);
    expect(await list("--no-banned", "--verified")).toEqual(["pg1", "pg3"]);
    expect(await list("--created-after", "7d")).toEqual(["pg3", "pg4", "pg5"]);
    expect(await list("--created-after", "2h")).toEqual(["pg5"]);
    expect(await list("--created-after", "2021-06-01")).toEqual(["pg3", "pg4", "pg5"]);
  });

  it("refuses a forged cursor, --cursor with --offset, and a bad --created-after (exit 2)", async () => {
    const forged = await authd(["user", "list", "--cursor", "bm90LWEtY3Vyc29y", "--json"]);
    expect(forged.code).toBe(2);
    expect(JSON.parse(forged.stderr).error.code).toBe("VALIDATION_ERROR");
    const both = await authd(["user", "list", "--cursor", "x", "--offset", "1", "--json"]);
    expect(both.code).toBe(2);
    expect(JSON.parse(both.stderr).error.code).toBe("USAGE_ERROR");
    const when = await authd(["user", "list", "--created-after", "last tuesday"]);
    expect(when.code).toBe(2);
  });
});

describe("authd user ban and set-password: sessions", () => {
  it("the reference recipe bans every user a glob lists, ending their sessions", async () => {
    for (const name of ["s1", "s2", "s3"]) {
      await insertUser(`spam-${name}`, `${name}@spam.example`);
      await addSession(`spam-${name}`);
    }
    await insertUser("not-spam", "ham@example.test");
    await addSession("not-spam");
    const result = await shell(
      `"$NODE" "$BIN" user list --email '*@spam.example' --all -q | xargs -r "$NODE" "$BIN" user ban --reason "spam wave" --expires-in 30d --yes --json`,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).items.map((user: { id: string }) => user.id)).toEqual([
      "spam-s1",
      "spam-s2",
      "spam-s3",
    ]);
    const rows = await sql<{ id: string; banned: boolean; ban_reason: string | null }[]>`
      select id, banned, ban_reason from "user"
      where id like 'spam-%' or id = 'not-spam' order by id`;
    expect(rows).toEqual([
      { id: "not-spam", banned: false, ban_reason: null },
      { id: "spam-s1", banned: true, ban_reason: "spam wave" },
      { id: "spam-s2", banned: true, ban_reason: "spam wave" },
      { id: "spam-s3", banned: true, ban_reason: "spam wave" },
    ]);
    expect(await sessionCount("spam-s1")).toBe(0);
    expect(await sessionCount("not-spam")).toBe(1);
    expect(await cliAudit("admin.ban_user", "spam-s2")).toHaveLength(1);
  });

  it("ban --keep-sessions leaves the sessions; set-password ends them unless --keep-sessions", async () => {
    await insertUser("keep-1", "keep1@example.test");
    await addSession("keep-1");
    const kept = await authd(["user", "ban", "keep-1", "--keep-sessions", "--yes", "--json"]);
    expect(kept.code, kept.stderr).toBe(0);
    expect(JSON.parse(kept.stdout).items[0]).toMatchObject({ id: "keep-1", banned: true });
    expect(await sessionCount("keep-1")).toBe(1);
    const [audit] = await sql<{ details: Record<string, unknown> }[]>`
      select details from audit_event where action = 'admin.ban_user' and target_id = 'keep-1'`;
    expect(audit?.details).toMatchObject({ sessionsRevoked: 0, sessionsKept: true });

    await insertUser("pw-1", "pw1@example.test");
    await addSession("pw-1");
    await addSession("pw-1");
    const keep = await authd(
      ["user", "set-password", "pw-1", "--password-stdin", "--keep-sessions", "--json"],
      PASSWORD,
    );
    expect(keep.code, keep.stderr).toBe(0);
    expect(JSON.parse(keep.stdout)).toMatchObject({ passwordSet: true, sessionsRevoked: 0 });
    expect(await sessionCount("pw-1")).toBe(2);
    const revoke = await authd(
      ["user", "set-password", "pw1@example.test", "--password-stdin", "--json"],
      PASSWORD,
    );
    expect(revoke.code, revoke.stderr).toBe(0);
    expect(JSON.parse(revoke.stdout)).toEqual({
      id: "pw-1",
      email: "pw1@example.test",
      passwordSet: true,
      sessionsRevoked: 2,
    });
    expect(await sessionCount("pw-1")).toBe(0);
    const [account] = await sql<{ password: string }[]>`
      select password from account where user_id = 'pw-1'`;
    expect(account?.password).toMatch(/^\$argon2id\$/);
  });
});

describe("--dry-run and -q", () => {
  it("user create --dry-run prints the user and writes nothing", async () => {
    const result = await authd(
      ["user", "create", "--email", "dry@example.test", "--password-stdin", "--dry-run", "--json"],
      PASSWORD,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ email: "dry@example.test", banned: false });
    expect(result.stderr).toContain("Dry run: nothing was written.");
    const users = await sql`select id from "user" where email = 'dry@example.test'`;
    expect(users).toHaveLength(0);
    const audits = await sql`
      select id from audit_event where action = 'admin.create_user'
        and details->>'email' = 'dry@example.test'`;
    expect(audits).toHaveLength(0);
  });

  it("user ban --dry-run prints the banned user; the user stays unbanned with sessions", async () => {
    await insertUser("dry-ban", "dryban@example.test");
    await addSession("dry-ban");
    const result = await authd(["user", "ban", "dry-ban", "--yes", "--dry-run", "--json"]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).items[0]).toMatchObject({ id: "dry-ban", banned: true });
    const [row] = await sql<{ banned: boolean }[]>`select banned from "user" where id = 'dry-ban'`;
    expect(row?.banned).toBe(false);
    expect(await sessionCount("dry-ban")).toBe(1);
    expect(await cliAudit("admin.ban_user", "dry-ban")).toHaveLength(0);
  });

  it("-q prints only ids", async () => {
    const created = await authd([
      "user",
      "create",
      "--email",
      "quiet@example.test",
      "--no-password",
      "-q",
    ]);
    expect(created.code, created.stderr).toBe(0);
    const [row] = await sql<
      { id: string }[]
    >`select id from "user" where email = 'quiet@example.test'`;
    expect(created.stdout).toBe(`${row?.id}\n`);
    const got = await authd(["user", "get", "quiet@example.test", "-q"]);
    expect(got.stdout).toBe(`${row?.id}\n`);
  });
});
