/**
 * Seed files: parse, validate the whole file,
 * plan by natural keys (email, slug, team name) and apply in one transaction. No CLI
 * concerns here: bin/commands/seed.ts reads the file, shows progress and prints.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import {
  CREDENTIAL_PROVIDER,
  findAccountsByProviderKeys,
  findCredentialAccountsOfUsers,
  insertAccounts,
  type NewAccount,
  setCredentialPassword,
} from "../accounts/queries.js";
import { recordAuditEvent } from "../audit/audit.js";
import type { AuthdConfig } from "../config.js";
import { createPasswordHasher, detectHashFormat, type PasswordHasher } from "../crypto/password.js";
import { generateId } from "../crypto/random.js";
import type { Queryable, Sql } from "../db/connection.js";
import { transaction } from "../db/transaction.js";
import { AuthError, type ErrorCode } from "../errors.js";
import {
  insertInvitation,
  listPendingInvitationsOfOrganizations,
  setInvitationRole,
} from "../invitations/queries.js";
import { metadataProblem } from "../organization/organization.js";
import { joinRoles, splitRoles, unknownRoles } from "../organization/permissions.js";
import {
  findOrganizationsBySlugs,
  insertMembers,
  insertOrganization,
  listMembersOfOrganizations,
  type MemberRow,
  type OrganizationRow,
  updateMemberRoleRow,
  updateOrganizationRow,
} from "../organization/queries.js";
import {
  insertTeam,
  insertTeamMembers,
  listMembersOfTeams,
  listTeamsOfOrganizations,
  type TeamRow,
} from "../teams/queries.js";
import {
  findUsersByEmails,
  insertUsers,
  type NewUser,
  type UserRow,
  updateUserSeedFields,
} from "../users/queries.js";
import { requireValidEmail } from "../users/users.js";
import { assembleSeedLines, looksLikeSeedLines } from "./document.js";

/** Rows per multi-row INSERT: well under PostgreSQL's 65,535 parameters. */
export const SEED_BATCH_SIZE = 500;

export const IF_EXISTS = ["skip", "update", "fail"] as const;
export type IfExists = (typeof IF_EXISTS)[number];

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

// ---------------------------------------------------------------------------------
// Parsing.

/**
 * Parses the text of a seed file: YAML for `.yaml`/`.yml` files, JSON for `.json`, JSONL
 * (server/seed/document.ts) for `.jsonl`/`.ndjson`; from stdin, JSONL when the first line
 * is an object with a `kind`, JSON when the text starts with `{`, YAML otherwise.
 */
