/**
 * `authd org …`: organizations, members and invitations from the
 * shell, acting as the operator. Each command calls the same domain function as the
 * HTTP route, with the operator as its actor; audit events say actor_type "cli".
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { type Command, Option } from "commander";
import { type OperatorActor, operator } from "../../server/actor.js";
import { resolveUser } from "../../server/admin/admin.js";
import type { LoadedConfig } from "../../server/config.js";
import type { Database } from "../../server/db/connection.js";
import { createDomains, type Domains } from "../../server/domains.js";
import { AuthError } from "../../server/errors.js";
import { cancelInvitation, listInvitations } from "../../server/invitations/invitations.js";
import { inviteMember } from "../../server/invitations/invite.js";
import { INVITATION_STATUSES, type InvitationStatus } from "../../server/invitations/queries.js";
import type { LogSink } from "../../server/logger.js";
import { createMailer } from "../../server/mail/mailer.js";
import { createMailTransport } from "../../server/mail/transport.js";
import { organizationBlastRadius } from "../../server/organization/blast-radius.js";
import {
  addMember,
  createOrganization,
  deleteOrganization,
  findOrganizationByIdOrSlug,
  listAllMembers,
  listOrganizations,
  memberResponse,
  memberWithUserResponse,
  organizationResponse,
  removeMember,
  updateMemberRole,
  updateOrganization,
} from "../../server/organization/organization.js";
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
import { EXIT, UsageError } from "../exit-codes.js";
import { didOrWould, emit, formatTable, type GlobalOptions, note } from "../output.js";
import { withDatabase } from "../with-database.js";
import { confirmModerate } from "./shared.js";
import { parseDuration } from "./user.js";

interface Context {
  loaded: LoadedConfig;
  db: Database;
  /** The organization and team domains on the command's connection. */
  domains: Domains;
  /** Who acts: the operator. */
  actor: OperatorActor;
  globals: GlobalOptions;
  /** --dry-run: writes are rolled back and no mail is sent. */
  dryRun: boolean;
}

/**
 * An action for commander, which calls it with the positional arguments, the command's
 * own options and the command: `work` gets the arguments and options with the database
 * open (in one rolled-back transaction under --dry-run). `teams` first refuses when
 * teams are disabled.
 */
function run<Args extends string[] = [], Flags = Record<string, never>>(
  work: (context: Context, args: Args, flags: Flags) => Promise<void>,
  options: { teams?: boolean } = {},
): (...params: unknown[]) => Promise<void> {
  return async (...params) => {
    const command = params.at(-1) as Command;
    const flags = params.at(-2) as Flags;
    const args = params.slice(0, -2) as Args;
    const globals = command.optsWithGlobals<GlobalOptions>();
    await withDatabase(globals, ({ loaded, db, dryRun }) => {
      if (options.teams) requireTeamsEnabled(loaded);
      const domains = createDomains(db.sql, loaded.config);
      const actor = operator("authd org");
      return work({ loaded, db, domains, actor, globals, dryRun }, args, flags);
    });
    process.exitCode = EXIT.ok;
  };
}

/** What each positional argument of the org commands means (for --help). */
const ARGUMENTS: Record<string, string> = {
  "<org>": "organization id or slug",
  "<user>": "user id or email",
  "<team>": "team id or name",
  "<role>": "role(s), comma-separated",
  "<invitation-id>": "the invitation's id",
};

/** `subcommand(member, "add <org> <user>", …)`: the name, then described arguments. */
function subcommand(parent: Command, usage: string, description: string): Command {
  const [name = usage, ...args] = usage.split(" ");
  const command = parent.command(name).description(description);
  for (const argument of args) command.argument(argument, ARGUMENTS[argument] ?? "");
  return command;
}

/**
 * `--metadata JSON` or `--metadata @path`: a JSON object, given inline or read from a
 * file (relative to the working directory). Anything else is a usage error (exit 2).
 */
function parseMetadata(value: string): Record<string, unknown> {
  let text = value;
  let source = "--metadata";
  if (value.startsWith("@")) {
    const file = value.slice(1);
    if (file === "") throw new UsageError("--metadata @: expected a file path after @");
    source = `--metadata ${value}`;
    try {
      text = readFileSync(path.resolve(file), "utf8");
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? String(error);
      throw new UsageError(`${source}: cannot read ${file} (${reason})`);
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new UsageError(`${source}: expected a JSON object, got invalid JSON (${reason})`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    const kind = Array.isArray(parsed) ? "an array" : parsed === null ? "null" : typeof parsed;
    throw new UsageError(`${source}: expected a JSON object, got ${kind}`);
  }
  return parsed as Record<string, unknown>;
}

function parseLogo(value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol === "http:" || url.protocol === "https:") return value;
  } catch {
    // refused below
  }
  throw new UsageError("--logo: expected an http(s) URL");
}

