/**
 * `authd session …` as operators run it: the built binary against a fresh migrated
 * PostgreSQL database. Users, organizations and most sessions are inserted with SQL
 * (exact creation times and expiries), so only the session commands are tested.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliResult, cliError, runAuthd, successJson } from "../helpers/cli.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";

let database: TestDatabase;
let sql: postgres.Sql;
let dir: string;
let mintConfig: string;
const SECRET = "cli-test-secret-0123456789-0123456789";

const USERS = {
  ada: { id: "user-ada", email: "ada@example.test" },
  bob: { id: "user-bob", email: "bob@example.test" },
  mint: { id: "user-mint", email: "mint@example.test" },
};
const ORGS = {
  acme: { id: "org-acme", slug: "acme" },
  beta: { id: "org-beta", slug: "beta" },
};

function authd(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return runAuthd(args, { env: { DATABASE_URL: database.url, AUTHD_SECRET: SECRET, ...env } });
}

async function json<T = Record<string, unknown>>(args: string[]): Promise<T> {
  return successJson<T>(await authd([...args, "--json"]), args.join(" "));
}

const errorOf = cliError;

async function cliAudit(action: string, targetId: string) {
  return sql<{ actor_type: string }[]>`
    select actor_type from audit_event where action = ${action} and target_id = ${targetId}`;
}

async function sessionCount(userId: string): Promise<number> {
  const [row] = await sql<{ count: number }[]>`
    select count(*)::int as count from session where user_id = ${userId}`;
  return row?.count ?? -1;
}

beforeAll(async () => {
  database = await createTestDatabase();
  const migrated = await runAuthd(["migrate"], { env: { DATABASE_URL: database.url } });
  expect(migrated.code, migrated.stderr).toBe(0);
  sql = postgres(database.url, { max: 1, onnotice: () => {} });
  for (const user of Object.values(USERS)) {
    await sql`insert into "user" (id, email, name) values (${user.id}, ${user.email}, '')`;
  }
  for (const org of Object.values(ORGS)) {
    await sql`insert into organization (id, name, slug) values (${org.id}, ${org.slug}, ${org.slug})`;
  }
  dir = await mkdtemp(path.join(tmpdir(), "authd-session-cli-"));
  mintConfig = path.join(dir, "authd.config.json");
  await writeFile(mintConfig, JSON.stringify({ cli: { allowSessionMint: true } }));
});

afterAll(async () => {
  await sql?.end();
  await database?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("authd session create", () => {
  it("is refused unless cli.allowSessionMint is on", async () => {
    const refused = await authd(["session", "create", "--user", USERS.mint.email, "--json"]);
    expect(refused.code).toBe(2);
    expect(errorOf(refused).message).toContain("allowSessionMint: true");
    expect(await sessionCount(USERS.mint.id)).toBe(0);
  });

  it("is refused in production (flag, AUTHD_PROFILE, NODE_ENV) even with allowSessionMint", async () => {
    const base = ["--config", mintConfig, "session", "create", "--user", USERS.mint.email];
    const runs = [
      await authd([...base, "--profile", "production", "--json"]),
      await authd([...base, "--json"], { AUTHD_PROFILE: "production" }),
      await authd(base, { NODE_ENV: "production" }),
    ];
    for (const refused of runs) {
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stdout).toBe("");
    }
    expect(errorOf(runs[0] as CliResult)).toEqual({
      code: "USAGE_ERROR",
      message: expect.stringContaining("refused in production"),
    });
    expect((runs[2] as CliResult).stderr).toMatch(
      /^authd: session create is refused in production/,
    );
    expect(await sessionCount(USERS.mint.id)).toBe(0);
    // The test profile is not production.
    const allowed = await authd([...base, "--profile", "test", "-q"]);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(await sessionCount(USERS.mint.id)).toBe(1);
  });

  it("mints, lists, revokes and revokes all, with cli audit rows; -q prints the cookie only", async () => {
    const user = USERS.ada;
    const minted = await authd([
      "--config",
      mintConfig,
      "session",
      "create",
      "--user",
      user.email,
      "--ttl",
      "30m",
      "--json",
    ]);
    expect(minted.code, minted.stderr).toBe(0);
    const body = JSON.parse(minted.stdout);
    expect(Object.keys(body).sort()).toEqual([
      "cookieName",
      "cookieValue",
      "session",
      "token",
      "user",
    ]);
    expect(body.cookieName).toBe("authd.session_token");
    expect(decodeURIComponent(body.cookieValue).startsWith(`${body.token}.`)).toBe(true);
    expect(body.user.id).toBe(user.id);
    const lifetime = new Date(body.session.expiresAt).getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(29 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(30 * 60_000);
    expect(await cliAudit("admin.create_session", body.session.id)).toHaveLength(1);

    const quiet = await authd([
      "--config",
      mintConfig,
      "session",
      "create",
      "--user",
      user.id,
      "-q",
    ]);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stdout).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9%_-]+\n$/);
    const human = await authd(["--config", mintConfig, "session", "create", "--user", user.id]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9%_-]+\n$/);
    expect(human.stderr).toContain(`Cookie authd.session_token for ${user.email}`);

    const listed = await json<{ items: { id: string; token: string }[]; nextCursor: null }>([
      "session",
      "list",
      "--user",
      user.id,
    ]);
    expect(listed.items).toHaveLength(3);
    expect(listed.nextCursor).toBeNull();
    expect(listed.items.map((session) => session.id)).toContain(body.session.id);
    // The cookie token is never listed: `token` is the opaque handle (the id).
    expect(listed.items.every((session) => session.token === session.id)).toBe(true);
    expect(JSON.stringify(listed)).not.toContain(body.token);

    const revoked = await authd(["session", "revoke", body.session.id, "--json"]);
    expect(JSON.parse(revoked.stdout)).toEqual({ revoked: [body.session.id] });
    expect(await cliAudit("admin.revoke_user_session", body.session.id)).toHaveLength(1);
    const again = await authd(["session", "revoke", body.session.id, "--json"]);
    expect(again.code).toBe(3);
    expect(errorOf(again).code).toBe("SESSION_NOT_FOUND");
    const all = await authd(["session", "revoke-all", "--user", user.email, "--json"]);
    expect(JSON.parse(all.stdout)).toEqual({ userId: user.id, revoked: 2 });
    expect(await sessionCount(user.id)).toBe(0);
    const unknown = await authd(["session", "list", "--user", "ghost@example.test"]);
    expect(unknown.code).toBe(3);
  });
});

describe("authd session list", () => {
  // Newest first: s6 and s5 share a created_at to the microsecond, so the id decides.
  const SESSIONS = [
    { id: "s1", user: USERS.ada.id, at: "2026-01-01T00:00:00.000001Z", expired: false, org: null },
    { id: "s2", user: USERS.bob.id, at: "2026-01-02T00:00:00.000001Z", expired: true, org: "acme" },
    {
      id: "s3",
      user: USERS.ada.id,
      at: "2026-01-03T00:00:00.000001Z",
      expired: false,
      org: "acme",
    },
    {
      id: "s4",
      user: USERS.bob.id,
      at: "2026-01-03T00:00:00.000002Z",
      expired: false,
      org: "beta",
    },
    {
      id: "s5",
      user: USERS.bob.id,
      at: "2026-01-04T00:00:00.123456Z",
      expired: false,
      org: "acme",
    },
    { id: "s6", user: USERS.ada.id, at: "2026-01-04T00:00:00.123456Z", expired: true, org: null },
  ] as const;
  const ids = (page: { items: { id: string }[] }) => page.items.map((item) => item.id);

  beforeAll(async () => {
    await sql`delete from session`;
    for (const session of SESSIONS) {
      const org = session.org === null ? null : ORGS[session.org].id;
      await sql`
        insert into session (id, user_id, token_hash, expires_at, active_organization_id,
                             created_at, updated_at)
        values (${session.id}, ${session.user}, ${`hash-${session.id}`},
                now() + ${session.expired ? "-1 hour" : "1 hour"}::interval, ${org},
                ${session.at}::text::timestamptz, ${session.at}::text::timestamptz)`;
    }
  });

  it("lists every session platform-wide, newest first, never a token hash", async () => {
    const all = await json<{ items: { id: string }[]; nextCursor: string | null }>([
      "session",
      "list",
    ]);
    expect(ids(all)).toEqual(["s6", "s5", "s4", "s3", "s2", "s1"]);
    expect(all.nextCursor).toBeNull();
    expect(JSON.stringify(all)).not.toContain("hash-");
    expect(all.items[0]).toEqual({
      id: "s6",
      token: "s6",
      userId: USERS.ada.id,
      expiresAt: expect.any(String),
      createdAt: "2026-01-04T00:00:00.123Z",
      updatedAt: "2026-01-04T00:00:00.123Z",
      ipAddress: null,
      userAgent: null,
      activeOrganizationId: null,
      activeTeamId: null,
      impersonatedBy: null,
      userEmail: USERS.ada.email,
    });
    const quiet = await authd(["session", "list", "-q"]);
    expect(quiet.stdout).toBe("s6\ns5\ns4\ns3\ns2\ns1\n");
    const table = await authd(["session", "list", "--user", USERS.bob.email]);
    expect(table.stdout).toMatch(
      /^ID\s+USER\s+USER ID\s+EXPIRES\s+ACTIVE ORG\s+IP\s+IMPERSONATED BY\s+CREATED\n/,
    );
    const rows = table.stdout.trim().split("\n").slice(1);
    expect(rows).toHaveLength(3);
    // Each session shows whose it is, by email, the way an operator knows people.
    for (const row of rows) expect(row.split(/\s{2,}/)[1]).toBe(USERS.bob.email);
  });

  /** Follows nextCursor from the first page (at most `most` pages): the ids, and the pages. */
  async function pageThrough(limit: number, most: number) {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: { items: { id: string }[]; nextCursor: string | null } = await json([
        "session",
        "list",
        "--limit",
        String(limit),
        ...(cursor ? ["--cursor", cursor] : []),
      ]);
      seen.push(...ids(page));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor && pages < most);
    return { seen, pages };
  }

  it("pages of one keep every session, also those within one millisecond", async () => {
    const { seen } = await pageThrough(1, 12);
    expect(seen).toEqual(["s6", "s5", "s4", "s3", "s2", "s1"]);
  });

  it("pages with --limit and --cursor: no repeats, no gaps, microsecond ties kept", async () => {
    const { seen, pages } = await pageThrough(2, 5);
    expect(seen).toEqual(["s6", "s5", "s4", "s3", "s2", "s1"]);
    // Six rows in pages of two: the third page is the last one.
    expect(pages).toBe(3);

    const bad = await authd(["session", "list", "--cursor", "not-a-cursor", "--json"]);
    expect(bad.code).toBe(2);
    expect(errorOf(bad).code).toBe("VALIDATION_ERROR");
    expect((await authd(["session", "list", "--limit", "0"])).code).toBe(2);
    expect((await authd(["session", "list", "--limit", "1001"])).code).toBe(2);
  });

  it("filters by --active, --org (id or slug) and --user, combined", async () => {
    expect(ids(await json(["session", "list", "--active"]))).toEqual(["s5", "s4", "s3", "s1"]);
    expect(ids(await json(["session", "list", "--org", "acme"]))).toEqual(["s5", "s3", "s2"]);
    expect(ids(await json(["session", "list", "--org", ORGS.beta.id]))).toEqual(["s4"]);
    expect(
      ids(await json(["session", "list", "--org", "acme", "--active", "--user", USERS.bob.email])),
    ).toEqual(["s5"]);
    const unknownOrg = await authd(["session", "list", "--org", "nope", "--json"]);
    expect(unknownOrg.code).toBe(3);
    expect(errorOf(unknownOrg).code).toBe("ORGANIZATION_NOT_FOUND");
  });

  it("revoke --dry-run keeps the session and writes no audit row", async () => {
    const dry = await authd(["session", "revoke", "s5", "--dry-run", "--json"]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toEqual({ revoked: ["s5"] });
    expect(dry.stderr).toContain("Dry run: nothing was written.");
    expect(await sql`select id from session where id = 's5'`).toHaveLength(1);
    expect(await cliAudit("admin.revoke_user_session", "s5")).toHaveLength(0);
    const dryAll = await authd(["session", "revoke-all", "--user", USERS.bob.id, "--dry-run"]);
    expect(dryAll.code, dryAll.stderr).toBe(0);
    expect(dryAll.stdout).toBe(`Would revoke 3 session(s) of ${USERS.bob.email}.\n`);
    expect(await sessionCount(USERS.bob.id)).toBe(3);
  });
});