export function parseSeedText(text: string, source: string): unknown {
  const asLines =
    /\.(jsonl|ndjson)$/i.test(source) ||
    (!/\.(json|ya?ml)$/i.test(source) && looksLikeSeedLines(text));
  if (asLines) {
    const assembled = assembleSeedLines(text);
    if (assembled.issues.length > 0) throw invalidFile(assembled.issues, source);
    return "document" in assembled ? assembled.document : {};
  }
  const asJson = /\.json$/i.test(source) || (!/\.ya?ml$/i.test(source) && /^\s*\{/.test(text));
  if (asJson) {
    try {
      return JSON.parse(text);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw seedInvalid(`${source}: not valid JSON: ${reason}`);
    }
  }
  try {
    // YAML 1.2 core schema: no custom tags, so a seed file cannot construct objects.
    return parseYaml(text, { schema: "core", prettyErrors: true, maxAliasCount: 100 });
  } catch (error) {
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw seedInvalid(`${source}: not valid YAML: ${reason}`);
  }
}

// ---------------------------------------------------------------------------------
// The seed file format, one item at a time so every item's errors
// are reported even when another item is malformed.

/** The address rule of every other way in (requireValidEmail): the same addresses pass. */
const email = z.string({ error: "expected an email address" }).transform((value, ctx) => {
  try {
    return requireValidEmail(value);
  } catch {
    ctx.addIssue({ code: "custom", message: "not a valid email address" });
    return z.NEVER;
  }
});

/** `true`: the password of `db seed --password-file`. */
type PasswordSource = { fromEnv: string } | { file: string } | { hash: string } | { flag: true };

const PASSWORD_SHAPES =
  'use {"fromEnv": "NAME"}, {"file": "path"}, {"hash": "$argon2id$..."} or true (the --password-file password)';

const password = z.unknown().transform((value, ctx): PasswordSource => {
  if (value === true) return { flag: true };
  if (typeof value === "string") {
    ctx.addIssue({
      code: "custom",
      message: `a plain-text password is refused (it would sit in the file); ${PASSWORD_SHAPES}`,
    });
    return z.NEVER;
  }
  const keys = value && typeof value === "object" ? Object.keys(value) : [];
  const record = value as Record<string, unknown>;
  const key = keys[0];
  if (keys.length !== 1 || (key !== "fromEnv" && key !== "file" && key !== "hash")) {
    ctx.addIssue({
      code: "custom",
      message: `expected exactly one password source: ${PASSWORD_SHAPES}`,
    });
    return z.NEVER;
  }
  const text = record[key];
  if (typeof text !== "string" || text.length === 0) {
    ctx.addIssue({ code: "custom", path: [key], message: "expected a non-empty string" });
    return z.NEVER;
  }
  if (key === "hash" && detectHashFormat(text) === undefined) {
    ctx.addIssue({
      code: "custom",
      path: [key],
      message:
        'expected a hash authd verifies: argon2id ("$argon2id$v=19$m=..."), bcrypt ("$2b$10$...") or scrypt ("<salt hex>:<key hex>")',
    });
    return z.NEVER;
  }
  return { [key]: text } as PasswordSource;
});

const seedUser = z.strictObject({
  email,
  name: z.string().max(255).optional(),
  emailVerified: z.boolean().optional(),
  role: z.string().trim().min(1).optional(),
  password: password.optional(),
  accounts: z
    .array(
      z.strictObject({
        providerId: z
          .string()
          .trim()
          .min(1)
          .refine((id) => id !== CREDENTIAL_PROVIDER, {
            error: `"${CREDENTIAL_PROVIDER}" is the password account: set the user's password instead`,
          }),
        accountId: z.string().trim().min(1),
      }),
    )
    .optional(),
});

/** "48h", "7d", "30m", "90s", "3600" or 3600: seconds. */
const duration = z.union([z.number(), z.string()]).transform((value, ctx): number => {
  const match = typeof value === "string" ? /^\s*(\d+)\s*([smhd]?)\s*$/.exec(value) : null;
  const unit = { "": 1, s: 1, m: 60, h: 3600, d: 86400 } as const;
  const seconds =
    typeof value === "number"
      ? value
      : match
        ? Number(match[1]) * unit[(match[2] ?? "") as keyof typeof unit]
        : Number.NaN;
  if (!Number.isInteger(seconds) || seconds <= 0) {
    ctx.addIssue({ code: "custom", message: 'expected a duration such as "48h", "7d" or seconds' });
    return z.NEVER;
  }
  return seconds;
});

const teamName = z.string().trim().min(1);

const seedOrganization = z.strictObject({
  slug: z.string().regex(SLUG_PATTERN, {
    error: "expected lowercase letters, digits and single hyphens (e.g. acme-corp)",
  }),
  name: z.string().trim().min(1).max(255),
  owner: email,
  logo: z.string().max(2048).nullable().optional(),
  metadata: z
    .record(z.string(), z.unknown())
    .superRefine((value, ctx) => {
      const problem = metadataProblem(value);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    })
    .nullable()
    .optional(),
  members: z
    .array(
      z
        .strictObject({
          user: email,
          role: z.string().trim().min(1),
          team: teamName.optional(),
          teams: z.array(teamName).min(1).optional(),
        })
        .refine((member) => member.team === undefined || member.teams === undefined, {
          error: 'give either "team" or "teams", not both',
        }),
    )
    .optional(),
  teams: z.array(z.strictObject({ name: z.string().trim().min(1).max(255) })).optional(),
  invitations: z
    .array(
      z
        .strictObject({
          email,
          role: z.string().trim().min(1),
          expiresIn: duration.optional(),
          expiresAt: z.iso
            .datetime({ offset: true, error: "expected an ISO 8601 time" })
            .optional(),
          team: teamName.optional(),
          teams: z.array(teamName).min(1).optional(),
        })
        .refine(
          (invitation) => invitation.expiresIn === undefined || invitation.expiresAt === undefined,
          {
            error: 'give either "expiresIn" or "expiresAt", not both',
          },
        )
        .refine((invitation) => invitation.team === undefined || invitation.teams === undefined, {
          error: 'give either "team" or "teams", not both',
        }),
    )
    .optional(),
});

/** A member's or invitation's teams, from `team` or `teams`. */
export function teamsOf(item: { team?: string; teams?: string[] }): string[] {
  return item.teams ?? (item.team === undefined ? [] : [item.team]);
}

const seedTop = z.strictObject({
  version: z.literal(1, { error: "expected version: 1" }),
  users: z.array(z.unknown()).optional(),
  organizations: z.array(z.unknown()).optional(),
});

export type SeedUser = z.output<typeof seedUser>;
export type SeedOrganization = z.output<typeof seedOrganization>;

export interface SeedIssue {
  /** JSON path, e.g. organizations[2].members[0].user */
  path: string;
  message: string;
}

export function formatPath(parts: ReadonlyArray<PropertyKey>): string {
  let text = "";
  for (const part of parts) {
    if (typeof part === "number") text += `[${part}]`;
    else text += text ? `.${String(part)}` : String(part);
  }
  return text || "(file)";
}

function seedInvalid(message: string, issues?: SeedIssue[]): AuthError {
  return new AuthError("VALIDATION_ERROR", {
    message,
    details: issues ? { issues } : undefined,
  });
}

// ---------------------------------------------------------------------------------
// Validation: the whole file, against the configuration and the database, before any
// write. Answers the prepared seed or throws VALIDATION_ERROR listing every issue.

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

function platformRoles(config: AuthdConfig): Set<string> {
  return new Set(["user", "admin", config.admin.defaultRole, ...config.admin.adminRoles]);
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
  const known = platformRoles(context.config);
  const { minPasswordLength, maxPasswordLength } = context.config.emailAndPassword;
  const accountKeys = new Map<string, string>();
  const { defaultPassword } = context;
  const defaultPasswordOk =
    defaultPassword === undefined ||
    (defaultPassword.length >= minPasswordLength && defaultPassword.length <= maxPasswordLength);
  if (!defaultPasswordOk) {
    add(
      ["--password-file"],
      `password must have ${minPasswordLength} to ${maxPasswordLength} characters (emailAndPassword settings)`,
    );
  }

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
        if (plain.length < minPasswordLength || plain.length > maxPasswordLength) {
          add(
            where,
            `password must have ${minPasswordLength} to ${maxPasswordLength} characters (emailAndPassword settings)`,
          );
        } else user.secret = { plain };
      }
    }
    users.push(user);
  }

  const organizations: PreparedSeed["organizations"] = [];
  const slugIndex = new Map<string, number>();
  const references: Array<{ email: string; parts: PropertyKey[] }> = [];
  const { creatorRole } = context.config.organization;
  const checkRole = (parts: PropertyKey[], role: string) => {
    const unknown = unknownRoles(context.config, role);
    if (unknown.length > 0) add(parts, `unknown role "${unknown.join(", ")}"`);
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
      if (member.user === organization.owner && !splitRoles(member.role).includes(creatorRole)) {
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

function invalidFile(issues: SeedIssue[], source?: string): AuthError {
  const lines = issues.map((issue) => `  ${issue.path}: ${issue.message}`).join("\n");
  return seedInvalid(
    `${source ? `${source}: ` : ""}seed file is invalid (${issues.length} problem${issues.length === 1 ? "" : "s"}); nothing was written:\n${lines}`,
    issues,
  );
}

// ---------------------------------------------------------------------------------
// Plan and apply.

export type SeedStatus = "created" | "updated" | "unchanged";
export interface SeedEntry {
  /** null for rows a dry run would create. */
  id: string | null;
  status: SeedStatus;
}
export const SEED_KINDS = [
  "users",
  "accounts",
  "organizations",
  "teams",
  "members",
  "invitations",
] as const;
export type SeedKind = (typeof SEED_KINDS)[number];
export type SeedReport = Record<SeedKind, Record<string, SeedEntry>>;

export interface SeedProgress {
  phase: "hash" | "verify" | "write";
  done: number;
  total: number;
}

export interface ApplyOptions {
  ifExists: IfExists;
  dryRun?: boolean;
  /**
   * Test data only: hash each distinct plain password once per run and give every user
   * with that password the same hash (same salt), which reveals who shares a password.
   */
  sharePasswordHashes?: boolean;
  onProgress?: (progress: SeedProgress) => void;
}

export function countReport(report: SeedReport): Record<SeedKind, Record<SeedStatus, number>> {
  const counts = {} as Record<SeedKind, Record<SeedStatus, number>>;
  for (const kind of SEED_KINDS) {
    const tally = { created: 0, updated: 0, unchanged: 0 };
    for (const entry of Object.values(report[kind])) tally[entry.status] += 1;
    counts[kind] = tally;
  }
  return counts;
}

/** Object keys sorted, so jsonb's key order does not count as a change. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item) =>
    item && typeof item === "object" && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

function sameRoles(a: string, b: string): boolean {
  return joinRoles([...splitRoles(a)].sort()) === joinRoles([...splitRoles(b)].sort());
}

function conflict(code: ErrorCode, kind: string, key: string): AuthError {
  return new AuthError(code, {
    message: `${kind} "${key}" already exists (--if-exists fail); nothing was written`,
    details: { kind, key },
  });
}

/** What the database holds for the file's natural keys. */
interface ExistingState {
  users: Map<string, UserRow>;
  credentials: Map<string, string | null>;
  accounts: Map<string, { userId: string; id: string }>;
  organizations: Map<string, OrganizationRow>;
  members: Map<string, MemberRow>;
  teams: Map<string, TeamRow>;
  teamMembers: Set<string>;
  invitations: Map<string, { id: string; role: string }>;
}

/** The emails organizations refer to (owners, members). */
function referencedEmails(seed: PreparedSeed): string[] {
  const emails = new Set<string>();
  for (const organization of seed.organizations) {
    emails.add(organization.owner);
    for (const member of organization.members ?? []) emails.add(member.user);
  }
  return [...emails];
}

async function readExisting(sql: Queryable, seed: PreparedSeed): Promise<ExistingState> {
  const emails = [...new Set([...seed.users.map((user) => user.email), ...referencedEmails(seed)])];
  const users = new Map((await findUsersByEmails(sql, emails)).map((row) => [row.email, row]));
  const userIds = [...users.values()].map((row) => row.id);
  const credentials = new Map(
    (await findCredentialAccountsOfUsers(sql, userIds)).map((row) => [row.userId, row.password]),
  );
  const keys = seed.users.flatMap((user) => user.accounts ?? []);
  const accounts = new Map(
    (await findAccountsByProviderKeys(sql, keys)).map((row) => [
      `${row.providerId}:${row.accountId}`,
      { userId: row.userId, id: row.id },
    ]),
  );
  const organizations = new Map(
    (
      await findOrganizationsBySlugs(
        sql,
        seed.organizations.map((o) => o.slug),
      )
    ).map((row) => [row.slug, row]),
  );
  const organizationIds = [...organizations.values()].map((row) => row.id);
  const members = new Map(
    (await listMembersOfOrganizations(sql, organizationIds)).map((row) => [
      `${row.organizationId}/${row.userId}`,
      row,
    ]),
  );
  const teamRows = await listTeamsOfOrganizations(sql, organizationIds);
  const teams = new Map(teamRows.map((row) => [`${row.organizationId}/${row.name}`, row]));
  const teamMembers = new Set(
    (
      await listMembersOfTeams(
        sql,
        teamRows.map((row) => row.id),
      )
    ).map((row) => `${row.teamId}/${row.userId}`),
  );
  const invitations = new Map(
    (await listPendingInvitationsOfOrganizations(sql, organizationIds)).map((row) => [
      `${row.organizationId}/${row.email}`,
      { id: row.id, role: row.role },
    ]),
  );
  return { users, credentials, accounts, organizations, members, teams, teamMembers, invitations };
}

/**
 * The writes the file asks for, given what exists. Passwords of new users (and, with
 * --if-exists update, changed ones) are hashed by `preparePasswords` first.
 */
interface Plan {
  report: SeedReport;
  /** Email -> id of every user the plan knows (existing or to be created). */
  userIds: Map<string, string>;
  newUsers: NewUser[];
  userUpdates: Array<{ id: string; name?: string; emailVerified?: boolean; role?: string }>;
  passwordUpdates: Array<{ userId: string; hash: string; hasAccount: boolean }>;
  newAccounts: NewAccount[];
  /** Everything after users, in dependency order, against the ids chosen here. */
  organizationWrites: Array<(tx: Queryable) => Promise<void>>;
  newMembers: Array<Pick<MemberRow, "id" | "organizationId" | "userId" | "role">>;
  memberRoleUpdates: Array<{ id: string; role: string }>;
  newTeamMembers: Array<{ id: string; teamId: string; userId: string }>;
  invitationWrites: Array<(tx: Queryable) => Promise<void>>;
}

/**
 * Remembers hashes and verifications across plans (the dry plan and the real one, or
 * the items of --continue-on-error), so no password is hashed or checked twice.
 */
export interface PasswordWork {
  /** Email -> the hash made for that user. */
  hashes: Map<string, string>;
  /** `stored hash \0 plain` -> whether it verifies. */
  verified: Map<string, Promise<boolean>>;
  /** --share-password-hashes: plain password -> its one hash of this run. */
  shared: Map<string, Promise<string>>;
  /** This run's hashing: one hash per core at a time, however many users the seed has. */
  passwords: PasswordHasher;
}

export function newPasswordWork(): PasswordWork {
  return {
    hashes: new Map(),
    verified: new Map(),
    shared: new Map(),
    passwords: createPasswordHasher(),
  };
}

function verifyKey(stored: string, plain: string): string {
  return `${stored}\0${plain}`;
}

/**
 * Hashes what the seed needs hashed, concurrently: the run's hasher runs one argon2id hash
 * per core at a time (on libuv's thread pool) and queues the rest. New users with a
 * plain password need a hash; with --if-exists update, existing users' passwords are
 * verified against the stored hash first and hashed only when they differ.
 */
async function preparePasswords(
  seed: PreparedSeed,
  existing: ExistingState,
  options: ApplyOptions,
  work: PasswordWork,
): Promise<void> {
  const { ifExists, dryRun = false } = options;
  const toHash: Array<{ email: string; plain: string }> = [];
  const toVerify: Array<{ email: string; stored: string; plain: string }> = [];
  for (const user of seed.users) {
    if (!user.secret || !("plain" in user.secret)) continue;
    const { plain } = user.secret;
    const row = existing.users.get(user.email);
    if (!row) {
      if (!dryRun && !work.hashes.has(user.email)) toHash.push({ email: user.email, plain });
      continue;
    }
    if (ifExists !== "update") continue;
    const stored = existing.credentials.get(row.id);
    if (stored) toVerify.push({ email: user.email, stored, plain });
    else if (!dryRun && !work.hashes.has(user.email)) toHash.push({ email: user.email, plain });
  }
  // Only checks not made yet by an earlier plan of this run count as progress.
  const fresh = toVerify.filter((item) => !work.verified.has(verifyKey(item.stored, item.plain)));
  if (fresh.length > 0) {
    let done = 0;
    await Promise.all(
      fresh.map(async ({ stored, plain }) => {
        const key = verifyKey(stored, plain);
        let pending = work.verified.get(key);
        if (!pending) {
          pending = work.passwords.verify(stored, plain);
          work.verified.set(key, pending);
        }
        await pending;
        options.onProgress?.({ phase: "verify", done: ++done, total: fresh.length });
      }),
    );
  }
  if (toVerify.length > 0) {
    for (const item of toVerify) {
      const same = await work.verified.get(verifyKey(item.stored, item.plain));
      if (!dryRun && !same && !work.hashes.has(item.email)) toHash.push(item);
    }
  }
  if (toHash.length === 0) return;
  let done = 0;
  await Promise.all(
    toHash.map(async ({ email: address, plain }) => {
      let hash: Promise<string>;
      if (options.sharePasswordHashes) {
        const known = work.shared.get(plain);
        hash = known ?? work.passwords.hash(plain);
        if (!known) work.shared.set(plain, hash);
      } else hash = work.passwords.hash(plain);
      work.hashes.set(address, await hash);
      options.onProgress?.({ phase: "hash", done: ++done, total: toHash.length });
    }),
  );
}

export interface PlanOptions extends ApplyOptions {
  /** Users created by earlier items of the same run (a dry run's are not in the database). */
  knownUserIds?: ReadonlyMap<string, string>;
}

async function plan(
  seed: PreparedSeed,
  existing: ExistingState,
  config: AuthdConfig,
  options: PlanOptions,
  work: PasswordWork,
): Promise<Plan> {
  const { ifExists, dryRun = false } = options;
  const report = emptyReport();
  const result: Plan = {
    report,
    userIds: new Map(options.knownUserIds ?? []),
    newUsers: [],
    userUpdates: [],
    passwordUpdates: [],
    newAccounts: [],
    organizationWrites: [],
    newMembers: [],
    memberRoleUpdates: [],
    newTeamMembers: [],
    invitationWrites: [],
  };

  // Fail fast, before any hashing: the first existing natural key in dependency order.
  if (ifExists === "fail") {
    const user = seed.users.find((u) => existing.users.has(u.email));
    if (user) throw conflict("USER_ALREADY_EXISTS", "user", user.email);
    const organization = seed.organizations.find((o) => existing.organizations.has(o.slug));
    if (organization) {
      throw conflict("ORGANIZATION_ALREADY_EXISTS", "organization", organization.slug);
    }
  }
  for (const user of seed.users) {
    for (const account of user.accounts ?? []) {
      const key = `${account.providerId}:${account.accountId}`;
      const found = existing.accounts.get(key);
      const owner = existing.users.get(user.email);
      if (found && found.userId !== owner?.id) {
        throw new AuthError("LINKED_ACCOUNT_ALREADY_EXISTS", {
          message: `account ${key} already belongs to another user; nothing was written`,
          details: { key },
        });
      }
    }
  }

  await preparePasswords(seed, existing, options, work);

  const { userIds } = result;
  for (const row of existing.users.values()) userIds.set(row.email, row.id);
  for (const user of seed.users) {
    const row = existing.users.get(user.email);
    const hash = user.secret
      ? "hash" in user.secret
        ? user.secret.hash
        : (work.hashes.get(user.email) ?? null)
      : null;
    if (!row) {
      const id = generateId();
      userIds.set(user.email, id);
      result.newUsers.push({
        id,
        email: user.email,
        name: user.name ?? "",
        emailVerified: user.emailVerified ?? false,
        role: user.role ?? config.admin.defaultRole,
      });
      if (user.secret) {
        result.newAccounts.push({
          id: generateId(),
          userId: id,
          providerId: CREDENTIAL_PROVIDER,
          accountId: id,
          password: hash,
        });
      }
      for (const account of user.accounts ?? []) {
        const accountId = generateId();
        result.newAccounts.push({ id: accountId, userId: id, ...account, password: null });
        report.accounts[`${account.providerId}:${account.accountId}`] = {
          id: dryRun ? null : accountId,
          status: "created",
        };
      }
      report.users[user.email] = { id: dryRun ? null : id, status: "created" };
      continue;
    }
    let changed = false;
    if (ifExists === "update") {
      const changes: Plan["userUpdates"][number] = { id: row.id };
      if (user.name !== undefined && user.name !== row.name) changes.name = user.name;
      if (user.emailVerified !== undefined && user.emailVerified !== row.emailVerified) {
        changes.emailVerified = user.emailVerified;
      }
      if (user.role !== undefined && user.role !== row.role) changes.role = user.role;
      if (Object.keys(changes).length > 1) {
        result.userUpdates.push(changes);
        changed = true;
      }
      if (user.secret) {
        const stored = existing.credentials.get(row.id);
        const same =
          stored !== undefined &&
          stored !== null &&
          ("hash" in user.secret
            ? stored === user.secret.hash
            : (await work.verified.get(verifyKey(stored, user.secret.plain))) === true);
        if (!same) {
          changed = true;
          result.passwordUpdates.push({
            userId: row.id,
            hash: hash ?? "",
            hasAccount: existing.credentials.has(row.id),
          });
        }
      }
    }
    // Missing linked accounts are added in every mode: they are new rows, not changes.
    for (const account of user.accounts ?? []) {
      const key = `${account.providerId}:${account.accountId}`;
      const found = existing.accounts.get(key);
      if (found) {
        report.accounts[key] = { id: found.id, status: "unchanged" };
        continue;
      }
      const accountId = generateId();
      result.newAccounts.push({ id: accountId, userId: row.id, ...account, password: null });
      report.accounts[key] = { id: dryRun ? null : accountId, status: "created" };
    }
    report.users[user.email] = { id: row.id, status: changed ? "updated" : "unchanged" };
  }

  for (const organization of seed.organizations) {
    planOrganization(organization, existing, config, options, userIds, result);
  }
  return result;
}

function planOrganization(
  organization: PreparedSeed["organizations"][number],
  existing: ExistingState,
  config: AuthdConfig,
  options: ApplyOptions,
  userIds: Map<string, string>,
  result: Plan,
): void {
  const { ifExists, dryRun = false } = options;
  const { report } = result;
  const { slug } = organization;
  const row = existing.organizations.get(slug);
  const organizationId = row?.id ?? generateId();
  const shown = (id: string, created: boolean) => (dryRun && created ? null : id);
  // Validation found every user; one can be missing when its own item failed under
  // --continue-on-error (or it was deleted meanwhile).
  const userId = (address: string, role: string): string => {
    const id = userIds.get(address);
    if (id === undefined) {
      throw new AuthError("USER_NOT_FOUND", {
        message: `user "${address}" (${role} of organization "${slug}") does not exist`,
        details: { email: address, organization: slug },
      });
    }
    return id;
  };
  const inviterId = userId(organization.owner, "owner");

  if (!row) {
    result.organizationWrites.push(async (tx) => {
      await insertOrganization(tx, {
        id: organizationId,
        name: organization.name,
        slug,
        logo: organization.logo ?? null,
        metadata: organization.metadata ?? null,
      });
    });
    report.organizations[slug] = { id: shown(organizationId, true), status: "created" };
  } else {
    const changes: Parameters<typeof updateOrganizationRow>[2] = {};
    if (ifExists === "update") {
      if (organization.name !== row.name) changes.name = organization.name;
      if (organization.logo !== undefined && organization.logo !== row.logo) {
        changes.logo = organization.logo;
      }
      if (
        organization.metadata !== undefined &&
        canonical(organization.metadata) !== canonical(row.metadata)
      ) {
        changes.metadata = organization.metadata;
      }
    }
    const changed = Object.keys(changes).length > 0;
    if (changed)
      result.organizationWrites.push((tx) =>
        updateOrganizationRow(tx, row.id, changes).then(() => {}),
      );
    report.organizations[slug] = { id: row.id, status: changed ? "updated" : "unchanged" };
  }

  const teamIds = new Map<string, string>();
  for (const team of organization.teams ?? []) {
    const key = `${slug}/${team.name}`;
    const found = row ? existing.teams.get(`${row.id}/${team.name}`) : undefined;
    if (found && ifExists === "fail") throw conflict("TEAM_ALREADY_EXISTS", "team", key);
    if (found) {
      teamIds.set(team.name, found.id);
      report.teams[key] = { id: found.id, status: "unchanged" };
      continue;
    }
    const teamId = generateId();
    teamIds.set(team.name, teamId);
    result.organizationWrites.push(async (tx) => {
      await insertTeam(tx, { id: teamId, name: team.name, organizationId });
    });
    report.teams[key] = { id: shown(teamId, true), status: "created" };
  }

  // The owner is a member with the creator role unless the file lists them itself.
  const { creatorRole } = config.organization;
  const members = [...(organization.members ?? [])];
  if (!members.some((member) => member.user === organization.owner)) {
    members.unshift({ user: organization.owner, role: creatorRole });
  }
  for (const member of members) {
    const key = `${slug}/${member.user}`;
    const memberUserId = userId(member.user, "member");
    const found = row ? existing.members.get(`${row.id}/${memberUserId}`) : undefined;
    if (found && ifExists === "fail") {
      throw conflict("USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION", "member", key);
    }
    const role = joinRoles(splitRoles(member.role));
    let status: SeedStatus = "unchanged";
    let memberId: string;
    if (found) {
      memberId = found.id;
      if (ifExists === "update" && !sameRoles(found.role, role)) {
        result.memberRoleUpdates.push({ id: found.id, role });
        status = "updated";
      }
    } else {
      memberId = generateId();
      result.newMembers.push({ id: memberId, organizationId, userId: memberUserId, role });
      status = "created";
    }
    for (const name of teamsOf(member)) {
      const teamId = teamIds.get(name) ?? "";
      if (!existing.teamMembers.has(`${teamId}/${memberUserId}`)) {
        result.newTeamMembers.push({ id: generateId(), teamId, userId: memberUserId });
        if (status === "unchanged") status = "updated";
      }
    }
    report.members[key] = { id: shown(memberId, status === "created"), status };
  }

  for (const [index, invitation] of (organization.invitations ?? []).entries()) {
    const key = `${slug}/${invitation.email}`;
    const found = row ? existing.invitations.get(`${row.id}/${invitation.email}`) : undefined;
    if (found && ifExists === "fail") {
      throw conflict("USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION", "invitation", key);
    }
    const role = joinRoles(splitRoles(invitation.role));
    if (found) {
      const changed = ifExists === "update" && !sameRoles(found.role, role);
      if (changed) result.invitationWrites.push((tx) => setInvitationRole(tx, found.id, role));
      report.invitations[key] = { id: found.id, status: changed ? "updated" : "unchanged" };
      continue;
    }
    const invitationId = generateId();
    const expiry = organization.invitationExpiry[index] ?? {
      seconds: config.organization.invitationExpiresIn,
    };
    const teamId = teamsOf(invitation)
      .map((name) => teamIds.get(name) ?? "")
      .join(",");
    result.invitationWrites.push(async (tx) => {
      await insertInvitation(tx, {
        id: invitationId,
        organizationId,
        email: invitation.email,
        role,
        teamId: teamId === "" ? null : teamId,
        inviterId,
        expiresAt: "at" in expiry ? expiry.at : new Date(Date.now() + expiry.seconds * 1000),
      });
    });
    report.invitations[key] = { id: shown(invitationId, true), status: "created" };
  }
}

async function inBatches<T>(
  rows: T[],
  write: (batch: T[]) => Promise<void>,
  onBatch: (count: number) => void,
): Promise<void> {
  for (let start = 0; start < rows.length; start += SEED_BATCH_SIZE) {
    const batch = rows.slice(start, start + SEED_BATCH_SIZE);
    await write(batch);
    onBatch(batch.length);
  }
}

function emptyReport(): SeedReport {
  return Object.fromEntries(SEED_KINDS.map((kind) => [kind, {}])) as SeedReport;
}

/** Writes a plan, in dependency order, multi-row inserts of SEED_BATCH_SIZE rows. */
async function writePlan(tx: Queryable, final: Plan, step: (count: number) => void): Promise<void> {
  await inBatches(final.newUsers, (batch) => insertUsers(tx, batch), step);
  for (const update of final.userUpdates) await updateUserSeedFields(tx, update.id, update);
  await inBatches(final.newAccounts, (batch) => insertAccounts(tx, batch), step);
  const missing: NewAccount[] = [];
  for (const update of final.passwordUpdates) {
    if (update.hasAccount) await setCredentialPassword(tx, update.userId, update.hash);
    else {
      missing.push({
        id: generateId(),
        userId: update.userId,
        providerId: CREDENTIAL_PROVIDER,
        accountId: update.userId,
        password: update.hash,
      });
    }
  }
  await insertAccounts(tx, missing);
  for (const write of final.organizationWrites) await write(tx);
  await inBatches(final.newMembers, (batch) => insertMembers(tx, batch), step);
  for (const update of final.memberRoleUpdates)
    await updateMemberRoleRow(tx, update.id, update.role);
  await inBatches(final.newTeamMembers, (batch) => insertTeamMembers(tx, batch), step);
  for (const write of final.invitationWrites) await write(tx);
}

function rowsToWrite(final: Plan): number {
  return (
    final.newUsers.length +
    final.newAccounts.length +
    final.newMembers.length +
    final.newTeamMembers.length
  );
}

/**
 * `--atomic` (the default): plans against the database and, unless it is a dry run,
 * writes everything in one transaction (re-planned inside it, so rows created meanwhile
 * are seen) with one audit event. Answers the report by natural key.
 */
export async function applySeed(
  sql: Sql,
  seed: PreparedSeed,
  config: AuthdConfig,
  options: ApplyOptions,
): Promise<SeedReport> {
  const work = newPasswordWork();
  // Outside the transaction: the conflict check and the slow hashing, with no locks held.
  const draft = await plan(seed, await readExisting(sql, seed), config, options, work);
  if (options.dryRun) return draft.report;

  return transaction(
    sql,
    async (tx) => {
      const final = await plan(seed, await readExisting(tx, seed), config, options, work);
      const total = rowsToWrite(final);
      let done = 0;
      await writePlan(tx, final, (count) => {
        done += count;
        options.onProgress?.({ phase: "write", done, total });
      });
      await recordAuditEvent(tx, {
        action: "seed.apply",
        actorType: "cli",
        details: { ifExists: options.ifExists, counts: countReport(final.report) },
      });
      return final.report;
    },
    // A retry would re-plan from scratch; the hashes are kept in `work`.
    { retries: 2 },
  );
}

/** A top-level item of the file that --continue-on-error could not write. */
export interface SeedFailure {
  /** users[3] or organizations[1], as in validation issues. */
  path: string;
  /** The item's natural key: the email or the slug. */
  key: string;
  code: string;
  message: string;
}

export interface ContinuedSeed {
  report: SeedReport;
  failed: SeedFailure[];
}

/** Items tried together before falling back to one transaction per item. */
const USER_CHUNK = 500;
const ORGANIZATION_CHUNK = 50;

interface SeedItem {
  path: string;
  key: string;
  seed: PreparedSeed;
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size) {
    out.push(items.slice(start, start + size));
  }
  return out;
}

function mergeReport(into: SeedReport, from: SeedReport): void {
  for (const kind of SEED_KINDS) Object.assign(into[kind], from[kind]);
}

/**
 * `--continue-on-error`: every top-level item (a user with its accounts, an
 * organization with its teams, members and invitations) lands whole or not at all, in
 * its own transaction; the others are written anyway. For speed, items go in chunks
 * (500 users, 50 organizations) in one transaction each, and only a chunk that fails is
 * retried item by item, which gives the same result. Passwords are all hashed first,
 * across every core. Users come before organizations, so an organization whose owner or
 * member failed fails too (USER_NOT_FOUND). Errors other than the domain's (AuthError),
 * e.g. a lost connection, stop the run.
 */
export async function applySeedContinuing(
  sql: Sql,
  seed: PreparedSeed,
  config: AuthdConfig,
  options: ApplyOptions,
): Promise<ContinuedSeed> {
  const work = newPasswordWork();
  const report = emptyReport();
  const failed: SeedFailure[] = [];
  const knownUserIds = new Map<string, string>();
  await preparePasswords(seed, await readExisting(sql, seed), options, work);

  const part = (items: SeedItem[]): PreparedSeed => ({
    users: items.flatMap((item) => item.seed.users),
    organizations: items.flatMap((item) => item.seed.organizations),
    referencedUsers: seed.referencedUsers,
  });
  const total = seed.users.length + seed.organizations.length;
  let done = 0;

  /** Plans (and unless dry, writes) some items as one unit; answers its plan. */
  const attempt = async (unit: PreparedSeed): Promise<Plan> => {
    const planOptions: PlanOptions = { ...options, knownUserIds };
    if (options.dryRun) {
      return plan(unit, await readExisting(sql, unit), config, planOptions, work);
    }
    return transaction(
      sql,
      async (tx) => {
        const final = await plan(unit, await readExisting(tx, unit), config, planOptions, work);
        await writePlan(tx, final, () => {});
        return final;
      },
      { retries: 2 },
    );
  };
  const landed = (final: Plan, count: number) => {
    mergeReport(report, final.report);
    for (const [address, id] of final.userIds) knownUserIds.set(address, id);
    done += count;
    options.onProgress?.({ phase: "write", done, total });
  };

  const groups = [
    ...chunks(
      seed.users.map((user, index) => ({
        path: `users[${index}]`,
        key: user.email,
        seed: { users: [user], organizations: [], referencedUsers: seed.referencedUsers },
      })),
      USER_CHUNK,
    ),
    ...chunks(
      seed.organizations.map((organization, index) => ({
        path: `organizations[${index}]`,
        key: organization.slug,
        seed: { users: [], organizations: [organization], referencedUsers: seed.referencedUsers },
      })),
      ORGANIZATION_CHUNK,
    ),
  ];
  for (const group of groups) {
    if (group.length > 1) {
      try {
        landed(await attempt(part(group)), group.length);
        continue;
      } catch (error) {
        if (!(error instanceof AuthError)) throw error;
      }
    }
    for (const item of group) {
      try {
        landed(await attempt(item.seed), 1);
      } catch (error) {
        if (!(error instanceof AuthError)) throw error;
        failed.push({
          path: item.path,
          key: item.key,
          code: error.code,
          message: error.message.replace(/; nothing was written$/, ""),
        });
        done += 1;
        options.onProgress?.({ phase: "write", done, total });
      }
    }
  }

  if (!options.dryRun) {
    await transaction(sql, (tx) =>
      recordAuditEvent(tx, {
        action: "seed.apply",
        actorType: "cli",
        details: {
          ifExists: options.ifExists,
          continueOnError: true,
          counts: countReport(report),
          failed: failed.length,
        },
      }),
    );
  }
  return { report, failed };
}