/** Prints `data` (any -o format); the human rendering is `human`, one line or more. */
function print(globals: GlobalOptions, data: unknown, human: string, quietField?: string): void {
  emit(data, globals, { human: () => process.stdout.write(`${human}\n`), quietField });
}

const date = (value: Date) => value.toISOString();

function organizationTable(rows: ReturnType<typeof organizationResponse>[]): string {
  return formatTable(
    ["ID", "SLUG", "NAME", "CREATED"],
    rows.map((row) => [row.id, row.slug, row.name, date(row.createdAt)]),
  );
}

function memberTable(rows: ReturnType<typeof memberWithUserResponse>[]): string {
  return formatTable(
    ["USER ID", "EMAIL", "NAME", "ROLE", "SINCE"],
    rows.map((row) => [row.userId, row.user.email, row.user.name, row.role, date(row.createdAt)]),
  );
}

interface CreateFlags {
  name: string;
  slug: string;
  owner: string;
  logo?: string;
  metadata?: Record<string, unknown>;
  ifExists: "skip" | "fail";
}

interface UpdateFlags {
  name?: string;
  slug?: string;
  logo?: string | false;
  metadata?: Record<string, unknown>;
}

function registerOrganizationCommands(org: Command): void {
  subcommand(org, "create", "create an organization with an owner")
    .requiredOption("--name <name>", "display name")
    .requiredOption("--slug <slug>", "lowercase letters and digits joined by hyphens")
    .requiredOption("--owner <user>", "the owner: user id or email")
    .option("--logo <url>", "logo URL", parseLogo)
    .option(
      "--metadata <json|@file>",
      "metadata as a JSON object, or @path to read it from a file",
      parseMetadata,
    )
    .addOption(
      new Option("--if-exists <mode>", "when the slug exists: skip (exit 0) or fail (exit 4)")
        .choices(["skip", "fail"])
        .default("fail"),
    )
    .action(
      run<[], CreateFlags>(async ({ db, domains, actor, globals }, _args, flags) => {
        const owner = await resolveUser(db.sql, flags.owner);
        try {
          const created = await createOrganization(domains.organizations, actor, {
            userId: owner.id,
            name: flags.name,
            slug: flags.slug,
            logo: flags.logo ?? null,
            metadata: flags.metadata ?? null,
          });
          const organization = organizationResponse(created.organization);
          print(
            globals,
            { created: true, organization, member: memberResponse(created.member) },
            `${didOrWould(globals, "Created", "Would create")} organization ${organization.slug} (${organization.id}) owned by ${owner.email}.`,
            "organization.id",
          );
        } catch (error) {
          if (
            flags.ifExists !== "skip" ||
            !(error instanceof AuthError) ||
            error.code !== "ORGANIZATION_ALREADY_EXISTS"
          ) {
            throw error;
          }
          const existing = organizationResponse(
            await findOrganizationByIdOrSlug(db.sql, flags.slug),
          );
          print(
            globals,
            { created: false, organization: existing },
            `Organization ${existing.slug} (${existing.id}) exists; nothing changed.`,
            "organization.id",
          );
        }
      }),
    );

  subcommand(org, "list", "list organizations (all, or those of --member)")
    .option("--member <user>", "only organizations this user (id or email) belongs to")
    .action(
      run<[], { member?: string }>(async ({ db, globals }, _args, flags) => {
        const member = flags.member ? await resolveUser(db.sql, flags.member) : undefined;
        const items = (await listOrganizations(db.sql, member?.id)).map(organizationResponse);
        print(globals, { items, nextCursor: null }, organizationTable(items));
      }),
    );

  subcommand(org, "get <org>", "an organization and its members").action(
    run<[string]>(async ({ db, globals }, [selector]) => {
      const organization = await findOrganizationByIdOrSlug(db.sql, selector);
      const members = (await listAllMembers(db.sql, organization)).map(memberWithUserResponse);
      const shown = organizationResponse(organization);
      print(
        globals,
        { ...shown, members },
        `${formatTable(
          ["FIELD", "VALUE"],
          [
            ["id", shown.id],
            ["slug", shown.slug],
            ["name", shown.name],
            ["logo", shown.logo ?? ""],
            ["metadata", shown.metadata ? JSON.stringify(shown.metadata) : ""],
            ["createdAt", date(shown.createdAt)],
          ],
        )}\n\n${memberTable(members)}`,
      );
    }),
  );

  subcommand(org, "update <org>", "change an organization's name, slug, logo or metadata")
    .option("--name <name>", "display name")
    .option("--slug <slug>", "lowercase letters and digits joined by hyphens")
    .option("--logo <url>", "logo URL", parseLogo)
    .option("--no-logo", "remove the logo")
    .option(
      "--metadata <json|@file>",
      "metadata as a JSON object, or @path to read it from a file (replaces it)",
      parseMetadata,
    )
    .action(
      run<[string], UpdateFlags>(async ({ db, domains, actor, globals }, [selector], flags) => {
        const changes = {
          name: flags.name,
          slug: flags.slug,
          logo: flags.logo === false ? null : flags.logo,
          metadata: flags.metadata,
        };
        if (Object.values(changes).every((value) => value === undefined)) {
          throw new UsageError(
            "nothing to update: pass --name, --slug, --logo/--no-logo or --metadata",
          );
        }
        const organization = await findOrganizationByIdOrSlug(db.sql, selector);
        const updated = organizationResponse(
          await updateOrganization(
            domains.organizations,
            actor,
            { organizationId: organization.id },
            changes,
          ),
        );
        print(
          globals,
          { updated: true, organization: updated },
          `${didOrWould(globals, "Updated", "Would update")} organization ${updated.slug} (${updated.id}).`,
          "organization.id",
        );
      }),
    );

  subcommand(
    org,
    "delete <org>",
    "delete an organization with its members, invitations and teams (severe); --dry-run shows what would go",
  )
    .option("--confirm <slug>", "the organization's slug: required, even with --yes")
    .action(
      run<[string], { confirm?: string }>(
        async ({ db, domains, actor, globals, dryRun }, [selector], flags) => {
          // Severe: --yes is not enough; a dry
          // run deletes nothing, so it shows the blast radius without --confirm.
          if (flags.confirm === undefined && !dryRun) {
            throw new UsageError(
              `deleting an organization needs --confirm=<slug> (even with --yes); --dry-run shows what would be removed`,
            );
          }
          const organization = await findOrganizationByIdOrSlug(db.sql, selector);
          if (flags.confirm !== undefined && flags.confirm !== organization.slug) {
            throw new UsageError(
              `--confirm=${flags.confirm} does not match the organization's slug (${organization.slug})`,
            );
          }
          const radius = dryRun ? await organizationBlastRadius(db.sql, organization.id) : null;
          // Under --dry-run the delete runs too (its rules are checked) and is rolled back.
          const deleted = organizationResponse(
            await deleteOrganization(domains.organizations, actor, organization.id),
          );
          if (!radius) {
            print(
              globals,
              { deleted: true, organization: deleted },
              `${didOrWould(globals, "Deleted", "Would delete")} organization ${deleted.slug} (${deleted.id}).`,
              "organization.id",
            );
            return;
          }
          const { members, invitations, teams, teamMembers } = radius.wouldRemove;
          print(
            globals,
            { dryRun: true, organization: deleted, ...radius },
            [
              `Would delete organization ${deleted.slug} (${deleted.id}) with ${members} member(s), ${invitations} invitation(s), ${teams} team(s) and ${teamMembers} team membership(s).`,
              `${radius.activeSessions} unexpired session(s) have it active; they would stay signed in without an active organization.`,
            ].join("\n"),
            "organization.id",
          );
        },
      ),
    );
}

