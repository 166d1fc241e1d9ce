/**
 * `authd org …` (reference/cli.md): organizations, members and invitations from the
 * shell, acting as the operator. Each command calls the same domain rules as the HTTP
 * routes (the "AsOperator" functions beside them); audit events say actor_type "cli".
 */
import { type Command, Option } from "commander";
import type { LoadedConfig } from "../../server/config.js";
import type { Database } from "../../server/db/connection.js";
import { AuthError } from "../../server/errors.js";
import {
  cancelInvitationAsOperator,
  inviteMemberAsOperator,
  listInvitationsAsOperator,
} from "../../server/invitations/invitations.js";
import { INVITATION_STATUSES, type InvitationStatus } from "../../server/invitations/queries.js";
import type { LogSink } from "../../server/logger.js";
import { createMailer } from "../../server/mail/mailer.js";
import { createMailTransport } from "../../server/mail/transport.js";
import {
  addMemberAsOperator,
  createOrganizationAsOperator,
  deleteOrganizationAsOperator,
  findOrganizationAsOperator,
  listMembersAsOperator,
  listOrganizationsAsOperator,
  memberResponse,
  memberWithUserResponse,
  organizationResponse,
  removeMemberAsOperator,
  setMemberRoleAsOperator,
  updateOrganizationAsOperator,
} from "../../server/organization/organization.js";
import {
  addTeamMemberAsOperator,
  createTeamAsOperator,
  findTeamAsOperator,
  listTeamsAsOperator,
  removeTeamAsOperator,
  removeTeamMemberAsOperator,
  renameTeamAsOperator,
  teamMemberResponse,
  teamResponse,
} from "../../server/teams/teams.js";
import type { UserRow } from "../../server/users/queries.js";
import { findUserByEmail, findUserById, normalizeEmail } from "../../server/users/users.js";
import { EXIT, UsageError } from "../exit-codes.js";
import { formatTable, type GlobalOptions, note, printJson, wantsJson } from "../output.js";
import { withDatabase } from "../with-database.js";
import { confirmModerate } from "./shared.js";

interface Context {
  loaded: LoadedConfig;
  db: Database;
  globals: GlobalOptions;
  /** --dry-run: writes are rolled back and no mail is sent. */
  dryRun: boolean;
}

async function withContext(command: Command, work: (context: Context) => Promise<void>) {
  const globals = command.optsWithGlobals<GlobalOptions>();
  await withDatabase(globals, ({ loaded, db, dryRun }) => work({ loaded, db, globals, dryRun }));
  process.exitCode = EXIT.ok;
}

/** A user by id, or by email when the argument has an @. */
async function findUser(db: Database, idOrEmail: string): Promise<UserRow> {
  const user = idOrEmail.includes("@")
    ? await findUserByEmail(db.sql, normalizeEmail(idOrEmail))
    : await findUserById(db.sql, idOrEmail);
  if (!user) throw new AuthError("USER_NOT_FOUND", { message: `User not found: ${idOrEmail}` });
  return user;
}

