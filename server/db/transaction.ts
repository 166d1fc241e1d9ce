/**
 * The transaction helper: every multi-statement write goes through it, so limits and
 * uniqueness hold under concurrency. Serialization failures and
 * deadlocks are retried a few times with jitter; other errors propagate unchanged and
 * nothing is half-written.
 */
import type postgres from "postgres";
import { classifyDatabaseError } from "./availability.js";
import { abandonReserved } from "./clients.js";
import type { Sql, TransactionSql } from "./connection.js";

type ReservedSql = postgres.ReservedSql<Record<string, never>>;

export type IsolationLevel = "read committed" | "repeatable read" | "serializable";

/** How an outermost transaction runs; inside another, a unit is a savepoint of it. */
export interface TransactionOptions {
  isolation?: IsolationLevel;
  /** Refuses writes (a consistent read, such as an export's snapshot). */
  readOnly?: boolean;
  /**
   * Rolls back what the work wrote once it has run, and answers its result: a dry run
   * (the CLI's `--dry-run` runs a whole command this way).
   */
  rollBack?: boolean;
  /** Attempts after the first when PostgreSQL asks for a retry (default 4). */
  retries?: number;
}

const RETRYABLE = new Set(["40001", "40P01"]);

export function postgresErrorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/** A unique index refused the write; `constraint` narrows it to one index. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  if (postgresErrorCode(error) !== "23505") return false;
  if (!constraint) return true;
  return (error as { constraint_name?: string }).constraint_name === constraint;
}

function pause(attempt: number): Promise<void> {
  // Jitter spreads the retries of transactions that collided with each other.
  const milliseconds = Math.min(200, 5 * 2 ** attempt) * (0.5 + Math.random());
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}

/**
 * Whether the connection itself failed: PostgreSQL ended the transaction with it, and
 * nothing more may be sent on it.
 */
function connectionLost(error: unknown): boolean {
  return classifyDatabaseError(error) === "unavailable";
}

interface Ended {
  /** Committed, or rolled back by PostgreSQL itself: no ROLLBACK to send. */
  transaction: boolean;
}

/**
 * Runs a transaction on a connection reserved for it, not through postgres.js's own
 * `begin`: on a failure, ROLLBACK is sent only while the connection lives, and the
 * connection goes back to the pool only while it lives (a lost one is abandoned: its
 * client reconnects at its next statement). postgres.js 3.4.9 cannot take a
 * statement on a connection it has just lost (a database restart under load): the
 * write is scheduled for a socket that is gone and throws from a timer, which ends the
 * process; and a lost connection handed back to the pool fails every later statement.
 * Its `begin` sends ROLLBACK after any failure, so it cannot avoid the first.
 */
async function onReservedConnection<T>(
  sql: Sql,
  unit: (tx: ReservedSql, ended: Ended) => Promise<T>,
): Promise<T> {
  const tx = await sql.reserve();
  const ended: Ended = { transaction: false };
  let lost = false;
  try {
    return await unit(tx, ended);
  } catch (error) {
    lost = connectionLost(error);
    if (!lost && !ended.transaction) {
      await tx`rollback`.catch((failure: unknown) => {
        lost = connectionLost(failure);
      });
    }
    throw error;
  } finally {
    if (lost) abandonReserved(tx);
    else tx.release();
  }
}

/** The reserved connection as a transaction: nested units become savepoints. */
function withSavepoints(tx: ReservedSql, ended: Ended): TransactionSql {
  let count = 0;
  const savepoint = async <T>(work: (inner: TransactionSql) => Promise<T>): Promise<T> => {
    const name = `s${count++}`;
    await tx.unsafe(`savepoint ${name}`);
    try {
      const result = await work(transactionSql);
      await tx.unsafe(`release savepoint ${name}`);
      return result;
    } catch (error) {
      if (!connectionLost(error) && !ended.transaction) {
        await tx.unsafe(`rollback to savepoint ${name}`);
      }
      throw error;
    }
  };
  const transactionSql = Object.assign(tx, { savepoint }) as unknown as TransactionSql;
  return transactionSql;
}

