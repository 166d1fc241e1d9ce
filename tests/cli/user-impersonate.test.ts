import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256, unsignValue } from "../../server/crypto/digest.js";
import { runAuthd } from "../helpers/cli.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";

let testDatabase: TestDatabase;
let env: Record<string, string>;
let sql: postgres.Sql;
const SECRET = "cli-test-secret-0123456789-0123456789";
let admin: { id: string; email: string };
let member: { id: string; email: string };
let otherAdmin: { id: string; email: string };

async function authd(args: string[], extraEnv: Record<string, string> = {}) {
  return runAuthd(args, { env: { ...env, ...extraEnv } });
}

async function createUser(email: string, role: string) {
  const result = await authd(["user", "create", "--email", email, "--role", role, "--json"]);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as { id: string; email: string };
}

beforeAll(async () => {
  testDatabase = await createTestDatabase();
  env = { DATABASE_URL: testDatabase.url, AUTHD_SECRET: SECRET };
  const migrated = await runAuthd(["migrate"], { env });
  expect(migrated.code, migrated.stderr).toBe(0);
  sql = postgres(testDatabase.url, { max: 1, onnotice: () => {} });
  admin = await createUser("admin@example.test", "admin");
  member = await createUser("member@example.test", "user");
  otherAdmin = await createUser("other-admin@example.test", "admin");
});

afterAll(async () => {
  await sql?.end();
  await testDatabase?.drop();
});

describe("authd user impersonate", () => {
  it("prints only the signed cookie value on stdout, for an impersonation session", async () => {
    const result = await authd([
      "user",
      "impersonate",
      "member@example.test",
      "--as",
      admin.email,
      "--ttl",
      "30m",
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim().split("\n")).toHaveLength(1);
    const token = unsignValue(decodeURIComponent(result.stdout.trim()), SECRET);
    expect(token).toBeTruthy();
    const [row] = await sql<{ user_id: string; impersonated_by: string; expires_at: Date }[]>`
      select user_id, impersonated_by, expires_at from session where token_hash = ${sha256(token ?? "")}`;
    expect(row?.user_id).toBe(member.id);
    expect(row?.impersonated_by).toBe(admin.id);
    const ttl = (row?.expires_at.getTime() ?? 0) - Date.now();
    expect(ttl).toBeGreaterThan(29 * 60_000);
    expect(ttl).toBeLessThanOrEqual(30 * 60_000 + 5_000);
    expect(result.stderr).toContain("impersonating member@example.test");

    const quiet = await authd(["user", "impersonate", member.id, "--as", admin.id, "-q"]);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).toBe("");
    expect(quiet.stdout).toMatch(/^\S+\n$/);
  });

  it("--json gives token, cookie name and value, and the session; audited as cli", async () => {
    const result = await authd([
      "user",
      "impersonate",
      member.email,
      "--as",
      admin.email,
      "--json",
    ]);
    expect(result.code, result.stderr).toBe(0);
    const body = JSON.parse(result.stdout);
    expect(body.cookieName).toBe("authd.session_token");
    expect(decodeURIComponent(body.cookieValue).startsWith(`${body.token}.`)).toBe(true);
    expect(body.session).toMatchObject({ userId: member.id, impersonatedBy: admin.id });
    // Default lifetime: admin.impersonationSessionDuration (1h).
    const ttl = Date.parse(body.session.expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(59 * 60_000);
    expect(ttl).toBeLessThanOrEqual(3600_000 + 5_000);
    const audit = await sql<{ actor_type: string; actor_id: string | null; details: unknown }[]>`
      select actor_type, actor_id, details from audit_event
      where action = 'admin.impersonate_user' and target_id = ${member.id}
      order by created_at`;
    expect(audit.length).toBe(3);
    expect(audit.at(-1)).toMatchObject({
      actor_type: "cli",
      actor_id: null,
      details: { sessionId: body.session.id, impersonatedBy: admin.id },
    });
  });

  it("refuses to impersonate an admin unless allowed (exit 5)", async () => {
    const refused = await authd(["user", "impersonate", otherAdmin.email, "--as", admin.email]);
    expect(refused.code).toBe(5);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toContain("cannot impersonate admins");
    const dir = await mkdtemp(path.join(tmpdir(), "authd-impersonate-"));
    const config = path.join(dir, "authd.config.json");
    await writeFile(config, JSON.stringify({ admin: { allowImpersonatingAdmins: true } }));
    const allowed = await authd([
      "--config",
      config,
      "user",
      "impersonate",
      otherAdmin.email,
      "--as",
      admin.email,
      "--json",
    ]);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(JSON.parse(allowed.stdout).session.userId).toBe(otherAdmin.id);
  });

  it("--as must name an admin (exit 5), must exist (exit 3) and is required (exit 2)", async () => {
    const notAdmin = await authd(["user", "impersonate", admin.email, "--as", member.email]);
    expect(notAdmin.code).toBe(5);
    expect(notAdmin.stdout).toBe("");
    const unknown = await authd([
      "user",
      "impersonate",
      member.email,
      "--as",
      "nobody@example.test",
    ]);
    expect(unknown.code).toBe(3);
    const missing = await authd(["user", "impersonate", member.email]);
    expect(missing.code).toBe(2);
    const badTtl = await authd([
      "user",
      "impersonate",
      member.email,
      "--as",
      admin.email,
      "--ttl",
      "soon",
    ]);
    expect(badTtl.code).toBe(2);
  });
});