function parseMetadata(value: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new UsageError("--metadata: expected a JSON object");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new UsageError("--metadata: expected a JSON object");
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

function print(globals: GlobalOptions, json: unknown, human: string): void {
  if (wantsJson(globals)) printJson(json);
  else process.stdout.write(`${human}\n`);
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
  org
    .command("create")
    .description("create an organization with an owner")
    .requiredOption("--name <name>", "display name")
    .requiredOption("--slug <slug>", "lowercase letters and digits joined by hyphens")
    .requiredOption("--owner <user>", "the owner: user id or email")
    .option("--logo <url>", "logo URL", parseLogo)
    .option("--metadata <json>", "metadata as a JSON object", parseMetadata)
    .addOption(
      new Option("--if-exists <mode>", "when the slug exists: skip (exit 0) or fail (exit 4)")
        .choices(["skip", "fail"])
        .default("fail"),
    )
    .action((flags: CreateFlags, command: Command) =>
      withContext(command, async ({ loaded, db, globals }) => {
        const owner = await findUser(db, flags.owner);
        try {
          const created = await createOrganizationAsOperator(db.sql, loaded.config, owner, {
            name: flags.name,
            slug: flags.slug,
            logo: flags.logo ?? null,
            metadata: flags.metadata ?? null,
          });
          const organization = organizationResponse(created.organization);
          print(
            globals,
            { created: true, organization, member: memberResponse(created.member) },
            `Created organization ${organization.slug} (${organization.id}) owned by ${owner.email}.`,
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
            await findOrganizationAsOperator(db.sql, flags.slug),
          );
          print(
            globals,
            { created: false, organization: existing },
            `Organization ${existing.slug} (${existing.id}) exists; nothing changed.`,
          );
        }
      }),
    );

  org
    .command("list")
    .description("list organizations (all, or those of --member)")
    .option("--member <user>", "only organizations this user (id or email) belongs to")
    .action((flags: { member?: string }, command: Command) =>
      withContext(command, async ({ db, globals }) => {
        const member = flags.member ? await findUser(db, flags.member) : undefined;
        const items = (await listOrganizationsAsOperator(db.sql, member?.id)).map(
          organizationResponse,
        );
        print(globals, { items, nextCursor: null }, organizationTable(items));
      }),
    );

  org
    .command("get")
    .description("an organization and its members")
    .argument("<org>", "organization id or slug")
    .action((selector: string, _flags: unknown, command: Command) =>
      withContext(command, async ({ db, globals }) => {
        const organization = await findOrganizationAsOperator(db.sql, selector);
        const members = (await listMembersAsOperator(db.sql, organization)).map(
          memberWithUserResponse,
        );
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

  org
    .command("update")
    .description("change an organization's name, slug, logo or metadata")
    .argument("<org>", "organization id or slug")
    .option("--name <name>", "display name")
    .option("--slug <slug>", "lowercase letters and digits joined by hyphens")
    .option("--logo <url>", "logo URL", parseLogo)
    .option("--no-logo", "remove the logo")
    .option("--metadata <json>", "metadata as a JSON object (replaces it)", parseMetadata)
    .action((selector: string, flags: UpdateFlags, command: Command) =>
      withContext(command, async ({ db, globals }) => {
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
        const organization = await findOrganizationAsOperator(db.sql, selector);
        const updated = organizationResponse(
          await updateOrganizationAsOperator(db.sql, organization, changes),
        );
        print(
          globals,
          { updated: true, organization: updated },
          `Updated organization ${updated.slug} (${updated.id}).`,
        );
      }),
    );

  org
    .command("delete")
    .description("delete an organization with its members, invitations and teams (severe)")
    .argument("<org>", "organization id or slug")
    .option("--confirm <slug>", "the organization's slug: required, even with --yes")
    .action((selector: string, flags: { confirm?: string }, command: Command) =>
      withContext(command, async ({ loaded, db, globals }) => {
        // Severe (reference/cli.md "Confirmation policy"): --yes is not enough.
        if (flags.confirm === undefined) {
          throw new UsageError(`deleting an organization needs --confirm=<slug> (even with --yes)`);
        }
        const organization = await findOrganizationAsOperator(db.sql, selector);
        if (flags.confirm !== organization.slug) {
          throw new UsageError(
            `--confirm=${flags.confirm} does not match the organization's slug (${organization.slug})`,
          );
        }
        const deleted = organizationResponse(
          await deleteOrganizationAsOperator(db.sql, loaded.config, organization),
        );
        print(
          globals,
          { deleted: true, organization: deleted },
          `Deleted organization ${deleted.slug} (${deleted.id}).`,
        );
      }),
    );
}

function registerMemberCommands(org: Command): void {
  const member = org.command("member").description("members of an organization");

  member
    .command("list")
    .description("list the members of an organization")
    .argument("<org>", "organization id or slug")
    .action((selector: string, _flags: unknown, command: Command) =>
      withContext(command, async ({ db, globals }) => {
        const organization = await findOrganizationAsOperator(db.sql, selector);
        const items = (await listMembersAsOperator(db.sql, organization)).map(
          memberWithUserResponse,
        );
        print(globals, { items, nextCursor: null }, memberTable(items));
      }),
    );

  member
    .command("add")
    .description("add a user to an organization")
    .argument("<org>", "organization id or slug")
    .argument("<user>", "user id or email")
    .requiredOption("--role <role>", "role(s), comma-separated (owner, admin, member, or custom)")
    .action((selector: string, userArgument: string, flags: { role: string }, command: Command) =>
      withContext(command, async ({ loaded, db, globals }) => {
        const organization = await findOrganizationAsOperator(db.sql, selector);
        const user = await findUser(db, userArgument);
        const added = memberResponse(
          await addMemberAsOperator(db.sql, loaded.config, organization, user, flags.role),
        );
        print(
          globals,
          added,
          `Added ${user.email} to ${organization.slug} as ${added.role} (member ${added.id}).`,
        );
      }),
    );

  member
    .command("set-role")
    .description("change a member's role")
    .argument("<org>", "organization id or slug")
    .argument("<user>", "user id or email")
    .argument("<role>", "role(s), comma-separated")
    .action(
      (selector: string, userArgument: string, role: string, _flags: unknown, command: Command) =>
        withContext(command, async ({ loaded, db, globals }) => {
          const organization = await findOrganizationAsOperator(db.sql, selector);
          const user = await findUser(db, userArgument);
          const updated = memberResponse(
            await setMemberRoleAsOperator(db.sql, loaded.config, organization, user, role),
          );
          print(globals, updated, `${user.email} is now ${updated.role} in ${organization.slug}.`);
        }),
    );

  member
    .command("remove")
    .description("remove a member (moderate: --yes off a terminal)")
    .argument("<org>", "organization id or slug")
    .argument("<user>", "user id or email")
    .action((selector: string, userArgument: string, _flags: unknown, command: Command) =>
      withContext(command, async ({ loaded, db, globals }) => {
        const organization = await findOrganizationAsOperator(db.sql, selector);
        const user = await findUser(db, userArgument);
        const confirmed = await confirmModerate(
          `Remove ${user.email} from ${organization.slug}?`,
          globals,
        );
        if (!confirmed) {
          note("Nothing removed.");
          return;
        }
        const removed = memberWithUserResponse(
          await removeMemberAsOperator(db.sql, loaded.config, organization, user),
        );
        print(
          globals,
          { removed: true, member: removed },
          `Removed ${user.email} from ${organization.slug}.`,
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

function registerInvitationCommands(org: Command): void {
  const invite = org.command("invite").description("invitations to an organization");

  invite
    .command("create")
    .description("invite an address; prints the accept URL")
    .argument("<org>", "organization id or slug")
    .requiredOption("--email <email>", "the address to invite")
    .requiredOption("--role <role>", "role(s) the invitee gets, comma-separated")
    .option("--no-send", "do not mail the invitation; only print its URL")
    .action(
      (selector: string, flags: { email: string; role: string; send: boolean }, command: Command) =>
        withContext(command, async ({ loaded, db, globals, dryRun }) => {
          const { config } = loaded;
          const organization = await findOrganizationAsOperator(db.sql, selector);
          const transport = createMailTransport(loaded);
          try {
            const origin = config.baseURL ?? `http://localhost:${config.server.port}`;
            const basePath = config.basePath === "/" ? "" : config.basePath;
            const invited = await inviteMemberAsOperator(
              { sql: db.sql, config, mailer: createMailer(config, transport) },
              { baseUrl: `${origin.replace(/\/+$/, "")}${basePath}`, logger: stderrLog },
              organization.id,
              // A dry run mails nobody: the invitation it shows is rolled back.
              { email: flags.email, role: flags.role, sendEmail: flags.send && !dryRun },
            );
            print(globals, invited, invited.url);
            if (!wantsJson(globals)) {
              note(
                invited.delivery === null
                  ? `Invited ${invited.invitation.email} (not mailed).`
                  : `Invited ${invited.invitation.email}; mail ${invited.delivery}.`,
              );
            }
          } finally {
            transport.close();
          }
        }),
    );

  invite
    .command("list")
    .description("list the invitations of an organization")
    .argument("<org>", "organization id or slug")
    .addOption(new Option("--status <status>", "only this status").choices(INVITATION_STATUSES))
    .action((selector: string, flags: { status?: InvitationStatus }, command: Command) =>
      withContext(command, async ({ db, globals }) => {
        const organization = await findOrganizationAsOperator(db.sql, selector);
        const items = await listInvitationsAsOperator(db.sql, organization.id, flags.status);
        print(
          globals,
          { items, nextCursor: null },
          formatTable(
            ["ID", "EMAIL", "ROLE", "STATUS", "EXPIRES"],
            items.map((row) => [row.id, row.email, row.role, row.status, date(row.expiresAt)]),
          ),
        );
      }),
    );
  invite
    .command("cancel")
    .description("cancel a pending invitation")
    .argument("<invitation-id>", "the invitation's id")
    .action((invitationId: string, _flags: unknown, command: Command) =>
      withContext(command, async ({ db, globals }) => {
        const canceled = await cancelInvitationAsOperator(db.sql, invitationId);
        print(
          globals,
          { canceled: true, invitation: canceled },
          `Canceled the invitation of ${canceled.email} (${canceled.id}).`,
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

function registerTeamCommands(org: Command): void {
  const team = org.command("team").description("teams of an organization");

  team
    .command("create")
    .description("create a team in an organization")
    .argument("<org>", "organization id or slug")
    .requiredOption("--name <name>", "team name, unique in the organization")
    .action((selector: string, flags: { name: string }, command: Command) =>
      withContext(command, async ({ loaded, db, globals }) => {
        requireTeamsEnabled(loaded);
        const organization = await findOrganizationAsOperator(db.sql, selector);
        const created = teamResponse(
          await createTeamAsOperator(
            { sql: db.sql, config: loaded.config },
            organization,
            flags.name,
          ),
        );
        print(
          globals,
          { created: true, team: created },
          `Created team ${created.name} (${created.id}) in ${organization.slug}.`,
        );
      }),
    );

  team
    .command("list")
    .description("list the teams of an organization")
    .argument("<org>", "organization id or slug")
    .action((selector: string, _flags: unknown, command: Command) =>
      withContext(command, async ({ loaded, db, globals }) => {
        requireTeamsEnabled(loaded);
        const organization = await findOrganizationAsOperator(db.sql, selector);
        const items = (await listTeamsAsOperator(db.sql, organization)).map(teamResponse);
        print(globals, { items, nextCursor: null }, teamTable(items));
      }),
    );

  team
    .command("rename")
    .description("rename a team")
    .argument("<org>", "organization id or slug")
    .argument("<team>", "team id or name")
    .requiredOption("--name <name>", "the new name, unique in the organization")
    .action((selector: string, teamArgument: string, flags: { name: string }, command: Command) =>
      withContext(command, async ({ loaded, db, globals }) => {
        requireTeamsEnabled(loaded);
        const organization = await findOrganizationAsOperator(db.sql, selector);
        const found = await findTeamAsOperator(db.sql, organization, teamArgument);
        const renamed = teamResponse(
          await renameTeamAsOperator(
            { sql: db.sql, config: loaded.config },
            organization,
            found,
            flags.name,
          ),
        );
        print(
          globals,
          { updated: true, team: renamed },
          `Renamed team ${found.name} to ${renamed.name} (${renamed.id}).`,
        );
      }),
    );

  team
    .command("remove")
    .description("remove a team and its memberships (moderate: --yes off a terminal)")
    .argument("<org>", "organization id or slug")
    .argument("<team>", "team id or name")
    .action((selector: string, teamArgument: string, _flags: unknown, command: Command) =>
      withContext(command, async ({ loaded, db, globals }) => {
        requireTeamsEnabled(loaded);
        const organization = await findOrganizationAsOperator(db.sql, selector);
        const found = await findTeamAsOperator(db.sql, organization, teamArgument);
        const confirmed = await confirmModerate(
          `Remove team ${found.name} from ${organization.slug}?`,
          globals,
        );
        if (!confirmed) {
          note("Nothing removed.");
          return;
        }
        const removed = teamResponse(
          await removeTeamAsOperator({ sql: db.sql, config: loaded.config }, organization, found),
        );
        print(
          globals,
          { removed: true, team: removed },
          `Removed team ${removed.name} (${removed.id}) from ${organization.slug}.`,
        );
      }),
    );

  const teamMember = team.command("member").description("members of a team");

  teamMember
    .command("add")
    .description("put a member of the organization in a team")
    .argument("<org>", "organization id or slug")
    .argument("<team>", "team id or name")
    .argument("<user>", "user id or email")
    .action(
      (
        selector: string,
        teamArgument: string,
        userArgument: string,
        _flags: unknown,
        command: Command,
      ) =>
        withContext(command, async ({ loaded, db, globals }) => {
          requireTeamsEnabled(loaded);
          const organization = await findOrganizationAsOperator(db.sql, selector);
          const found = await findTeamAsOperator(db.sql, organization, teamArgument);
          const user = await findUser(db, userArgument);
          const { member, added } = await addTeamMemberAsOperator(
            { sql: db.sql, config: loaded.config },
            organization,
            found,
            user.id,
          );
          print(
            globals,
            { added, member: teamMemberResponse(member) },
            added
              ? `Added ${user.email} to team ${found.name}.`
              : `${user.email} is already in team ${found.name}; nothing changed.`,
          );
        }),
    );

  teamMember
    .command("remove")
    .description("take a user out of a team")
    .argument("<org>", "organization id or slug")
    .argument("<team>", "team id or name")
    .argument("<user>", "user id or email")
    .action(
      (
        selector: string,
        teamArgument: string,
        userArgument: string,
        _flags: unknown,
        command: Command,
      ) =>
        withContext(command, async ({ loaded, db, globals }) => {
          requireTeamsEnabled(loaded);
          const organization = await findOrganizationAsOperator(db.sql, selector);
          const found = await findTeamAsOperator(db.sql, organization, teamArgument);
          const user = await findUser(db, userArgument);
          await removeTeamMemberAsOperator(
            { sql: db.sql, config: loaded.config },
            organization,
            found,
            user.id,
          );
          print(
            globals,
            { removed: true, teamId: found.id, userId: user.id },
            `Removed ${user.email} from team ${found.name}.`,
          );
        }),
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
