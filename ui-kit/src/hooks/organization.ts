/**
 * Organization hooks: each answer is shared by every component that shows it and
 * refetched when an action changes it (see `QUERY_KEYS`).
 */
import { useAuthContext } from "../auth-context.js";
import type {
  FullOrganization,
  Invitation,
  MemberWithUser,
  Organization,
  Team,
} from "../client/types.js";
import { type QueryResult, useQuery } from "./use-query.js";
import { useSession } from "./use-session.js";

/** The cache keys' prefixes, for actions to say what they changed. */
export const QUERY_KEYS = {
  organizations: "organizations|",
  fullOrganization: "full-organization|",
  activeMember: "active-member|",
  invitation: "invitation|",
  userInvitations: "user-invitations|",
  teams: "teams|",
  sessions: "sessions|",
  accounts: "accounts|",
  socialProviders: "social-providers|",
  /** The members of one team (list-team-members), by team id. */
  teamMembers: "team-members|",
  /** What the signed-in member may do (has-permission); under activeMember, so role changes refresh it. */
  permission: "active-member|permission|",
} as const;

/**
 * What a hook answers before it may ask (the session is not known yet) or when it need
 * not. A session refetch with a known answer is not "pending" here, so nothing flickers.
 */
function idle<T>(pending: boolean, data: T | undefined): QueryResult<T> {
  return { data, error: null, isPending: pending, refetch: () => Promise.resolve() };
}

function sessionUnknown(session: { isPending: boolean; data: unknown }): boolean {
  return session.isPending && session.data === null;
}

/** The organizations the signed-in user is a member of. */
export function useListOrganizations(
  options: { enabled?: boolean } = {},
): QueryResult<Organization[]> {
  const { client } = useAuthContext();
  const session = useSession();
  const userId = session.data?.user.id ?? null;
  // A screen that does not show them (enabled: false) asks nothing.
  const asks = Boolean(userId) && options.enabled !== false;
  const result = useQuery(asks ? `${QUERY_KEYS.organizations}${userId}` : null, () =>
    client.organization.list(),
  );
  return asks ? result : idle<never>(sessionUnknown(session), undefined);
}

/** The session's active organization with its members, invitations and teams; null when none is active. */
export function useActiveOrganization(): QueryResult<FullOrganization | null> {
  const { client } = useAuthContext();
  const session = useSession();
  const organizationId = session.data?.session.activeOrganizationId ?? null;
  const key = organizationId && `${QUERY_KEYS.fullOrganization}${organizationId}`;
  const result = useQuery(key, () =>
    client.organization.getFullOrganization({ organizationId: organizationId ?? undefined }),
  );
  return organizationId
    ? result
    : idle(sessionUnknown(session), sessionUnknown(session) ? undefined : null);
}

/** The signed-in user's membership (with role) in the active organization; null when none is active. */
export function useActiveMember(): QueryResult<MemberWithUser | null> {
  const { client } = useAuthContext();
  const session = useSession();
  const organizationId = session.data?.session.activeOrganizationId ?? null;
  const key = organizationId && `${QUERY_KEYS.activeMember}${organizationId}`;
  const result = useQuery(key, () => client.organization.getActiveMember());
  return organizationId
    ? result
    : idle(sessionUnknown(session), sessionUnknown(session) ? undefined : null);
}

export type InvitationDetails = Invitation & {
  organizationName: string;
  organizationSlug: string;
  inviterEmail: string;
};

/** One invitation addressed to the signed-in user, with its organization's name. */
export function useInvitation(
  invitationId: string | null | undefined,
): QueryResult<InvitationDetails> {
  const { client } = useAuthContext();
  const session = useSession();
  const signedIn = Boolean(session.data);
  const key = invitationId && signedIn ? `${QUERY_KEYS.invitation}${invitationId}` : null;
  const result = useQuery(key, () => client.organization.getInvitation({ id: invitationId ?? "" }));
  return key ? result : idle<never>(sessionUnknown(session), undefined);
}

/** The teams of an organization (the active one by default). */
export function useTeams(organizationId?: string | null): QueryResult<Team[]> {
  const { client } = useAuthContext();
  const session = useSession();
  const id = organizationId ?? session.data?.session.activeOrganizationId ?? null;
  const result = useQuery(id && `${QUERY_KEYS.teams}${id}`, () =>
    client.organization.listTeams({ organizationId: id ?? undefined }),
  );
  return id ? result : idle<never>(sessionUnknown(session), undefined);
}
