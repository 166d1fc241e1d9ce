/**
 * Organizations and their members:
 * create, update, delete, set-active, leave, remove a member, change a member's role.
 * Limits and last-owner rules are checked inside transactions that lock the row they
 * count under, so they hold under concurrency. No Fastify here.
 */
import {
  type Actor,
  type AuditActor,
  auditActorOf,
  type OperatorActor,
  type UserActor,
} from "../actor.js";
import { auditEventRow, recordAuditEvent, recordAuditEventsStep } from "../audit/audit.js";
import type { AuthdConfig } from "../config.js";
import { generateId } from "../crypto/random.js";
import type { Queryable, Sql, TransactionSql } from "../db/connection.js";
import { isUniqueViolation, transaction } from "../db/transaction.js";
import { AuthError } from "../errors.js";
import type { SessionRow } from "../sessions/queries.js";
import {
  activateOrganizationsStep,
  clearActiveOrganizationOfUser,
  setActiveOrganizationOfSession,
} from "../sessions/sessions.js";
import type { TeamMemberRow } from "../teams/queries.js";
import type { UserRow } from "../users/queries.js";
import { findUserById, lockUser } from "../users/users.js";
import {
  accessOrganization,
  type OrganizationSelector,
  organizationOfActor,
  requirePermission,
} from "./access.js";
import type { AnswerCache } from "./answer-cache.js";
import { isCreatorRole, requireKnownRoles, splitRoles } from "./permissions.js";
import {
  batchedOrganizationCreations,
  type CreationSteps,
  countMembers,
  countMembersWithRole,
  countOrganizationsOfUser,
  deleteMemberRow,
  deleteOrganizationRow,
  findMember,
  findMemberByEmail,
  findMemberById,
  findMemberWithUser,
  findOrganizationById,
  findOrganizationBySlug,
  findOrganizationListJson,
  insertMember,
  insertOrganizationsWithOwners,
  listAllOrganizations,
  listMembersPage,
  listOrganizationsOfUser,
  lockOrganization,
  type MemberRow,
  type MemberWithUser,
  type OrganizationCreations,
  type OrganizationRow,
  updateMemberRoleRow,
  updateOrganizationRow,
} from "./queries.js";

/** The organization as clients see it. */
export function organizationResponse(organization: OrganizationRow) {
  return {
    id: organization.id,
    name: organization.name,
    slug: organization.slug,
    logo: organization.logo,
    metadata: organization.metadata,
    createdAt: organization.createdAt,
  };
}

export function memberResponse(member: MemberRow) {
  return {
    id: member.id,
    organizationId: member.organizationId,
    userId: member.userId,
    role: member.role,
    createdAt: member.createdAt,
  };
}

export function memberWithUserResponse(member: MemberWithUser) {
  return { ...memberResponse(member), user: member.user };
}

/** The membership reads, locks and writes other domains use inside their transactions. */
export {
  addMemberStep,
  countMembers,
  findMember,
  findMemberByEmail,
  findOrganizationsBySlugs,
  insertMember,
  insertMembers,
  insertOrganization,
  listMembersOfOrganizations,
  listMembersPage,
  lockOrganization,
  updateMemberRoleRow,
  updateOrganizationRow,
} from "./queries.js";

/** What a creation's statement writes beside the organization and its owner. */
const CREATION_STEPS: CreationSteps = {
  recordAudit: recordAuditEventsStep,
  activate: activateOrganizationsStep,
};

/**
 * Creations batched across concurrent callers (one statement per batch), made by
 * whoever owns the pool: buildApp for the HTTP API, a command for the CLI.
 */
export function createOrganizationCreations(sql: Sql): OrganizationCreations {
  return batchedOrganizationCreations(sql, CREATION_STEPS);
}

/**
 * What organizations need from teams, which sit above them (a team belongs to an
 * organization): given when the app or a command is built, so neither imports the
 * other both ways. Each runs inside the caller's transaction.
 */
export interface TeamsOfOrganizations {
  /** Whether a new organization gets a default team. */
  defaultTeamEnabled(config: AuthdConfig): boolean;
  /** The default team of a new organization, with its creator in it; answers its id. */
  createDefaultTeam(
    tx: TransactionSql,
    organization: OrganizationRow,
    userId: string,
  ): Promise<string>;
  /** A membership that ends takes the user's team memberships in the organization along. */
  removeFromTeams(tx: Queryable, organizationId: string, userId: string): Promise<void>;
  /**
   * Adding a member straight into a team: the team's rules are resolved now (before any
   * lock), and the answered step joins the team inside the caller's transaction.
   */
  prepareJoin(
    actor: Actor,
    organization: OrganizationRow,
    teamId: string,
    userId: string,
  ): Promise<(tx: TransactionSql) => Promise<TeamMemberRow>>;
}

