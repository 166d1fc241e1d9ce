import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAuthd } from "../helpers/cli.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";

let testDatabase: TestDatabase;
let env: Record<string, string>;
let sql: postgres.Sql;
const PASSWORD = "correct horse battery";

beforeAll(async () => {
  testDatabase = await createTestDatabase();
  env = { DATABASE_URL: testDatabase.url, AUTHD_SECRET: "cli-test-secret-0123456789-0123456789" };
  const migrated = await runAuthd(["migrate"], { env });
  expect(migrated.code, migrated.stderr).toBe(0);
  sql = postgres(testDatabase.url, { max: 1, onnotice: () => {} });
});

afterAll(async () => {
  await sql?.end();
  await testDatabase?.drop();
});

const authd = (args: string[], input?: string) => runAuthd(args, { env, input });

async function userWithGithub(email: string) {
  const created = await authd(
    ["user", "create", "--email", email, "--password-stdin", "--json"],
    PASSWORD,
  );
  expect(created.code, created.stderr).toBe(0);
  const { id } = JSON.parse(created.stdout) as { id: string };
  await sql`
    insert into account (id, user_id, provider_id, account_id, scope)
    values (${`gh-${id}`}, ${id}, 'github', ${`12345-${id}`}, 'read:user,user:email')`;
  return id;
}

