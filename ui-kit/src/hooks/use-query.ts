import { useCallback, useRef, useSyncExternalStore } from "react";
import { useAuthContext } from "../auth-context.js";
import type { AuthError, Result } from "../client/request.js";
import { pendingState, type QueryState } from "../query-cache.js";

export interface QueryResult<T> {
  /** Undefined until the first answer; kept while a refetch runs or after it fails. */
  data: T | undefined;
  error: AuthError | null;
  isPending: boolean;
  refetch: () => Promise<void>;
}

const NONE: QueryState<never> = Object.freeze({ data: undefined, error: null, isPending: false });
const noop = () => {};

/**
 * One shared answer per `key`: every component asking for the same key waits on one
 * request. A null key asks nothing (the hook is not needed yet, e.g. signed out).
 */
export function useQuery<T>(key: string | null, load: () => Promise<Result<T>>): QueryResult<T> {
  const { cache } = useAuthContext();
  const loadRef = useRef(load);
  loadRef.current = load;

  const subscribe = useCallback(
    (listener: () => void) =>
      key === null ? noop : cache.subscribe(key, () => loadRef.current(), listener),
    [cache, key],
  );
  const state = useSyncExternalStore(
    subscribe,
    () => (key === null ? NONE : cache.getSnapshot<T>(key)),
    () => (key === null ? NONE : pendingState<T>()),
  );
  const refetch = useCallback(
    () => (key === null ? Promise.resolve() : cache.refetch(key)),
    [cache, key],
  );
  return { data: state.data, error: state.error, isPending: state.isPending, refetch };
}