export interface OrganizationDeps {
  sql: Sql;
  config: AuthdConfig;
  teams: TeamsOfOrganizations;
  /** Plain creations are batched here: the app's own, or one of the command's. */
  creations: OrganizationCreations;
}

type HookFunction = (input: Record<string, unknown>) => unknown;

/** Runs a configured hook; a before hook that throws aborts with its error. */
async function runHook(hook: unknown, input: Record<string, unknown>): Promise<unknown> {
  if (typeof hook !== "function") return undefined;
  try {
    return await (hook as HookFunction)(input);
  } catch (error) {
    if (error instanceof AuthError) throw error;
    const message = error instanceof Error && error.message ? error.message : undefined;
    throw new AuthError("ORGANIZATION_HOOK_REJECTED", message ? { message } : {});
  }
}

function isPlatformAdmin(config: AuthdConfig, user: UserRow): boolean {
  if (config.admin.adminUserIds.includes(user.id)) return true;
  return splitRoles(user.role ?? "").some((role) => config.admin.adminRoles.includes(role));
}

/** An organization limit (a number, or a function of the user) caps creation. */
async function limitReached(config: AuthdConfig, user: UserRow, owned: number): Promise<boolean> {
  const limit = config.organization.organizationLimit;
  if (limit === undefined) return false;
  if (typeof limit === "number") return owned >= limit;
  const answer = await limit(user);
  if (typeof answer === "boolean") return answer;
  if (typeof answer === "number") return owned >= answer;
  return false;
}

async function mayCreate(config: AuthdConfig, user: UserRow): Promise<boolean> {
  const allowed = config.organization.allowUserToCreateOrganization;
  return typeof allowed === "boolean" ? allowed : Boolean(await allowed(user));
}

export interface CreateOrganizationInput {
  name: string;
  slug: string;
  logo?: string | null;
  metadata?: Record<string, unknown> | null;
  /** On behalf of another user: platform admins only. The operator always names one. */
  userId?: string;
  keepCurrentActiveOrganization?: boolean;
}

/**
 * create: the slug rule and lengths, who may create (allowUserToCreateOrganization),
 * the organization limit, the hooks, the creator's membership and the default team. A
 * user creates for themselves (a platform admin for anyone) and the new organization
 * becomes their session's active one; the operator names the owner.
 */
export async function createOrganization(
  deps: OrganizationDeps,
  actor: Actor,
  input: CreateOrganizationInput,
): Promise<{ organization: OrganizationRow; member: MemberRow; teamId: string | null }> {
  requireOrganizationFields(input);
  let owner: UserRow | undefined = actor.kind === "user" ? actor.user : undefined;
  if (input.userId && input.userId !== owner?.id) {
    if (actor.kind === "user" && !isPlatformAdmin(deps.config, actor.user)) {
      throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_ORGANIZATION");
    }
    owner = await findUserById(deps.sql, input.userId);
    if (!owner) throw new AuthError("USER_NOT_FOUND");
  }
  if (!owner) throw new AuthError("USER_NOT_FOUND");
  const session = actor.kind === "user" ? actor.session : null;
  const makeActive =
    session !== null &&
    actor.kind === "user" &&
    owner.id === actor.user.id &&
    !input.keepCurrentActiveOrganization;
  return createOrganizationFor(deps, owner, input, {
    ...auditActorOf(actor),
    activeForSession: makeActive && session ? session.id : null,
  });
}

/** Who created it, for the audit trail, and the session that should switch to it. */
interface CreationContext extends AuditActor {
  activeForSession: string | null;
}

/**
 * The rules every creation follows: who may create, the organization limit, the hooks,
 * the creator's membership and the default team.
 */