export async function transaction<T>(
  sql: Sql,
  work: (tx: TransactionSql) => Promise<T>,
  options: TransactionOptions = {},
): Promise<T> {
  if ("savepoint" in sql) {
    // Already inside a transaction (the CLI's --dry-run wraps the whole command in one
    // that it rolls back): nest as a savepoint, so this unit still fails or lands whole.
    const outer = sql as unknown as TransactionSql;
    return (await outer.savepoint((tx) => work(tx as TransactionSql))) as T;
  }
  const retries = options.retries ?? 4;
  // Fixed words only: the isolation level is one of three literals.
  let begin = "begin";
  if (options.isolation) begin += ` isolation level ${options.isolation}`;
  if (options.readOnly) begin += " read only";
  for (let attempt = 0; ; attempt++) {
    try {
      return await onReservedConnection(sql, async (tx, ended) => {
        await tx.unsafe(begin);
        const result = await work(withSavepoints(tx, ended));
        if (options.rollBack) await tx`rollback`;
        else await tx`commit`;
        ended.transaction = true;
        return result;
      });
    } catch (error) {
      const code = postgresErrorCode(error);
      if (attempt >= retries || code === undefined || !RETRYABLE.has(code)) throw error;
      await pause(attempt);
    }
  }
}

/** What the write step of pipelinedTransaction answers: its statements, all sent. */
export interface SentWrites<W> {
  sent: Promise<W>;
}

/**
 * A read-then-write transaction in two round trips, for hot paths (accept invitation,
 * which the benchmark measures): BEGIN goes out together with `read`'s statements, and COMMIT
 * right behind the statements `write` sends. `write` may await anything it needs (more
 * statements, a configured limit function), but when it resolves every statement of
 * the transaction must have been sent; it answers their results as `sent`, which is
 * awaited together with the COMMIT. PostgreSQL turns the COMMIT of a transaction in
 * which a statement failed into a ROLLBACK, so a failed write still lands nothing.
 *
 * Inside an outer transaction (the CLI's --dry-run) it runs as a savepoint of it, like
 * transaction(); deadlocks and serialization failures are retried the same way.
 */
export async function pipelinedTransaction<R, W>(
  sql: Sql,
  read: (tx: Sql) => Promise<R>,
  write: (tx: Sql, read: R) => Promise<SentWrites<W>>,
  options: Pick<TransactionOptions, "retries"> = {},
): Promise<W> {
  if ("savepoint" in sql) {
    return transaction(sql, async (tx) => {
      const nested = tx as unknown as Sql;
      const { sent } = await write(nested, await read(nested));
      return sent;
    });
  }
  const retries = options.retries ?? 4;
  for (let attempt = 0; ; attempt++) {
    try {
      return await pipelinedOnce(sql, read, write);
    } catch (error) {
      const code = postgresErrorCode(error);
      if (attempt >= retries || code === undefined || !RETRYABLE.has(code)) throw error;
      await pause(attempt);
    }
  }
}

async function pipelinedOnce<R, W>(
  sql: Sql,
  read: (tx: Sql) => Promise<R>,
  write: (tx: Sql, read: R) => Promise<SentWrites<W>>,
): Promise<W> {
  return onReservedConnection(sql, async (tx, ended) => {
    const reserved = tx as unknown as Sql;
    const begun = tx`begin`.execute();
    const [, readResult] = await Promise.all([begun, read(reserved)]);
    const { sent } = await write(reserved, readResult);
    const committed = tx`commit`.execute();
    const [written, commit] = await Promise.allSettled([sent, committed]);
    // Ended either way: committed, or rolled back by PostgreSQL after a failed write.
    ended.transaction = true;
    if (written.status === "rejected") throw written.reason;
    if (commit.status === "rejected") throw commit.reason;
    return written.value;
  });
}
