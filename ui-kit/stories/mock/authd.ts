/**
 * An in-memory authd for stories: the endpoints the kit's client calls, answered with the
 * shapes and error codes of docs/http-api.md, plus a scenario that forces one state
 * (signed in or out, a role, a failing route, a slow or never-answering route).
 */
import type {
  Account,
  Invitation,
  Member,
  MemberUser,
  Organization,
  Session,
  SocialProvider,
  Team,
  TeamMember,
  User,
} from "../../src/client/types.js";
import { type ErrorCode, errorAnswer } from "./errors.js";

/** A failing route: an error code (status from the catalogue), or the code with its own status and details. */
export type Failure =
  | ErrorCode
  | "NETWORK_ERROR"
  | { code: ErrorCode; status?: number; details?: unknown };

export type OrganizationRole = "owner" | "admin" | "member";

/** What a story's `parameters.authd` can say; everything is optional. */
export interface AuthdScenario {
  /** A session for Ada Lovelace (ada@example.com) exists; default false. */
  signedIn?: boolean;
  /** Ada's role in the active organization "Acme"; default "owner". */
  role?: OrganizationRole;
  /** Ada belongs to organizations (Acme active, Globex); default true. False: none, none active. */
  organizations?: boolean;
  /** Ada has a pending invitation to Initech; default true. False: none waits for her. */
  invitedToInitech?: boolean;
  /** Teams are switched on; default true. False: `teams` is null and team routes are 404. */
  teams?: boolean;
  /** Acme has teams Design and Platform; default true. False: it has none yet. */
  acmeTeams?: boolean;
  /** Ada's email is verified; default true. */
  emailVerified?: boolean;
  /** Ada has a password (an email-and-password account); default true. False: GitHub only. */
  hasPassword?: boolean;
  /** Ada's session is fresh; default true. False: routes that need a fresh one answer SESSION_NOT_FRESH. */
  freshSession?: boolean;
  /** The providers `/social-providers` lists (ids or `{id, name}`); default none. */
  socialProviders?: readonly (string | SocialProvider)[];
  /**
   * Routes that fail, by path: `{ "/sign-in/email": "INVALID_EMAIL_OR_PASSWORD" }`.
   * "NETWORK_ERROR" makes the request itself fail, as when the server cannot be reached.
   */
  failures?: Readonly<Record<string, Failure>>;
  /** Delay before every answer, or per path (`{ "/organization/list": 2000 }`); default 0. */
  latencyMs?: number | Readonly<Record<string, number>>;
  /** Routes that never answer: true for every POST (actions stay pending), or a list of paths. */
  pending?: boolean | readonly string[];
  /** Sign-up needs a verified address: no session, `token` null ("check your inbox"); default false. */
  emailVerificationRequired?: boolean;
}

/** A request the mock received, for play functions to check what was sent. */
export interface MockRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: Record<string, unknown>;
}

export interface MockAuthd {
  fetch: (input: string, init: RequestInit) => Promise<Response>;
  requests: MockRequest[];
  /** The requests sent to one path. */
  sent: (path: string) => MockRequest[];
  /** The password every seeded user has. */
  password: string;
}

export const BASE_URL = "https://auth.example.com";
export const PASSWORD = "correct horse battery staple";
/** The token that verify-email and reset-password accept; any other is INVALID_TOKEN. */
export const VALID_TOKEN = "valid-token";

const T0 = "2026-01-05T09:00:00.000Z";
const LATER = "2026-12-31T00:00:00.000Z";

const PROVIDER_NAMES: Readonly<Record<string, string>> = {
  github: "GitHub",
  gitlab: "GitLab",
  google: "Google",
  apple: "Apple",
  microsoft: "Microsoft",
};

/** The default roles' permissions, as server/organization/permissions.ts defines them. */
const STATEMENTS: Readonly<Record<string, readonly string[]>> = {
  organization: ["update", "delete"],
  member: ["create", "update", "delete"],
  invitation: ["create", "cancel"],
  team: ["create", "update", "delete"],
  ac: ["create", "read", "update", "delete"],
};
const ROLES: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  owner: STATEMENTS,
  admin: { ...STATEMENTS, organization: ["update"] },
  member: { ac: ["read"] },
};

/** Does one of the roles in `role` ("admin,member") grant every action asked for? */
function grants(role: string, asked: Readonly<Record<string, readonly string[]>>): boolean {
  const entries = Object.entries(asked);
  if (entries.length === 0) return false;
  return role.split(",").some((name) => {
    const statement = ROLES[name.trim()];
    return (
      statement !== undefined &&
      entries.every(([resource, actions]) =>
        actions.every((action) => statement[resource]?.includes(action)),
      )
    );
  });
}

