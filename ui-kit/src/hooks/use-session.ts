import { useSyncExternalStore } from "react";
import { useAuthContext } from "../auth-context.js";
import type { AuthError } from "../client/request.js";
import type { SessionState } from "../client/session-store.js";
import type { SessionData } from "../client/types.js";

export interface UseSessionResult {
  /** The signed-in session and user, null when signed out. */
  data: SessionData | null;
  error: AuthError | null;
  isPending: boolean;
  refetch: () => Promise<unknown>;
}

/**
 * The signed-in session, shared by every component through the client's session
 * store. With `initialSession` on the provider, the first render (also on the
 * server) already shows it.
 */
export function useSession(): UseSessionResult {
  const { client, initialSession } = useAuthContext();
  const store = client.session;
  const state: SessionState = useSyncExternalStore(
    store.subscribe,
    store.getSnapshot,
    store.getServerSnapshot,
  );
  // Only until the store's first answer (its state is then a new object): a later
  // refetch while signed out must not bring back the session the page started with.
  if (state === store.getServerSnapshot() && initialSession !== undefined) {
    return { data: initialSession, error: null, isPending: false, refetch: store.refetch };
  }
  return {
    data: state.data,
    error: state.error,
    isPending: state.isPending,
    refetch: store.refetch,
  };
}
