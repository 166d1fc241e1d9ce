import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateConfig } from "../../server/config.js";
import { type Database, openDatabase, type Sql } from "../../server/db/connection.js";
import {
  isUniqueViolation,
  pipelinedTransaction,
  transaction,
} from "../../server/db/transaction.js";
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

  it("rolls back what a dry run wrote and answers its result", async () => {
    const seen = await transaction(
      db.sql,
      async (tx) => {
        await tx`insert into thing (name) values ('dry-1')`;
        // A unit the work runs inside (as a command's domain code does) nests.
        await transaction(tx as unknown as Sql, async (inner) => {
          await inner`insert into thing (name) values ('dry-2')`;
        });
        const rows = await tx<{ name: string }[]>`
          select name from thing where name like 'dry-%' order by name`;
        return rows.map((row) => row.name);
      },
      { rollBack: true },
    );
    expect(seen).toEqual(["dry-1", "dry-2"]);
    const rows = await db.sql`select * from thing where name like 'dry-%'`;
    expect(rows).toHaveLength(0);
    await expectNoConnectionInATransaction();
  });

  it("refuses writes in a read-only transaction, and reads one snapshot", async () => {
    await expect(
      transaction(db.sql, (tx) => tx`insert into thing (name) values ('read-only')`, {
        readOnly: true,
      }),
    ).rejects.toMatchObject({ code: "25006" });
    const counts = await transaction(
      db.sql,
      async (tx) => {
        const [before] = await tx<{ n: number }[]>`select count(*)::int as n from thing`;
        // Written by another connection meanwhile: not seen inside the snapshot.
        await db.sql`insert into thing (name) values ('after-snapshot')`;
        const [after] = await tx<{ n: number }[]>`select count(*)::int as n from thing`;
        return [before?.n, after?.n];
      },
      { isolation: "repeatable read", readOnly: true },
    );
    expect(counts[0]).toBe(counts[1]);
    await db.sql`delete from thing where name = 'after-snapshot'`;
    expect(await db.sql`select * from thing where name = 'read-only'`).toHaveLength(0);
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

/** No connection was handed back to the pool inside an unfinished transaction. */
async function expectNoConnectionInATransaction() {
  const [stuck] = await db.sql<{ n: number }[]>`
    select count(*)::int as n from pg_stat_activity
    where datname = current_database() and state like 'idle in transaction%'`;
  expect(stuck?.n).toBe(0);
}

describe("pipelinedTransaction", () => {
  const names = async () =>
    (
      await db.sql<{ name: string }[]>`select name from thing where name like 'p-%' order by name`
    ).map((row) => row.name);

  it("reads, then writes and commits in one go", async () => {
    const answer = await pipelinedTransaction(
      db.sql,
      async (tx) => (await tx<{ n: number }[]>`select 41 as n`)[0]?.n ?? 0,
      async (tx, read) => ({
        sent: Promise.all([
          tx`insert into thing (name) values ('p-a')`,
          tx`insert into thing (name) values ('p-b')`,
        ]).then(() => read + 1),
      }),
    );
    expect(answer).toBe(42);
    expect(await names()).toEqual(["p-a", "p-b"]);
    await db.sql`delete from thing where name like 'p-%'`;
  });

  it("lands nothing when a write sent before COMMIT fails, and leaves the connection clean", async () => {
    await expect(
      pipelinedTransaction(
        db.sql,
        async () => null,
        async (tx) => ({
          sent: Promise.all([
            tx`insert into thing (name) values ('p-c')`,
            tx`insert into thing (name) values ('p-c')`,
            tx`insert into thing (name) values ('p-d')`,
          ]),
        }),
      ),
    ).rejects.toSatisfy((error: unknown) => isUniqueViolation(error, "thing_pkey"));
    expect(await names()).toEqual([]);
    await expectNoConnectionInATransaction();
  });

  it("rolls back what was written when the write step throws after sending", async () => {
    await expect(
      pipelinedTransaction(
        db.sql,
        async () => null,
        async (tx) => {
          await tx`insert into thing (name) values ('p-e')`;
          throw new Error("refused after a statement");
        },
      ),
    ).rejects.toThrow("refused after a statement");
    expect(await names()).toEqual([]);
    await expectNoConnectionInATransaction();
  });

  it("nests as a savepoint inside an outer transaction", async () => {
    await expect(
      transaction(db.sql, async (outer) => {
        await pipelinedTransaction(
          outer as unknown as typeof db.sql,
          async () => null,
          async (tx) => ({ sent: tx`insert into thing (name) values ('p-f')` }),
        );
        expect(
          (await outer<{ name: string }[]>`select name from thing where name = 'p-f'`).length,
        ).toBe(1);
        throw new Error("outer rolls back");
      }),
    ).rejects.toThrow("outer rolls back");
    expect(await names()).toEqual([]);
  });
});

describe("a transaction whose connection PostgreSQL ends", () => {
  // postgres.js 3.4.9 throws from a timer, ending the process, when a statement (such as
  // its own ROLLBACK after a failure) is written to a connection it has just lost, and
  // fails every later statement on a lost connection handed back to the pool. The helper
  // sends nothing more on a lost connection and does not hand it back: the unit fails,
  // the pool serves on. Here the server ends the connection while a statement runs.
  const endedWhileRunning = async (tx: Sql) => {
    const [row] = await tx<{ pid: number }[]>`select pg_backend_pid() as pid`;
    const terminate = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 200));
      await db.sql`select pg_terminate_backend(${row?.pid as number})`;
    })();
    await Promise.all([tx`select pg_sleep(5)`, terminate]);
  };
  const connectionError = { code: expect.stringMatching(/^(CONNECTION_CLOSED|57P01)$/) };
  const poolServes = async () => {
    for (let i = 0; i < 30; i++) {
      const rows = await db.sql<{ n: number }[]>`
        select count(*)::int as n from thing where name like 'lost-%'`;
      expect(rows[0]?.n).toBe(0);
    }
  };

  /** The unit failed with the lost connection's error, and the pool serves on. */
  const failsAsLost = async (unit: Promise<unknown>) => {
    const failure = await unit.then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toMatchObject(connectionError);
    await poolServes();
  };

  it("fails the unit, writes nothing, and the pool serves on", async () => {
    await failsAsLost(
      transaction(db.sql, async (tx) => {
        await tx`insert into thing (name) values ('lost-1')`;
        await endedWhileRunning(tx as unknown as Sql);
      }),
    );
  }, 15_000);

  it("does the same for a dry run", async () => {
    await failsAsLost(
      transaction(
        db.sql,
        async (tx) => {
          await tx`insert into thing (name) values ('lost-3')`;
          await endedWhileRunning(tx as unknown as Sql);
        },
        { rollBack: true, retries: 0 },
      ),
    );
  }, 15_000);

  it("does the same for a pipelined transaction", async () => {
    await failsAsLost(
      pipelinedTransaction(
        db.sql,
        async (tx) => endedWhileRunning(tx),
        async (tx) => ({ sent: tx`insert into thing (name) values ('lost-2')`.execute() }),
      ),
    );
  }, 15_000);
});
