/**
 * The invitation endpoints: invite-member, accept-, reject-, cancel-invitation, get-invitation,
 * list-invitations, list-user-invitations. Thin handlers over invitations.ts, invite.ts and
 * accept.ts.
 */

import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { type AuthContext, linkContext, requireSession, userActor } from "../http/auth-context.js";
import {
  actionSchema,
  booleanish,
  boundedString,
  emailInput,
  routeSchema,
} from "../http/schemas.js";
import { readDontRemember } from "../http/session-cookies.js";
import { acceptInvitationForSession } from "../http/session-response.js";
import type { ZodTypeProvider } from "../http/validation.js";
import { assertDelivered } from "../mail/mailer.js";
import { getInvitation, rejectInvitation } from "./accept.js";
import {
  cancelInvitation,
  listInvitations,
  listUserInvitations,
  MAXIMUM_INVITATION_PAGE_SIZE,
} from "./invitations.js";
import { inviteMember } from "./invite.js";
import { INVITATION_STATUSES } from "./queries.js";
import {
  acceptedSchema,
  invitationDetailsSchema,
  invitationListAnswer,
  invitationSchema,
  invitedSchema,
  rejectedSchema,
  userInvitationSchema,
} from "./schemas.js";

/** Row ids are 32 characters; other generators stay well under this. */
const idInput = boundedString(255).min(1);
/** Role names, one or several joined by commas. */
const roleInput = boundedString(255);
/** A comma separates several teams in the stored value, so one id never holds one. */
const teamIdInput = idInput.regex(/^[^,]+$/, "must not contain a comma");

const inviteBody = z.object({
  email: emailInput,
  role: z.union([roleInput, z.array(roleInput).max(32)]),
  organizationId: idInput.nullish(),
  resend: booleanish.optional(),
  teamId: z.union([teamIdInput, z.array(teamIdInput).max(32)]).nullish(),
  sendEmail: booleanish.optional(),
});

const invitationIdBody = z.object({ invitationId: idInput });
const getInvitationQuery = z.object({ id: idInput });

/** A non-negative integer as a query string carries it. */
const queryInteger = (minimum: number, maximum: number) =>
  z
    .string()
    .regex(/^\d{1,10}$/, "expected a whole number")
    .transform(Number)
    .pipe(z.number().int().min(minimum).max(maximum));

const listInvitationsQuery = z.object({
  organizationId: idInput.optional(),
  status: z.enum(INVITATION_STATUSES).optional(),
  limit: queryInteger(1, MAXIMUM_INVITATION_PAGE_SIZE).optional(),
  offset: queryInteger(0, 2 ** 31 - 1).optional(),
});

export function invitationRoutes(context: AuthContext) {
  return async (app: FastifyInstance): Promise<void> => {
    if (!context.config.organization.enabled) return;
    const typed = app.withTypeProvider<ZodTypeProvider>();

    typed.post(
      "/organization/invite-member",
      routeSchema({ body: inviteBody }, invitedSchema, 401, 403, 404, 502),
      async (request) => {
        const caller = await requireSession(context, request);
        const invited = await inviteMember(
          context,
          linkContext(context, request),
          userActor(caller, request),
          request.body,
        );
        // The invitation stands either way; `resend: true` mails it again.
        if (invited.delivery) assertDelivered(invited.delivery);
        return Object.assign({}, invited.invitation, { url: invited.url });
      },
    );

    typed.post(
      "/organization/accept-invitation",
      actionSchema({ body: invitationIdBody }, acceptedSchema),
      async (request, reply) => {
        const caller = await requireSession(context, request);
        const accepted = await acceptInvitationForSession(
          context,
          request,
          reply,
          {
            session: caller.session,
            user: caller.user,
            token: caller.token,
            rememberMe: !readDontRemember(request, context.cookies),
          },
          request.body.invitationId,
        );
        return { invitation: accepted.invitation, member: accepted.member };
      },
    );

    typed.post(
      "/organization/reject-invitation",
      actionSchema({ body: invitationIdBody }, rejectedSchema),
      async (request) => {
        const caller = await requireSession(context, request);
        return rejectInvitation(context.sql, caller.user, request.body.invitationId);
      },
    );

    typed.post(
      "/organization/cancel-invitation",
      actionSchema({ body: invitationIdBody }, invitationSchema),
      async (request) => {
        const caller = await requireSession(context, request);
        return cancelInvitation(context, userActor(caller, request), request.body.invitationId);
      },
    );

    typed.get(
      "/organization/get-invitation",
      actionSchema({ querystring: getInvitationQuery }, invitationDetailsSchema),
      async (request) => {
        const caller = await requireSession(context, request);
        return getInvitation(context.sql, caller.user, request.query.id);
      },
    );

    typed.get(
      "/organization/list-invitations",
      actionSchema({ querystring: listInvitationsQuery }, invitationListAnswer),
      async (request) => {
        const caller = await requireSession(context, request);
        const list = await listInvitations(context, userActor(caller, request), request.query);
        // The established client reads an array; a page is asked for with limit/offset.
        if (!list.paginated) return list.invitations;
        const { invitations, total, limit, offset } = list;
        return { invitations, total, limit, offset };
      },
    );

    typed.get(
      "/organization/list-user-invitations",
      routeSchema({}, z.array(userInvitationSchema), 401, 403, 404),
      async (request) => {
        const caller = await requireSession(context, request);
        return listUserInvitations(context.sql, caller.user);
      },
    );
  };
}
