/**
 * Validation of a seed document: the whole file, against the configuration and the
 * database, before any write. Answers the prepared seed (passwords read, defaults
 * applied) or throws VALIDATION_ERROR listing every issue with its path in the file.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { z } from "zod";
import { knownRoles } from "../admin/access.js";
import type { AuthdConfig } from "../config.js";
import type { Queryable } from "../db/connection.js";
import { isCreatorRole, requireKnownRoles, unknownRoles } from "../organization/permissions.js";
import type { UserRow } from "../users/queries.js";
import { checkPasswordLength, findUsersByEmails } from "../users/users.js";
import {
  formatPath,
  invalidFile,
  refusal,
  type SeedIssue,
  type SeedOrganization,
  type SeedUser,
  seedOrganization,
  seedTop,
  seedUser,
  teamsOf,
} from "./schema.js";

export interface SeedContext {
  sql: Queryable;
  config: AuthdConfig;
  /** The variables `fromEnv` may name (the shell's over ./.env). */
  env: Record<string, string | undefined>;
  /** Where `{file: ...}` paths are resolved from: the seed file's directory, or cwd. */
  baseDir: string;
  /** `db seed --password-file`: the password of users whose `password` is `true`. */
  defaultPassword?: string;
}

/** When an invitation expires: seconds from the write, or a fixed time. */
export type InvitationExpiry = { seconds: number } | { at: Date };

/** A validated seed: passwords read (plain text or hash), defaults applied. */
export interface PreparedSeed {
  users: Array<SeedUser & { secret?: { plain: string } | { hash: string } }>;
  organizations: Array<SeedOrganization & { invitationExpiry: InvitationExpiry[] }>;
  /** Users the file refers to but does not list, found in the database. */
  referencedUsers: Map<string, UserRow>;
}

