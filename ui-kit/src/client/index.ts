export type {
  AuthClient,
  AuthClientOptions,
  IdTokenInput,
  ListMembersQuery,
  OrganizationSelector,
  Permissions,
  SocialSignInInput,
} from "./client.js";
export { createAuthClient, SESSION_REFRESH_DELAY_MS } from "./client.js";
export type { AuthError, FetchLike, Result, RetryOptions } from "./request.js";
export type { SessionState, SessionStore } from "./session-store.js";
export type * from "./types.js";
