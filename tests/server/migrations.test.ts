import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateConfig } from "../../server/config.js";
import { type Database, openDatabase } from "../../server/db/connection.js";
import {
  listMigrationFiles,
  MIGRATIONS_TABLE,
  migrationStatus,
  runMigrations,
} from "../../server/db/migrations.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";

let testDatabase: TestDatabase;
let db: Database;

const TABLES = [
  "account",
  "audit_event",
  "invitation",
  "jwks",
  "member",
  "organization",
  "session",
  "team",
  "team_member",
  "user",
  "verification",
];

async function tables(): Promise<string[]> {
  const rows = await db.sql<{ tablename: string }[]>`
    select tablename from pg_tables where schemaname = 'public' and tablename <> ${MIGRATIONS_TABLE}
    order by tablename`;
  return rows.map((row) => row.tablename);
}

beforeAll(async () => {
  testDatabase = await createTestDatabase();
  const config = validateConfig({ database: { url: testDatabase.url } }, "test");
  db = await openDatabase({ config, file: null, production: false, envSources: {}, cwd: "." });
});

afterAll(async () => {
  await db?.close();
  await testDatabase?.drop();
});

describe("migrations on a fresh database", () => {
  it("starts with everything pending", async () => {
    const status = await migrationStatus(db.sql);
    expect(status.applied).toEqual([]);
    expect(status.pending).toEqual(await listMigrationFiles());
    expect(status.pending.length).toBeGreaterThan(0);
  });

  it("goes up, and a second run is a no-op", async () => {
    const ran = await runMigrations(db, { direction: "up" });
    expect(ran).toEqual(await listMigrationFiles());
    expect(await tables()).toEqual(TABLES);
    expect(await runMigrations(db, { direction: "up" })).toEqual([]);
    const status = await migrationStatus(db.sql);
    expect(status.pending).toEqual([]);
    expect(status.applied.map((row) => row.name)).toEqual(ran);
  });

  it("goes down and up again", async () => {
    const files = await listMigrationFiles();
    const reverted = await runMigrations(db, { direction: "down", count: files.length });
    expect(reverted).toEqual([...files].reverse());
    expect(await tables()).toEqual([]);
    expect((await migrationStatus(db.sql)).pending).toEqual(files);
    expect(await runMigrations(db, { direction: "up" })).toEqual(files);
    expect(await tables()).toEqual(TABLES);
  });

  it("applies each migration once when two processes race", async () => {
    const files = await listMigrationFiles();
    await runMigrations(db, { direction: "down", count: files.length });
    const [first, second] = await Promise.all([
      runMigrations(db, { direction: "up", waitForLock: true }),
      runMigrations(db, { direction: "up", waitForLock: true }),
    ]);
    expect([...first, ...second].sort()).toEqual(files);
    expect(await tables()).toEqual(TABLES);
  });

  it("reports migrations the binary does not know as unknown", async () => {
    await db.sql`insert into ${db.sql(MIGRATIONS_TABLE)} (name, run_on) values ('9999_from-the-future', now())`;
    try {
      expect((await migrationStatus(db.sql)).unknown).toEqual(["9999_from-the-future"]);
    } finally {
      await db.sql`delete from ${db.sql(MIGRATIONS_TABLE)} where name = '9999_from-the-future'`;
    }
  });
});

