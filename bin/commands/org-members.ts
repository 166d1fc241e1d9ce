/** `authd org member …`: list, add, set-role and remove the members of an organization. */
import type { Command } from "commander";
import { resolveUser } from "../../server/admin/admin.js";
import type { Queryable } from "../../server/db/connection.js";
import {
  addMember,
  findOrganizationByIdOrSlug,
  listAllMembers,
  memberResponse,
  memberWithUserResponse,
  removeMember,
  updateMemberRole,
} from "../../server/organization/organization.js";
import { teamMemberResponse } from "../../server/teams/team-members.js";
import { findTeamByIdOrName } from "../../server/teams/teams.js";
import { didOrWould, formatTable, note } from "../output.js";
import { date, print, requireTeamsEnabled, run, subcommand } from "./org-shared.js";
import { confirmModerate } from "./shared.js";

export function memberTable(rows: ReturnType<typeof memberWithUserResponse>[]): string {
  return formatTable(
    ["USER ID", "EMAIL", "NAME", "ROLE", "SINCE"],
    rows.map((row) => [row.userId, row.user.email, row.user.name, row.role, date(row.createdAt)]),
  );
}

/** The organization (id or slug) and the user (id or email) a member command names. */
async function findOrganizationAndUser(sql: Queryable, selector: string, userArgument: string) {
  const organization = await findOrganizationByIdOrSlug(sql, selector);
  return { organization, user: await resolveUser(sql, userArgument) };
}

export function registerMemberCommands(org: Command): void {
  const member = org.command("member").description("members of an organization");

  subcommand(member, "list <org>", "list the members of an organization").action(
    run<[string]>(async ({ db, globals }, [selector]) => {
      const organization = await findOrganizationByIdOrSlug(db.sql, selector);
      const items = (await listAllMembers(db.sql, organization)).map(memberWithUserResponse);
      print(globals, { items, nextCursor: null }, memberTable(items));
    }),
  );

  subcommand(member, "add <org> <user>", "add a user to an organization")
    .requiredOption("--role <role>", "role(s), comma-separated (owner, admin, member, or custom)")
    .option(
      "--team <team>",
      "also put the new member in this team (id or name; needs organization.teams.enabled)",
    )
    .action(
      run<[string, string], { role: string; team?: string }>(
        async ({ loaded, db, domains, actor, globals }, [selector, userArgument], flags) => {
          if (flags.team !== undefined) requireTeamsEnabled(loaded);
          const { organization, user } = await findOrganizationAndUser(
            db.sql,
            selector,
            userArgument,
          );
          const team =
            flags.team === undefined
              ? null
              : await findTeamByIdOrName(db.sql, organization, flags.team);
          // One transaction: a team that refuses the member (full) leaves no membership.
          const { member: added, teamMember } = await addMember(
            domains.organizations,
            actor,
            organization,
            user,
            flags.role,
            team?.id ?? null,
          );
          const shown = {
            ...memberResponse(added),
            teamMember: teamMember ? teamMemberResponse(teamMember) : null,
          };
          print(
            globals,
            shown,
            `${didOrWould(globals, "Added", "Would add")} ${user.email} to ${organization.slug} as ${shown.role} (member ${shown.id})` +
              (team ? ` and to team ${team.name}.` : "."),
          );
        },
      ),
    );

  subcommand(member, "set-role <org> <user> <role>", "change a member's role").action(
    run<[string, string, string]>(
      async ({ db, domains, actor, globals }, [selector, userArgument, role]) => {
        const { organization, user } = await findOrganizationAndUser(
          db.sql,
          selector,
          userArgument,
        );
        const updated = memberResponse(
          await updateMemberRole(
            domains.organizations,
            actor,
            { organizationId: organization.id },
            { userId: user.id },
            role,
          ),
        );
        print(
          globals,
          updated,
          `${user.email} ${didOrWould(globals, "is now", "would be")} ${updated.role} in ${organization.slug}.`,
        );
      },
    ),
  );

  subcommand(
    member,
    "remove <org> <user>",
    "remove a member (moderate: --yes off a terminal)",
  ).action(
    run<[string, string]>(async ({ db, domains, actor, globals }, [selector, userArgument]) => {
      const { organization, user } = await findOrganizationAndUser(db.sql, selector, userArgument);
      const confirmed = await confirmModerate(
        `Remove ${user.email} from ${organization.slug}?`,
        globals,
      );
      if (!confirmed) {
        note("Nothing removed.");
        return;
      }
      const removed = memberWithUserResponse(
        await removeMember(
          domains.organizations,
          actor,
          { organizationId: organization.id },
          user.email,
        ),
      );
      print(
        globals,
        { removed: true, member: removed },
        `${didOrWould(globals, "Removed", "Would remove")} ${user.email} from ${organization.slug}.`,
        "member.id",
      );
    }),
  );
}
