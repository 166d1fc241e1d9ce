/**
 * The organization endpoints: create, check-slug, update, delete, list, set-active,
 * get-organization, get-full-organization, leave, remove-member, update-member-role,
 * get-active-member, get-active-member-role, list-members, has-permission.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { UserActor } from "../actor.js";
import { AuthError } from "../errors.js";
import {
  type AuthContext,
  requireSession,
  requireSessionWith,
  userActor,
} from "../http/auth-context.js";
import { actionSchema, errorResponses, routeSchema, statusAnswer } from "../http/schemas.js";
import { fastSerializerCompiler } from "../http/serialization.js";
import { rewriteSessionCache } from "../http/session-response.js";
import type { ZodTypeProvider } from "../http/validation.js";
import { invitationSchema } from "../invitations/schemas.js";
import { teamSchema } from "../teams/schemas.js";
import { accessOrganization } from "./access.js";
import { AnswerCache } from "./answer-cache.js";
import {
  findFullOrganizationJson,
  invitingRolesOf,
  ORGANIZATION_VERSION_FOR_CALLER,
  organizationVersionOf,
} from "./full-organization.js";
import { findMemberWithUser, listMembersPage, type MemberSortField } from "./member-queries.js";
import {
  leaveOrganization,
  memberResponse,
  memberWithUserResponse,
  removeMember,
  updateMemberRole,
} from "./members.js";
import {
  checkSlug,
  createOrganization,
  deleteOrganization,
  organizationListJson,
  organizationResponse,
  setActiveOrganization,
  updateOrganization,
} from "./organization.js";
import { hasPermission } from "./permissions.js";
import { ORGANIZATION_LIST_KEY_OF_CALLER } from "./queries.js";
import {
  checkSlugBody,
  createBody,
  createdOrganizationSchema,
  deleteBody,
  fullOrganizationQuery,
  hasPermissionBody,
  leaveBody,
  listMembersQuery,
  memberSchema,
  membersPageSchema,
  memberWithUserSchema,
  organizationSchema,
  organizationShape,
  permissionAnswer,
  removeMemberBody,
  selectorQuery,
  setActiveBody,
  updateBody,
  updateMemberRoleBody,
} from "./schemas.js";

/**
 * get-full-organization: null without an organization to show. Its members, invitations
 * and teams are built by PostgreSQL (full-organization.ts) and serialized from this
 * schema by fast-json-stringify, which drops what the schema does not list.
 */
const fullOrganizationAnswer = z
  .object({
    ...organizationShape,
    members: z.array(memberWithUserSchema),
    membersTotal: z.number().int(),
    invitations: z.array(invitationSchema),
    /** null when teams are off. */
    teams: z.array(teamSchema).nullable(),
  })
  .meta({ id: "FullOrganization" })
  .nullable();

