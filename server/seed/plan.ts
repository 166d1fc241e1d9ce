/**
 * Planning a seed: what the database holds for the file's natural keys (email, slug,
 * team name), and the writes the file asks for given that, under --if-exists. Nothing
 * is written here; server/seed/apply.ts writes the plan.
 */
import {
  CREDENTIAL_PROVIDER,
  findAccountsByProviderKeys,
  findCredentialAccountsOfUsers,
} from "../accounts/accounts.js";
import type { NewAccount } from "../accounts/queries.js";
import type { AuthdConfig } from "../config.js";
import { generateId } from "../crypto/random.js";
import type { Queryable } from "../db/connection.js";
import { AuthError, type ErrorCode } from "../errors.js";
import {
  insertInvitation,
  listPendingInvitationsOfOrganizations,
  setInvitationRole,
} from "../invitations/invitations.js";
import { invitationExpiresAt } from "../invitations/invite.js";
import type { MemberRow } from "../organization/member-queries.js";
import {
  findOrganizationsBySlugs,
  insertOrganization,
  listMembersOfOrganizations,
  updateOrganizationRow,
} from "../organization/organization.js";
import type { OrganizationRow } from "../organization/queries.js";
import { joinRoles, splitRoles } from "../role-list.js";
import type { TeamRow } from "../teams/queries.js";
import { insertTeam, listMembersOfTeams, listTeamsOfOrganizations } from "../teams/teams.js";
import type { NewUser, UserRow } from "../users/queries.js";
import { findUsersByEmails } from "../users/users.js";
import { type PasswordWork, preparePasswords, verifyKey } from "./passwords.js";
import { type ApplyOptions, emptyReport, type SeedReport, type SeedStatus } from "./report.js";
import { teamsOf } from "./schema.js";
import type { PreparedSeed } from "./validate.js";

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
export interface ExistingState {
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

export async function readExisting(sql: Queryable, seed: PreparedSeed): Promise<ExistingState> {
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
export interface Plan {
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

export interface PlanOptions extends ApplyOptions {
  /** Users created by earlier items of the same run (a dry run's are not in the database). */
  knownUserIds?: ReadonlyMap<string, string>;
}

export async function plan(
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
        expiresAt: "at" in expiry ? expiry.at : invitationExpiresAt(new Date(), expiry.seconds),
      });
    });
    report.invitations[key] = { id: shown(invitationId, true), status: "created" };
  }
}