async function createOrganizationFor(
  deps: OrganizationDeps,
  owner: UserRow,
  input: CreateOrganizationInput,
  context: CreationContext,
): Promise<{ organization: OrganizationRow; member: MemberRow; teamId: string | null }> {
  const { sql, config } = deps;
  if (!(await mayCreate(config, owner))) {
    throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_ORGANIZATION");
  }
  let data = {
    name: input.name,
    slug: input.slug,
    logo: input.logo ?? null,
    metadata: input.metadata ?? null,
  };
  const changed = await runHook(config.organization.hooks?.beforeCreateOrganization, {
    organization: data,
    user: owner,
  });
  if (changed && typeof changed === "object" && "data" in changed) {
    data = { ...data, ...(changed as { data: Partial<typeof data> }).data };
  }
  requireStorableMetadata(data.metadata);

  const organizationId = generateId();
  const creation = {
    organization: { id: organizationId, ...data },
    member: { id: generateId(), userId: owner.id, role: config.organization.creatorRole },
    audit: auditEventRow({
      action: "organization.created",
      actorType: context.actorType,
      actorId: context.actorId,
      targetType: "organization",
      targetId: organizationId,
      organizationId,
      ipAddress: context.ipAddress,
    }),
    activeForSession: context.activeForSession,
  };
  const withTeam = deps.teams.defaultTeamEnabled(config);
  const simple = config.organization.organizationLimit === undefined && !withTeam;
  const created = simple
    ? // Nothing to count or add: one atomic statement (shared with concurrent creates),
      // the audit row and the session's switch included.
      await deps.creations.create(creation).then((inserted) => {
        if (!inserted) throw new AuthError("ORGANIZATION_ALREADY_EXISTS");
        return { ...inserted, teamId: null };
      })
    : await transaction(sql, async (tx) => {
        if (config.organization.organizationLimit !== undefined) {
          // One creation per user at a time, so the limit cannot be overrun by a race.
          await lockUser(tx, owner.id);
          if (await limitReached(config, owner, await countOrganizationsOfUser(tx, owner.id))) {
            throw new AuthError("YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_ORGANIZATIONS");
          }
        }
        // The session switches below, once the default team exists.
        const [inserted] = await insertOrganizationsWithOwners(
          tx,
          [{ ...creation, activeForSession: null }],
          CREATION_STEPS,
        );
        if (!inserted) throw new AuthError("ORGANIZATION_ALREADY_EXISTS");
        const { organization, member } = inserted;
        let teamId: string | null = null;
        if (withTeam) teamId = await deps.teams.createDefaultTeam(tx, organization, owner.id);
        if (context.activeForSession) {
          await setActiveOrganizationOfSession(
            tx,
            context.activeForSession,
            organization.id,
            teamId,
          );
        }
        return { organization, member, teamId };
      });
  await runHook(config.organization.hooks?.afterCreateOrganization, {
    organization: created.organization,
    member: created.member,
    user: owner,
  });
  return created;
}

type OrganizationChanges = {
  name?: string;
  slug?: string;
  logo?: string | null;
  metadata?: Record<string, unknown> | null;
};

/** Applies an update, audited; a slug in use is ORGANIZATION_SLUG_ALREADY_TAKEN. */
async function applyOrganizationUpdate(
  sql: Sql,
  organization: OrganizationRow,
  data: OrganizationChanges,
  who: AuditActor,
): Promise<OrganizationRow> {
  requireStorableMetadata(data.metadata);
  try {
    return await transaction(sql, async (tx) => {
      const updated = await updateOrganizationRow(tx, organization.id, data);
      if (!updated) throw new AuthError("ORGANIZATION_NOT_FOUND");
      await recordAuditEvent(tx, {
        action: "organization.updated",
        ...who,
        targetType: "organization",
        targetId: organization.id,
        organizationId: organization.id,
        details: {
          fields: Object.entries(data)
            .filter(([, value]) => value !== undefined)
            .map(([key]) => key),
        },
      });
      return updated;
    });
  } catch (error) {
    if (isUniqueViolation(error, "organization_slug_key")) {
      throw new AuthError("ORGANIZATION_SLUG_ALREADY_TAKEN");
    }
    throw error;
  }
}

/**
 * Deletes with the hooks around it; members, invitations and teams go with it and
 * sessions lose it as active (schema cascades).
 */
