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

export function userWriter(run: Run): TableWriter<MigratedUserRow> {
  const { config } = run.deps;
  const known = knownRoles(config);
  return {
    table: "user",
    model: "user",
    present: findUserIds,
    insert: insertMigratedUsers,
    async prepare(_tx, page) {
      const rows: MigratedUserRow[] = [];
      const notes: Prepared<MigratedUserRow>["notes"] = [];
      for (const row of page) {
        // A second user with the same address (differing in case), or any conflict.
        if (rank(row) > 1 || run.excluded.user.has(row.id)) continue;
        const role = text(row, "role") ?? config.admin.defaultRole;
        for (const name of platformRolesOf(role, config)) {
          if (!known.has(name)) {
            notes.push({
              id: row.id,
              message: `platform role "${name}" is not configured in authd`,
            });
          }
        }
        const createdAt = date(row, "createdAt") ?? run.now;
        rows.push({
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
        });
      }
      return { rows, skipped: page.length - rows.length, notes };
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
      const users = await usersIn(
        run,
        tx,
        page.map((row) => text(row, "userId")),
      );
      const rows: MigratedAccountRow[] = [];
      const notes: Prepared<MigratedAccountRow>["notes"] = [];
      for (const row of page) {
        const userId = text(row, "userId");
        if (rank(row) > 1 || run.excluded.account.has(row.id)) continue;
        if (userId === null || !users.has(userId)) continue;
        const password = text(row, "password");
        const problem = password === null ? undefined : hashProblem(password);
        if (problem) {
          notes.push({
            id: row.id,
            message: `password hash authd cannot verify: ${problem}`,
            example: userId,
          });
        }
        const createdAt = date(row, "createdAt") ?? run.now;
        rows.push({
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
        });
      }
      return { rows, skipped: page.length - rows.length, notes };
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
      const rows: OrganizationRow[] = [];
      const notes: Prepared<OrganizationRow>["notes"] = [];
      for (const row of page) {
        if (rank(row) > 1 || run.excluded.organization.has(row.id)) continue;
        const slug = text(row, "slug") ?? "";
        if (!ORGANIZATION_SLUG_PATTERN.test(slug)) {
          notes.push({
            id: row.id,
            message:
              "slug kept as it is, though authd's rule is lowercase letters and digits joined by hyphens",
            example: slug,
          });
        }
        let read = metadataOf(row);
        // What authd cannot store (a NUL, over 16 KB) would fail the whole batch.
        const unstorable = "metadata" in read && read.metadata && metadataProblem(read.metadata);
        if (unstorable) read = { problem: unstorable };
        if ("problem" in read) {
          notes.push({ id: row.id, message: `${read.problem}: imported without it` });
        }
        const createdAt = date(row, "createdAt") ?? run.now;
        rows.push({
          id: row.id,
          name: text(row, "name") ?? "",
          slug,
          logo: text(row, "logo"),
          metadata: "metadata" in read ? read.metadata : null,
          createdAt,
          updatedAt: createdAt,
        });
      }
      return { rows, skipped: page.length - rows.length, notes };
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
      const organizations = await organizationsIn(
        run,
        tx,
        page.map((row) => text(row, "organizationId")),
      );
      const rows: TeamRow[] = [];
      const notes: Prepared<TeamRow>["notes"] = [];
      for (const row of page) {
        const organizationId = text(row, "organizationId");
        if (organizationId === null || !organizations.has(organizationId)) continue;
        let name = text(row, "name") ?? "";
        if (name.trim() === "") {
          name = "Unnamed team";
          notes.push({ id: row.id, message: `a team without a name was named "${name}"` });
        }
        // authd holds team names unique within an organization; Better Auth does not.
        if (rank(row) > 1) {
          name = `${name} (${rank(row)})`;
          notes.push({
            id: row.id,
            message: 'a team name repeated within its organization was renamed "<name> (<n>)"',
          });
        }
        const createdAt = date(row, "createdAt") ?? run.now;
        rows.push({
          id: row.id,
          name,
          organizationId,
          createdAt,
          updatedAt: date(row, "updatedAt"),
        });
      }
      return { rows, skipped: page.length - rows.length, notes };
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
      const organizations = await organizationsIn(
        run,
        tx,
        page.map((row) => text(row, "organizationId")),
      );
      const users = await usersIn(
        run,
        tx,
        page.map((row) => text(row, "userId")),
      );
      const rows: MemberRow[] = [];
      const notes: Prepared<MemberRow>["notes"] = [];
      for (const row of page) {
        const organizationId = text(row, "organizationId");
        const userId = text(row, "userId");
        if (organizationId === null || userId === null) continue;
        if (!organizations.has(organizationId) || !users.has(userId)) continue;
        const role = text(row, "role") ?? "member";
        for (const name of unknownRoles(config, role)) {
          notes.push({
            id: row.id,
            message: `organization role "${name}" is not configured in authd (organization.roles)`,
          });
        }
        rows.push({
          id: row.id,
          organizationId,
          userId,
          role,
          createdAt: date(row, "createdAt") ?? run.now,
        });
      }
      return { rows, skipped: page.length - rows.length, notes };
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
      const teams = await teamsIn(
        tx,
        considered.map((row) => text(row, "teamId")),
      );
      const users = await usersIn(
        run,
        tx,
        considered.map((row) => text(row, "userId")),
      );
      const rows: TeamMemberRow[] = [];
      for (const row of considered) {
        const teamId = text(row, "teamId");
        const userId = text(row, "userId");
        if (teamId === null || userId === null || !teams.has(teamId) || !users.has(userId)) {
          continue;
        }
        // A membership's own team becomes a team membership with an id made from it.
        const id = fromMembers ? `${row.id}:${teamId}` : row.id;
        rows.push({ id, teamId, userId, createdAt: date(row, "createdAt") ?? run.now });
      }
      return {
        rows,
        skipped: considered.length - rows.length,
        ignored: page.length - considered.length,
        notes: [],
      };
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
      const organizations = await organizationsIn(
        run,
        tx,
        page.map((row) => text(row, "organizationId")),
      );
      const inviters = await usersIn(
        run,
        tx,
        page.map((row) => text(row, "inviterId")),
      );
      const teamIdsOf = (row: SourceRow) =>
        (text(row, "teamId") ?? "")
          .split(",")
          .map((id) => id.trim())
          .filter(Boolean);
      const teams = await teamsIn(tx, page.flatMap(teamIdsOf));
      const rows: InvitationRow[] = [];
      const notes: Prepared<InvitationRow>["notes"] = [];
      for (const row of page) {
        const organizationId = text(row, "organizationId");
        const inviterId = text(row, "inviterId");
        const expiresAt = date(row, "expiresAt");
        const status = text(row, "status") ?? "pending";
        if (organizationId === null || inviterId === null || expiresAt === null) continue;
        if (!organizations.has(organizationId) || !inviters.has(inviterId)) continue;
        if (!statuses.has(status)) {
          run.warnings.add(
            "invitation",
            `status "${status}" is not one authd knows: not imported`,
            row.id,
          );
          continue;
        }
        const named = teamIdsOf(row);
        const kept = named.filter((id) => teams.has(id));
        if (kept.length < named.length) {
          notes.push({ id: row.id, message: "a team it named was not imported: left out of it" });
        }
        const createdAt = date(row, "createdAt") ?? run.now;
        rows.push({
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
        });
      }
      return { rows, skipped: page.length - rows.length, notes };
    },
  };
}

