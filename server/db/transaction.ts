/**
 * The transaction helper: every multi-statement write goes through it, so limits and
 * uniqueness hold under concurrency (SPEC §5 limits). Serialization failures and
 * deadlocks are retried a few times with jitter; other errors propagate unchanged and
 * nothing is half-written.
 */
import type { Sql, TransactionSql } from "./connection.js";

export type IsolationLevel = "read committed" | "repeatable read" | "serializable";

export interface TransactionOptions {
  isolation?: IsolationLevel;
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
  const begin = options.isolation ? `isolation level ${options.isolation}` : "";
  for (let attempt = 0; ; attempt++) {
    try {
      return (await sql.begin(begin, (tx) => work(tx as TransactionSql))) as T;
    } catch (error) {
      const code = postgresErrorCode(error);
      if (attempt >= retries || code === undefined || !RETRYABLE.has(code)) throw error;
      await pause(attempt);
    }
  }
}
