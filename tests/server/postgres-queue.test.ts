/**
 * authd installs postgres.js with a patch (patches/postgres+3.4.9.patch, applied by
 * patch-package on install): the client's internal queue left a hole per shifted
 * element and searched them all on every remove, and a queue that never ran empty (all
 * connections busy under sustained load) grew without end, so throughput fell the
 * longer the load lasted (bench/README.md, "Sustained load"). These tests check that the
 * patched queue is the one installed and that it still behaves as a queue, alone and
 * inside the connection pool.
 */
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";

interface Queue<T> {
  readonly length: number;
  push(x: T): T;
  shift(): T | undefined;
  remove(x: T): T | null;
}
type QueueFactory = <T>(initial?: T[]) => Queue<T>;

const require = createRequire(import.meta.url);
// The package exports only its entry points; the queue module sits beside them.
const cjsDirectory = path.dirname(require.resolve("postgres"));
const cjsQueue = require(path.join(cjsDirectory, "queue.js")) as QueueFactory;
const esmQueue = (
  (await import(pathToFileURL(path.join(cjsDirectory, "../../src/queue.js")).href)) as {
    default: QueueFactory;
  }
).default;

describe.each([
  ["ES module", esmQueue],
  ["CommonJS", cjsQueue],
])("postgres.js queue (%s build)", (_name, Queue) => {
  it("is the patched queue", () => {
    const source = Queue.toString();
    expect(source).toContain("authd patch");
    expect(source).toContain("indexOf(x, index)");
  });

  it("stays first in, first out through many cycles in which it never runs empty", () => {
    const queue = Queue<number>();
    let next = 0;
    let expected = 0;
    for (let i = 0; i < 10; i++) queue.push(next++);
    for (let cycle = 0; cycle < 10_000; cycle++) {
      expect(queue.shift()).toBe(expected++);
      queue.push(next++);
      expect(queue.length).toBe(10);
    }
    while (queue.length > 0) expect(queue.shift()).toBe(expected++);
    expect(expected).toBe(next);
  });

  it("removes only what it holds, before and after compaction", () => {
    const queue = Queue<{ id: number }>();
    const items = Array.from({ length: 5000 }, (_, id) => ({ id }));
    for (const item of items) queue.push(item);
    // Past the compaction threshold: 3000 shifted, 2000 left.
    for (let i = 0; i < 3000; i++) expect(queue.shift()).toBe(items[i]);
    const shifted = items[10] as { id: number };
    const held = items[4000] as { id: number };
    expect(queue.remove(shifted)).toBeNull();
    expect(queue.remove(held)).toBe(held);
    expect(queue.remove(held)).toBeNull();
    expect(queue.length).toBe(1999);
    const rest: number[] = [];
    for (let item = queue.shift(); item; item = queue.shift()) rest.push(item.id);
    expect(rest).toEqual(items.slice(3000).flatMap((item) => (item.id === 4000 ? [] : [item.id])));
    expect(queue.length).toBe(0);
  });
});

describe("the connection pool with the patched queue", () => {
  let testDatabase: TestDatabase;
  let sql: postgres.Sql;

  beforeAll(async () => {
    testDatabase = await createTestDatabase();
    sql = postgres(testDatabase.url, { max: 2, onnotice: () => {} });
  });

  afterAll(async () => {
    await sql.end({ timeout: 1 });
    await testDatabase.drop();
  });

  it("answers every query with its own result when two connections serve fifty callers", async () => {
    const callers = 50;
    const perCaller = 200;
    const wrong: string[] = [];
    await Promise.all(
      Array.from({ length: callers }, async (_, caller) => {
        for (let i = 0; i < perCaller; i++) {
          const value = caller * perCaller + i;
          const [row] = await sql<{ n: number }[]>`select ${value}::int as n`;
          if (row?.n !== value) wrong.push(`${value} -> ${row?.n}`);
        }
      }),
    );
    expect(wrong).toEqual([]);
  });
});
