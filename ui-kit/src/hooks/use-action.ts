import { useCallback, useRef, useState } from "react";
import { useAuthContext } from "../auth-context.js";
import type { AuthError, Result } from "../client/request.js";

/** Answers that mean "prove it is you again", after which the action is tried once more. */
const STEP_UP_CODES = new Set(["SESSION_NOT_FRESH", "SESSION_EXPIRED"]);

export interface ActionOptions<T> {
  /** Cache key prefixes whose answers the action changes (see `QUERY_KEYS`). */
  invalidates?: readonly string[];
  onSuccess?: (data: T) => void;
}

export interface ActionState<A extends unknown[], T> {
  run: (...args: A) => Promise<Result<T>>;
  isPending: boolean;
  error: AuthError | null;
  data: T | undefined;
  reset: () => void;
}

/**
 * A call that changes something: tracks its pending state and error, refetches what
 * it changed, and when the server wants a fresh session opens the re-authentication
 * dialog and retries once the user has confirmed.
 */
export function useAction<A extends unknown[], T>(
  action: (...args: A) => Promise<Result<T>>,
  options: ActionOptions<T> = {},
): ActionState<A, T> {
  const { cache, requestStepUp } = useAuthContext();
  const [state, setState] = useState<{
    isPending: boolean;
    error: AuthError | null;
    data: T | undefined;
  }>({ isPending: false, error: null, data: undefined });
  const latest = useRef({ action, options });
  latest.current = { action, options };

  const run = useCallback(
    async (...args: A) => {
      const { action: current, options: currentOptions } = latest.current;
      setState((previous) => ({ ...previous, isPending: true, error: null }));
      let result = await current(...args);
      if (result.error && STEP_UP_CODES.has(result.error.code) && (await requestStepUp())) {
        result = await current(...args);
      }
      if (result.error) {
        setState({ isPending: false, error: result.error, data: undefined });
        return result;
      }
      if (currentOptions.invalidates?.length) await cache.invalidate(...currentOptions.invalidates);
      setState({ isPending: false, error: null, data: result.data });
      currentOptions.onSuccess?.(result.data);
      return result;
    },
    [cache, requestStepUp],
  );
  const reset = useCallback(() => setState({ isPending: false, error: null, data: undefined }), []);
  return { run, ...state, reset };
}