export async function validateSeed(raw: unknown, context: SeedContext): Promise<PreparedSeed> {
  const issues: SeedIssue[] = [];
  const add = (parts: ReadonlyArray<PropertyKey>, message: string) =>
    issues.push({ path: formatPath(parts), message });
  const collect = (prefix: PropertyKey[], error: z.ZodError) => {
    for (const issue of error.issues) add([...prefix, ...issue.path], issue.message);
  };

  const top = seedTop.safeParse(raw);
  if (!top.success) {
    collect([], top.error);
    throw invalidFile(issues);
  }

  const users: PreparedSeed["users"] = [];
  const userIndex = new Map<string, number>();
  const known = knownRoles(context.config);
  const { minPasswordLength, maxPasswordLength } = context.config.emailAndPassword;
  // The length rule of every password authd sets, told with the settings that bound it.
  const passwordFits = (plain: string) =>
    refusal(() => checkPasswordLength(context.config, plain)) === undefined;
  const passwordLength = `password must have ${minPasswordLength} to ${maxPasswordLength} characters (emailAndPassword settings)`;
  const accountKeys = new Map<string, string>();
  const { defaultPassword } = context;
  const defaultPasswordOk = defaultPassword === undefined || passwordFits(defaultPassword);
  if (!defaultPasswordOk) add(["--password-file"], passwordLength);

  for (const [index, item] of (top.data.users ?? []).entries()) {
    const parsed = seedUser.safeParse(item);
    if (!parsed.success) {
      collect(["users", index], parsed.error);
      continue;
    }
    const user: PreparedSeed["users"][number] = parsed.data;
    const first = userIndex.get(user.email);
    if (first !== undefined) {
      add(["users", index, "email"], `duplicate of users[${first}] ("${user.email}")`);
      continue;
    }
    userIndex.set(user.email, index);
    if (user.role !== undefined && !known.has(user.role)) {
      add(
        ["users", index, "role"],
        `unknown platform role "${user.role}" (known: ${[...known].join(", ")})`,
      );
    }
    for (const [accountIndex, account] of (user.accounts ?? []).entries()) {
      const key = `${account.providerId}:${account.accountId}`;
      const seen = accountKeys.get(key);
      if (seen) add(["users", index, "accounts", accountIndex], `duplicate of ${seen} (${key})`);
      else accountKeys.set(key, formatPath(["users", index, "accounts", accountIndex]));
    }
    const source = user.password;
    if (source) {
      const where = ["users", index, "password"];
      let plain: string | undefined;
      if ("hash" in source) user.secret = { hash: source.hash };
      else if ("flag" in source) {
        if (defaultPassword === undefined) {
          add(where, "password: true takes the password of --password-file, which was not given");
        } else if (defaultPasswordOk) user.secret = { plain: defaultPassword };
      } else if ("fromEnv" in source) {
        plain = context.env[source.fromEnv];
        if (plain === undefined || plain === "") {
          add([...where, "fromEnv"], `environment variable ${source.fromEnv} is not set`);
        }
      } else {
        const file = path.resolve(context.baseDir, source.file);
        try {
          // One trailing newline is the editor's, not the password's.
          plain = (await readFile(file, "utf8")).replace(/\r?\n$/, "");
        } catch (error) {
          const code = (error as { code?: string }).code ?? "unreadable";
          add([...where, "file"], `cannot read ${file} (${code})`);
        }
      }
      if (plain !== undefined && plain !== "") {
        if (!passwordFits(plain)) add(where, passwordLength);
        else user.secret = { plain };
      }
    }
    users.push(user);
  }

  const organizations: PreparedSeed["organizations"] = [];
  const slugIndex = new Map<string, number>();
  const references: Array<{ email: string; parts: PropertyKey[] }> = [];
  const { creatorRole } = context.config.organization;
  // The organization's role rule (requireKnownRoles), told with the roles it lacks.
  const checkRole = (parts: PropertyKey[], role: string) => {
    if (refusal(() => requireKnownRoles(context.config, role)) === undefined) return;
    const unknown = unknownRoles(context.config, role);
    add(parts, unknown.length > 0 ? `unknown role "${unknown.join(", ")}"` : "expected a role");
  };

  for (const [index, item] of (top.data.organizations ?? []).entries()) {
    const parsed = seedOrganization.safeParse(item);
    if (!parsed.success) {
      collect(["organizations", index], parsed.error);
      continue;
    }
    const organization = parsed.data;
    const at = (...parts: PropertyKey[]) => ["organizations", index, ...parts];
    const first = slugIndex.get(organization.slug);
    if (first !== undefined) {
      add(at("slug"), `duplicate of organizations[${first}] ("${organization.slug}")`);
      continue;
    }
    slugIndex.set(organization.slug, index);
    references.push({ email: organization.owner, parts: at("owner") });

    // Teams are created only where the configuration has them: a file that lists
    // teams otherwise is refused, rather than reported as created and then ignored.
    if (
      organization.teams &&
      organization.teams.length > 0 &&
      !context.config.organization.teams.enabled
    ) {
      add(
        at("teams"),
        "teams are disabled: set organization.teams.enabled to true in the configuration, or remove the teams",
      );
    }
    const teamNames = new Set<string>();
    for (const [teamIndex, team] of (organization.teams ?? []).entries()) {
      if (teamNames.has(team.name))
        add(at("teams", teamIndex, "name"), `duplicate team "${team.name}"`);
      teamNames.add(team.name);
    }
    const checkTeams = (where: PropertyKey[], item: { team?: string; teams?: string[] }) => {
      const field = item.teams ? "teams" : "team";
      for (const name of teamsOf(item)) {
        if (!teamNames.has(name)) {
          add([...where, field], `team "${name}" is not listed in organizations[${index}].teams`);
        }
      }
    };
    const memberEmails = new Set<string>();
    for (const [memberIndex, member] of (organization.members ?? []).entries()) {
      const where = at("members", memberIndex);
      references.push({ email: member.user, parts: [...where, "user"] });
      if (memberEmails.has(member.user)) {
        add([...where, "user"], `"${member.user}" is listed twice`);
      }
      memberEmails.add(member.user);
      checkRole([...where, "role"], member.role);
      if (member.user === organization.owner && !isCreatorRole(context.config, member.role)) {
        add([...where, "role"], `the owner's role must include "${creatorRole}"`);
      }
      checkTeams(where, member);
    }
    const invited = new Set<string>();
    const invitationExpiry: InvitationExpiry[] = [];
    for (const [invitationIndex, invitation] of (organization.invitations ?? []).entries()) {
      const where = at("invitations", invitationIndex);
      if (invited.has(invitation.email))
        add([...where, "email"], `"${invitation.email}" is invited twice`);
      invited.add(invitation.email);
      if (memberEmails.has(invitation.email) || invitation.email === organization.owner) {
        add(
          [...where, "email"],
          `"${invitation.email}" is already a member of "${organization.slug}"`,
        );
      }
      checkRole([...where, "role"], invitation.role);
      checkTeams(where, invitation);
      if (invitation.expiresAt !== undefined) {
        const at = new Date(invitation.expiresAt);
        if (at.getTime() <= Date.now()) add([...where, "expiresAt"], "is in the past");
        invitationExpiry.push({ at });
      } else {
        invitationExpiry.push({
          seconds: invitation.expiresIn ?? context.config.organization.invitationExpiresIn,
        });
      }
    }
    organizations.push({ ...organization, invitationExpiry });
  }

  // References resolve to a user in the file or already in the database.
  const outside = [...new Set(references.map((r) => r.email).filter((e) => !userIndex.has(e)))];
  const found = new Map(
    (await findUsersByEmails(context.sql, outside)).map((row) => [row.email, row] as const),
  );
  for (const reference of references) {
    if (!userIndex.has(reference.email) && !found.has(reference.email)) {
      add(
        reference.parts,
        `unknown user "${reference.email}" (not in the file's users nor in the database)`,
      );
    }
  }

  if (issues.length > 0) throw invalidFile(issues);
  return { users, organizations, referencedUsers: found };
}