async function deleteOrganizationWithHooks(
  sql: Sql,
  config: AuthdConfig,
  organization: OrganizationRow,
  who: AuditActor,
  user: UserRow | null,
): Promise<OrganizationRow> {
  await runHook(config.organization.hooks?.beforeDeleteOrganization, { organization, user });
  const deleted = await deleteOrganizationRow(sql, organization.id);
  if (!deleted) throw new AuthError("ORGANIZATION_NOT_FOUND");
  await recordAuditEvent(sql, {
    action: "organization.deleted",
    ...who,
    targetType: "organization",
    targetId: organization.id,
    organizationId: organization.id,
    details: { slug: organization.slug, name: organization.name },
  });
  await runHook(config.organization.hooks?.afterDeleteOrganization, {
    organization: deleted,
    user,
  });
  return deleted;
}

/** The last owner cannot be demoted. Runs under the organization lock. */
async function changeMemberRole(
  tx: Queryable,
  config: AuthdConfig,
  organization: OrganizationRow,
  target: MemberRow,
  newRole: string,
  who: AuditActor,
): Promise<MemberRow> {
  if (
    isCreatorRole(config, target.role) &&
    !isCreatorRole(config, newRole) &&
    (await countMembersWithRole(tx, organization.id, config.organization.creatorRole)) <= 1
  ) {
    throw new AuthError("YOU_CANNOT_LEAVE_THE_ORGANIZATION_WITHOUT_AN_OWNER");
  }
  const updated = await updateMemberRoleRow(tx, target.id, newRole);
  if (!updated) throw new AuthError("MEMBER_NOT_FOUND");
  await recordAuditEvent(tx, {
    action: "organization.member_role_changed",
    ...who,
    targetType: "user",
    targetId: target.userId,
    organizationId: organization.id,
    details: { role: newRole },
  });
  return updated;
}

/** The only owner cannot be removed. Runs under the organization lock. */
async function refuseRemovingTheOnlyOwner(
  tx: Queryable,
  config: AuthdConfig,
  organization: OrganizationRow,
  target: MemberRow,
): Promise<void> {
  if (
    isCreatorRole(config, target.role) &&
    (await countMembersWithRole(tx, organization.id, config.organization.creatorRole)) <= 1
  ) {
    throw new AuthError("YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER");
  }
}

/** Removes a member, keeping an owner. Runs under the organization lock. */
async function removeMemberKeepingAnOwner(
  tx: Queryable,
  teams: TeamsOfOrganizations,
  config: AuthdConfig,
  organization: OrganizationRow,
  target: MemberRow,
  actor: Actor,
): Promise<MemberWithUser> {
  await refuseRemovingTheOnlyOwner(tx, config, organization, target);
  const withUser = await findMemberWithUser(tx, target.id);
  if (!withUser) throw new AuthError("MEMBER_NOT_FOUND");
  await removeMembership(tx, teams, target);
  await recordAuditEvent(tx, {
    action: "organization.member_removed",
    ...auditActorOf(actor),
    targetType: "user",
    targetId: target.userId,
    organizationId: organization.id,
  });
  return withUser;
}

/** check-slug: 'slug is taken' when it exists. */
export async function checkSlug(sql: Queryable, slug: string): Promise<void> {
  if (await findOrganizationBySlug(sql, slug)) throw new AuthError("SLUG_IS_TAKEN");
}

/**
 * update: a user needs organization:update in the organization (the given one, else
 * the active one); the operator names it. For both: the slug rule and the lengths of
 * the HTTP body, a taken slug is ORGANIZATION_SLUG_ALREADY_TAKEN, only the given
 * fields change.
 */
export async function updateOrganization(
  deps: OrganizationDeps,
  actor: Actor,
  selector: OrganizationSelector,
  data: OrganizationChanges,
): Promise<OrganizationRow> {
  const { organization } = await organizationOfActor(deps.sql, deps.config, actor, selector, {
    missing: "ORGANIZATION_NOT_FOUND",
    permission: { organization: ["update"] },
    denied: "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_ORGANIZATION",
  });
  requireOrganizationFields(data);
  return applyOrganizationUpdate(deps.sql, organization, data, auditActorOf(actor));
}

/**
 * delete: refused when deletion is disabled; a user needs organization:delete. The
 * hooks run with the user (none for the operator).
 */