describe("authd account", () => {
  it("lists a user's accounts as JSON and as a table", async () => {
    const id = await userWithGithub("accounts@example.test");
    const json = await authd(["account", "list", "--user", "accounts@example.test", "--json"]);
    expect(json.code, json.stderr).toBe(0);
    const { items } = JSON.parse(json.stdout) as {
      items: Array<{ providerId: string; userId: string; scopes: string[] }>;
    };
    expect(items.map((item) => item.providerId).sort()).toEqual(["credential", "github"]);
    expect(items.every((item) => item.userId === id)).toBe(true);
    expect(items.find((item) => item.providerId === "github")?.scopes).toEqual([
      "read:user",
      "user:email",
    ]);
    const table = await authd(["account", "list", "--user", id]);
    expect(table.stdout).toMatch(/^ID\s+PROVIDER\s+ACCOUNT ID\s+SCOPES\s+CREATED\n/);
    expect(table.stdout).toContain("github");
  });

  it("takes the user as an argument, by id or email, and never shows a token", async () => {
    const id = await userWithGithub("positional@example.test");
    await sql`
      insert into account (id, user_id, provider_id, account_id, scope, access_token,
                           refresh_token, id_token, created_at)
      values (${`acme-${id}`}, ${id}, 'acme', 'acme-sub-1', 'openid email profile',
              'access-token-value', 'refresh-token-value', 'id-token-value',
              now() + interval '1 minute')`;
    const json = await authd(["account", "list", "positional@example.test", "--json"]);
    expect(json.code, json.stderr).toBe(0);
    const document = JSON.parse(json.stdout) as {
      items: Array<{ id: string; providerId: string; accountId: string; scopes: string[] }>;
      nextCursor: null;
    };
    expect(document.nextCursor).toBeNull();
    // Oldest first: the password, then github, then the acme row created a minute later.
    expect(document.items.map((item) => item.providerId)).toEqual(["credential", "github", "acme"]);
    expect(document.items[2]).toMatchObject({
      id: `acme-${id}`,
      accountId: "acme-sub-1",
      scopes: ["openid", "email", "profile"],
    });

    const table = await authd(["account", "list", id]);
    expect(table.code, table.stderr).toBe(0);
    const lines = table.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^ID\s+PROVIDER\s+ACCOUNT ID\s+SCOPES\s+CREATED$/);
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(new RegExp(`\\scredential\\s+${id}\\s+-\\s+\\d{4}-`));
    expect(lines[3]).toMatch(/\sacme\s+acme-sub-1\s+openid,email,profile\s+\d{4}-\d\d-\d\dT/);
    expect(table.stderr).toBe("3 account(s) of positional@example.test.\n");

    const csv = await authd(["account", "list", id, "-o", "csv"]);
    expect(csv.stdout.split("\r\n")[0]).toBe("id,providerId,accountId,scopes,createdAt");
    const quiet = await authd(["account", "list", id, "-q"]);
    expect(quiet.stdout).toBe(`${document.items.map((item) => item.id).join("\n")}\n`);
    for (const output of [json, table, csv, quiet].flatMap((r) => [r.stdout, r.stderr])) {
      expect(output).not.toMatch(/access-token-value|refresh-token-value|id-token-value/);
    }
  });

  it("lists no accounts of a user without any, and wants the user named once", async () => {
    const created = await authd([
      "user",
      "create",
      "--email",
      "nothing@example.test",
      "--no-password",
      "--json",
    ]);
    expect(created.code, created.stderr).toBe(0);
    const empty = await authd(["account", "list", "nothing@example.test", "--json"]);
    expect(empty.code, empty.stderr).toBe(0);
    expect(JSON.parse(empty.stdout)).toEqual({ items: [], nextCursor: null });

    const unknown = await authd(["account", "list", "ghost@example.test", "--json"]);
    expect(unknown.code).toBe(3);
    expect(JSON.parse(unknown.stderr).error.code).toBe("USER_NOT_FOUND");
    const neither = await authd(["account", "list"]);
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain("missing required argument 'user'");
    const both = await authd(["account", "list", "a@example.test", "--user", "b@example.test"]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("name the user once");
  });

  it("unlinks, keeps the last account unless --allow-last, and audits", async () => {
    const id = await userWithGithub("unlink@example.test");
    const dry = await authd([
      "account",
      "unlink",
      "--user",
      id,
      "--provider",
      "github",
      "--dry-run",
    ]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toBe("Would unlink github from unlink@example.test.\n");
    expect(dry.stderr).toContain("Dry run: nothing was written.");
    expect(await sql`select id from account where user_id = ${id}`).toHaveLength(2);
    const first = await authd([
      "account",
      "unlink",
      "--user",
      id,
      "--provider",
      "github",
      "--json",
    ]);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({ status: true, userId: id, providerId: "github" });
    const last = await authd([
      "account",
      "unlink",
      "--user",
      id,
      "--provider",
      "credential",
      "--json",
    ]);
    expect(last.code).toBe(5);
    expect(JSON.parse(last.stderr).error.code).toBe("FAILED_TO_UNLINK_LAST_ACCOUNT");
    const rows = await sql`select provider_id from account where user_id = ${id}`;
    expect(rows).toEqual([{ provider_id: "credential" }]);
    // The refused unlink left no audit row: only the github one is recorded.
    const afterRefusal = await sql`
      select details from audit_event where action = 'account.unlinked' and target_id = ${id}`;
    expect(afterRefusal).toEqual([{ details: { providerId: "github", accountId: `12345-${id}` } }]);
    const forced = await authd([
      "account",
      "unlink",
      "--user",
      id,
      "--provider",
      "credential",
      "--allow-last",
    ]);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toBe("Unlinked credential from unlink@example.test.\n");
    expect(await sql`select id from account where user_id = ${id}`).toHaveLength(0);
    const audit = await sql`
      select actor_type from audit_event where action = 'account.unlinked' and target_id = ${id}`;
    expect(audit).toEqual([{ actor_type: "cli" }, { actor_type: "cli" }]);
  });

  it("writes the audit row in the unlink's transaction: no audit row, no unlink", async () => {
    const id = await userWithGithub("atomic-unlink@example.test");
    // The audit insert fails for this user only: the unlink must fail with it.
    await sql.unsafe(`
      create function refuse_unlink_audit() returns trigger language plpgsql as $$
      begin
        if new.action = 'account.unlinked' and new.target_id = '${id}' then
          raise exception 'audit refused';
        end if;
        return new;
      end $$`);
    await sql`
      create trigger refuse_unlink_audit before insert on audit_event
      for each row execute function refuse_unlink_audit()`;
    try {
      const result = await authd(["account", "unlink", "--user", id, "--provider", "github"]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain("audit refused");
      const rows = await sql`
        select provider_id from account where user_id = ${id} order by provider_id`;
      expect(rows).toEqual([{ provider_id: "credential" }, { provider_id: "github" }]);
    } finally {
      await sql`drop trigger refuse_unlink_audit on audit_event`;
      await sql`drop function refuse_unlink_audit()`;
    }
    const retried = await authd(["account", "unlink", "--user", id, "--provider", "github"]);
    expect(retried.code, retried.stderr).toBe(0);
    expect(await sql`select provider_id from account where user_id = ${id}`).toEqual([
      { provider_id: "credential" },
    ]);
    expect(
      await sql`select actor_type from audit_event where action = 'account.unlinked' and target_id = ${id}`,
    ).toEqual([{ actor_type: "cli" }]);
  });

  it("answers not found for an unknown user or account, usage for missing flags", async () => {
    const unknownUser = await authd(["account", "list", "--user", "ghost@example.test", "--json"]);
    expect(unknownUser.code).toBe(3);
    expect(JSON.parse(unknownUser.stderr).error.code).toBe("USER_NOT_FOUND");
    await userWithGithub("noaccount@example.test");
    const unknownAccount = await authd([
      "account",
      "unlink",
      "--user",
      "noaccount@example.test",
      "--provider",
      "gitlab",
      "--json",
    ]);
    expect(unknownAccount.code).toBe(3);
    expect(JSON.parse(unknownAccount.stderr).error.code).toBe("ACCOUNT_NOT_FOUND");
    const missing = await authd(["account", "unlink", "--user", "noaccount@example.test"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("--provider");
  });
});
