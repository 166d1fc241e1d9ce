/**
 * `authd import better-auth --verify`: after an import, per table, how many of the
 * source's rows authd holds (found by their id), and whether authd can verify every
 * password hash it was given (a format it knows, parameters in range), listing any it
 * cannot. Reads only.
 */
import { findAccountIds, findAccountsByIds } from "../../accounts/accounts.js";
import { hashProblem } from "../../crypto/password.js";
import type { Queryable } from "../../db/connection.js";
import { findInvitationIds } from "../../invitations/invitations.js";
import { findMemberIds, findOrganizationIds } from "../../organization/organization.js";
import { findSessionIds } from "../../sessions/sessions.js";
import { findTeamIds, findTeamMemberIds } from "../../teams/teams.js";
import { findUserIds } from "../../users/users.js";
import { SOURCE_OF, TARGET_TABLES, type TargetTable } from "./report.js";
import { date, text } from "./rows.js";
import type { BetterAuthSource, ColumnNaming, SourceRow } from "./source.js";

export interface TableComparison {
  table: TargetTable;
  /** Rows in the source that an import brings (live sessions only). */
  source: number;
  /** Of those, the ones authd holds under the same id. */
  inAuthd: number;
  missing: number;
}

export interface HashProblem {
  userId: string;
  accountId: string;
  problem: string;
}

export interface BetterAuthVerifyReport {
  source: { database: string; schema: string; naming: ColumnNaming };
  /** True when nothing is missing and every imported hash can be verified. */
  ok: boolean;
  items: TableComparison[];
  passwords: { checked: number; verifiable: number; problems: HashProblem[] };
}

type IdFinder = (sql: Queryable, ids: string[]) => Promise<Array<{ id: string }>>;

const FINDERS: Record<TargetTable, IdFinder> = {
  user: findUserIds,
  account: findAccountIds,
  organization: findOrganizationIds,
  team: findTeamIds,
  member: findMemberIds,
  team_member: findTeamMemberIds,
  invitation: findInvitationIds,
  session: findSessionIds,
};

/** Compares the source with authd (see the module comment). */
export async function verifyBetterAuthImport(
  sql: Queryable,
  source: BetterAuthSource,
  options: { sessions: boolean; batchSize: number },
): Promise<BetterAuthVerifyReport> {
  return source.snapshot(async (snapshot) => {
    const now = new Date();
    const items: TableComparison[] = [];
    // Expired sessions are never brought, and sessions only with --sessions.
    const tables = TARGET_TABLES.filter((table) => table !== "session" || options.sessions);
    for (const table of tables) {
      const comparison: TableComparison = { table, source: 0, inAuthd: 0, missing: 0 };
      const brought = (row: SourceRow) =>
        table !== "session" || (date(row, "expiresAt") ?? now) > now;
      for await (const page of snapshot.pages(SOURCE_OF[table], options.batchSize)) {
        const ids = page.filter(brought).map((row) => row.id);
        comparison.source += ids.length;
        comparison.inAuthd += (await FINDERS[table](sql, ids)).length;
      }
      comparison.missing = comparison.source - comparison.inAuthd;
      items.push(comparison);
    }

    const passwords = { checked: 0, verifiable: 0, problems: [] as HashProblem[] };
    for await (const page of snapshot.pages("account", options.batchSize)) {
      const withPassword = page.filter((row) => text(row, "password") !== null);
      const stored = await findAccountsByIds(
        sql,
        withPassword.map((row) => row.id),
      );
      for (const account of stored) {
        if (account.password === null) continue;
        passwords.checked += 1;
        const problem = hashProblem(account.password);
        if (problem)
          passwords.problems.push({ userId: account.userId, accountId: account.id, problem });
        else passwords.verifiable += 1;
      }
    }
    return {
      source: {
        database: source.label,
        schema: source.layout.schema,
        naming: source.layout.naming,
      },
      ok: items.every((item) => item.missing === 0) && passwords.problems.length === 0,
      items,
      passwords,
    };
  });
}