export async function deleteOrganization(
  deps: OrganizationDeps,
  actor: Actor,
  organizationId: string,
): Promise<OrganizationRow> {
  // Organization deletion disabled answers FORBIDDEN.
  if (deps.config.organization.disableOrganizationDeletion) {
    throw new AuthError("ORGANIZATION_DELETION_DISABLED");
  }
  const { organization } = await organizationOfActor(
    deps.sql,
    deps.config,
    // The organization is named explicitly: never the active one.
    actor.kind === "user" ? { ...actor, session: null } : actor,
    { organizationId },
    {
      permission: { organization: ["delete"] },
      denied: "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_ORGANIZATION",
    },
  );
  return deleteOrganizationWithHooks(
    deps.sql,
    deps.config,
    organization,
    auditActorOf(actor),
    actor.kind === "user" ? actor.user : null,
  );
}

/**
 * set-active: null clears; an id or slug must be one of the caller's organizations
 * (a non-member also loses any active organization). Loads no member list.
 */
export async function setActiveOrganization(
  sql: Sql,
  actor: UserActor & { session: SessionRow },
  selector: { organizationId?: string | null; organizationSlug?: string },
): Promise<OrganizationRow | null> {
  const { session } = actor;
  if (selector.organizationId === null) {
    await setActiveOrganizationOfSession(sql, session.id, null);
    return null;
  }
  if (!selector.organizationId && !selector.organizationSlug && !session.activeOrganizationId)
    return null;
  try {
    const { organization } = await accessOrganization(
      sql,
      actor.user.id,
      selector,
      session.activeOrganizationId,
      {
        notMember: "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION",
      },
    );
    if (organization.id !== session.activeOrganizationId) {
      await setActiveOrganizationOfSession(sql, session.id, organization.id);
    }
    return organization;
  } catch (error) {
    if (error instanceof AuthError && error.code === "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION") {
      await setActiveOrganizationOfSession(sql, session.id, null);
      throw new AuthError("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION", { status: 403 });
    }
    throw error;
  }
}

/** Removes a membership with everything that hangs on it, inside `tx`. */
async function removeMembership(
  tx: Queryable,
  teams: TeamsOfOrganizations,
  member: MemberRow,
): Promise<void> {
  await deleteMemberRow(tx, member.id);
  await teams.removeFromTeams(tx, member.organizationId, member.userId);
  // Leaving or being removed clears the organization as active.
  await clearActiveOrganizationOfUser(tx, member.userId, member.organizationId);
}

/** leave: the sole owner cannot leave. */
export async function leaveOrganization(
  deps: OrganizationDeps,
  actor: UserActor,
  organizationId: string,
): Promise<MemberWithUser> {
  const { config } = deps;
  return transaction(deps.sql, async (tx) => {
    const organization = await lockOrganization(tx, organizationId);
    if (!organization) throw new AuthError("ORGANIZATION_NOT_FOUND");
    const { member } = await accessOrganization(tx, actor.user.id, { organizationId }, null, {
      notMember: "MEMBER_NOT_FOUND",
    });
    const creatorRole = config.organization.creatorRole;
    if (
      isCreatorRole(config, member.role) &&
      (await countMembersWithRole(tx, organizationId, creatorRole)) <= 1
    ) {
      throw new AuthError("YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER");
    }
    const withUser = await findMemberWithUser(tx, member.id);
    await removeMembership(tx, deps.teams, member);
    if (!withUser) throw new AuthError("MEMBER_NOT_FOUND");
    return withUser;
  });
}

/**
 * remove-member: a user needs member:delete to remove someone else, only an owner
 * removes an owner; the operator is not checked. For both, the only owner cannot be
 * removed, and team memberships and active state go too. `memberIdOrEmail` with an @
 * is an email; both are looked up in this organization only.
 */
export async function removeMember(
  deps: OrganizationDeps,
  actor: Actor,
  selector: OrganizationSelector,
  memberIdOrEmail: string,
): Promise<MemberWithUser> {
  const { config } = deps;
  const { organization, member: caller } = await organizationOfActor(
    deps.sql,
    config,
    actor,
    selector,
    { notMember: "MEMBER_NOT_FOUND" },
  );
  return transaction(deps.sql, async (tx) => {
    await lockOrganization(tx, organization.id);
    const target = memberIdOrEmail.includes("@")
      ? await findMemberByEmail(tx, organization.id, memberIdOrEmail.trim().toLowerCase())
      : await findMemberById(tx, organization.id, memberIdOrEmail);
    if (!target) throw new AuthError("MEMBER_NOT_FOUND");
    if (caller && target.userId !== caller.userId) {
      requirePermission(
        config,
        caller,
        { member: ["delete"] },
        "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER",
      );
      if (isCreatorRole(config, target.role)) {
        // The only owner cannot be removed, whoever asks: that reason comes first, so an
        // admin learns it instead of a bare refusal.
        await refuseRemovingTheOnlyOwner(tx, config, organization, target);
        if (!isCreatorRole(config, caller.role)) {
          throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER");
        }
      }
    }
    return removeMemberKeepingAnOwner(tx, deps.teams, config, organization, target, actor);
  });
}

