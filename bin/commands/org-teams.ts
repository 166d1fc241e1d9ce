/** `authd org team …`: the teams of an organization and their members. */
import type { Command } from "commander";
import { resolveUser } from "../../server/admin/admin.js";
import { findOrganizationByIdOrSlug } from "../../server/organization/organization.js";
import type { OrganizationRow } from "../../server/organization/queries.js";
import type { TeamRow } from "../../server/teams/queries.js";
import {
  addTeamMember,
  removeTeamMember,
  teamMemberResponse,
} from "../../server/teams/team-members.js";
import {
  createTeam,
  findTeamByIdOrName,
  listTeams,
  removeTeam,
  teamResponse,
  updateTeam,
} from "../../server/teams/teams.js";
import { didOrWould, formatTable, note } from "../output.js";
import { type Context, date, print, run, subcommand } from "./org-shared.js";
import { confirmModerate } from "./shared.js";

function teamTable(rows: ReturnType<typeof teamResponse>[]): string {
  return formatTable(
    ["ID", "NAME", "CREATED"],
    rows.map((row) => [row.id, row.name, date(row.createdAt)]),
  );
}

/** The organization and team (id or name) a team command names. */
async function findTeam(
  { db }: Context,
  selector: string,
  teamArgument: string,
): Promise<{ organization: OrganizationRow; team: TeamRow }> {
  const organization = await findOrganizationByIdOrSlug(db.sql, selector);
  return { organization, team: await findTeamByIdOrName(db.sql, organization, teamArgument) };
}

const TEAMS = { teams: true };

export function registerTeamCommands(org: Command): void {
  const team = org.command("team").description("teams of an organization");

  subcommand(team, "create <org>", "create a team in an organization")
    .requiredOption("--name <name>", "team name, unique in the organization")
    .action(
      run<[string], { name: string }>(
        async ({ db, domains, actor, globals }, [selector], flags) => {
          const organization = await findOrganizationByIdOrSlug(db.sql, selector);
          const created = teamResponse(
            await createTeam(domains.teams, actor, {
              organizationId: organization.id,
              name: flags.name,
            }),
          );
          print(
            globals,
            { created: true, team: created },
            `${didOrWould(globals, "Created", "Would create")} team ${created.name} (${created.id}) in ${organization.slug}.`,
            "team.id",
          );
        },
        TEAMS,
      ),
    );

  subcommand(team, "list <org>", "list the teams of an organization").action(
    run<[string]>(async ({ db, domains, actor, globals }, [selector]) => {
      const organization = await findOrganizationByIdOrSlug(db.sql, selector);
      const items = (
        await listTeams(domains.teams, actor, { organizationId: organization.id })
      ).map(teamResponse);
      print(globals, { items, nextCursor: null }, teamTable(items));
    }, TEAMS),
  );

  subcommand(team, "rename <org> <team>", "rename a team")
    .requiredOption("--name <name>", "the new name, unique in the organization")
    .action(
      run<[string, string], { name: string }>(async (context, [selector, teamArgument], flags) => {
        const { organization, team: found } = await findTeam(context, selector, teamArgument);
        const renamed = teamResponse(
          await updateTeam(context.domains.teams, context.actor, {
            organizationId: organization.id,
            teamId: found.id,
            name: flags.name,
          }),
        );
        print(
          context.globals,
          { updated: true, team: renamed },
          `${didOrWould(context.globals, "Renamed", "Would rename")} team ${found.name} to ${renamed.name} (${renamed.id}).`,
          "team.id",
        );
      }, TEAMS),
    );

  subcommand(
    team,
    "remove <org> <team>",
    "remove a team and its memberships (moderate: --yes off a terminal)",
  ).action(
    run<[string, string]>(async (context, [selector, teamArgument]) => {
      const { organization, team: found } = await findTeam(context, selector, teamArgument);
      const confirmed = await confirmModerate(
        `Remove team ${found.name} from ${organization.slug}?`,
        context.globals,
      );
      if (!confirmed) {
        note("Nothing removed.");
        return;
      }
      const removed = teamResponse(
        await removeTeam(context.domains.teams, context.actor, {
          organizationId: organization.id,
          teamId: found.id,
        }),
      );
      print(
        context.globals,
        { removed: true, team: removed },
        `${didOrWould(context.globals, "Removed", "Would remove")} team ${removed.name} (${removed.id}) from ${organization.slug}.`,
        "team.id",
      );
    }, TEAMS),
  );

  const teamMember = team.command("member").description("members of a team");

  subcommand(
    teamMember,
    "add <org> <team> <user>",
    "put a member of the organization in a team",
  ).action(
    run<[string, string, string]>(async (context, [selector, teamArgument, userArgument]) => {
      const { organization, team: found } = await findTeam(context, selector, teamArgument);
      const user = await resolveUser(context.db.sql, userArgument);
      const { member, added } = await addTeamMember(context.domains.teams, context.actor, {
        organizationId: organization.id,
        teamId: found.id,
        userId: user.id,
      });
      print(
        context.globals,
        { added, member: teamMemberResponse(member) },
        added
          ? `${didOrWould(context.globals, "Added", "Would add")} ${user.email} to team ${found.name}.`
          : `${user.email} is already in team ${found.name}; nothing changed.`,
        "member.id",
      );
    }, TEAMS),
  );

  subcommand(teamMember, "remove <org> <team> <user>", "take a user out of a team").action(
    run<[string, string, string]>(async (context, [selector, teamArgument, userArgument]) => {
      const { organization, team: found } = await findTeam(context, selector, teamArgument);
      const user = await resolveUser(context.db.sql, userArgument);
      await removeTeamMember(context.domains.teams, context.actor, {
        organizationId: organization.id,
        teamId: found.id,
        userId: user.id,
      });
      print(
        context.globals,
        { removed: true, teamId: found.id, userId: user.id },
        `${didOrWould(context.globals, "Removed", "Would remove")} ${user.email} from team ${found.name}.`,
        "userId",
      );
    }, TEAMS),
  );
}
