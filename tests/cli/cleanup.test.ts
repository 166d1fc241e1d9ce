import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAuthd } from "../helpers/cli.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";

let testDatabase: TestDatabase;
let env: Record<string, string>;
let sql: postgres.Sql;

beforeAll(async () => {
  testDatabase = await createTestDatabase();
  env = { DATABASE_URL: testDatabase.url };
  expect((await runAuthd(["migrate"], { env })).code).toBe(0);
  sql = postgres(testDatabase.url, { max: 1, onnotice: () => {} });
  await sql`insert into "user" (id, email, name) values ('u1', 'u1@example.test', 'U')`;
  await sql`
    insert into session (id, user_id, token_hash, expires_at) values
      ('live', 'u1', 'h1', now() + interval '1 day'),
      ('recent', 'u1', 'h2', now() - interval '1 hour'),
      ('old', 'u1', 'h3', now() - interval '10 days')`;
  await sql`
    insert into verification (id, identifier, value, expires_at) values
      ('v-live', 'reset-password:a', 'u1', now() + interval '1 hour'),
      ('v-old', 'reset-password:b', 'u1', now() - interval '10 days')`;
});

afterAll(async () => {
  await sql?.end();
  await testDatabase?.drop();
});

describe("authd db cleanup", () => {
  it("counts without deleting on --dry-run", async () => {
    const result = await runAuthd(["db", "cleanup", "--dry-run", "--json"], { env });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      dryRun: true,
      sessions: 2,
      verifications: 1,
    });
    expect(await sql`select id from session order by id`).toHaveLength(3);
  });

  it("honours --older-than, then deletes every expired row, and audits", async () => {
    const older = await runAuthd(["db", "cleanup", "--older-than", "7d", "--json"], { env });
    expect(JSON.parse(older.stdout)).toMatchObject({
      dryRun: false,
      sessions: 1,
      verifications: 1,
    });
    expect((await sql`select id from session order by id`).map((row) => row.id)).toEqual([
      "live",
      "recent",
    ]);
    const all = await runAuthd(["db", "cleanup"], { env });
    expect(all.code).toBe(0);
    expect(all.stdout).toBe("Deleted 1 expired session(s) and 0 expired verification value(s).\n");
    expect((await sql`select id from session`).map((row) => row.id)).toEqual(["live"]);
    expect((await sql`select id from verification`).map((row) => row.id)).toEqual(["v-live"]);
    const audit = await sql`select actor_type from audit_event where action = 'db.cleanup'`;
    expect(audit).toEqual([{ actor_type: "cli" }, { actor_type: "cli" }]);
  });

  it("refuses a malformed --older-than or --batch-size as a usage error", async () => {
    const result = await runAuthd(["db", "cleanup", "--older-than", "soon"], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("expected a duration");
    for (const size of ["0", "ten", "100001"]) {
      const bad = await runAuthd(["db", "cleanup", "--batch-size", size], { env });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain("expected a whole number from 1 to 100000");
    }
  });

  it("deletes in batches of --batch-size until nothing expired is left", async () => {
    await sql`
      insert into session (id, user_id, token_hash, expires_at)
      select 'batch-' || g, 'u1', 'bh-' || g, now() - interval '2 days'
      from generate_series(1, 25) g`;
    await sql`
      insert into verification (id, identifier, value, expires_at)
      select 'vb-' || g, 'reset-password:batch-' || g, 'u1', now() - interval '2 days'
      from generate_series(1, 7) g`;
    // 25 sessions in batches of 10: 10, 10, 5; 7 verifications: one short batch.
    const result = await runAuthd(["db", "cleanup", "--batch-size", "10", "--json"], { env });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ sessions: 25, verifications: 7 });
    expect((await sql`select id from session`).map((row) => row.id)).toEqual(["live"]);
    expect((await sql`select id from verification`).map((row) => row.id)).toEqual(["v-live"]);
    const [audit] = await sql`
      select details from audit_event where action = 'db.cleanup'
      order by created_at desc limit 1`;
    expect(audit?.details).toMatchObject({ sessions: 25, verifications: 7 });
  });
});