/**
 * update-member-role: a user needs member:update, and only an owner gives or takes
 * the owner role; the operator is not checked. For both, the roles must exist and the
 * last owner cannot be demoted. The member is named by member id or by user id.
 */
export async function updateMemberRole(
  deps: OrganizationDeps,
  actor: Actor,
  selector: OrganizationSelector,
  target: { memberId: string } | { userId: string },
  role: string | readonly string[],
): Promise<MemberRow> {
  const { config } = deps;
  const newRole = requireKnownRoles(config, role);
  const { organization, member: caller } = await organizationOfActor(
    deps.sql,
    config,
    actor,
    selector,
    {
      notMember: "MEMBER_NOT_FOUND",
      permission: { member: ["update"] },
      denied: "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER",
    },
  );
  return transaction(deps.sql, async (tx) => {
    await lockOrganization(tx, organization.id);
    const member =
      "memberId" in target
        ? await findMemberById(tx, organization.id, target.memberId)
        : await findMember(tx, organization.id, target.userId);
    if (!member) throw new AuthError("MEMBER_NOT_FOUND");
    const touchesOwner = isCreatorRole(config, member.role) || isCreatorRole(config, newRole);
    if (caller && touchesOwner && !isCreatorRole(config, caller.role)) {
      throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER");
    }
    return changeMemberRole(tx, config, organization, member, newRole, auditActorOf(actor));
  });
}

// --- Rules of the data every path writes (HTTP, CLI, seed, hooks) ---------------------

/** Whether `value`, a string or anything holding strings, has a NUL in a key or a value. */
function holdsNul(value: unknown): boolean {
  if (typeof value === "string") return value.includes("\u0000");
  if (Array.isArray(value)) return value.some(holdsNul);
  if (value && typeof value === "object") {
    return Object.entries(value).some(([key, inner]) => key.includes("\u0000") || holdsNul(inner));
  }
  return false;
}

/**
 * Why metadata cannot be stored, if it cannot: it is kept as jsonb, which holds no NUL
 * character, and is capped at 16 KB of JSON.
 */
export function metadataProblem(metadata: Record<string, unknown>): string | undefined {
  if (JSON.stringify(metadata).length > 16384) return "metadata is limited to 16 KB of JSON";
  if (holdsNul(metadata)) return "metadata must not contain NUL characters";
  return undefined;
}

/** Every way an organization's metadata is written checks it here (HTTP, CLI, seed, hooks). */
function requireStorableMetadata(metadata: Record<string, unknown> | null | undefined): void {
  const problem = metadata ? metadataProblem(metadata) : undefined;
  if (problem) {
    throw new AuthError("VALIDATION_ERROR", {
      message: "Invalid body parameters",
      details: [{ path: "metadata", message: problem }],
    });
  }
}

/** The slug rule (docs/http-api.md): lowercase letters and digits joined by single hyphens. */
export const ORGANIZATION_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The slug rule and the lengths of the HTTP body, for every way an organization is written. */
export function requireOrganizationFields(data: {
  name?: string;
  slug?: string;
  logo?: string | null;
}): void {
  if (data.name !== undefined && (data.name.length === 0 || data.name.length > 255)) {
    throw new AuthError("VALIDATION_ERROR", { message: "a name has 1 to 255 characters" });
  }
  if (
    data.slug !== undefined &&
    (!ORGANIZATION_SLUG_PATTERN.test(data.slug) || data.slug.length > 100)
  ) {
    throw new AuthError("VALIDATION_ERROR", {
      message: "a slug is lowercase letters and digits, joined by single hyphens",
    });
  }
  if (data.logo && data.logo.length > 2048) {
    throw new AuthError("VALIDATION_ERROR", { message: "a logo URL has at most 2048 characters" });
  }
}

// --- Reads ------------------------------------------------------------------------

