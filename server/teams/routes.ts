/**
 * Team endpoints. They exist only when
 * `organization.teams.enabled` (and organizations) are on: otherwise they are never
 * registered and answer 404 NOT_FOUND, as the established implementation does.
 */

import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { type AuthContext, requireSession, userActor } from "../http/auth-context.js";
import { actionSchema, boundedString } from "../http/schemas.js";
import { rewriteSessionCache } from "../http/session-response.js";
import type { ZodTypeProvider } from "../http/validation.js";
import { messageAnswer, teamMemberSchema, teamSchema } from "./schemas.js";
import {
  addTeamMember,
  listMembersOfTeam,
  listUserTeams,
  removeTeamMember,
  setActiveTeam,
  teamMemberResponse,
} from "./team-members.js";
import {
  createTeam,
  listTeams,
  removeTeam,
  TEAM_NAME_MAX_LENGTH,
  teamResponse,
  updateTeam,
} from "./teams.js";

const id = boundedString(255).min(1);
/** An optional id; an explicit null reads as absent (clients send either). */
const optionalId = id.nullish().transform((value) => value ?? undefined);
/** A team name has at least 1 character; 255 at most like every name. */
const teamName = boundedString(TEAM_NAME_MAX_LENGTH).min(1);

const createTeamBody = z.object({ name: teamName, organizationId: optionalId });
const updateTeamBody = z.object({
  teamId: id,
  // Data is required; only its name is applied.
  data: z.object({ name: teamName.optional(), organizationId: optionalId }),
  organizationId: optionalId,
});
const removeTeamBody = z.object({ teamId: id, organizationId: optionalId });
const organizationQuery = z.object({ organizationId: optionalId });
const teamMemberBody = z.object({ teamId: id, userId: id, organizationId: optionalId });
const setActiveTeamBody = z.object({ teamId: id.nullable().optional() });
const listUserTeamsQuery = z.object({ organizationId: optionalId, userId: optionalId });
const listTeamMembersQuery = z.object({ teamId: optionalId });

export function teamRoutes(context: AuthContext) {
  return async (app: FastifyInstance): Promise<void> => {
    const { organization } = context.config;
    if (!organization.enabled || !organization.teams.enabled) return;
    const typed = app.withTypeProvider<ZodTypeProvider>();
    const deps = context.domains.teams;
    const caller = async (request: Parameters<typeof requireSession>[1]) =>
      userActor(await requireSession(context, request), request);

    typed.post(
      "/organization/create-team",
      actionSchema({ body: createTeamBody }, teamSchema),
      async (request) => teamResponse(await createTeam(deps, await caller(request), request.body)),
    );

    typed.post(
      "/organization/update-team",
      actionSchema({ body: updateTeamBody }, teamSchema),
      async (request) => {
        const { teamId, data, organizationId } = request.body;
        const team = await updateTeam(deps, await caller(request), {
          teamId,
          name: data.name,
          organizationId: data.organizationId ?? organizationId,
        });
        return teamResponse(team);
      },
    );

    typed.post(
      "/organization/remove-team",
      actionSchema({ body: removeTeamBody }, messageAnswer),
      async (request) => {
        await removeTeam(deps, await caller(request), request.body);
        return { message: "Team removed successfully." };
      },
    );

    typed.get(
      "/organization/list-teams",
      actionSchema({ querystring: organizationQuery }, z.array(teamSchema)),
      async (request) =>
        (await listTeams(deps, await caller(request), request.query)).map(teamResponse),
    );

    typed.post(
      "/organization/add-team-member",
      actionSchema({ body: teamMemberBody }, teamMemberSchema),
      async (request) =>
        teamMemberResponse((await addTeamMember(deps, await caller(request), request.body)).member),
    );

    typed.post(
      "/organization/remove-team-member",
      actionSchema({ body: teamMemberBody }, messageAnswer),
      async (request, reply) => {
        const current = await requireSession(context, request);
        await removeTeamMember(deps, userActor(current, request), request.body);
        // Taking oneself out of one's active team clears it on the session.
        if (
          request.body.userId === current.user.id &&
          current.session.activeTeamId === request.body.teamId
        ) {
          await rewriteSessionCache(context, request, reply, current);
        }
        return { message: "Team member removed successfully." };
      },
    );

    typed.post(
      "/organization/set-active-team",
      actionSchema({ body: setActiveTeamBody }, teamSchema.nullable()),
      async (request, reply) => {
        const current = await requireSession(context, request);
        const { team, session } = await setActiveTeam(
          deps,
          userActor(current, request),
          request.body.teamId,
        );
        // The cached session must show the new active team at once.
        if (session) await rewriteSessionCache(context, request, reply, current, { session });
        if (!team) return reply.type("application/json; charset=utf-8").send("null");
        return teamResponse(team);
      },
    );

    typed.get(
      "/organization/list-user-teams",
      actionSchema({ querystring: listUserTeamsQuery }, z.array(teamSchema)),
      async (request) =>
        (await listUserTeams(deps, await caller(request), request.query)).map(teamResponse),
    );

    typed.get(
      "/organization/list-team-members",
      actionSchema({ querystring: listTeamMembersQuery }, z.array(teamMemberSchema)),
      async (request) =>
        (await listMembersOfTeam(deps, await caller(request), request.query)).map(
          teamMemberResponse,
        ),
    );
  };
}