describe("constraints the product's rules need", () => {
  async function user(id: string, email: string) {
    await db.sql`insert into "user" (id, email, name) values (${id}, ${email}, ${id})`;
  }

  it("keeps emails unique and lowercased", async () => {
    await user("u1", "alice@example.com");
    await expect(user("u2", "alice@example.com")).rejects.toMatchObject({ code: "23505" });
    await expect(user("u3", "Bob@Example.com")).rejects.toMatchObject({ code: "23514" });
  });

  it("keeps slugs unique and one membership per user and organization", async () => {
    await db.sql`insert into organization (id, name, slug) values ('o1', 'Acme', 'acme')`;
    await expect(
      db.sql`insert into organization (id, name, slug) values ('o2', 'Acme 2', 'acme')`,
    ).rejects.toMatchObject({ code: "23505" });
    await db.sql`insert into member (id, organization_id, user_id, role) values ('m1', 'o1', 'u1', 'owner')`;
    await expect(
      db.sql`insert into member (id, organization_id, user_id, role) values ('m2', 'o1', 'u1', 'admin')`,
    ).rejects.toMatchObject({ code: "23505" });
  });

  it("allows one pending invitation per address and organization", async () => {
    const invite = (id: string, status: string) => db.sql`
      insert into invitation (id, organization_id, email, role, status, inviter_id, expires_at)
      values (${id}, 'o1', 'new@example.com', 'member', ${status}, 'u1', now() + interval '2 days')`;
    await invite("i1", "pending");
    await expect(invite("i2", "pending")).rejects.toMatchObject({ code: "23505" });
    await invite("i3", "canceled");
    await expect(invite("i4", "expired")).rejects.toMatchObject({ code: "23514" });
  });

  it("bumps an organization's content version once per transaction, on every change", async () => {
    await db.sql`insert into organization (id, name, slug) values ('ov', 'Versioned', 'versioned')`;
    await db.sql`insert into "user" (id, email, name) values ('uv', 'uv@example.com', 'V')`;
    const version = async () =>
      Number(
        (
          await db.sql<
            { v: string }[]
          >`select content_version as v from organization where id = 'ov'`
        )[0]?.v,
      );
    const start = await version();
    // Two rows of the organization changed in one transaction: one bump.
    await db.sql.begin(async (tx) => {
      await tx`insert into member (id, organization_id, user_id, role) values ('mv', 'ov', 'uv', 'member')`;
      await tx`insert into invitation (id, organization_id, email, role, status, inviter_id, expires_at)
               values ('iv', 'ov', 'x@example.com', 'member', 'pending', 'uv', now() + interval '1 day')`;
      await tx`update invitation set status = 'canceled' where id = 'iv'`;
    });
    expect(await version()).toBe(start + 1);
    // Each later transaction bumps again, whatever it changes.
    await db.sql`update member set role = 'admin' where id = 'mv'`;
    expect(await version()).toBe(start + 2);
    await db.sql`delete from member where id = 'mv'`;
    expect(await version()).toBe(start + 3);
    // A transaction that only locked the organization first still bumps it.
    await db.sql.begin(async (tx) => {
      await tx`select 1 from organization where id = 'ov' for update`;
      await tx`insert into member (id, organization_id, user_id, role) values ('mv2', 'ov', 'uv', 'member')`;
    });
    expect(await version()).toBe(start + 4);
  });

  it("stores session tokens as unique digests and clears a deleted active organization", async () => {
    await db.sql`insert into organization (id, name, slug) values ('o9', 'Gone', 'gone')`;
    await db.sql`
      insert into session (id, user_id, token_hash, expires_at, active_organization_id)
      values ('s1', 'u1', 'digest-1', now() + interval '1 day', 'o9')`;
    await expect(db.sql`
      insert into session (id, user_id, token_hash, expires_at)
      values ('s2', 'u1', 'digest-1', now() + interval '1 day')`).rejects.toMatchObject({
      code: "23505",
    });
    await db.sql`delete from organization where id = 'o9'`;
    const [session] = await db.sql<{ activeOrganizationId: string | null }[]>`
      select active_organization_id from session where id = 's1'`;
    expect(session?.activeOrganizationId).toBeNull();
  });

  it("deleting a user removes their sessions, accounts, memberships and team memberships", async () => {
    await db.sql`insert into account (id, user_id, provider_id, account_id) values ('a1', 'u1', 'credential', 'u1')`;
    await db.sql`insert into team (id, name, organization_id) values ('t1', 'Core', 'o1')`;
    await db.sql`insert into team_member (id, team_id, user_id) values ('tm1', 't1', 'u1')`;
    await db.sql`delete from "user" where id = 'u1'`;
    const [counts] = await db.sql<
      { sessions: number; accounts: number; members: number; teamMembers: number }[]
    >`
      select
        (select count(*)::int from session where user_id = 'u1') as sessions,
        (select count(*)::int from account where user_id = 'u1') as accounts,
        (select count(*)::int from member where user_id = 'u1') as members,
        (select count(*)::int from team_member where user_id = 'u1') as team_members`;
    expect(counts).toEqual({ sessions: 0, accounts: 0, members: 0, teamMembers: 0 });
  });
});