export function sessionWriter(run: Run): TableWriter<SessionRow> {
  return {
    table: "session",
    model: "session",
    present: findSessionIds,
    insert: insertMigratedSessions,
    async prepare(tx, page) {
      const live = page.filter((row) => {
        const expiresAt = date(row, "expiresAt");
        return expiresAt !== null && expiresAt > run.now && text(row, "token");
      });
      const users = await usersIn(
        run,
        tx,
        live.flatMap((row) => [text(row, "userId"), text(row, "impersonatedBy")]),
      );
      const organizations = await organizationsIn(
        run,
        tx,
        live.map((row) => text(row, "activeOrganizationId")),
      );
      const teams = await teamsIn(
        tx,
        live.map((row) => text(row, "activeTeamId")),
      );
      const rows: SessionRow[] = [];
      for (const row of live) {
        const userId = text(row, "userId");
        const impersonatedBy = text(row, "impersonatedBy");
        if (userId === null || !users.has(userId)) continue;
        // An impersonation whose admin was not brought would pass for the user's own session.
        if (impersonatedBy !== null && !users.has(impersonatedBy)) continue;
        const activeOrganizationId = text(row, "activeOrganizationId");
        const activeTeamId = text(row, "activeTeamId");
        const createdAt = date(row, "createdAt") ?? run.now;
        rows.push({
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
        });
      }
      return { rows, skipped: page.length - rows.length, notes: [] };
    },
  };
}
