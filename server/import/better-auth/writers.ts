/**
 * How each authd table is made from Better Auth's rows: what a row becomes, which rows
 * are left out (a repeat, a conflict, a user, organization or team that was not brought,
 * an expired session), and what is noted about rows brought in a form authd would not
 * have written itself.
 */
import { findAccountIds, insertMigratedAccounts } from "../../accounts/accounts.js";
import type { MigratedAccountRow } from "../../accounts/queries.js";
import { knownRoles } from "../../admin/access.js";
import { sha256 } from "../../crypto/digest.js";
import { hashProblem } from "../../crypto/password.js";
import type { TransactionSql } from "../../db/connection.js";
import {
  findInvitationIds,
  INVITATION_STATUSES,
  insertMigratedInvitations,
} from "../../invitations/invitations.js";
import type { InvitationRow, InvitationStatus } from "../../invitations/queries.js";
import {
  findMemberIds,
  findOrganizationIds,
  insertMigratedMembers,
  insertMigratedOrganizations,
  metadataProblem,
  ORGANIZATION_SLUG_PATTERN,
} from "../../organization/organization.js";
import { unknownRoles } from "../../organization/permissions.js";
import type { MemberRow, OrganizationRow } from "../../organization/queries.js";
import type { SessionRow } from "../../sessions/queries.js";
import { findSessionIds, insertMigratedSessions } from "../../sessions/sessions.js";
import type { TeamMemberRow, TeamRow } from "../../teams/queries.js";
import {
  findTeamIds,
  findTeamMemberIds,
  insertMigratedTeamMembers,
  insertMigratedTeams,
} from "../../teams/teams.js";
import type { MigratedUserRow } from "../../users/queries.js";
import { platformRolesOf } from "../../users/roles.js";
import { findUserIds, insertMigratedUsers } from "../../users/users.js";
import type { Prepared, TableWriter } from "./batches.js";
import { date, flag, metadataOf, rank, text } from "./rows.js";
import { normalizedEmail, presentIds, type Run } from "./run.js";
import type { SourceRow } from "./source.js";

/** Of these ids, the users authd holds, but for those the run left out. */
function usersIn(run: Run, tx: TransactionSql, ids: Array<string | null>): Promise<Set<string>> {
  return presentIds(findUserIds, tx, ids, run.excluded.user);
}

/** Of these ids, the organizations authd holds, but for those the run left out. */
function organizationsIn(
  run: Run,
  tx: TransactionSql,
  ids: Array<string | null>,
): Promise<Set<string>> {
  return presentIds(findOrganizationIds, tx, ids, run.excluded.organization);
}

/** Of these ids, the teams authd holds. */
function teamsIn(tx: TransactionSql, ids: Array<string | null>): Promise<Set<string>> {
  return presentIds(findTeamIds, tx, ids);
}

/** The ids a page names in one field, for the lookups of what authd holds. */
function idsIn(page: SourceRow[], field: string): Array<string | null> {
  return page.map((row) => text(row, field));
}

/** Says something about the source row being made: kept only if the row is written. */
type Note = (message: string, example?: string) => void;

/**
 * A page made row by row: `make` answers the authd row for a source row, or nothing to
 * skip it (a repeat, a missing parent, expired); what it notes is tied to that row.
 */
function rowByRow<T>(
  page: SourceRow[],
  make: (row: SourceRow, note: Note) => T | undefined,
): Prepared<T> {
  const rows: T[] = [];
  const notes: Prepared<T>["notes"] = [];
  for (const row of page) {
    const made = make(row, (message, example) =>
      notes.push(
        example === undefined ? { id: row.id, message } : { id: row.id, message, example },
      ),
    );
    if (made !== undefined) rows.push(made);
  }
  return { rows, skipped: page.length - rows.length, notes };
}

export function userWriter(run: Run): TableWriter<MigratedUserRow> {
  const { config } = run.deps;
  const known = knownRoles(config);
  return {
    table: "user",
    model: "user",
    present: findUserIds,
    insert: insertMigratedUsers,
    async prepare(_tx, page) {
      return rowByRow(page, (row, note) => {
        // A second user with the same address (differing in case), or any conflict.
        if (rank(row) > 1 || run.excluded.user.has(row.id)) return undefined;
        const role = text(row, "role") ?? config.admin.defaultRole;
        for (const name of platformRolesOf(role, config)) {
          if (!known.has(name)) note(`platform role "${name}" is not configured in authd`);
        }
        const createdAt = date(row, "createdAt") ?? run.now;
        return {
          id: row.id,
          email: normalizedEmail(row),
          name: text(row, "name") ?? "",
          image: text(row, "image"),
          emailVerified: flag(row, "emailVerified") ?? false,
          role,
          banned: flag(row, "banned") ?? false,
          banReason: text(row, "banReason"),
          banExpires: date(row, "banExpires"),
          createdAt,
          updatedAt: date(row, "updatedAt") ?? createdAt,
        };
      });
    },
  };
}

