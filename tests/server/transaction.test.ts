import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateConfig } from "../../server/config.js";
import { type Database, openDatabase } from "../../server/db/connection.js";
import { isUniqueViolation, transaction } from "../../server/db/transaction.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";

let testDatabase: TestDatabase;
let db: Database;

beforeAll(async () => {
  testDatabase = await createTestDatabase();
  const config = validateConfig({ database: { url: testDatabase.url, poolSize: 12 } }, "test");
  db = await openDatabase({ config, file: null, production: false, envSources: {}, cwd: "." });
  await db.sql`create table seat (id serial primary key, room text not null)`;
  await db.sql`create table thing (name text primary key)`;
});

afterAll(async () => {
  await db?.close();
  await testDatabase?.drop();
});

describe("transaction", () => {
  it("commits all or nothing", async () => {
    await expect(
      transaction(db.sql, async (tx) => {
        await tx`insert into thing (name) values ('first')`;
        await tx`insert into thing (name) values ('first')`;
      }),
    ).rejects.toSatisfy((error: unknown) => isUniqueViolation(error, "thing_pkey"));
    const rows = await db.sql`select * from thing`;
    expect(rows).toHaveLength(0);
  });

  it("retries serialization failures so a limit holds under concurrency", async () => {
    const limit = 10;
    const attempts = Array.from({ length: 20 }, () =>
      transaction(
        db.sql,
        async (tx) => {
          const [row] = await tx<{ taken: number }[]>`
            select count(*)::int as taken from seat where room = 'a'`;
          if ((row?.taken ?? 0) >= limit) return false;
          await tx`insert into seat (room) values ('a')`;
          return true;
        },
        { isolation: "serializable", retries: 30 },
      ),
    );
    const results = await Promise.all(attempts);
    expect(results.filter(Boolean)).toHaveLength(limit);
    const [count] = await db.sql<
      { n: number }[]
    >`select count(*)::int as n from seat where room = 'a'`;
    expect(count?.n).toBe(limit);
  });

  it("passes other errors through unchanged, without retrying", async () => {
    let calls = 0;
    await expect(
      transaction(db.sql, async () => {
        calls++;
        throw new Error("rule refused");
      }),
    ).rejects.toThrow("rule refused");
    expect(calls).toBe(1);
  });
});