function user(id: string, name: string, email: string, extra: Partial<User> = {}): User {
  return {
    id,
    name,
    email,
    emailVerified: true,
    image: null,
    createdAt: T0,
    updatedAt: T0,
    role: "user",
    banned: false,
    banReason: null,
    banExpires: null,
    ...extra,
  };
}

class Failed extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly details?: unknown,
    readonly status?: number,
  ) {
    super(code);
  }
}

function fail(code: ErrorCode, details?: unknown, status?: number): never {
  throw new Failed(code, details, status);
}

function wait(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** A fresh authd holding one scenario's data; every story render gets its own. */
export function createMockAuthd(scenario: AuthdScenario = {}): MockAuthd {
  const role = scenario.role ?? "owner";
  const teamsOn = scenario.teams ?? true;
  let fresh = scenario.freshSession ?? true;
  let sequence = 100;
  const nextId = (prefix: string) => `${prefix}-${++sequence}`;
  const now = () => new Date().toISOString();

  const ada = user("user-ada", "Ada Lovelace", "ada@example.com", {
    emailVerified: scenario.emailVerified ?? true,
  });
  const users: User[] = [
    ada,
    user("user-grace", "Grace Hopper", "grace@example.com"),
    user("user-alan", "Alan Turing", "alan@example.com"),
    user("user-unverified", "Una Verified", "unverified@example.com", { emailVerified: false }),
    user("user-banned", "Ben Banned", "banned@example.com", {
      banned: true,
      banReason: "Spam",
    }),
  ];
  const passwords = new Map(users.map((u) => [u.id, PASSWORD]));

  const organizations: Organization[] = [
    { id: "org-acme", name: "Acme", slug: "acme", logo: null, metadata: null, createdAt: T0 },
    { id: "org-globex", name: "Globex", slug: "globex", logo: null, metadata: null, createdAt: T0 },
    {
      id: "org-initech",
      name: "Initech",
      slug: "initech",
      logo: null,
      metadata: null,
      createdAt: T0,
    },
  ];
  const members: Member[] = [
    {
      id: "member-grace-acme",
      organizationId: "org-acme",
      userId: "user-grace",
      role: "admin",
      createdAt: T0,
    },
    {
      id: "member-alan-acme",
      organizationId: "org-acme",
      userId: "user-alan",
      role: "member",
      createdAt: T0,
    },
    {
      id: "member-grace-initech",
      organizationId: "org-initech",
      userId: "user-grace",
      role: "owner",
      createdAt: T0,
    },
  ];
  if (role !== "owner") {
    // An organization keeps an owner whatever Ada's role is.
    members[0] = { ...(members[0] as Member), role: "owner" };
  }
  if (scenario.organizations ?? true) {
    members.push(
      { id: "member-ada-acme", organizationId: "org-acme", userId: ada.id, role, createdAt: T0 },
      {
        id: "member-ada-globex",
        organizationId: "org-globex",
        userId: ada.id,
        role: "member",
        createdAt: T0,
      },
      {
        id: "member-grace-globex",
        organizationId: "org-globex",
        userId: "user-grace",
        role: "owner",
        createdAt: T0,
      },
    );
  }
  const invitations: Invitation[] = [
    {
      id: "invitation-acme-1",
      organizationId: "org-acme",
      email: "linus@example.com",
      role: "member",
      status: "pending",
      teamId: null,
      inviterId: "user-grace",
      expiresAt: LATER,
      createdAt: T0,
    },
    {
      id: "invitation-initech-ada",
      organizationId: "org-initech",
      email: ada.email,
      role: "member",
      status: "pending",
      teamId: null,
      inviterId: "user-grace",
      expiresAt: LATER,
      createdAt: T0,
    },
  ];
  if (scenario.invitedToInitech === false) {
    // Ada has no invitation waiting: the empty list.
    invitations.splice(
      invitations.findIndex((i) => i.id === "invitation-initech-ada"),
      1,
    );
  }
  const teams: Team[] = [
    {
      id: "team-design",
      name: "Design",
      organizationId: "org-acme",
      createdAt: T0,
      updatedAt: null,
    },
    {
      id: "team-platform",
      name: "Platform",
      organizationId: "org-acme",
      createdAt: T0,
      updatedAt: null,
    },
  ];
  if (scenario.acmeTeams === false) {
    // Acme has no teams yet: the empty list.
    teams.length = 0;
  }
  const teamMembers: TeamMember[] = [
    { id: "team-member-1", teamId: "team-design", userId: "user-grace", createdAt: T0 },
  ];
  if (scenario.organizations ?? true) {
    teamMembers.push({ id: "team-member-2", teamId: "team-design", userId: ada.id, createdAt: T0 });
  }
  const accounts: Account[] = [
    {
      id: "account-ada-credential",
      provider: "credential",
      providerId: "credential",
      accountId: ada.id,
      userId: ada.id,
      createdAt: T0,
      updatedAt: T0,
      scopes: [],
    },
    {
      id: "account-ada-github",
      provider: "github",
      providerId: "github",
      accountId: "4242",
      userId: ada.id,
      createdAt: T0,
      updatedAt: T0,
      scopes: ["read:user", "user:email"],
    },
  ];
  // A social-only Ada: no credential account and no password, GitHub her one way in.
  if (scenario.hasPassword === false) {
    accounts.splice(0, 1);
    passwords.delete(ada.id);
  }
  const providers: SocialProvider[] = (scenario.socialProviders ?? []).map((p) =>
    typeof p === "string" ? { id: p, name: PROVIDER_NAMES[p] ?? p } : p,
  );

  const sessionRow = (userId: string, id: string, agent: string): Session => ({
    id,
    token: id,
    userId,
    expiresAt: LATER,
    createdAt: T0,
    updatedAt: T0,
    ipAddress: "203.0.113.7",
    userAgent: agent,
    activeOrganizationId: null,
    activeTeamId: null,
    impersonatedBy: null,
  });
  const sessions: Session[] = [
    sessionRow(ada.id, "session-laptop", "Mozilla/5.0 (Macintosh) Safari/18.0"),
    sessionRow(ada.id, "session-phone", "Mozilla/5.0 (iPhone) Mobile Safari/18.0"),
  ];
  let current: Session | null = null;
  if (scenario.signedIn) {
    current = sessionRow(ada.id, "session-current", "Mozilla/5.0 (X11; Linux) Chrome/140.0");
    if (scenario.organizations ?? true) current.activeOrganizationId = "org-acme";
    sessions.unshift(current);
  }

  // Lookups and rules shared by the routes.
  const userById = (id: string) => users.find((u) => u.id === id);
  const memberUser = (id: string): MemberUser => {
    const found = userById(id);
    return {
      id,
      name: found?.name ?? "",
      email: found?.email ?? "",
      image: found?.image ?? null,
    };
  };
  const withUser = (member: Member) => ({ ...member, user: memberUser(member.userId) });
  const me = () => {
    if (!current) fail("UNAUTHORIZED");
    const found = userById(current.userId);
    if (!found) fail("UNAUTHORIZED");
    return { session: current, user: found };
  };
  const orgOf = (body: Record<string, unknown>, query: Record<string, string> = {}) => {
    const id =
      text(body.organizationId) ||
      query.organizationId ||
      (query.organizationSlug || text(body.organizationSlug)
        ? organizations.find(
            (o) => o.slug === (query.organizationSlug || text(body.organizationSlug)),
          )?.id
        : undefined) ||
      me().session.activeOrganizationId;
    if (!id) fail("NO_ACTIVE_ORGANIZATION");
    const organization = organizations.find((o) => o.id === id);
    if (!organization) fail("ORGANIZATION_NOT_FOUND");
    return organization;
  };
  const membership = (organizationId: string) => {
    const found = members.find(
      (m) => m.organizationId === organizationId && m.userId === me().user.id,
    );
    if (!found) fail("YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION");
    return found;
  };
  const requireManager = (organizationId: string, code: ErrorCode) => {
    if (membership(organizationId).role === "member") fail(code);
  };
  const organizationBySelector = (query: Record<string, string>) => {
    const { session } = me();
    if (!query.organizationId && !query.organizationSlug && !session.activeOrganizationId) {
      return null;
    }
    return orgOf({}, query);
  };
  const teamOf = (teamId: string) => {
    if (!teamsOn) fail("NOT_FOUND");
    const team = teams.find((t) => t.id === teamId);
    if (!team) fail("TEAM_NOT_FOUND");
    return team;
  };
  const invitationOf = (id: string) => {
    const invitation = invitations.find((i) => i.id === id);
    if (invitation?.status !== "pending") fail("INVITATION_NOT_FOUND");
    return invitation;
  };
  const passwordRule = (password: string) => {
    if (password.length < 8) fail("PASSWORD_TOO_SHORT", { minPasswordLength: 8 });
    if (password.length > 128) fail("PASSWORD_TOO_LONG", { maxPasswordLength: 128 });
  };
  const emailRule = (email: string) => {
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) fail("INVALID_EMAIL");
  };
  const startSession = (userId: string) => {
    const session = sessionRow(userId, nextId("session"), "Mozilla/5.0 (X11; Linux) Chrome/140.0");
    session.createdAt = now();
    sessions.unshift(session);
    current = session;
    fresh = true;
    return session;
  };
  const fullOrganization = (organization: Organization) => {
    const list = members.filter((m) => m.organizationId === organization.id).map(withUser);
    return {
      ...organization,
      members: list,
      membersTotal: list.length,
      invitations: invitations.filter(
        (i) => i.organizationId === organization.id && i.status === "pending",
      ),
      teams: teamsOn ? teams.filter((t) => t.organizationId === organization.id) : null,
    };
  };
  const invitationDetails = (invitation: Invitation) => {
    const organization = organizations.find((o) => o.id === invitation.organizationId);
    return {
      ...invitation,
      organizationName: organization?.name ?? "",
      organizationSlug: organization?.slug ?? "",
      inviterEmail: userById(invitation.inviterId)?.email ?? "",
    };
  };

  const accountInfo = (accountId: string) => {
    const { user: self } = me();
    const account = accounts.find(
      (a) => a.userId === self.id && (a.id === accountId || a.accountId === accountId),
    );
    if (!account) fail("ACCOUNT_NOT_FOUND");
    const { id, name, email, image, emailVerified } = self;
    return {
      user: { id, name, email, image, emailVerified },
      data:
        account.providerId === "credential"
          ? {}
          : { login: "ada", name: self.name, email: self.email, avatar_url: null },
      account: { id: account.id, providerId: account.providerId, accountId: account.accountId },
    };
  };

  type Handler = (body: Record<string, unknown>, query: Record<string, string>) => unknown;
  const routes: Record<string, Handler> = {
    "GET /get-session": () => (current ? { session: current, user: me().user } : null),
    "POST /sign-in/email": (body) => {
      const email = text(body.email).trim().toLowerCase();
      emailRule(email);
      const found = users.find((u) => u.email === email);
      if (!found || passwords.get(found.id) !== text(body.password)) {
        fail("INVALID_EMAIL_OR_PASSWORD");
      }
      if (found.banned) fail("BANNED_USER", { reason: found.banReason, expiresAt: null });
      if (!found.emailVerified) fail("EMAIL_NOT_VERIFIED");
      const session = startSession(found.id);
      return { redirect: false, token: session.id, user: found };
    },
    "POST /sign-in/social": (body) => {
      const provider = text(body.provider);
      if (!providers.some((p) => p.id === provider)) fail("PROVIDER_NOT_FOUND");
      return { url: `https://${provider}.example.com/authorize?state=story`, redirect: true };
    },
    "POST /sign-up/email": (body) => {
      const email = text(body.email).trim().toLowerCase();
      emailRule(email);
      passwordRule(text(body.password));
      if (users.some((u) => u.email === email)) fail("USER_ALREADY_EXISTS");
      const created = user(nextId("user"), text(body.name), email, { createdAt: now() });
      users.push(created);
      passwords.set(created.id, text(body.password));
      // Verification required: the link is mailed, no session is issued.
      if (scenario.emailVerificationRequired) {
        created.emailVerified = false;
        return { token: null, user: created };
      }
      const session = startSession(created.id);
      return { token: session.id, user: created };
    },
    "POST /sign-out": () => {
      current = null;
      return { success: true };
    },
    "POST /forget-password": () => ({
      status: true,
      message: "If this email exists in our system, check your email for the reset link",
    }),
    "POST /request-password-reset": () => ({
      status: true,
      message: "If this email exists in our system, check your email for the reset link",
    }),
    "POST /reset-password": (body, query) => {
      passwordRule(text(body.newPassword));
      if ((text(body.token) || query.token) !== VALID_TOKEN) fail("INVALID_TOKEN");
      return { status: true };
    },
    "POST /send-verification-email": (body) => {
      if (current) {
        const { user: self } = me();
        if (text(body.email).toLowerCase() !== self.email) fail("EMAIL_MISMATCH");
        if (self.emailVerified) fail("EMAIL_ALREADY_VERIFIED");
      }
      return { status: true };
    },
    "GET /verify-email": (_body, query) => {
      if (query.token !== VALID_TOKEN) fail("INVALID_TOKEN", undefined, 401);
      ada.emailVerified = true;
      return { status: true, user: current ? me().user : null };
    },
    "POST /update-user": (body) => {
      const { user: self } = me();
      if ("email" in body) fail("EMAIL_CAN_NOT_BE_UPDATED");
      if (body.name === undefined && body.image === undefined) fail("NO_FIELDS_TO_UPDATE");
      if (typeof body.name === "string") self.name = body.name;
      if (body.image !== undefined) self.image = body.image === null ? null : text(body.image);
      self.updatedAt = now();
      return { status: true };
    },
    "POST /change-email": (body) => {
      const { user: self } = me();
      const email = text(body.newEmail).trim().toLowerCase();
      emailRule(email);
      if (email === self.email) fail("EMAIL_IS_THE_SAME");
      if (users.some((u) => u.email === email)) fail("COULD_NOT_UPDATE_EMAIL");
      return { status: true };
    },
    "POST /change-password": (body) => {
      const { user: self } = me();
      if (passwords.get(self.id) !== text(body.currentPassword)) fail("INVALID_PASSWORD");
      passwordRule(text(body.newPassword));
      passwords.set(self.id, text(body.newPassword));
      if (body.revokeOtherSessions) {
        const keep = startSession(self.id);
        for (let i = sessions.length - 1; i >= 0; i--) {
          if (sessions[i]?.userId === self.id && sessions[i] !== keep) sessions.splice(i, 1);
        }
        return { token: keep.id, user: self };
      }
      return { token: null, user: self };
    },
    "POST /delete-user": (body) => {
      const { user: self } = me();
      if (body.password !== undefined && passwords.get(self.id) !== text(body.password)) {
        fail("INVALID_PASSWORD");
      }
      if (body.password === undefined && !fresh) fail("SESSION_EXPIRED");
      return { success: true, message: "Verification email sent" };
    },
    "GET /list-sessions": () => sessions.filter((s) => s.userId === me().user.id),
    "POST /revoke-session": (body) => {
      const { user: self } = me();
      const index = sessions.findIndex((s) => s.userId === self.id && s.token === text(body.token));
      if (index >= 0) {
        if (sessions[index] === current) current = null;
        sessions.splice(index, 1);
      }
      return { status: true };
    },
    "POST /revoke-sessions": () => {
      const { user: self } = me();
      for (let i = sessions.length - 1; i >= 0; i--) {
        if (sessions[i]?.userId === self.id) sessions.splice(i, 1);
      }
      current = null;
      return { status: true };
    },
    "POST /revoke-other-sessions": () => {
      const { user: self, session } = me();
      for (let i = sessions.length - 1; i >= 0; i--) {
        if (sessions[i]?.userId === self.id && sessions[i] !== session) sessions.splice(i, 1);
      }
      return { status: true };
    },
    "GET /list-accounts": () => accounts.filter((a) => a.userId === me().user.id),
    "POST /link-social": (body) => {
      me();
      const provider = text(body.provider);
      if (!providers.some((p) => p.id === provider)) fail("PROVIDER_NOT_FOUND");
      return { url: `https://${provider}.example.com/authorize?state=link`, redirect: true };
    },
    "POST /unlink-account": (body) => {
      const { user: self } = me();
      if (!fresh) fail("SESSION_NOT_FRESH");
      const mine = accounts.filter((a) => a.userId === self.id);
      const target = mine.find((a) =>
        body.providerId
          ? a.providerId === text(body.providerId) &&
            (!body.accountId || a.accountId === text(body.accountId))
          : a.id === text(body.accountId),
      );
      if (!target) fail("ACCOUNT_NOT_FOUND");
      if (mine.length === 1) fail("FAILED_TO_UNLINK_LAST_ACCOUNT");
      accounts.splice(accounts.indexOf(target), 1);
      return { status: true };
    },
    "GET /social-providers": () => providers,

    "POST /organization/create": (body) => {
      const { user: self, session } = me();
      const slug = text(body.slug);
      if (organizations.some((o) => o.slug === slug)) fail("ORGANIZATION_ALREADY_EXISTS");
      const organization: Organization = {
        id: nextId("org"),
        name: text(body.name),
        slug,
        logo: typeof body.logo === "string" ? body.logo : null,
        metadata: (body.metadata as Record<string, unknown> | undefined) ?? null,
        createdAt: now(),
      };
      organizations.push(organization);
      const member: Member = {
        id: nextId("member"),
        organizationId: organization.id,
        userId: self.id,
        role: "owner",
        createdAt: now(),
      };
      members.push(member);
      if (!body.keepCurrentActiveOrganization) session.activeOrganizationId = organization.id;
      return { ...organization, members: [member] };
    },
    "GET /organization/list": () => {
      const { user: self } = me();
      const ids = new Set(members.filter((m) => m.userId === self.id).map((m) => m.organizationId));
      return organizations.filter((o) => ids.has(o.id));
    },
    "POST /organization/set-active": (body) => {
      const { session } = me();
      if (body.organizationId === null) {
        session.activeOrganizationId = null;
        return null;
      }
      const organization = orgOf(body);
      membership(organization.id);
      session.activeOrganizationId = organization.id;
      session.activeTeamId = null;
      return organization;
    },
    "GET /organization/get-full-organization": (_body, query) => {
      const { session } = me();
      if (!query.organizationId && !query.organizationSlug && !session.activeOrganizationId) {
        return null;
      }
      const organization = orgOf({}, query);
      membership(organization.id);
      return fullOrganization(organization);
    },
    "POST /organization/check-slug": (body) => {
      me();
      if (organizations.some((o) => o.slug === text(body.slug))) fail("SLUG_IS_TAKEN");
      return { status: true };
    },
    "POST /organization/update": (body) => {
      const organization = orgOf(body);
      requireManager(organization.id, "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_ORGANIZATION");
      const data = (body.data ?? {}) as Partial<Organization>;
      if (data.slug && organizations.some((o) => o.slug === data.slug && o !== organization)) {
        fail("ORGANIZATION_SLUG_ALREADY_TAKEN");
      }
      Object.assign(organization, data);
      return organization;
    },
    "POST /organization/delete": (body) => {
      const organization = orgOf(body);
      if (membership(organization.id).role !== "owner") {
        fail("YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_ORGANIZATION");
      }
      organizations.splice(organizations.indexOf(organization), 1);
      for (const session of sessions) {
        if (session.activeOrganizationId === organization.id) session.activeOrganizationId = null;
      }
      return organization;
    },
    "POST /organization/invite-member": (body) => {
      const { user: self } = me();
      const organization = orgOf(body);
      requireManager(organization.id, "YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION");
      const email = text(body.email).trim().toLowerCase();
      emailRule(email);
      const roles = Array.isArray(body.role) ? body.role.map(text) : [text(body.role)];
      if (roles.some((r) => !["owner", "admin", "member"].includes(r))) fail("ROLE_NOT_FOUND");
      const existing = users.find((u) => u.email === email);
      if (
        existing &&
        members.some((m) => m.organizationId === organization.id && m.userId === existing.id)
      ) {
        fail("USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION");
      }
      const pendingOne = invitations.find(
        (i) => i.organizationId === organization.id && i.email === email && i.status === "pending",
      );
      if (pendingOne && !body.resend) fail("USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION");
      const teamIds = Array.isArray(body.teamId)
        ? body.teamId.map(text)
        : body.teamId
          ? [text(body.teamId)]
          : [];
      const invitation: Invitation = pendingOne ?? {
        id: nextId("invitation"),
        organizationId: organization.id,
        email,
        role: roles.join(","),
        status: "pending",
        teamId: teamIds.length ? teamIds.join(",") : null,
        inviterId: self.id,
        expiresAt: LATER,
        createdAt: now(),
      };
      if (!pendingOne) invitations.push(invitation);
      return { ...invitation, url: `${BASE_URL}/accept-invitation?id=${invitation.id}` };
    },
    "POST /organization/cancel-invitation": (body) => {
      const invitation = invitationOf(text(body.invitationId));
      requireManager(invitation.organizationId, "YOU_ARE_NOT_ALLOWED_TO_CANCEL_THIS_INVITATION");
      invitation.status = "canceled";
      return invitation;
    },
    "POST /organization/accept-invitation": (body) => {
      const { user: self, session } = me();
      const invitation = invitationOf(text(body.invitationId));
      if (invitation.email !== self.email) fail("YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION");
      invitation.status = "accepted";
      const member: Member = {
        id: nextId("member"),
        organizationId: invitation.organizationId,
        userId: self.id,
        role: invitation.role,
        createdAt: now(),
      };
      members.push(member);
      session.activeOrganizationId = invitation.organizationId;
      return { invitation, member };
    },
    "POST /organization/reject-invitation": (body) => {
      const { user: self } = me();
      const invitation = invitationOf(text(body.invitationId));
      if (invitation.email !== self.email) fail("YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION");
      invitation.status = "rejected";
      return { invitation, member: null };
    },
    "GET /organization/get-invitation": (_body, query) => {
      const { user: self } = me();
      const invitation = invitationOf(query.id ?? "");
      if (invitation.email !== self.email) fail("YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION");
      return invitationDetails(invitation);
    },
    "GET /organization/list-invitations": (_body, query) => {
      const organization = orgOf({}, query);
      membership(organization.id);
      return invitations.filter(
        (i) => i.organizationId === organization.id && (!query.status || i.status === query.status),
      );
    },
    "GET /organization/list-user-invitations": () => {
      const { user: self } = me();
      return invitations
        .filter((i) => i.email === self.email && i.status === "pending")
        .map(invitationDetails);
    },
    "POST /organization/remove-member": (body) => {
      const organization = orgOf(body);
      requireManager(organization.id, "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER");
      const key = text(body.memberIdOrEmail);
      const member = members.find(
        (m) =>
          m.organizationId === organization.id &&
          (m.id === key || userById(m.userId)?.email === key),
      );
      if (!member) fail("MEMBER_NOT_FOUND");
      members.splice(members.indexOf(member), 1);
      return { member: withUser(member) };
    },
    "POST /organization/update-member-role": (body) => {
      const organization = orgOf(body);
      requireManager(organization.id, "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER");
      const member = members.find(
        (m) => m.organizationId === organization.id && m.id === text(body.memberId),
      );
      if (!member) fail("MEMBER_NOT_FOUND");
      const roles = Array.isArray(body.role) ? body.role.map(text) : [text(body.role)];
      if (roles.some((r) => !["owner", "admin", "member"].includes(r))) fail("ROLE_NOT_FOUND");
      member.role = roles.join(",");
      return member;
    },
    "GET /organization/get-active-member": () => {
      const organization = orgOf({});
      return withUser(membership(organization.id));
    },
    "POST /organization/leave": (body) => {
      const organization = orgOf(body);
      const member = membership(organization.id);
      const owners = members.filter(
        (m) => m.organizationId === organization.id && m.role === "owner",
      );
      if (member.role === "owner" && owners.length === 1) {
        fail("YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER");
      }
      members.splice(members.indexOf(member), 1);
      const { session } = me();
      if (session.activeOrganizationId === organization.id) session.activeOrganizationId = null;
      return withUser(member);
    },
    "GET /account-info": (_body, query) => accountInfo(query.accountId ?? ""),
    "POST /account-info": (body) => accountInfo(text(body.accountId)),
    "GET /organization/get-organization": (_body, query) => {
      const organization = organizationBySelector(query);
      if (!organization) return null;
      if (!members.some((m) => m.organizationId === organization.id && m.userId === me().user.id)) {
        fail("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION", undefined, 403);
      }
      return organization;
    },
    "GET /organization/get-active-member-role": (_body, query) => {
      const organization = orgOf({}, query);
      return { role: membership(organization.id).role };
    },
    "GET /organization/list-members": (_body, query) => {
      const organization = orgOf({}, query);
      membership(organization.id);
      const search = (query.search ?? "").toLowerCase();
      const role = query.role ?? (query.filterField === "role" ? query.filterValue : undefined);
      const sortBy = query.sortBy ?? "createdAt";
      const direction = query.sortDirection === "desc" ? -1 : 1;
      const all = members
        .filter((m) => m.organizationId === organization.id)
        .map(withUser)
        .filter(
          (m) =>
            (!search ||
              m.user.name.toLowerCase().includes(search) ||
              m.user.email.toLowerCase().includes(search)) &&
            (!role || m.role.split(",").includes(role)),
        )
        .sort((a, b) => {
          const key = (m: typeof a) =>
            sortBy === "name"
              ? m.user.name
              : sortBy === "email"
                ? m.user.email
                : m[sortBy === "role" ? "role" : "createdAt"];
          return key(a) < key(b) ? -direction : key(a) > key(b) ? direction : 0;
        });
      const limit = Math.min(Number(query.limit ?? 100) || 100, 1000);
      const offset = Number(query.offset ?? 0) || 0;
      return { members: all.slice(offset, offset + limit), total: all.length, limit, offset };
    },
    "POST /organization/has-permission": (body) => {
      const organization = orgOf(body);
      const member = members.find(
        (m) => m.organizationId === organization.id && m.userId === me().user.id,
      );
      if (!member) fail("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION", undefined, 401);
      const asked = (body.permissions ?? null) as Record<string, string[]> | null;
      return { error: null, success: asked ? grants(member.role, asked) : false };
    },
    "POST /organization/set-active-team": (body) => {
      const { session, user: self } = me();
      if (body.teamId === undefined) {
        return teams.find((t) => t.id === session.activeTeamId) ?? null;
      }
      if (body.teamId === null) {
        session.activeTeamId = null;
        return null;
      }
      const team = teamOf(text(body.teamId));
      if (
        team.organizationId !== session.activeOrganizationId ||
        !teamMembers.some((m) => m.teamId === team.id && m.userId === self.id)
      ) {
        fail("USER_IS_NOT_A_MEMBER_OF_THE_TEAM", undefined, 403);
      }
      session.activeTeamId = team.id;
      return team;
    },
    "GET /organization/list-user-teams": (_body, query) => {
      const { user: self } = me();
      if (query.organizationId) membership(query.organizationId);
      const userId = query.userId ?? self.id;
      if (userId !== self.id && query.organizationId) {
        requireManager(query.organizationId, "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER");
      }
      const mine = new Set(teamMembers.filter((m) => m.userId === userId).map((m) => m.teamId));
      return teams.filter(
        (t) =>
          mine.has(t.id) && (!query.organizationId || t.organizationId === query.organizationId),
      );
    },
    "GET /organization/list-team-members": (_body, query) => {
      const { session, user: self } = me();
      const teamId = query.teamId ?? session.activeTeamId;
      if (!teamId) fail("YOU_DO_NOT_HAVE_AN_ACTIVE_TEAM");
      const team = teamOf(teamId);
      const member = members.find(
        (m) => m.organizationId === team.organizationId && m.userId === self.id,
      );
      if (!member) fail("TEAM_NOT_FOUND");
      const inTeam = teamMembers.some((m) => m.teamId === team.id && m.userId === self.id);
      if (!inTeam && !grants(member.role, { member: ["update"] })) {
        fail("USER_IS_NOT_A_MEMBER_OF_THE_TEAM");
      }
      return teamMembers.filter((m) => m.teamId === team.id);
    },
    "POST /organization/create-team": (body) => {
      if (!teamsOn) fail("NOT_FOUND");
      const organization = orgOf(body);
      requireManager(organization.id, "YOU_ARE_NOT_ALLOWED_TO_CREATE_TEAMS_IN_THIS_ORGANIZATION");
      const name = text(body.name);
      if (teams.some((t) => t.organizationId === organization.id && t.name === name)) {
        fail("TEAM_ALREADY_EXISTS");
      }
      const team: Team = {
        id: nextId("team"),
        name,
        organizationId: organization.id,
        createdAt: now(),
        updatedAt: null,
      };
      teams.push(team);
      return team;
    },
    "GET /organization/list-teams": (_body, query) => {
      if (!teamsOn) fail("NOT_FOUND");
      const organization = orgOf({}, query);
      membership(organization.id);
      return teams.filter((t) => t.organizationId === organization.id);
    },
    "POST /organization/update-team": (body) => {
      const team = teamOf(text(body.teamId));
      requireManager(team.organizationId, "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_TEAM");
      const data = (body.data ?? {}) as { name?: string };
      if (data.name) team.name = data.name;
      team.updatedAt = now();
      return team;
    },
    "POST /organization/remove-team": (body) => {
      const team = teamOf(text(body.teamId));
      requireManager(
        team.organizationId,
        "YOU_ARE_NOT_ALLOWED_TO_DELETE_TEAMS_IN_THIS_ORGANIZATION",
      );
      teams.splice(teams.indexOf(team), 1);
      return { message: "Team removed successfully." };
    },
    "POST /organization/add-team-member": (body) => {
      const team = teamOf(text(body.teamId));
      requireManager(team.organizationId, "YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_TEAM_MEMBER");
      const userId = text(body.userId);
      if (!members.some((m) => m.organizationId === team.organizationId && m.userId === userId)) {
        fail("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
      }
      const teamMember: TeamMember = {
        id: nextId("team-member"),
        teamId: team.id,
        userId,
        createdAt: now(),
      };
      teamMembers.push(teamMember);
      return teamMember;
    },
    "POST /organization/remove-team-member": (body) => {
      const team = teamOf(text(body.teamId));
      requireManager(team.organizationId, "YOU_ARE_NOT_ALLOWED_TO_REMOVE_A_TEAM_MEMBER");
      const index = teamMembers.findIndex(
        (m) => m.teamId === team.id && m.userId === text(body.userId),
      );
      if (index < 0) fail("USER_IS_NOT_A_MEMBER_OF_THE_TEAM");
      teamMembers.splice(index, 1);
      return { message: "Team member removed successfully." };
    },
  };

  const requests: MockRequest[] = [];
  const pendingAll = scenario.pending === true;
  const pendingPaths = new Set(Array.isArray(scenario.pending) ? scenario.pending : []);

  const latencyOf = (path: string) => {
    const { latencyMs } = scenario;
    if (typeof latencyMs === "number") return latencyMs;
    return latencyMs?.[path] ?? 0;
  };

  const fetch = async (input: string, init: RequestInit): Promise<Response> => {
    const url = new URL(input);
    const path = url.pathname.replace(/^\/api\/auth/, "");
    const method = (init.method ?? "GET").toUpperCase();
    const body =
      typeof init.body === "string" && init.body
        ? (JSON.parse(init.body) as Record<string, unknown>)
        : {};
    const query = Object.fromEntries(url.searchParams);
    requests.push({ method, path, query, body });

    if (pendingPaths.has(path) || (pendingAll && method === "POST")) {
      // Never answers: the screen stays in its loading state for as long as it is looked at.
      return new Promise<Response>(() => {});
    }
    const latency = latencyOf(path);
    if (latency > 0) await wait(latency);

    const failure = scenario.failures?.[path];
    if (failure === "NETWORK_ERROR") throw new TypeError("Failed to fetch");
    if (failure !== undefined) {
      const { code, details, status } =
        typeof failure === "string"
          ? { code: failure, details: undefined, status: undefined }
          : failure;
      const answer = errorAnswer(code, details, status);
      return Response.json(answer.body, { status: answer.status });
    }

    const handler = routes[`${method} ${path}`];
    if (!handler) {
      const answer = errorAnswer("NOT_FOUND");
      return Response.json(answer.body, { status: answer.status });
    }
    try {
      return Response.json(handler(body, query) ?? null);
    } catch (error) {
      if (!(error instanceof Failed)) throw error;
      const answer = errorAnswer(error.code, error.details, error.status);
      return Response.json(answer.body, { status: answer.status });
    }
  };

  return {
    fetch,
    requests,
    sent: (path) => requests.filter((r) => r.path === path),
    password: PASSWORD,
  };
}