export function accountWriter(run: Run): TableWriter<MigratedAccountRow> {
  const { cipher } = run.deps;
  const seal = (token: string | null) => (token ? cipher.encrypt(token) : null);
  return {
    table: "account",
    model: "account",
    present: findAccountIds,
    insert: insertMigratedAccounts,
    async prepare(tx, page) {
      const users = await usersIn(run, tx, idsIn(page, "userId"));
      return rowByRow(page, (row, note) => {
        const userId = text(row, "userId");
        if (rank(row) > 1 || run.excluded.account.has(row.id)) return undefined;
        if (userId === null || !users.has(userId)) return undefined;
        const password = text(row, "password");
        const problem = password === null ? undefined : hashProblem(password);
        if (problem) note(`password hash authd cannot verify: ${problem}`, userId);
        const createdAt = date(row, "createdAt") ?? run.now;
        return {
          id: row.id,
          userId,
          providerId: text(row, "providerId") ?? "",
          accountId: text(row, "accountId") ?? "",
          accessToken: seal(text(row, "accessToken")),
          refreshToken: seal(text(row, "refreshToken")),
          idToken: seal(text(row, "idToken")),
          accessTokenExpiresAt: date(row, "accessTokenExpiresAt"),
          refreshTokenExpiresAt: date(row, "refreshTokenExpiresAt"),
          scope: text(row, "scope"),
          password,
          createdAt,
          updatedAt: date(row, "updatedAt") ?? createdAt,
        };
      });
    },
  };
}

export function organizationWriter(run: Run): TableWriter<OrganizationRow> {
  return {
    table: "organization",
    model: "organization",
    present: findOrganizationIds,
    insert: insertMigratedOrganizations,
    async prepare(_tx, page) {
      return rowByRow(page, (row, note) => {
        if (rank(row) > 1 || run.excluded.organization.has(row.id)) return undefined;
        const slug = text(row, "slug") ?? "";
        if (!ORGANIZATION_SLUG_PATTERN.test(slug)) {
          note(
            "slug kept as it is, though authd's rule is lowercase letters and digits joined by hyphens",
            slug,
          );
        }
        let read = metadataOf(row);
        // What authd cannot store (a NUL, over 16 KB) would fail the whole batch.
        const unstorable = "metadata" in read && read.metadata && metadataProblem(read.metadata);
        if (unstorable) read = { problem: unstorable };
        if ("problem" in read) note(`${read.problem}: imported without it`);
        const createdAt = date(row, "createdAt") ?? run.now;
        return {
          id: row.id,
          name: text(row, "name") ?? "",
          slug,
          logo: text(row, "logo"),
          metadata: "metadata" in read ? read.metadata : null,
          createdAt,
          updatedAt: createdAt,
        };
      });
    },
  };
}

export function teamWriter(run: Run): TableWriter<TeamRow> {
  return {
    table: "team",
    model: "team",
    present: findTeamIds,
    insert: insertMigratedTeams,
    async prepare(tx, page) {
      const organizations = await organizationsIn(run, tx, idsIn(page, "organizationId"));
      return rowByRow(page, (row, note) => {
        const organizationId = text(row, "organizationId");
        if (organizationId === null || !organizations.has(organizationId)) return undefined;
        let name = text(row, "name") ?? "";
        if (name.trim() === "") {
          name = "Unnamed team";
          note(`a team without a name was named "${name}"`);
        }
        // authd holds team names unique within an organization; Better Auth does not.
        if (rank(row) > 1) {
          name = `${name} (${rank(row)})`;
          note('a team name repeated within its organization was renamed "<name> (<n>)"');
        }
        const createdAt = date(row, "createdAt") ?? run.now;
        return {
          id: row.id,
          name,
          organizationId,
          createdAt,
          updatedAt: date(row, "updatedAt"),
        };
      });
    },
  };
}

export function memberWriter(run: Run): TableWriter<MemberRow> {
  const { config } = run.deps;
  return {
    table: "member",
    model: "member",
    present: findMemberIds,
    insert: insertMigratedMembers,
    async prepare(tx, page) {
      const organizations = await organizationsIn(run, tx, idsIn(page, "organizationId"));
      const users = await usersIn(run, tx, idsIn(page, "userId"));
      return rowByRow(page, (row, note) => {
        const organizationId = text(row, "organizationId");
        const userId = text(row, "userId");
        if (organizationId === null || userId === null) return undefined;
        if (!organizations.has(organizationId) || !users.has(userId)) return undefined;
        const role = text(row, "role") ?? "member";
        for (const name of unknownRoles(config, role)) {
          note(`organization role "${name}" is not configured in authd (organization.roles)`);
        }
        return {
          id: row.id,
          organizationId,
          userId,
          role,
          createdAt: date(row, "createdAt") ?? run.now,
        };
      });
    },
  };
}

