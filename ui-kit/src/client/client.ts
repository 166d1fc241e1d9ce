/**
 * createAuthClient: typed calls to authd's HTTP API for the React kit. Every call
 * answers `{data, error}`; calls that change who is signed in, or the session's active
 * organization or team, refresh `session`.
 */
import {
  type FetchLike,
  type RequestOptions,
  type Result,
  type RetryOptions,
  request,
  type Transport,
} from "./request.js";
import { createSessionStore, type SessionStore } from "./session-store.js";
import type {
  Account,
  AccountInfo,
  ActiveMemberRole,
  FullOrganization,
  Invitation,
  Member,
  MembersPage,
  MemberWithUser,
  MessageAnswer,
  Organization,
  PermissionAnswer,
  SessionData,
  SignInAnswer,
  SignUpAnswer,
  SocialProvider,
  SocialSignInAnswer,
  StatusAnswer,
  SuccessAnswer,
  Team,
  TeamMember,
  User,
  VerifyEmailAnswer,
} from "./types.js";

export interface AuthClientOptions {
  /** Where authd is served, e.g. `https://auth.example.com`. */
  baseURL: string;
  basePath?: string;
  /** Defaults to the global fetch, looked up at call time. */
  fetch?: FetchLike;
  retry?: RetryOptions;
  /** Called with `url` when an answer says `redirect: true`. */
  onRedirect?: (url: string) => void;
}

/** How long after a session-changing call the session is asked for again. */
export const SESSION_REFRESH_DELAY_MS = 10;

type Query = RequestOptions["query"];

/**
 * Which organization a call is about; without either, the session's active one. Types,
 * not interfaces, so that they fit a query's record.
 */
export type OrganizationSelector = {
  organizationId?: string;
  organizationSlug?: string;
};

export type ListMembersQuery = OrganizationSelector & {
  /** At most 1000; the server's default is the membership limit, else 100. */
  limit?: number;
  offset?: number;
  sortBy?: "createdAt" | "name" | "email" | "role";
  sortDirection?: "asc" | "desc";
  /** Matches names and addresses. */
  search?: string;
  /** Only members holding this role. */
  role?: string;
  /** The older form of `role`: `filterField: "role"` with `filterValue`. */
  filterField?: "role";
  filterValue?: string;
};

/** Actions by resource, e.g. `{ member: ["create"], invitation: ["cancel"] }`. */
export type Permissions = Record<string, string[]>;

export interface IdTokenInput {
  token: string;
  nonce?: string;
  accessToken?: string;
  refreshToken?: string;
  expiresAt?: number;
}

export interface SocialSignInInput {
  provider: string;
  callbackURL?: string;
  newUserCallbackURL?: string;
  errorCallbackURL?: string;
  disableRedirect?: boolean;
  scopes?: string[];
  requestSignUp?: boolean;
  loginHint?: string;
  idToken?: IdTokenInput;
}

/** Only what a redirect needs of a browser's window, so no DOM types are required. */
type Navigable = { location: { href: string } };

function defaultRedirect(url: string): void {
  // Looked up per call, so that importing the kit on a server touches no window.
  const { window } = globalThis as { window?: Navigable };
  if (window) window.location.href = url;
}

function hasRedirect(data: unknown): data is { url: string; redirect: true } {
  return (
    typeof data === "object" &&
    data !== null &&
    (data as { redirect?: unknown }).redirect === true &&
    typeof (data as { url?: unknown }).url === "string"
  );
}

