/**
 * The shapes authd answers with, as they arrive over JSON: dates are ISO strings.
 * They follow docs/http-api.md; fields the server may add later are not listed.
 */

export interface User {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  image: string | null;
  createdAt: string;
  updatedAt: string;
  role: string | null;
  banned: boolean | null;
  banReason: string | null;
  banExpires: string | null;
}

export interface Session {
  id: string;
  /** The session id again: a handle for revoke-session, never the cookie's secret. */
  token: string;
  userId: string;
  expiresAt: string;
  createdAt: string;
  updatedAt: string;
  ipAddress: string | null;
  userAgent: string | null;
  activeOrganizationId: string | null;
  activeTeamId: string | null;
  impersonatedBy: string | null;
}

export interface SessionData {
  session: Session;
  user: User;
}

export interface Account {
  id: string;
  provider: string;
  providerId: string;
  accountId: string;
  userId: string;
  createdAt: string;
  updatedAt: string;
  scopes: string[];
}

export interface SocialProvider {
  id: string;
  name: string;
}

export interface Organization {
  id: string;
  name: string;
  slug: string;
  logo: string | null;
  metadata: Record<string, unknown> | null;
  createdAt: string;
}

export interface MemberUser {
  id: string;
  name: string;
  email: string;
  image: string | null;
}

export interface Member {
  id: string;
  organizationId: string;
  userId: string;
  role: string;
  createdAt: string;
}

export interface MemberWithUser extends Member {
  user: MemberUser;
}

export type InvitationStatus = "pending" | "accepted" | "rejected" | "canceled";

export interface Invitation {
  id: string;
  organizationId: string;
  email: string;
  role: string;
  status: InvitationStatus;
  /** Null, one team id, or several joined by commas. */
  teamId: string | null;
  inviterId: string;
  expiresAt: string;
  createdAt: string;
}

export interface Team {
  id: string;
  name: string;
  organizationId: string;
  createdAt: string;
  updatedAt: string | null;
}

export interface TeamMember {
  id: string;
  teamId: string;
  userId: string;
  createdAt: string;
}

export interface FullOrganization extends Organization {
  members: MemberWithUser[];
  membersTotal: number;
  invitations: Invitation[];
  /** Null when teams are switched off on the server. */
  teams: Team[] | null;
}

export interface SignUpAnswer {
  /** Null when no session was issued (auto sign-in off, or verification required). */
  token: string | null;
  /**
   * For an address that already has an account while no session would be issued, a
   * look-alike of a new user (fresh id), so that addresses cannot be probed.
   */
  user: User;
}

export interface VerifyEmailAnswer {
  status: boolean;
  user: User;
  /** Present when the verified sign-up came from an invitation and accepted it. */
  invitation?: Invitation;
  member?: Member;
}

/** account-info: the account's user, and what its provider says about them now. */
export interface AccountInfo {
  user: {
    id: string;
    name: string;
    email: string;
    image: string | null;
    emailVerified: boolean;
  };
  /** The provider's own fields about the user; empty for the credential account. */
  data: Record<string, unknown>;
  account: { id: string; providerId: string; accountId: string };
}

/** A page of list-members: never cut silently, `total` counts every member. */
export interface MembersPage {
  members: MemberWithUser[];
  total: number;
  limit: number;
  offset: number;
}

export interface ActiveMemberRole {
  /** One role, or several joined by commas. */
  role: string;
}

/** has-permission: `success` says whether every asked action is granted. */
export interface PermissionAnswer {
  error: null;
  success: boolean;
}

export interface SignInAnswer {
  redirect: boolean;
  token: string | null;
  url?: string;
  user: User;
}

export interface SocialSignInAnswer {
  url?: string;
  redirect: boolean;
  /** Present when an id token signed the user in without a redirect. */
  token?: string;
  user?: User;
}

export interface StatusAnswer {
  status: boolean;
}

export interface SuccessAnswer {
  success: boolean;
}

export interface MessageAnswer {
  message: string;
}
