/**
 * The organization answers (organizationResponse in organization.ts, memberResponse and
 * memberWithUserResponse in members.ts) and the request bodies and queries the routes
 * validate. Metadata stays an object of any keys.
 */
import { z } from "zod";
import { boundedString } from "../bounded-string.js";
import { metadataProblem, ORGANIZATION_FIELD_LIMITS, ORGANIZATION_SLUG_PATTERN } from "./fields.js";

export const organizationShape = {
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  logo: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()).nullable(),
  createdAt: z.date(),
};

const memberShape = {
  id: z.string(),
  organizationId: z.string(),
  userId: z.string(),
  role: z.string(),
  createdAt: z.date(),
};

export const organizationSchema = z.object(organizationShape).meta({ id: "Organization" });

export const memberSchema = z.object(memberShape).meta({ id: "Member" });

export const memberWithUserSchema = z
  .object({
    ...memberShape,
    user: z.object({
      id: z.string(),
      name: z.string(),
      email: z.string(),
      image: z.string().nullable(),
    }),
  })
  .meta({ id: "MemberWithUser" });

/** create: the organization with its creator's membership. */
export const createdOrganizationSchema = z.object({
  ...organizationShape,
  members: z.array(memberSchema),
});

export const membersPageSchema = z.object({
  members: z.array(memberWithUserSchema),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
});

export const permissionAnswer = z.object({ error: z.null(), success: z.boolean() });

// --- Requests ------------------------------------------------------------------

/**
 * The slug rule (documented in docs/http-api.md): lowercase letters and digits in
 * groups joined by single hyphens, at most 100 characters.
 */
const slug = boundedString(ORGANIZATION_FIELD_LIMITS.slug).regex(
  ORGANIZATION_SLUG_PATTERN,
  "a slug is lowercase letters and digits, joined by single hyphens",
);
const name = boundedString(ORGANIZATION_FIELD_LIMITS.name).min(1);
const logo = boundedString(ORGANIZATION_FIELD_LIMITS.logo).nullable();
const metadata = z
  .record(z.string().max(255), z.unknown())
  .superRefine((value, ctx) => {
    const problem = metadataProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  .nullable();
const id = boundedString(255).min(1);

export const createBody = z.object({
  name,
  slug,
  userId: id.optional(),
  logo: logo.optional(),
  metadata: metadata.optional(),
  keepCurrentActiveOrganization: z.boolean().optional(),
});
export const updateBody = z.object({
  data: z.object({
    name: name.optional(),
    slug: slug.optional(),
    logo: logo.optional(),
    metadata: metadata.optional(),
  }),
  organizationId: id.optional(),
});
export const selectorQuery = z.object({
  organizationId: id.optional(),
  organizationSlug: boundedString(100).optional(),
});
const numberish = (max: number) =>
  z
    .union([z.number(), z.string().regex(/^\d+$/).transform(Number)])
    .pipe(z.number().int().min(0).max(max));
export const fullOrganizationQuery = selectorQuery.extend({
  membersLimit: numberish(1000).optional(),
});
export const setActiveBody = z.object({
  organizationId: id.nullable().optional(),
  organizationSlug: boundedString(100).optional(),
});
export const listMembersQuery = selectorQuery.extend({
  limit: numberish(1000).optional(),
  offset: numberish(10_000_000).optional(),
  sortBy: z.enum(["createdAt", "name", "email", "role"]).optional(),
  sortDirection: z.enum(["asc", "desc"]).optional(),
  search: boundedString(255).optional(),
  role: boundedString(255).optional(),
  filterField: z.enum(["role"]).optional(),
  filterValue: boundedString(255).optional(),
});
const permissionsShape = z.record(boundedString(64), z.array(boundedString(64)).max(32));
export const hasPermissionBody = z.object({
  organizationId: id.optional(),
  permissions: permissionsShape.optional(),
  permission: permissionsShape.optional(),
});
export const checkSlugBody = z.object({ slug: boundedString(100).min(1) });
export const deleteBody = z.object({ organizationId: id });
export const leaveBody = z.object({ organizationId: id });
export const removeMemberBody = z.object({
  memberIdOrEmail: boundedString(320).min(1),
  organizationId: id.optional(),
});
export const updateMemberRoleBody = z.object({
  memberId: id,
  role: z.union([boundedString(255), z.array(boundedString(64)).max(16)]),
  organizationId: id.optional(),
});
