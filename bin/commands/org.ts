/**
 * `authd org …`: organizations, members, invitations and teams from the shell, acting as
 * the operator. Each command calls the same domain function as the HTTP route, with the
 * operator as its actor; audit events say actor_type "cli". This file holds the `org`
 * command and its organization subcommands; the groups are in org-members.ts,
 * org-invites.ts and org-teams.ts.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { type Command, Option } from "commander";
import { resolveUser } from "../../server/admin/admin.js";
import { AuthError } from "../../server/errors.js";
import { organizationBlastRadius } from "../../server/organization/blast-radius.js";
import {
  createOrganization,
  deleteOrganization,
  findOrganizationByIdOrSlug,
  listAllMembers,
  listOrganizations,
  memberResponse,
  memberWithUserResponse,
  organizationResponse,
  updateOrganization,
} from "../../server/organization/organization.js";
import { UsageError } from "../exit-codes.js";
import { didOrWould, formatTable } from "../output.js";
import { registerInvitationCommands } from "./org-invites.js";
import { memberTable, registerMemberCommands } from "./org-members.js";
import { date, print, run, subcommand } from "./org-shared.js";
import { registerTeamCommands } from "./org-teams.js";
import { matchConfirm, requireConfirm } from "./shared.js";

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

function organizationTable(rows: ReturnType<typeof organizationResponse>[]): string {
  return formatTable(
    ["ID", "SLUG", "NAME", "CREATED"],
    rows.map((row) => [row.id, row.slug, row.name, date(row.createdAt)]),
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
          requireConfirm(
            flags.confirm,
            dryRun,
            "deleting an organization needs --confirm=<slug> (even with --yes); --dry-run shows what would be removed",
          );
          const organization = await findOrganizationByIdOrSlug(db.sql, selector);
          matchConfirm(
            flags.confirm,
            organization.slug,
            `--confirm=${flags.confirm} does not match the organization's slug (${organization.slug})`,
          );
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

export function registerOrg(program: Command): void {
  const org = program
    .command("org")
    .description("organizations, members, invitations and teams (as the operator)");
  registerOrganizationCommands(org);
  registerMemberCommands(org);
  registerInvitationCommands(org);
  registerTeamCommands(org);
}
