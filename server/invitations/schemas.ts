/** The invitation as clients receive it (invitationResponse in invitations.ts). */
import { z } from "zod";
import { INVITATION_STATUSES } from "./queries.js";

const invitationShape = {
  id: z.string(),
  organizationId: z.string(),
  email: z.string(),
  role: z.string(),
  status: z.enum(INVITATION_STATUSES),
  teamId: z.string().nullable(),
  inviterId: z.string(),
  expiresAt: z.date(),
  createdAt: z.date(),
};

export const invitationSchema = z.object(invitationShape).meta({ id: "Invitation" });

/** invite-member: the invitation and the link it mails. */
export const invitedSchema = z.object({ ...invitationShape, url: z.string() });

/** get-invitation: what the recipient sees before accepting. */
export const invitationDetailsSchema = z.object({
  ...invitationShape,
  organizationName: z.string(),
  organizationSlug: z.string(),
  inviterEmail: z.string(),
});

/** list-user-invitations entries. */
export const userInvitationSchema = z.object({ ...invitationShape, organizationName: z.string() });

/** The membership an accepted invitation creates (memberResponse's shape). */
const newMemberSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  userId: z.string(),
  role: z.string(),
  createdAt: z.date(),
});

export const acceptedSchema = z.object({ invitation: invitationSchema, member: newMemberSchema });

export const rejectedSchema = z.object({ invitation: invitationSchema, member: z.null() });

/** list-invitations: an array, or a page when limit/offset were asked for. */
export const invitationListAnswer = z.union([
  z.array(invitationSchema),
  z.object({
    invitations: z.array(invitationSchema),
    total: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
  }),
]);
