/**
 * Where rate-limit counters live with Redis configured: in Redis, so that every instance
 * counts against the same limits, and while Redis cannot be reached, in this process's
 * memory under the same rules. An outage turns shared limits into per-process ones; it
 * never lifts them and never takes sign-in down. One line is logged when counting
 * leaves Redis and one when it comes back, however many requests or reconnection
 * attempts happen in between.
 */
import { createRequire } from "node:module";
import type { FastifyRateLimitOptions, FastifyRateLimitStoreCtor } from "@fastify/rate-limit";
import type { FastifyBaseLogger } from "fastify";
import type { Redis } from "ioredis";

/** Each Redis call is given this long: a dead Redis never holds a request up for longer. */
export const REDIS_COMMAND_TIMEOUT_MS = 250;
/** Reaching Redis, at start-up and on each reconnection attempt. */
export const REDIS_CONNECT_TIMEOUT_MS = 1000;
/**
 * While counting per process over a connection that still looks open (a Redis that
 * stopped answering rather than went away), one request at most this often tries Redis.
 */
const RETRY_OPEN_CONNECTION_MS = 2000;

interface Count {
  current: number;
  ttl: number;
}

type CountCallback = (error: Error | null, count?: Count) => void;

/** What @fastify/rate-limit's `store` option asks of a store. */
interface CounterStore {
  incr(key: string, done: CountCallback, timeWindow: number, max: number): void;
  child(routeOptions: object): CounterStore;
}

/**
 * The plugin's settings a store is made with (global ones, or a route's merged in): the
 * plugin passes them all, though its types declare none.
 */
interface StoreOptions {
  continueExceeding: boolean;
  exponentialBackoff: boolean;
  cache?: number;
}

type LocalStoreClass = new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  cache?: number,
) => CounterStore;
type RedisStoreClass = new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  redis: Redis,
  key?: string,
) => CounterStore;

// The plugin's own two stores, which it exports without types: reusing them keeps its
// Redis keys and script (so instances of other authd versions count in the same keys)
// and its bounded in-memory store.
const requireFromHere = createRequire(import.meta.url);
const LocalStore = requireFromHere("@fastify/rate-limit/store/LocalStore.js") as LocalStoreClass;
const RedisStore = requireFromHere("@fastify/rate-limit/store/RedisStore.js") as RedisStoreClass;

export interface RedisCounters {
  /** The class for @fastify/rate-limit's `store` option. */
  Store: FastifyRateLimitStoreCtor;
  /** Stops following the client's connection (the app is closing). */
  detach(): void;
}

/**
 * Counters in Redis under `namespace`, falling back to memory while Redis fails. State is
 * this app's own: another app on the same client follows the connection by itself.
 */
export function redisCountersWithFallback(
  redis: Redis,
  namespace: string,
  logger: FastifyBaseLogger,
): RedisCounters {
  let shared = true;
  let lastFailure = 0;
  let retrying = false;

  const degrade = (error: Error | null) => {
    lastFailure = Date.now();
    if (!shared) return;
    shared = false;
    logger.warn(
      { reason: error?.message ?? "no answer" },
      "rate limits: Redis unavailable, counting per process",
    );
  };
  const recover = () => {
    if (shared) return;
    shared = true;
    logger.info("rate limits: Redis reachable again, counting shared again");
  };
  // ioredis reports an error on every reconnection attempt: only the first one of an
  // outage changes anything. `ready` is the connection made again.
  const onError = (error: Error) => degrade(error);
  const onReady = () => recover();
  redis.on("error", onError);
  redis.on("ready", onReady);

  /** "redis": count there; "retry": count there and, on success, share again; else memory. */
  const route = (): "redis" | "retry" | "memory" => {
    if (shared) return "redis";
    if (
      redis.status === "ready" &&
      !retrying &&
      Date.now() - lastFailure >= RETRY_OPEN_CONNECTION_MS
    ) {
      retrying = true;
      return "retry";
    }
    return "memory";
  };

  class FallbackStore implements CounterStore {
    constructor(
      private readonly inRedis: CounterStore,
      private readonly inMemory: CounterStore,
    ) {}

    incr(key: string, done: CountCallback, timeWindow: number, max: number): void {
      const where = route();
      if (where === "memory") {
        this.inMemory.incr(key, done, timeWindow, max);
        return;
      }
      this.inRedis.incr(
        key,
        (error, count) => {
          if (where === "retry") retrying = false;
          if (error || !count) {
            degrade(error);
            // This request is counted here instead, like the ones that follow.
            this.inMemory.incr(key, done, timeWindow, max);
            return;
          }
          if (where === "retry") recover();
          done(null, count);
        },
        timeWindow,
        max,
      );
    }

    child(routeOptions: object): CounterStore {
      return new FallbackStore(this.inRedis.child(routeOptions), this.inMemory.child(routeOptions));
    }
  }

  return {
    Store: class extends FallbackStore {
      constructor(options: FastifyRateLimitOptions) {
        const { continueExceeding, exponentialBackoff, cache } = options as StoreOptions;
        super(
          new RedisStore(continueExceeding, exponentialBackoff, redis, namespace),
          new LocalStore(continueExceeding, exponentialBackoff, cache),
        );
      }
    },
    detach() {
      redis.off("error", onError);
      redis.off("ready", onReady);
    },
  };
}
