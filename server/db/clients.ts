/**
 * authd's connection pool: one postgres.js client of a single connection per pooled
 * connection, with statements handed to the clients in turn and a transaction leasing
 * one client for itself.
 *
 * Why not postgres.js's own pool of many connections: it moves connections between
 * internal queues that only shrink when they run empty. Under sustained load (every
 * connection busy) they never do, so each statement searched a longer array than the one
 * before and throughput fell by three quarters within seconds, and stayed down after the
 * load passed (bench/README.md, "Sustained load"). A client of one connection has at most
 * that one connection in any of its queues, and each queue runs empty at every hand-over.
 *
 * What each client still does itself: connecting and reconnecting with its backoff,
 * pipelining the statements given to it while its connection is busy, and its own
 * prepared statements. What this module adds: the turn (round robin over the clients no
 * transaction holds), the leases (a transaction waits, first come first served, while
 * every client is leased), and a new client in place of one whose connection closed.
 */
import type postgres from "postgres";

/** The pool (or one client): what statements are written against. */
export type Sql = postgres.Sql<Record<string, never>>;

type ReservedSql = postgres.ReservedSql<Record<string, never>>;

const LEASE = Symbol("authd.clientLease");
const CLIENTS = Symbol("authd.clients");
const STATS = Symbol("authd.poolStats");
const FIXED_FRAGMENTS = Symbol("authd.fixedFragments");

/**
 * Value-free fragments a pool has built, shared with its transactions: by what they
 * were built from (a column list), then by a name (its alias). A fragment holds no state
 * once built, and building one is costly on Node 20 (docs/architecture.md, "Fragments
 * are built once"). Undefined for a single client.
 */
export type FixedFragments = Map<object, Map<string, postgres.Fragment>>;

export function fixedFragmentsOf(sql: object): FixedFragments | undefined {
  return (sql as { [FIXED_FRAGMENTS]?: FixedFragments })[FIXED_FRAGMENTS];
}

/**
 * How many connections a pool has, how many transactions hold (statements between
 * transactions share the rest), and how many transactions wait for one.
 */
export interface ClientPoolStats {
  size: number;
  leased: number;
  waiting: number;
}

/** The counts of a pool made by clientPool (a single client: one connection, none known held). */
export function poolStats(sql: Sql): ClientPoolStats {
  const stats = (sql as Sql & { [STATS]?: () => ClientPoolStats })[STATS];
  return stats ? stats() : { size: 1, leased: 0, waiting: 0 };
}

interface LeasedSql extends ReservedSql {
  [LEASE]?: () => void;
  [FIXED_FRAGMENTS]?: FixedFragments;
}

/** The clients behind a pool made by clientPool, or the one client given. */
export function clientsOf(sql: Sql): readonly Sql[] {
  return (sql as Sql & { [CLIENTS]?: readonly Sql[] })[CLIENTS] ?? [sql];
}

/**
 * Ends a reserved connection's lease without handing the connection back: for a
 * connection PostgreSQL dropped, which postgres.js would otherwise put among the open
 * ones, failing every later statement. Its client is replaced when the close reaches it.
 */
export function abandonReserved(reserved: ReservedSql): void {
  (reserved as LeasedSql)[LEASE]?.();
}

export interface ClientPoolOptions {
  /** How many clients (connections). */
  size: number;
  /**
   * Milliseconds a transaction waits for its connection (a lease, then postgres.js's
   * reserve) before failing with CONNECT_TIMEOUT: a bound for a transaction that cannot
   * get one (every connection held, or one being made).
   */
  acquireTimeout: number;
}

/**
 * Opens one client of a single connection; `onclose` is postgres.js's callback for a
 * closed connection.
 */
export type OpenClient = (onclose: () => void) => Sql;

/**
 * A pool of `options.size` clients, shaped like a postgres.js pool.
 *
 * A client whose connection closes (dropped by the server, idle for too long, or failing
 * to connect) is replaced by a new one, and the old one is ended at once, failing what it
 * still held. postgres.js 3.4.9 keeps a connection's state across a reconnect, and after a
 * connection it lost it can fail the next statement with the old connection's error,
 * leave a reserve waiting for ever, or hold its writes back until the connection times
 * out. A new client starts clean.
 */