/** An organization by id, else by slug (how the operator names one). */
export async function findOrganizationByIdOrSlug(
  sql: Queryable,
  idOrSlug: string,
): Promise<OrganizationRow> {
  const organization =
    (await findOrganizationById(sql, idOrSlug)) ?? (await findOrganizationBySlug(sql, idOrSlug));
  if (!organization) throw new AuthError("ORGANIZATION_NOT_FOUND");
  return organization;
}

/**
 * organization/list as JSON text. `key` (ORGANIZATION_LIST_KEY_OF_CALLER, read with the
 * session) finds a list built for exactly these organizations at these versions;
 * otherwise PostgreSQL builds it, and it is kept under the key read with it.
 */
export async function organizationListJson(
  sql: Queryable,
  lists: AnswerCache,
  userId: string,
  key: string | null,
): Promise<string> {
  if (key === null) return "[]";
  const cached = lists.get(key);
  if (cached !== undefined) return cached;
  const built = await findOrganizationListJson(sql, userId);
  if (built.key !== null) lists.set(built.key, built.body);
  return built.body;
}

/** Every organization, or those `memberUserId` belongs to (the operator's list). */
export async function listOrganizations(
  sql: Queryable,
  memberUserId?: string,
): Promise<OrganizationRow[]> {
  return memberUserId ? listOrganizationsOfUser(sql, memberUserId) : listAllOrganizations(sql);
}

/** Every member with their user, oldest first, read page by page. */
export async function listAllMembers(
  sql: Queryable,
  organization: OrganizationRow,
): Promise<MemberWithUser[]> {
  const members: MemberWithUser[] = [];
  for (;;) {
    const page = await listMembersPage(sql, organization.id, {
      limit: 1000,
      offset: members.length,
      sortBy: "createdAt",
      sortDirection: "asc",
    });
    members.push(...page.members);
    if (page.members.length === 0 || members.length >= page.total) return members;
  }
}

/** membershipLimit: a number, or a function of (user, organization). */
async function membershipLimitReached(
  tx: Queryable,
  config: AuthdConfig,
  user: UserRow,
  organization: OrganizationRow,
): Promise<boolean> {
  const setting = config.organization.membershipLimit;
  const limit = typeof setting === "number" ? setting : await setting(user, organization);
  if (typeof limit !== "number" || Number.isNaN(limit)) {
    throw new Error("organization.membershipLimit must return a number");
  }
  return (await countMembers(tx, organization.id)) >= limit;
}

/**
 * add a member directly (the operator; Better Auth offers it only to server code): the roles exist, one membership per user, the membership
 * limit. With `team` (teams enabled), the new member joins it in the same transaction
 * under add-team-member's rules (the team member limit), so a refusal adds nobody.
 */
export async function addMember(
  deps: OrganizationDeps,
  actor: OperatorActor,
  organization: OrganizationRow,
  user: UserRow,
  role: string | readonly string[],
  teamId: string | null = null,
): Promise<{ member: MemberRow; teamMember: TeamMemberRow | null }> {
  const { sql, config } = deps;
  const newRole = requireKnownRoles(config, role);
  // Without teams there is no team to name (as an invitation's teamId).
  if (teamId && !config.organization.teams.enabled) throw new AuthError("TEAM_NOT_FOUND");
  const joinTeam = teamId
    ? await deps.teams.prepareJoin(actor, organization, teamId, user.id)
    : null;
  try {
    return await transaction(sql, async (tx) => {
      const locked = await lockOrganization(tx, organization.id);
      if (!locked) throw new AuthError("ORGANIZATION_NOT_FOUND");
      if (await findMember(tx, organization.id, user.id)) {
        throw new AuthError("USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION");
      }
      if (await membershipLimitReached(tx, config, user, locked)) {
        throw new AuthError("ORGANIZATION_MEMBERSHIP_LIMIT_REACHED");
      }
      const member = await insertMember(tx, {
        id: generateId(),
        organizationId: organization.id,
        userId: user.id,
        role: newRole,
      });
      await recordAuditEvent(tx, {
        action: "organization.member_added",
        ...auditActorOf(actor),
        targetType: "user",
        targetId: user.id,
        organizationId: organization.id,
        details: teamId ? { role: newRole, teamId } : { role: newRole },
      });
      const teamMember = joinTeam ? await joinTeam(tx) : null;
      return { member, teamMember };
    });
  } catch (error) {
    if (isUniqueViolation(error, "member_organization_user_key")) {
      throw new AuthError("USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION");
    }
    throw error;
  }
}
