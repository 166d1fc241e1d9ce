/**
 * Answers shared by every component that asks for the same thing: one request per
 * key however many consumers mount, refetched when an action says what it changed.
 * One cache per provider, so two apps (or two server renders) share nothing.
 */
import type { AuthError, Result } from "./client/request.js";

export interface QueryState<T> {
  data: T | undefined;
  error: AuthError | null;
  /** True until the first answer, and while a refetch runs. */
  isPending: boolean;
}

type Loader<T> = () => Promise<Result<T>>;

interface Entry {
  state: QueryState<unknown>;
  load: Loader<unknown>;
  listeners: Set<() => void>;
  inFlight: Promise<void> | null;
  /** The load queued behind `inFlight` by invalidations that arrived while it ran. */
  next: Promise<void> | null;
  /** Set when an action changed what this key holds while nobody listened. */
  stale: boolean;
}

export interface QueryCache {
  subscribe(key: string, load: Loader<unknown>, listener: () => void): () => void;
  getSnapshot<T>(key: string): QueryState<T>;
  /** Loads `key` again now; resolves when its state holds the answer. */
  refetch(key: string): Promise<void>;
  /** Refetches every key that starts with one of `prefixes` (listened ones now, the rest on next use). */
  invalidate(...prefixes: string[]): Promise<void>;
  /** Replaces what `key` holds without a request (an action's answer already says it). */
  set<T>(key: string, data: T): void;
}

const PENDING: QueryState<never> = Object.freeze({
  data: undefined,
  error: null,
  isPending: true,
});

export function pendingState<T>(): QueryState<T> {
  return PENDING;
}

export function createQueryCache(): QueryCache {
  const entries = new Map<string, Entry>();

  const notify = (entry: Entry) => {
    for (const listener of entry.listeners) listener();
  };

  const run = (entry: Entry): Promise<void> => {
    if (entry.inFlight) return entry.inFlight;
    entry.stale = false;
    if (!entry.state.isPending) {
      entry.state = { ...entry.state, isPending: true };
      notify(entry);
    }
    entry.inFlight = entry.load().then((result) => {
      entry.inFlight = null;
      entry.state = result.error
        ? { data: entry.state.data, error: result.error, isPending: false }
        : { data: result.data, error: null, isPending: false };
      notify(entry);
    });
    return entry.inFlight;
  };

  // An answer already on its way may have been read before the change, so an
  // invalidation loads again after it; a burst of invalidations shares that one load.
  const runAfterInFlight = (entry: Entry): Promise<void> => {
    if (!entry.inFlight) return run(entry);
    entry.next ??= entry.inFlight.then(() => {
      entry.next = null;
      return run(entry);
    });
    return entry.next;
  };

  return {
    subscribe(key, load, listener) {
      let entry = entries.get(key);
      if (!entry) {
        entry = {
          state: PENDING,
          load,
          listeners: new Set(),
          inFlight: null,
          next: null,
          stale: true,
        };
        entries.set(key, entry);
      }
      // The newest loader wins: it closes over the newest client and arguments.
      entry.load = load;
      entry.listeners.add(listener);
      if (entry.stale && !entry.inFlight) void run(entry);
      const subscribed = entry;
      return () => {
        subscribed.listeners.delete(listener);
      };
    },
    getSnapshot<T>(key: string) {
      return (entries.get(key)?.state ?? PENDING) as QueryState<T>;
    },
    refetch(key) {
      const entry = entries.get(key);
      return entry ? run(entry) : Promise.resolve();
    },
    async invalidate(...prefixes) {
      const runs: Promise<void>[] = [];
      for (const [key, entry] of entries) {
        if (!prefixes.some((prefix) => key.startsWith(prefix))) continue;
        if (entry.listeners.size > 0) runs.push(runAfterInFlight(entry));
        else entry.stale = true;
      }
      await Promise.all(runs);
    },
    set(key, data) {
      const entry = entries.get(key);
      if (!entry) return;
      entry.state = { data, error: null, isPending: false };
      entry.stale = false;
      notify(entry);
    },
  };
}