export function clientPool(open: OpenClient, options: ClientPoolOptions): Sql {
  const size = Math.max(1, options.size);
  const clients: Sql[] = [];
  let ending = false;
  const openAt = (index: number): Sql => {
    const client: Sql = open(() => {
      if (ending || clients[index] !== client) return;
      openAt(index);
      void client.end({ timeout: 0 }).catch(() => {});
    });
    clients[index] = client;
    return client;
  };
  for (let index = 0; index < size; index++) openAt(index);
  const first = clients[0] as Sql;
  const leased = clients.map(() => false);
  const waiting: Array<(index: number) => void> = [];
  let turn = 0;
  const fixedFragments: FixedFragments = new Map();

  /** The next client in turn that no transaction holds (any, when all are held). */
  function pick(): Sql {
    for (let step = 0; step < clients.length; step++) {
      const index = turn;
      turn = turn + 1 === clients.length ? 0 : turn + 1;
      if (!leased[index]) return clients[index] as Sql;
    }
    // Every client is leased: the statement waits behind one of the transactions, as
    // it would wait for a free connection in any pool.
    return clients[turn] as Sql;
  }

  /** The free client in turn, leased now; undefined when every client is leased. */
  function leaseFree(): number | undefined {
    for (let step = 0; step < clients.length; step++) {
      const index = (turn + step) % clients.length;
      if (!leased[index]) {
        leased[index] = true;
        return index;
      }
    }
    return undefined;
  }

  function giveBack(index: number): void {
    const next = waiting.shift();
    if (next) next(index);
    else leased[index] = false;
  }

  function leasedSql(reserved: LeasedSql, index: number): ReservedSql {
    let ended = false;
    const end = () => {
      if (ended) return false;
      ended = true;
      giveBack(index);
      return true;
    };
    const release = reserved.release.bind(reserved);
    reserved[LEASE] = end;
    reserved[FIXED_FRAGMENTS] = fixedFragments;
    // Made before it is assigned: V8 puts a function written straight into a property
    // assignment in the old generation, and such a closure would keep its lease's young
    // objects alive until a full collection (bench/README.md, "What fills the old generation").
    const releaseLease = () => {
      if (end()) release();
    };
    reserved.release = releaseLease;
    return reserved;
  }

  function reserve(): Promise<ReservedSql> {
    return new Promise<ReservedSql>((resolve, reject) => {
      let granted: number | undefined;
      let timedOut = false;
      const grant = (index: number) => {
        granted = index;
        (clients[index] as Sql).reserve().then(
          (reserved) => {
            // Too late: the caller has its error; the connection goes back at once.
            if (timedOut) return reserved.release();
            clearTimeout(timer);
            resolve(leasedSql(reserved as LeasedSql, index));
          },
          (error: unknown) => {
            if (timedOut) return;
            clearTimeout(timer);
            giveBack(index);
            reject(error);
          },
        );
      };
      const timer = setTimeout(() => {
        timedOut = true;
        const at = waiting.indexOf(grant);
        if (at !== -1) waiting.splice(at, 1);
        else if (granted !== undefined) giveBack(granted);
        reject(
          Object.assign(new Error(`no database connection within ${options.acquireTimeout} ms`), {
            code: "CONNECT_TIMEOUT",
          }),
        );
      }, options.acquireTimeout);
      const free = leaseFree();
      if (free === undefined) waiting.push(grant);
      else grant(free);
    });
  }

  /**
   * A lease without a time bound, for postgres.js's own `begin` on the pool (tests and
   * scripts; authd's code runs its transactions through server/db/transaction.ts).
   */
  function lease(): Promise<number> {
    const free = leaseFree();
    if (free !== undefined) return Promise.resolve(free);
    return new Promise((resolve) => waiting.push(resolve));
  }

  async function begin(...args: unknown[]): Promise<unknown> {
    const index = await lease();
    try {
      // biome-ignore lint/suspicious/noExplicitAny: begin's overloads (options or not) pass through unchanged.
      return await ((clients[index] as Sql).begin as (...a: any[]) => Promise<unknown>)(...args);
    } finally {
      giveBack(index);
    }
  }

  // A tagged template (a statement or a fragment) or a helper call goes to the client in
  // turn; a fragment made by one client may be used in another's statement.
  const pool = ((...args: unknown[]) =>
    (pick() as unknown as (...a: unknown[]) => unknown)(...args)) as unknown as Sql;
  Object.assign(pool, {
    [CLIENTS]: clients,
    [FIXED_FRAGMENTS]: fixedFragments,
    [STATS]: (): ClientPoolStats => ({
      size: clients.length,
      leased: leased.filter(Boolean).length,
      waiting: waiting.length,
    }),
    options: first.options,
    parameters: first.parameters,
    types: first.types,
    typed: first.typed,
    json: first.json,
    array: first.array,
    unsafe: (...args: Parameters<Sql["unsafe"]>) => pick().unsafe(...args),
    file: (...args: Parameters<Sql["file"]>) => pick().file(...args),
    reserve,
    begin,
    end: async (options?: Parameters<Sql["end"]>[0]) => {
      ending = true;
      await Promise.all(clients.map((client) => client.end(options)));
    },
  });
  return pool;
}
