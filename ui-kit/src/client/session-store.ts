/**
 * The signed-in session as a tiny external store: `subscribe` and `getSnapshot`
 * fit React's useSyncExternalStore without the client importing React.
 */
import type { AuthError, Result } from "./request.js";
import type { SessionData } from "./types.js";

export interface SessionState {
  data: SessionData | null;
  error: AuthError | null;
  /** True until the first answer, and while a refetch runs. */
  isPending: boolean;
}

export interface SessionStore {
  subscribe(listener: () => void): () => void;
  /** The same object until the state changes, as useSyncExternalStore requires. */
  getSnapshot(): SessionState;
  /** What a server render shows: nothing known yet. */
  getServerSnapshot(): SessionState;
  /** Asks get-session now; resolves when the state holds its answer. */
  refetch(): Promise<SessionState>;
  /** Refetches after `delayMs`, once for a burst of calls. */
  scheduleRefetch(delayMs: number): void;
}

const INITIAL: SessionState = Object.freeze({ data: null, error: null, isPending: true });

export function createSessionStore(load: () => Promise<Result<SessionData | null>>): SessionStore {
  let state: SessionState = INITIAL;
  let loaded = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const listeners = new Set<() => void>();

  const set = (next: SessionState) => {
    state = next;
    for (const listener of listeners) listener();
  };

  const refetch = async () => {
    loaded = true;
    // Asking now serves a refetch that was scheduled for later: one request, not two.
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
    if (!state.isPending) set({ ...state, isPending: true });
    const result = await load();
    set(
      result.error
        ? { data: state.data, error: result.error, isPending: false }
        : { data: result.data, error: null, isPending: false },
    );
    return state;
  };

  return {
    subscribe(listener) {
      listeners.add(listener);
      // The first subscriber (a mounted component) starts the first load.
      if (!loaded) void refetch();
      return () => {
        listeners.delete(listener);
      };
    },
    getSnapshot: () => state,
    getServerSnapshot: () => INITIAL,
    refetch,
    scheduleRefetch(delayMs) {
      if (timer !== undefined) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = undefined;
        void refetch();
      }, delayMs);
    },
  };
}