/** Team memberships from the teamMember table, or (`fromMembers`) from member.teamId. */
export function teamMemberWriter(run: Run, fromMembers: boolean): TableWriter<TeamMemberRow> {
  return {
    table: "team_member",
    model: fromMembers ? "member" : "teamMember",
    derived: fromMembers,
    present: findTeamMemberIds,
    insert: insertMigratedTeamMembers,
    async prepare(tx, page) {
      const considered = fromMembers ? page.filter((row) => text(row, "teamId") !== null) : page;
      const teams = await teamsIn(tx, idsIn(considered, "teamId"));
      const users = await usersIn(run, tx, idsIn(considered, "userId"));
      const prepared = rowByRow(considered, (row) => {
        const teamId = text(row, "teamId");
        const userId = text(row, "userId");
        if (teamId === null || userId === null || !teams.has(teamId) || !users.has(userId)) {
          return undefined;
        }
        // A membership's own team becomes a team membership with an id made from it.
        const id = fromMembers ? `${row.id}:${teamId}` : row.id;
        return { id, teamId, userId, createdAt: date(row, "createdAt") ?? run.now };
      });
      prepared.ignored = page.length - considered.length;
      return prepared;
    },
  };
}

export function invitationWriter(run: Run): TableWriter<InvitationRow> {
  const statuses = new Set<string>(INVITATION_STATUSES);
  return {
    table: "invitation",
    model: "invitation",
    present: findInvitationIds,
    insert: insertMigratedInvitations,
    async prepare(tx, page) {
      const organizations = await organizationsIn(run, tx, idsIn(page, "organizationId"));
      const inviters = await usersIn(run, tx, idsIn(page, "inviterId"));
      const teamIdsOf = (row: SourceRow) =>
        (text(row, "teamId") ?? "")
          .split(",")
          .map((id) => id.trim())
          .filter(Boolean);
      const teams = await teamsIn(tx, page.flatMap(teamIdsOf));
      return rowByRow(page, (row, note) => {
        const organizationId = text(row, "organizationId");
        const inviterId = text(row, "inviterId");
        const expiresAt = date(row, "expiresAt");
        const status = text(row, "status") ?? "pending";
        if (organizationId === null || inviterId === null || expiresAt === null) return undefined;
        if (!organizations.has(organizationId) || !inviters.has(inviterId)) return undefined;
        if (!statuses.has(status)) {
          run.warnings.add(
            "invitation",
            `status "${status}" is not one authd knows: not imported`,
            row.id,
          );
          return undefined;
        }
        const named = teamIdsOf(row);
        const kept = named.filter((id) => teams.has(id));
        if (kept.length < named.length) note("a team it named was not imported: left out of it");
        const createdAt = date(row, "createdAt") ?? run.now;
        return {
          id: row.id,
          organizationId,
          email: normalizedEmail(row),
          role: text(row, "role") ?? "member",
          status: status as InvitationStatus,
          teamId: kept.length > 0 ? kept.join(",") : null,
          inviterId,
          expiresAt,
          createdAt,
          updatedAt: createdAt,
        };
      });
    },
  };
}

export function sessionWriter(run: Run): TableWriter<SessionRow> {
  /** A session still running, with the token authd keeps the digest of. */
  const live = (row: SourceRow) => {
    const expiresAt = date(row, "expiresAt");
    return expiresAt !== null && expiresAt > run.now && Boolean(text(row, "token"));
  };
  return {
    table: "session",
    model: "session",
    present: findSessionIds,
    insert: insertMigratedSessions,
    async prepare(tx, page) {
      const running = page.filter(live);
      const users = await usersIn(run, tx, [
        ...idsIn(running, "userId"),
        ...idsIn(running, "impersonatedBy"),
      ]);
      const organizations = await organizationsIn(run, tx, idsIn(running, "activeOrganizationId"));
      const teams = await teamsIn(tx, idsIn(running, "activeTeamId"));
      return rowByRow(page, (row) => {
        if (!live(row)) return undefined;
        const userId = text(row, "userId");
        const impersonatedBy = text(row, "impersonatedBy");
        if (userId === null || !users.has(userId)) return undefined;
        // An impersonation whose admin was not brought would pass for the user's own session.
        if (impersonatedBy !== null && !users.has(impersonatedBy)) return undefined;
        const activeOrganizationId = text(row, "activeOrganizationId");
        const activeTeamId = text(row, "activeTeamId");
        const createdAt = date(row, "createdAt") ?? run.now;
        return {
          id: row.id,
          userId,
          // Stored as authd stores every session token: its digest only.
          tokenHash: sha256(text(row, "token") as string),
          expiresAt: date(row, "expiresAt") as Date,
          ipAddress: text(row, "ipAddress"),
          userAgent: text(row, "userAgent"),
          activeOrganizationId:
            activeOrganizationId !== null && organizations.has(activeOrganizationId)
              ? activeOrganizationId
              : null,
          activeTeamId: activeTeamId !== null && teams.has(activeTeamId) ? activeTeamId : null,
          impersonatedBy,
          createdAt,
          updatedAt: date(row, "updatedAt") ?? createdAt,
        };
      });
    },
  };
}
