/**
 * The organization answers (organizationResponse, memberResponse and
 * memberWithUserResponse in organization.ts). Metadata stays an object of any keys.
 */
import { z } from "zod";

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
