/**
 * authd's connection pool: one postgres.js client per connection, statements handed to
 * the clients in turn, a transaction leasing one client for itself (server/db/clients.ts).
 */
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { abandonReserved, clientPool, clientsOf } from "../../server/db/clients.js";
import { columns, fixedFragment } from "../../server/db/columns.js";
import type { Sql } from "../../server/db/connection.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";

let testDatabase: TestDatabase;
let pool: Sql;
const SIZE = 3;

async function pid(sql: Sql | postgres.ReservedSql<Record<string, never>>): Promise<number> {
  const [row] = await sql<{ pid: number }[]>`select pg_backend_pid() as pid`;
  return row?.pid as number;
}

/**
 * Waits until a client of the pool is no longer one of `before`: the server's close
 * reaches the client a little after the statement that asked for it has answered.
 */
async function replaced(before: readonly Sql[]): Promise<void> {
  for (let wait = 0; wait < 100; wait++) {
    if (clientsOf(pool).some((client, index) => client !== before[index])) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error("no client was replaced within a second");
}

beforeAll(async () => {
  testDatabase = await createTestDatabase();
  pool = clientPool(
    (onclose) =>
      postgres(testDatabase.url, { max: 1, onclose, onnotice: () => {} }) as unknown as Sql,
    { size: SIZE, acquireTimeout: 2000 },
  );
});

afterAll(async () => {
  await pool.end({ timeout: 1 });
  await testDatabase.drop();
});

describe("authd's connection pool", () => {
  it("is made of clients of one connection each", () => {
    const clients = clientsOf(pool);
    expect(clients).toHaveLength(SIZE);
    for (const client of clients) expect(client.options.max).toBe(1);
  });

  it("answers every query with its own result when fifty callers share it", async () => {
    const wrong: string[] = [];
    await Promise.all(
      Array.from({ length: 50 }, async (_, caller) => {
        for (let i = 0; i < 200; i++) {
          const value = caller * 200 + i;
          const [row] = await pool<{ n: number }[]>`select ${value}::int as n`;
          if (row?.n !== value) wrong.push(`${value} -> ${row?.n}`);
        }
      }),
    );
    expect(wrong).toEqual([]);
  });

  it("hands statements to every client in turn", async () => {
    const seen = new Set<number>();
    for (let i = 0; i < SIZE * 2; i++) seen.add(await pid(pool));
    expect(seen.size).toBe(SIZE);
  });

  it("takes a fragment made for one statement into another", async () => {
    const condition = pool`n > ${1}`;
    const rows = await pool<{ n: number }[]>`
      select n from (values (1), (2), (3)) as t(n) where ${condition} order by n`;
    expect(rows.map((row) => row.n)).toEqual([2, 3]);
  });

  it("builds a value-free fragment once, for its statements and its transactions", async () => {
    const list = { names: ["n"], columns: ["n"], text: '"n"' };
    const steps = {};
    let built = 0;
    const condition = () => {
      built += 1;
      return pool`n > 1`;
    };
    const fromPool = fixedFragment(pool, steps, "condition", condition);
    expect(fixedFragment(pool, steps, "condition", condition)).toBe(fromPool);
    expect(columns(pool, list, "t")).toBe(columns(pool, list, "t"));
    expect(columns(pool, list, "t")).not.toBe(columns(pool, list));
    const reserved = await pool.reserve();
    try {
      expect(fixedFragment(reserved, steps, "condition", condition)).toBe(fromPool);
      expect(columns(reserved, list, "t")).toBe(columns(pool, list, "t"));
      const rows = await reserved<{ n: number }[]>`
        select ${columns(reserved, list, "t")} from (values (1), (2), (3)) as t(n)
        where ${fromPool} order by n`;
      expect(rows.map((row) => row.n)).toEqual([2, 3]);
    } finally {
      reserved.release();
    }
    expect(built).toBe(1);
    // Another pool (another app) and a lone client keep nothing of this one's.
    const other = clientPool(
      (onclose) => postgres(testDatabase.url, { max: 1, onclose }) as unknown as Sql,
      { size: 1, acquireTimeout: 2000 },
    );
    const lone = clientsOf(pool)[0] as Sql;
    try {
      expect(fixedFragment(other, steps, "condition", condition)).not.toBe(fromPool);
      expect(fixedFragment(lone, steps, "condition", condition)).not.toBe(fromPool);
      expect(fixedFragment(lone, steps, "condition", condition)).not.toBe(fromPool);
      expect(built).toBe(4);
    } finally {
      await other.end({ timeout: 1 });
    }
  });

  it("sends no other statement to a client a transaction holds", async () => {
    const tx = await pool.reserve();
    try {
      const held = await pid(tx);
      const others = await Promise.all(Array.from({ length: SIZE * 4 }, () => pid(pool)));
      expect(others).not.toContain(held);
    } finally {
      tx.release();
    }
    const after = new Set<number>();
    for (let i = 0; i < SIZE * 2; i++) after.add(await pid(pool));
    expect(after.size).toBe(SIZE);
  });

  it("makes a transaction wait, first come first served, while every client is held", async () => {
    const held = await Promise.all(Array.from({ length: SIZE }, () => pool.reserve()));
    const order: string[] = [];
    const first = pool.reserve().then((tx) => {
      order.push("first");
      return tx;
    });
    const second = pool.reserve().then((tx) => {
      order.push("second");
      return tx;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(order).toEqual([]);
    held[0]?.release();
    const one = await first;
    expect(order).toEqual(["first"]);
    held[1]?.release();
    const two = await second;
    expect(order).toEqual(["first", "second"]);
    for (const tx of [one, two, held[2]]) tx?.release();
    // Every lease was given back: all clients take statements again.
    const seen = new Set<number>();
    for (let i = 0; i < SIZE * 2; i++) seen.add(await pid(pool));
    expect(seen.size).toBe(SIZE);
  });

  it("gives back a lease once, however often it is released or abandoned", async () => {
    const tx = await pool.reserve();
    tx.release();
    tx.release();
    abandonReserved(tx);
    const all = await Promise.all(Array.from({ length: SIZE }, () => pool.reserve()));
    const extra = pool.reserve();
    let extraDone = false;
    void extra.then(() => {
      extraDone = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Had the double release given back two leases, a fourth transaction would have one.
    expect(extraDone).toBe(false);
    for (const held of all) held.release();
    (await extra).release();
  });

  it("serves on a client whose connection the server ended while it was leased", async () => {
    const before = [...clientsOf(pool)];
    const tx = await pool.reserve();
    const lost = await pid(tx);
    let failure: unknown;
    try {
      await pool`select pg_terminate_backend(${lost})`;
      failure = await tx`select 1`.then(
        () => null,
        (error: unknown) => error,
      );
    } finally {
      // Given back whatever happened, so that a failure here leaves the next test a whole pool.
      abandonReserved(tx);
    }
    // Which error depends on when the client learns of the close: before it writes the
    // statement (CONNECTION_DESTROYED), while writing, or from the server's notice.
    expect(failure).toMatchObject({
      code: expect.stringMatching(
        /^(CONNECTION_CLOSED|CONNECTION_DESTROYED|ECONNRESET|EPIPE|57P01)$/,
      ),
    });
    await replaced(before);
    const results = await Promise.all(Array.from({ length: SIZE * 10 }, () => pid(pool)));
    expect(results).not.toContain(lost);
    expect(new Set(results).size).toBe(SIZE);
  });

  it("replaces a client whose connection closed with a new one", async () => {
    const before = [...clientsOf(pool)];
    const [row] = await pool<{ pid: number }[]>`
      select pg_terminate_backend(pid) as ended, pid from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid()
        and backend_type = 'client backend'
      limit 1`;
    expect(row?.pid).toBeTypeOf("number");
    await replaced(before);
    const after = clientsOf(pool);
    expect(after).toHaveLength(SIZE);
    expect(after.filter((client, index) => client !== before[index])).toHaveLength(1);
    const results = await Promise.all(Array.from({ length: SIZE * 10 }, () => pid(pool)));
    expect(results).not.toContain(row?.pid);
    expect(new Set(results).size).toBe(SIZE);
  });
});