function registerMemberCommands(org: Command): void {
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
          const organization = await findOrganizationByIdOrSlug(db.sql, selector);
          const user = await resolveUser(db.sql, userArgument);
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
        const organization = await findOrganizationByIdOrSlug(db.sql, selector);
        const user = await resolveUser(db.sql, userArgument);
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
      const organization = await findOrganizationByIdOrSlug(db.sql, selector);
      const user = await resolveUser(db.sql, userArgument);
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

/** Mail problems go to stderr; the outbox's "written" line is not news to an operator. */
const stderrLog: LogSink = {
  info() {},
  warn(object, message) {
    note(`warning: ${message ?? ""} ${JSON.stringify(object)}`);
  },
  error(object, message) {
    note(`error: ${message ?? ""} ${JSON.stringify(object)}`);
  },
};

interface InviteFlags {
  email: string;
  role: string;
  team?: string;
  /** Seconds, from parseDuration. */
  expiresIn?: number;
  /** undefined (the default) and true mail the invitation; --no-send gives false. */
  send?: boolean;
}

function registerInvitationCommands(org: Command): void {
  const invite = org.command("invite").description("invitations to an organization");

  subcommand(invite, "create <org>", "invite an address; prints the accept URL")
    .requiredOption("--email <email>", "the address to invite")
    .requiredOption("--role <role>", "role(s) the invitee gets, comma-separated")
    .option(
      "--team <team>",
      "the team the invitee joins on accepting (id or name; needs organization.teams.enabled)",
    )
    .option(
      "--expires-in <duration>",
      "lifetime of this invitation, e.g. 30m, 48h, 7d (default: organization.invitationExpiresIn)",
      parseDuration,
    )
    .option("--send", "mail the invitation (the default)")
    .option("--no-send", "do not mail the invitation; only print its URL")
    .action(
      run<[string], InviteFlags>(
        async ({ loaded, db, actor, globals, dryRun }, [selector], flags) => {
          const { config } = loaded;
          if (flags.team !== undefined) requireTeamsEnabled(loaded);
          const organization = await findOrganizationByIdOrSlug(db.sql, selector);
          const team =
            flags.team === undefined
              ? null
              : await findTeamByIdOrName(db.sql, organization, flags.team);
          const transport = createMailTransport(loaded);
          try {
            const origin = config.baseURL ?? `http://localhost:${config.server.port}`;
            const basePath = config.basePath === "/" ? "" : config.basePath;
            const invited = await inviteMember(
              { sql: db.sql, config, mailer: createMailer(config, transport) },
              { baseUrl: `${origin.replace(/\/+$/, "")}${basePath}`, logger: stderrLog },
              actor,
              {
                organizationId: organization.id,
                email: flags.email,
                role: flags.role,
                teamId: team?.id ?? null,
                expiresIn: flags.expiresIn,
                // A dry run mails nobody: the invitation it shows is rolled back.
                sendEmail: flags.send !== false && !dryRun,
              },
            );
            emit(invited, globals, {
              quietField: "invitation.id",
              human: () => {
                process.stdout.write(`${invited.url}\n`);
                const { email, expiresAt } = invited.invitation;
                const expires = `expires ${date(expiresAt)}`;
                note(
                  invited.delivery === null
                    ? `${didOrWould(globals, "Invited", "Would invite")} ${email} (not mailed); ${expires}.`
                    : `Invited ${email}; mail ${invited.delivery}; ${expires}.`,
                );
              },
            });
          } finally {
            transport.close();
          }
        },
      ),
    );

  subcommand(invite, "list <org>", "list the invitations of an organization")
    .addOption(new Option("--status <status>", "only this status").choices(INVITATION_STATUSES))
    .action(
      run<[string], { status?: InvitationStatus }>(
        async ({ loaded, db, actor, globals }, [selector], flags) => {
          const organization = await findOrganizationByIdOrSlug(db.sql, selector);
          const { invitations: items } = await listInvitations(
            { sql: db.sql, config: loaded.config },
            actor,
            { organizationId: organization.id, status: flags.status },
          );
          print(
            globals,
            { items, nextCursor: null },
            formatTable(
              ["ID", "EMAIL", "ROLE", "STATUS", "EXPIRES"],
              items.map((row) => [row.id, row.email, row.role, row.status, date(row.expiresAt)]),
            ),
          );
        },
      ),
    );

  subcommand(invite, "cancel <invitation-id>", "cancel a pending invitation").action(
    run<[string]>(async ({ loaded, db, actor, globals }, [invitationId]) => {
      const canceled = await cancelInvitation(
        { sql: db.sql, config: loaded.config },
        actor,
        invitationId,
      );
      print(
        globals,
        { canceled: true, invitation: canceled },
        `${didOrWould(globals, "Canceled", "Would cancel")} the invitation of ${canceled.email} (${canceled.id}).`,
        "invitation.id",
      );
    }),
  );
}

/** Team commands need `organization.teams.enabled` (the HTTP team routes do too). */
function requireTeamsEnabled(loaded: LoadedConfig): void {
  if (!loaded.config.organization.teams.enabled) {
    throw new UsageError(
      "teams are disabled: set organization.teams.enabled to true in the config file",
    );
  }
}

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

function registerTeamCommands(org: Command): void {
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

export function registerOrg(program: Command): void {
  const org = program
    .command("org")
    .description("organizations, members, invitations and teams (as the operator)");
  registerOrganizationCommands(org);
  registerMemberCommands(org);
  registerInvitationCommands(org);
  registerTeamCommands(org);
}
