/** `authd org invite …`: create, list and cancel the invitations of an organization. */
import { type Command, Option } from "commander";
import {
  cancelInvitation,
  findPendingInvitation,
  listInvitations,
} from "../../server/invitations/invitations.js";
import { inviteMember } from "../../server/invitations/invite.js";
import { INVITATION_STATUSES, type InvitationStatus } from "../../server/invitations/queries.js";
import type { LogSink } from "../../server/logger.js";
import { createMailer } from "../../server/mail/mailer.js";
import { createMailTransport } from "../../server/mail/transport.js";
import { findOrganizationByIdOrSlug } from "../../server/organization/organization.js";
import { findTeamByIdOrName } from "../../server/teams/teams.js";
import { didOrWould, emit, formatTable, note } from "../output.js";
import { date, print, requireTeamsEnabled, run, subcommand } from "./org-shared.js";
import { confirmModerate } from "./shared.js";
import { parseDuration } from "./user.js";

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

export function registerInvitationCommands(org: Command): void {
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

  subcommand(
    invite,
    "cancel <invitation-id>",
    "cancel a pending invitation (moderate: --yes off a terminal)",
  ).action(
    run<[string]>(async ({ loaded, db, actor, globals }, [invitationId]) => {
      const pending = await findPendingInvitation(db.sql, invitationId);
      const confirmed = await confirmModerate(
        `Cancel the invitation of ${pending.email}?`,
        globals,
      );
      if (!confirmed) {
        note("Nothing canceled.");
        return;
      }
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
