/**
 * Organizations: create, update, delete, set-active, check-slug and the reads of them,
 * with the configured hooks around creation and deletion. The organization limit is
 * checked inside a transaction that locks the user row, so it holds under concurrency.
 * Members are in members.ts; no Fastify here.
 */
import { type Actor, type AuditActor, auditActorOf, type UserActor } from "../actor.js";
import { auditEventRow, recordAuditEvent, recordAuditEventsStep } from "../audit/audit.js";
import type { AuthdConfig } from "../config.js";
import { generateId } from "../crypto/random.js";
import type { Queryable, Sql } from "../db/connection.js";
import { isUniqueViolation, transaction } from "../db/transaction.js";
import { AuthError } from "../errors.js";
import type { SessionRow } from "../sessions/queries.js";
import {
  activateOrganizationsStep,
  clearActiveOrganizationOfSession,
  setActiveOrganizationOfSession,
} from "../sessions/sessions.js";
import type { UserRow } from "../users/queries.js";
import { isPlatformAdmin } from "../users/roles.js";
import { findUserById, lockUser } from "../users/users.js";
import { accessOrganization, type OrganizationSelector, organizationOfActor } from "./access.js";
import type { AnswerCache } from "./answer-cache.js";
import type { OrganizationDeps } from "./deps.js";
import { requireOrganizationFields, requireStorableMetadata } from "./fields.js";
import { countOrganizationsOfUser, type MemberRow } from "./member-queries.js";
import {
  batchedOrganizationCreations,
  type CreationSteps,
  deleteOrganizationRow,
  findOrganizationById,
  findOrganizationBySlug,
  findOrganizationListJson,
  insertOrganizationsWithOwners,
  listAllOrganizations,
  listOrganizationsOfUser,
  type OrganizationCreations,
  type OrganizationRow,
  updateOrganizationRow,
} from "./queries.js";

/**
 * What other domains and the commands use of organizations, all from this module: the
 * membership rules, the data rules, the ports and the reads, locks and writes they run
 * inside their own transactions.
 */
export type { OrganizationDeps, TeamsOfOrganizations } from "./deps.js";
export {
  metadataProblem,
  ORGANIZATION_SLUG_PATTERN,
  requireOrganizationFields,
} from "./fields.js";
export {
  ACTIVE_MEMBERSHIP_OF_CALLER,
  type ActiveMembership,
  activeMembershipOf,
  addMemberStep,
  countMembers,
  findActiveMembership,
  findMember,
  findMemberByEmail,
  findMemberIds,
  insertMember,
  insertMembers,
  insertMigratedMembers,
  listMembersOfOrganizations,
  listMembersPage,
  updateMemberRoleRow,
} from "./member-queries.js";
export {
  addMember,
  leaveOrganization,
  listAllMembers,
  memberResponse,
  memberWithUserResponse,
  removeMember,
  updateMemberRole,
} from "./members.js";
export {
  findOrganizationIds,
  findOrganizationsBySlugs,
  insertMigratedOrganizations,
  insertOrganization,
  lockOrganization,
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
    if (actor.kind === "user" && !isPlatformAdmin(actor.user, deps.config)) {
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
  return createOrganizationFor(
    deps,
    owner,
    input,
    Object.assign(auditActorOf(actor), {
      activeForSession: makeActive && session ? session.id : null,
    }),
  );
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
        return { organization: inserted.organization, member: inserted.member, teamId: null };
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

/** An audit event about the organization itself: it is both the target and the scope. */
async function recordOrganizationEvent(
  sql: Queryable,
  action: string,
  who: AuditActor,
  organization: OrganizationRow,
  details: unknown,
): Promise<void> {
  await recordAuditEvent(sql, {
    action,
    ...who,
    targetType: "organization",
    targetId: organization.id,
    organizationId: organization.id,
    details,
  });
}

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
      await recordOrganizationEvent(tx, "organization.updated", who, organization, {
        fields: Object.entries(data)
          .filter(([, value]) => value !== undefined)
          .map(([key]) => key),
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
  // The row and its audit event land together; a deadlock with a writer of the same
  // organization's rows is retried rather than answered as a failure.
  const deleted = await transaction(sql, async (tx) => {
    const row = await deleteOrganizationRow(tx, organization.id);
    if (!row) throw new AuthError("ORGANIZATION_NOT_FOUND");
    await recordOrganizationEvent(tx, "organization.deleted", who, organization, {
      slug: organization.slug,
      name: organization.name,
    });
    return row;
  });
  await runHook(config.organization.hooks?.afterDeleteOrganization, {
    organization: deleted,
    user,
  });
  return deleted;
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
      // A transaction of its own, so that a deadlock is retried: the update locks the
      // session and then the organization (its foreign key's check), while deleting the
      // organization or one of its people locks them the other way round.
      await transaction(sql, (tx) =>
        setActiveOrganizationOfSession(tx, session.id, organization.id),
      );
    }
    return organization;
  } catch (error) {
    if (error instanceof AuthError && error.code === "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION") {
      // The refusal clears the active organization; one already clear is not written again.
      await clearActiveOrganizationOfSession(sql, session.id);
      throw new AuthError("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION", { status: 403 });
    }
    throw error;
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