export function createAuthClient(options: AuthClientOptions) {
  const basePath = options.basePath ?? "/api/auth";
  const transport: Transport = {
    url: `${options.baseURL.replace(/\/+$/, "")}${basePath}`,
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    retry: options.retry,
  };
  const onRedirect = options.onRedirect ?? defaultRedirect;

  // A refresh is bound late: the store needs `get`, and calls need the store.
  let session: SessionStore;

  const call = async <T>(
    path: string,
    requestOptions: RequestOptions,
    refreshesSession = false,
  ): Promise<Result<T>> => {
    const result = await request<T>(transport, path, requestOptions);
    if (result.error) return result;
    if (refreshesSession) session.scheduleRefetch(SESSION_REFRESH_DELAY_MS);
    if (hasRedirect(result.data)) onRedirect(result.data.url);
    return result;
  };
  const get = <T>(path: string, query?: Query, refreshesSession = false) =>
    call<T>(path, { method: "GET", query }, refreshesSession);
  const post = <T>(path: string, body: object = {}, refreshesSession = false) =>
    call<T>(path, { method: "POST", body }, refreshesSession);

  const getSession = (query?: { disableCookieCache?: boolean; disableRefresh?: boolean }) =>
    get<SessionData | null>("/get-session", query);
  session = createSessionStore(() => getSession());

  return {
    session,
    getSession,

    signIn: {
      email: (body: {
        email: string;
        password: string;
        callbackURL?: string;
        rememberMe?: boolean;
      }) => post<SignInAnswer>("/sign-in/email", body, true),
      social: (body: SocialSignInInput) => post<SocialSignInAnswer>("/sign-in/social", body, true),
    },
    signUp: {
      email: (body: {
        name: string;
        email: string;
        password: string;
        image?: string;
        callbackURL?: string;
        rememberMe?: boolean;
        invitationId?: string;
      }) => post<SignUpAnswer>("/sign-up/email", body, true),
    },
    signOut: () => post<SuccessAnswer>("/sign-out", {}, true),

    forgetPassword: (body: { email: string; redirectTo?: string }) =>
      post<{ status: boolean; message: string }>("/forget-password", body),
    requestPasswordReset: (body: { email: string; redirectTo?: string }) =>
      post<{ status: boolean; message: string }>("/request-password-reset", body),
    resetPassword: (body: { newPassword: string; token?: string }) =>
      post<StatusAnswer>("/reset-password", body),
    sendVerificationEmail: (body: { email: string; callbackURL?: string }) =>
      post<StatusAnswer>("/send-verification-email", body),
    verifyEmail: (query: { token: string; callbackURL?: string }) =>
      get<VerifyEmailAnswer>("/verify-email", query, true),

    updateUser: (body: { name?: string; image?: string | null }) =>
      post<StatusAnswer>("/update-user", body, true),
    changeEmail: (body: { newEmail: string; callbackURL?: string }) =>
      post<StatusAnswer>("/change-email", body),
    changePassword: (body: {
      newPassword: string;
      currentPassword: string;
      revokeOtherSessions?: boolean;
    }) => post<{ token: string | null; user: User }>("/change-password", body, true),
    deleteUser: (body: { password?: string; token?: string; callbackURL?: string } = {}) =>
      post<{ success: boolean; message: string }>("/delete-user", body, true),

    listSessions: () => get<SessionData["session"][]>("/list-sessions"),
    revokeSession: (body: { token: string }) => post<StatusAnswer>("/revoke-session", body, true),
    revokeSessions: () => post<StatusAnswer>("/revoke-sessions", {}, true),
    revokeOtherSessions: () => post<StatusAnswer>("/revoke-other-sessions"),

    listAccounts: () => get<Account[]>("/list-accounts"),
    accountInfo: (body: { accountId: string }) => post<AccountInfo>("/account-info", body),
    linkSocial: (body: Omit<SocialSignInInput, "newUserCallbackURL" | "loginHint">) =>
      post<SocialSignInAnswer>("/link-social", body),
    unlinkAccount: (body: { providerId: string; accountId?: string } | { accountId: string }) =>
      post<StatusAnswer>("/unlink-account", body),
    socialProviders: () => get<SocialProvider[]>("/social-providers"),

    organization: {
      create: (body: {
        name: string;
        slug: string;
        logo?: string;
        metadata?: Record<string, unknown>;
        keepCurrentActiveOrganization?: boolean;
      }) => post<Organization & { members: Member[] }>("/organization/create", body, true),
      list: () => get<Organization[]>("/organization/list"),
      setActive: (body: { organizationId?: string | null; organizationSlug?: string }) =>
        post<Organization | null>("/organization/set-active", body, true),
      getOrganization: (query?: OrganizationSelector) =>
        get<Organization | null>("/organization/get-organization", query),
      getFullOrganization: (query?: {
        organizationId?: string;
        organizationSlug?: string;
        membersLimit?: number;
      }) => get<FullOrganization | null>("/organization/get-full-organization", query),
      checkSlug: (body: { slug: string }) => post<StatusAnswer>("/organization/check-slug", body),
      update: (body: {
        data: {
          name?: string;
          slug?: string;
          logo?: string | null;
          metadata?: Record<string, unknown>;
        };
        organizationId?: string;
      }) => post<Organization>("/organization/update", body),
      delete: (body: { organizationId: string }) =>
        post<Organization>("/organization/delete", body, true),
      inviteMember: (body: {
        email: string;
        role: string | string[];
        organizationId?: string;
        resend?: boolean;
        teamId?: string | string[];
        sendEmail?: boolean;
      }) => post<Invitation & { url: string }>("/organization/invite-member", body),
      cancelInvitation: (body: { invitationId: string }) =>
        post<Invitation>("/organization/cancel-invitation", body),
      acceptInvitation: (body: { invitationId: string }) =>
        post<{ invitation: Invitation; member: Member }>(
          "/organization/accept-invitation",
          body,
          true,
        ),
      rejectInvitation: (body: { invitationId: string }) =>
        post<{ invitation: Invitation; member: null }>("/organization/reject-invitation", body),
      getInvitation: (query: { id: string }) =>
        get<
          Invitation & { organizationName: string; organizationSlug: string; inviterEmail: string }
        >("/organization/get-invitation", query),
      listInvitations: (query?: { organizationId?: string; status?: string }) =>
        get<Invitation[]>("/organization/list-invitations", query),
      listUserInvitations: () =>
        get<(Invitation & { organizationName: string })[]>("/organization/list-user-invitations"),
      removeMember: (body: { memberIdOrEmail: string; organizationId?: string }) =>
        post<{ member: MemberWithUser }>("/organization/remove-member", body),
      updateMemberRole: (body: {
        memberId: string;
        role: string | string[];
        organizationId?: string;
      }) => post<Member>("/organization/update-member-role", body),
      getActiveMember: () => get<MemberWithUser>("/organization/get-active-member"),
      getActiveMemberRole: (query?: OrganizationSelector) =>
        get<ActiveMemberRole>("/organization/get-active-member-role", query),
      listMembers: (query?: ListMembersQuery) =>
        get<MembersPage>("/organization/list-members", query),
      hasPermission: (body: { permissions: Permissions; organizationId?: string }) =>
        post<PermissionAnswer>("/organization/has-permission", body),
      leave: (body: { organizationId: string }) =>
        post<MemberWithUser>("/organization/leave", body, true),

      createTeam: (body: { name: string; organizationId?: string }) =>
        post<Team>("/organization/create-team", body),
      listTeams: (query?: { organizationId?: string }) =>
        get<Team[]>("/organization/list-teams", query),
      updateTeam: (body: { teamId: string; data: { name?: string } }) =>
        post<Team>("/organization/update-team", body),
      removeTeam: (body: { teamId: string; organizationId?: string }) =>
        post<MessageAnswer>("/organization/remove-team", body),
      addTeamMember: (body: { teamId: string; userId: string; organizationId?: string }) =>
        post<TeamMember>("/organization/add-team-member", body),
      removeTeamMember: (body: { teamId: string; userId: string; organizationId?: string }) =>
        post<MessageAnswer>("/organization/remove-team-member", body),
      setActiveTeam: (body: { teamId?: string | null }) =>
        post<Team | null>("/organization/set-active-team", body, true),
      listUserTeams: (query?: { organizationId?: string; userId?: string }) =>
        get<Team[]>("/organization/list-user-teams", query),
      listTeamMembers: (query?: { teamId?: string }) =>
        get<TeamMember[]>("/organization/list-team-members", query),
    },
  };
}

export type AuthClient = ReturnType<typeof createAuthClient>;