export function organizationRoutes(context: AuthContext) {
  const { config, sql } = context;
  // Built answers by the content versions they show (one cache each per app).
  const fullOrganizations = new AnswerCache(16 * 1024 * 1024);
  const organizationLists = new AnswerCache(8 * 1024 * 1024);
  const invitingRoles = invitingRolesOf(config);
  const deps = context.domains.organizations;
  return async (app: FastifyInstance): Promise<void> => {
    const typed = app.withTypeProvider<ZodTypeProvider>();
    // organization.enabled: false answers 404 for every organization route.
    app.addHook("onRequest", async (request) => {
      if (!config.organization.enabled && request.url.includes("/organization/")) {
        throw new AuthError("NOT_FOUND");
      }
    });
    const actor = async (request: Parameters<typeof requireSession>[1]) =>
      userActor(await requireSession(context, request), request);
    /**
     * Runs `operation` as the caller; when it takes them out of their active organization,
     * the session's cache is rewritten, so that organization (and its team) clear.
     */
    const leavingActive = async <T>(
      request: FastifyRequest,
      reply: FastifyReply,
      operation: (caller: UserActor) => Promise<T>,
      organizationIdOf: (result: T) => string,
    ): Promise<T> => {
      const current = await requireSession(context, request);
      const result = await operation(userActor(current, request));
      if (current.session.activeOrganizationId === organizationIdOf(result)) {
        await rewriteSessionCache(context, request, reply, current);
      }
      return result;
    };

    typed.post(
      "/organization/create",
      actionSchema({ body: createBody }, createdOrganizationSchema),
      async (request, reply) => {
        const current = await requireSession(context, request);
        const { organization, member } = await createOrganization(
          deps,
          userActor(current, request),
          request.body,
        );
        // The new organization (and its default team) may now be the active one.
        if (!request.body.keepCurrentActiveOrganization) {
          await rewriteSessionCache(context, request, reply, current);
        }
        // The organization with metadata and members (the creator's record).
        return Object.assign(organizationResponse(organization), {
          members: [memberResponse(member)],
        });
      },
    );

    typed.post(
      "/organization/check-slug",
      actionSchema({ body: checkSlugBody }, statusAnswer),
      async (request) => {
        await requireSession(context, request);
        await checkSlug(sql, request.body.slug);
        return { status: true };
      },
    );

    typed.post(
      "/organization/update",
      actionSchema({ body: updateBody }, organizationSchema),
      async (request) => {
        const organization = await updateOrganization(
          deps,
          await actor(request),
          { organizationId: request.body.organizationId },
          request.body.data,
        );
        return organizationResponse(organization);
      },
    );

    typed.post(
      "/organization/delete",
      actionSchema({ body: deleteBody }, organizationSchema),
      async (request, reply) => {
        const { organizationId } = request.body;
        const deleted = await leavingActive(
          request,
          reply,
          (caller) => deleteOrganization(deps, caller, organizationId),
          (organization) => organization.id,
        );
        return organizationResponse(deleted);
      },
    );

    typed.get(
      "/organization/list",
      routeSchema({}, z.array(organizationSchema), 401, 404),
      async (request, reply) => {
        // The caller's organizations and their versions come with the session; an answer
        // built for exactly those is sent again as it is.
        const { current, value: key } = await requireSessionWith<string>(
          context,
          request,
          ORGANIZATION_LIST_KEY_OF_CALLER,
        );
        const body = await organizationListJson(sql, organizationLists, current.user.id, key);
        return reply.type("application/json; charset=utf-8").send(body);
      },
    );

    typed.post(
      "/organization/set-active",
      actionSchema({ body: setActiveBody }, organizationSchema.nullable()),
      async (request, reply) => {
        const current = await requireSession(context, request);
        let organization: Awaited<ReturnType<typeof setActiveOrganization>>;
        try {
          organization = await setActiveOrganization(
            sql,
            userActor(current, request),
            request.body,
          );
        } catch (error) {
          // A non-member loses the active organization: the refusal rewrites the cache too.
          if (
            error instanceof AuthError &&
            error.code === "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION"
          ) {
            await rewriteSessionCache(context, request, reply, current);
          }
          throw error;
        }
        if ((organization?.id ?? null) !== current.session.activeOrganizationId) {
          await rewriteSessionCache(context, request, reply, current);
        }
        return organization ? organizationResponse(organization) : null;
      },
    );

    typed.get(
      "/organization/get-organization",
      actionSchema({ querystring: selectorQuery }, organizationSchema.nullable()),
      async (request) => {
        const current = await requireSession(context, request);
        if (
          !request.query.organizationId &&
          !request.query.organizationSlug &&
          !current.session.activeOrganizationId
        ) {
          return null;
        }
        // A non-member is refused with 403, as the established implementation answers.
        const { organization } = await accessOrganization(
          sql,
          current.user.id,
          request.query,
          current.session.activeOrganizationId,
          { notMemberStatus: 403 },
        );
        return organizationResponse(organization);
      },
    );

    typed.get(
      "/organization/get-full-organization",
      {
        schema: {
          querystring: fullOrganizationQuery,
          response: { 200: fullOrganizationAnswer, ...errorResponses(401, 403, 404) },
        },
        // Built answers are JSON text from PostgreSQL; null still goes through the schema.
        serializerCompiler: fastSerializerCompiler,
      },
      async (request, reply) => {
        const { query } = request;
        const organizationId = query.organizationId || null;
        const slug = organizationId ? null : query.organizationSlug || null;
        // The organization's version and the caller's role come with the session.
        const { current, value } = await requireSessionWith<(string | null)[]>(
          context,
          request,
          ORGANIZATION_VERSION_FOR_CALLER,
          [organizationId, slug],
        );
        const id = organizationId ?? (slug ? null : current.session.activeOrganizationId);
        if (!id && !slug) return null;
        // A cached answer, or one query whatever the organization's size, answered as the
        // JSON text PostgreSQL built: no parsing, no serialization.
        const found = await findFullOrganizationJson(
          sql,
          config,
          {
            userId: current.user.id,
            organizationId: id ?? undefined,
            slug: slug ?? undefined,
            membersLimit: query.membersLimit ?? defaultMembersLimit(context),
          },
          { entries: fullOrganizations, current: organizationVersionOf(value), invitingRoles },
        );
        if (found.kind === "not-found") throw new AuthError("ORGANIZATION_NOT_FOUND");
        if (found.kind === "not-member") {
          throw new AuthError("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION", { status: 403 });
        }
        return reply.type("application/json; charset=utf-8").send(found.body);
      },
    );

    typed.post(
      "/organization/leave",
      actionSchema({ body: leaveBody }, memberWithUserSchema),
      async (request, reply) => {
        const { organizationId } = request.body;
        const removed = await leavingActive(
          request,
          reply,
          (caller) => leaveOrganization(deps, caller, organizationId),
          (member) => member.organizationId,
        );
        return memberWithUserResponse(removed);
      },
    );

    typed.post(
      "/organization/remove-member",
      actionSchema({ body: removeMemberBody }, z.object({ member: memberWithUserSchema })),
      async (request, reply) => {
        const current = await requireSession(context, request);
        const removed = await removeMember(
          deps,
          userActor(current, request),
          { organizationId: request.body.organizationId },
          request.body.memberIdOrEmail,
        );
        // Removing oneself from the active organization clears it on the session.
        if (
          removed.userId === current.user.id &&
          current.session.activeOrganizationId === removed.organizationId
        ) {
          await rewriteSessionCache(context, request, reply, current);
        }
        return { member: memberWithUserResponse(removed) };
      },
    );

    typed.post(
      "/organization/update-member-role",
      actionSchema({ body: updateMemberRoleBody }, memberSchema),
      async (request) => {
        const updated = await updateMemberRole(
          deps,
          await actor(request),
          { organizationId: request.body.organizationId },
          { memberId: request.body.memberId },
          request.body.role,
        );
        return memberResponse(updated);
      },
    );

    typed.get(
      "/organization/get-active-member",
      routeSchema({}, memberWithUserSchema, 401, 403, 404),
      async (request) => {
        const current = await requireSession(context, request);
        const { member } = await accessOrganization(
          sql,
          current.user.id,
          {},
          current.session.activeOrganizationId,
          { notMember: "MEMBER_NOT_FOUND" },
        );
        const withUser = await findMemberWithUser(sql, member.id);
        if (!withUser) throw new AuthError("MEMBER_NOT_FOUND");
        return memberWithUserResponse(withUser);
      },
    );

    typed.get(
      "/organization/get-active-member-role",
      actionSchema({ querystring: selectorQuery }, z.object({ role: z.string() })),
      async (request) => {
        const current = await requireSession(context, request);
        const { member } = await accessOrganization(
          sql,
          current.user.id,
          request.query,
          current.session.activeOrganizationId,
          { notMember: "YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION" },
        );
        return { role: member.role };
      },
    );

    typed.get(
      "/organization/list-members",
      actionSchema({ querystring: listMembersQuery }, membersPageSchema),
      async (request) => {
        const current = await requireSession(context, request);
        const { query } = request;
        const { organization } = await accessOrganization(
          sql,
          current.user.id,
          query,
          current.session.activeOrganizationId,
          { notMember: "YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION" },
        );
        const limit = query.limit ?? defaultMembersLimit(context);
        const offset = query.offset ?? 0;
        const page = await listMembersPage(sql, organization.id, {
          limit,
          offset,
          sortBy: (query.sortBy ?? "createdAt") as MemberSortField,
          sortDirection: query.sortDirection ?? "asc",
          search: query.search,
          role: query.role ?? (query.filterField === "role" ? query.filterValue : undefined),
        });
        // Never truncated silently: the total and the page are always stated.
        return {
          members: page.members.map(memberWithUserResponse),
          total: page.total,
          limit,
          offset,
        };
      },
    );

    typed.post(
      "/organization/has-permission",
      actionSchema({ body: hasPermissionBody }, permissionAnswer),
      async (request) => {
        const current = await requireSession(context, request);
        // A non-member is refused with 401, as the established implementation answers.
        const { member } = await accessOrganization(
          sql,
          current.user.id,
          { organizationId: request.body.organizationId },
          current.session.activeOrganizationId,
          { notMemberStatus: 401 },
        );
        // The legacy `permission` key is accepted and answers false, as the established client expects.
        const permissions = request.body.permissions;
        return {
          error: null,
          success: permissions ? hasPermission(config, member.role, permissions) : false,
        };
      },
    );
  };
}

/** Lists default to the membership limit when it is a number, else 100. */
function defaultMembersLimit(context: AuthContext): number {
  const limit = context.config.organization.membershipLimit;
  return typeof limit === "number" ? Math.min(limit, 1000) : 100;
}
