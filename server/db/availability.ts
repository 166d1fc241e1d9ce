/**
 * Whether the database is reachable, as one app sees it. An error that says the
 * database is gone (refused or dropped connections, a server shutting down or not yet
 * accepting, too many connections), confirmed by a `select 1` that fails too, marks it
 * unavailable and is logged once; from then on requests that need it are answered 503
 * at once, without waiting on connections that cannot be made, while a probe asks
 * `select 1` every 100 ms, backing off to every 500 ms. The first probe that succeeds
 * marks it available again and logs how long the outage lasted.
 */
import { clientsOf } from "./clients.js";
import { type Sql, selectOneWithin } from "./connection.js";

export interface AvailabilityLogger {
  warn(object: object, message: string): void;
  info(object: object, message: string): void;
}

export type DatabaseFailure =
  /** The database cannot be reached or refuses work: it is down or restarting. */
  | "unavailable"
  /** A statement ran past `database.statementTimeout`: the database is overloaded. */
  | "timeout";

export interface DatabaseAvailability {
  /** False from the first connection failure until a probe succeeds. */
  readonly available: boolean;
  /**
   * What a thrown error says about the database, or null when it is not a database
   * failure; an "unavailable" failure marks the database unavailable.
   */
  classify(error: unknown): DatabaseFailure | null;
  /** Whether `select 1` answers within a second (false at once while unavailable). */
  check(): Promise<boolean>;
  /** Stops probing (the app is closing). */
  close(): void;
}

/** Network errors and postgres.js's own connection errors. */
const CONNECTION_ERRORS = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
]);

/**
 * SQLSTATEs of a server that is going or not there yet: admin and crash shutdown,
 * cannot connect now (starting or shutting down), too many connections.
 */
const UNAVAILABLE_STATES = new Set(["57P01", "57P02", "57P03", "53300"]);

const PROBE_FIRST_MS = 100;
const PROBE_MAX_MS = 500;
const CHECK_TIMEOUT_MS = 1000;

export function classifyDatabaseError(error: unknown): DatabaseFailure | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string") return null;
  if (CONNECTION_ERRORS.has(code) || UNAVAILABLE_STATES.has(code) || code.startsWith("08")) {
    return "unavailable";
  }
  // query_canceled: the statement timeout (authd cancels nothing else).
  if (code === "57014") return "timeout";
  return null;
}

/**
 * `select 1` on every connection of the pool, within a second: the database is there if
 * any answers (a slow answer, "SLOW", alone does not mark it down). Asking each
 * connection also clears what a dropped one left behind: postgres.js fails the first
 * statement after a reconnect with the error the server sent before closing
 * ("terminating connection"), so after a restart one stale connection must not decide.
 */
async function checkNow(sql: Sql): Promise<void> {
  try {
    await Promise.any(
      clientsOf(sql).map((client) => selectOneWithin(client, CHECK_TIMEOUT_MS, "SLOW")),
    );
  } catch (error) {
    throw error instanceof AggregateError ? error.errors[0] : error;
  }
}

function describe(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === "string" && !message.includes(code) ? `${code}: ${message}` : message;
}

export function createDatabaseAvailability(
  sql: Sql,
  logger: AvailabilityLogger,
): DatabaseAvailability {
  let available = true;
  let since = 0;
  let probeDelay = PROBE_FIRST_MS;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const recovered = () => {
    if (available) return;
    available = true;
    clearTimeout(timer);
    timer = undefined;
    logger.info(
      { outageSeconds: Math.round((performance.now() - since) / 100) / 10 },
      "database available again",
    );
  };

  const probe = () => {
    timer = undefined;
    if (closed || available) return;
    checkNow(sql).then(recovered, () => {
      if (closed || available) return;
      probeDelay = Math.min(probeDelay * 2, PROBE_MAX_MS);
      timer = setTimeout(probe, probeDelay);
      timer.unref();
    });
  };

  const unavailable = (error: unknown) => {
    if (!available || closed) return;
    available = false;
    since = performance.now();
    logger.warn(
      { reason: describe(error) },
      "database unavailable: answering 503 until it returns",
    );
    probeDelay = PROBE_FIRST_MS;
    timer = setTimeout(probe, probeDelay);
    timer.unref();
  };

  // One failed statement may be a single stale connection (one the server closed while
  // it sat idle, found out only when next used): a fresh `select 1` on each decides.
  let confirming = false;
  const confirm = (error: unknown) => {
    if (!available || closed || confirming) return;
    confirming = true;
    checkNow(sql).then(
      () => {
        confirming = false;
      },
      () => {
        confirming = false;
        unavailable(error);
      },
    );
  };

  return {
    get available() {
      return available;
    },
    classify(error) {
      const failure = classifyDatabaseError(error);
      if (failure === "unavailable") confirm(error);
      return failure;
    },
    async check() {
      if (!available) return false;
      try {
        await checkNow(sql);
        return true;
      } catch (error) {
        if (classifyDatabaseError(error) === "unavailable") unavailable(error);
        return false;
      }
    },
    close() {
      closed = true;
      clearTimeout(timer);
    },
  };
}
