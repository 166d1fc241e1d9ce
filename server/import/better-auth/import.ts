/**
 * `authd import better-auth`: a whole Better Auth database into authd. No Fastify and no
 * terminal here: the CLI opens both databases, reports progress and prints.
 *
 * Every row keeps its Better Auth id, so references from the application's own tables
 * stay valid, and a second run recognizes what the first one wrote: a row whose id is
 * already in authd is left as it is. That makes the import idempotent and resumable: run
 * it again after an interruption and it writes what is missing.
 *
 * First every conflict is looked for (an email, a slug or a provider identity that authd
 * already holds for another row, or that the source repeats; an id that authd holds for
 * another row); with `onConflict: "fail"` any conflict means nothing is written, with
 * "skip" the conflicting rows are left out. Then the models are written in dependency order
 * (users, accounts, organizations, teams, members, team members, invitations, sessions),
 * one transaction per batch of rows with one audit event per batch that wrote anything.
 * A row whose user, organization or team did not make it (a conflict skipped, a dangling
 * reference in the source) is skipped; a reference that may be empty is emptied instead.
 */
import {
  findAccountIds,
  findAccountsByProviderKeys,
  insertMigratedAccounts,
} from "../../accounts/accounts.js";
import type { MigratedAccountRow } from "../../accounts/queries.js";
import { knownRoles } from "../../admin/access.js";
import { recordAuditEvent } from "../../audit/audit.js";
import type { AuthdConfig } from "../../config.js";
import { sha256 } from "../../crypto/digest.js";
import { hashProblem } from "../../crypto/password.js";
import type { Sql, TransactionSql } from "../../db/connection.js";
import { transaction } from "../../db/transaction.js";
import {
  findInvitationIds,
  INVITATION_STATUSES,
  insertMigratedInvitations,
} from "../../invitations/invitations.js";
import type { InvitationRow, InvitationStatus } from "../../invitations/queries.js";
import {
  findMemberIds,
  findOrganizationIds,
  findOrganizationsBySlugs,
  insertMigratedMembers,
  insertMigratedOrganizations,
  metadataProblem,
  ORGANIZATION_SLUG_PATTERN,
} from "../../organization/organization.js";
import { unknownRoles } from "../../organization/permissions.js";
import type { MemberRow, OrganizationRow } from "../../organization/queries.js";
import type { SessionRow } from "../../sessions/queries.js";
import { findSessionIds, insertMigratedSessions } from "../../sessions/sessions.js";
import type { TokenCipher } from "../../social/token-crypto.js";
import type { TeamMemberRow, TeamRow } from "../../teams/queries.js";
import {
  findTeamIds,
  findTeamMemberIds,
  insertMigratedTeamMembers,
  insertMigratedTeams,
} from "../../teams/teams.js";
import type { MigratedUserRow } from "../../users/queries.js";
import { findUserIds, findUsersByEmails, insertMigratedUsers } from "../../users/users.js";
import { date, flag, metadataOf, rank, text } from "./rows.js";
import type {
  BetterAuthSource,
  ColumnNaming,
  SourceModel,
  SourceRow,
  SourceSnapshot,
} from "./source.js";

/** authd's tables, in the order they are written. */
export const TARGET_TABLES = [
  "user",
  "account",
  "organization",
  "team",
  "member",
  "team_member",
  "invitation",
  "session",
] as const;
export type TargetTable = (typeof TARGET_TABLES)[number];

/** Where each authd table's rows come from. */
export const SOURCE_OF: Record<TargetTable, SourceModel> = {
  user: "user",
  account: "account",
  organization: "organization",
  team: "team",
  member: "member",
  team_member: "teamMember",
  invitation: "invitation",
  session: "session",
};

export type OnConflict = "fail" | "skip";

export interface TableCounts {
  table: TargetTable;
  /** Rows in the source. */
  source: number;
  /** Written by this run. */
  imported: number;
  /** Already in authd under the same id (an earlier run wrote them). */
  unchanged: number;
  /** Not written: a conflict, a row whose user or organization was not brought, an expired session. */
  skipped: number;
}

export interface ImportConflict {
  table: "user" | "organization" | "account";
  /** What collides: an email, a slug, or a provider identity as `<providerId>:<accountId>`. */
  key: string;
  sourceId: string;
  /** The authd row that holds the key; absent when the source itself repeats it. */
  authdId?: string;
  reason: string;
}

/** Something brought in a form authd would not have written, once per kind with examples. */
export interface ImportWarning {
  table: TargetTable;
  message: string;
  count: number;
  /** The first few source ids (or slugs) concerned. */
  examples: string[];
}

export interface BetterAuthImportReport {
  source: { database: string; schema: string; naming: ColumnNaming };
  dryRun: boolean;
  /** Whether live sessions were brought (`--sessions`). */
  sessions: boolean;
  onConflict: OnConflict;
  /** Conflicts were found under onConflict "fail": nothing was written. */
  refused: boolean;
  items: TableCounts[];
  conflicts: ImportConflict[];
  warnings: ImportWarning[];
}

export interface ImportProgress {
  /** `check`: looking for conflicts; `write`: writing rows. */
  step: "check" | "write";
  table: TargetTable;
  done: number;
  total: number;
}

export interface BetterAuthImportOptions {
  sessions: boolean;
  onConflict: OnConflict;
  /** Rows per transaction. */
  batchSize: number;
  /** Under --dry-run the caller rolls everything back; the report says "would". */
  dryRun: boolean;
  onProgress?: (progress: ImportProgress) => void;
}

export interface BetterAuthImportDeps {
  sql: Sql;
  config: AuthdConfig;
  /** Seals provider tokens as social sign-in stores them. */
  cipher: TokenCipher;
}

const EXAMPLES = 5;

/** Warnings of one run, gathered by table and message. */
function createWarnings() {
  const byKind = new Map<string, ImportWarning>();
  return {
    add(table: TargetTable, message: string, example: string) {
      const key = `${table}\u0000${message}`;
      const warning = byKind.get(key) ?? { table, message, count: 0, examples: [] };
      warning.count += 1;
      if (warning.examples.length < EXAMPLES) warning.examples.push(example);
      byKind.set(key, warning);
    },
    list: () => [...byKind.values()],
  };
}

interface Run {
  deps: BetterAuthImportDeps;
  options: BetterAuthImportOptions;
  snapshot: SourceSnapshot;
  label: string;
  counts: Map<TargetTable, TableCounts>;
  warnings: ReturnType<typeof createWarnings>;
  /** When the run started: sessions that expired before are not brought. */
  now: Date;
  /** Source ids of conflicting rows: never written, nor anything that refers to them. */
  excluded: Record<ImportConflict["table"], Set<string>>;
}

/** A page of source rows made ready to write, and what was left out and why. */
interface Prepared<T> {
  rows: T[];
  /** Rows of the page that cannot be written (repeats, missing parents, expired). */
  skipped: number;
  /** Source rows of another model that the page does not stand for (derived rows). */
  ignored?: number;
  /** Warnings about rows, kept only for those that are written. */
  notes: Array<{ id: string; message: string; example?: string }>;
}

/** How one authd table is written from one model's pages. */
interface TableWriter<T extends { id: string }> {
  table: TargetTable;
  model: SourceModel;
  prepare(tx: TransactionSql, page: SourceRow[]): Promise<Prepared<T>>;
  present(tx: TransactionSql, ids: string[]): Promise<Array<{ id: string }>>;
  insert(tx: TransactionSql, rows: T[]): Promise<string[]>;
  /** Rows derived from another model's (members' own team): the source count grows as read. */
  derived?: boolean;
}

/** Of these ids, the ones `find` finds in authd, but for those `excluded` names. */
async function presentIds(
  find: (tx: TransactionSql, ids: string[]) => Promise<Array<{ id: string }>>,
  tx: TransactionSql,
  ids: Array<string | null>,
  excluded: ReadonlySet<string> = new Set(),
): Promise<Set<string>> {
  const wanted = [...new Set(ids)].filter((id): id is string => id !== null && !excluded.has(id));
  return new Set((await find(tx, wanted)).map((row) => row.id));
}

function normalizedEmail(row: SourceRow): string {
  return (text(row, "email") ?? "").trim().toLowerCase();
}

function providerKey(row: SourceRow): string {
  return `${text(row, "providerId")}:${text(row, "accountId")}`;
}

/** Writes one model's pages into one table, a transaction per page. */
async function copy<T extends { id: string }>(run: Run, writer: TableWriter<T>): Promise<void> {
  const counts = run.counts.get(writer.table) as TableCounts;
  const { sql } = run.deps;
  let done = 0;
  for await (const page of run.snapshot.pages(writer.model, run.options.batchSize)) {
    let outcome: { prepared: Prepared<T>; inserted: string[]; unchanged: number };
    try {
      outcome = await transaction(sql, async (tx) => {
        const prepared = await writer.prepare(tx, page);
        const there = await presentIds(
          writer.present,
          tx,
          prepared.rows.map((row) => row.id),
        );
        const fresh = prepared.rows.filter((row) => !there.has(row.id));
        const inserted = await writer.insert(tx, fresh);
        if (inserted.length > 0) {
          await recordAuditEvent(tx, {
            action: "import.better_auth",
            actorType: "cli",
            targetType: writer.table,
            details: {
              source: run.label,
              table: writer.table,
              imported: inserted.length,
              unchanged: there.size,
              skipped: page.length - (prepared.ignored ?? 0) - inserted.length - there.size,
              firstId: page[0]?.id,
              lastId: page.at(-1)?.id,
            },
          });
        }
        return { prepared, inserted, unchanged: there.size };
      });
    } catch (error) {
      if (error instanceof Error) {
        error.message = `importing ${writer.table} rows ${page[0]?.id} to ${page.at(-1)?.id}: ${error.message} (the rows written before stay; run the same command again to finish: rows already imported are recognized by id)`;
      }
      throw error;
    }
    const considered = page.length - (outcome.prepared.ignored ?? 0);
    if (writer.derived) counts.source += considered;
    counts.imported += outcome.inserted.length;
    counts.unchanged += outcome.unchanged;
    counts.skipped += considered - outcome.inserted.length - outcome.unchanged;
    const written = new Set(outcome.inserted);
    for (const note of outcome.prepared.notes) {
      if (written.has(note.id))
        run.warnings.add(writer.table, note.message, note.example ?? note.id);
    }
    done += page.length;
    run.options.onProgress?.({
      step: "write",
      table: writer.table,
      done,
      total: writer.derived ? done : counts.source,
    });
  }
}

function userWriter(run: Run): TableWriter<MigratedUserRow> {
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
        for (const name of role.split(",").map((part) => part.trim())) {
          if (name && !known.has(name)) {
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

function accountWriter(run: Run): TableWriter<MigratedAccountRow> {
  const { cipher } = run.deps;
  const seal = (token: string | null) => (token ? cipher.encrypt(token) : null);
  return {
    table: "account",
    model: "account",
    present: findAccountIds,
    insert: insertMigratedAccounts,
    async prepare(tx, page) {
      const users = await presentIds(
        findUserIds,
        tx,
        page.map((row) => text(row, "userId")),
        run.excluded.user,
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

function organizationWriter(run: Run): TableWriter<OrganizationRow> {
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

function teamWriter(run: Run): TableWriter<TeamRow> {
  return {
    table: "team",
    model: "team",
    present: findTeamIds,
    insert: insertMigratedTeams,
    async prepare(tx, page) {
      const organizations = await presentIds(
        findOrganizationIds,
        tx,
        page.map((row) => text(row, "organizationId")),
        run.excluded.organization,
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

function memberWriter(run: Run): TableWriter<MemberRow> {
  const { config } = run.deps;
  return {
    table: "member",
    model: "member",
    present: findMemberIds,
    insert: insertMigratedMembers,
    async prepare(tx, page) {
      const [organizations, users] = [
        await presentIds(
          findOrganizationIds,
          tx,
          page.map((row) => text(row, "organizationId")),
          run.excluded.organization,
        ),
        await presentIds(
          findUserIds,
          tx,
          page.map((row) => text(row, "userId")),
          run.excluded.user,
        ),
      ];
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
function teamMemberWriter(run: Run, fromMembers: boolean): TableWriter<TeamMemberRow> {
  return {
    table: "team_member",
    model: fromMembers ? "member" : "teamMember",
    derived: fromMembers,
    present: findTeamMemberIds,
    insert: insertMigratedTeamMembers,
    async prepare(tx, page) {
      const considered = fromMembers ? page.filter((row) => text(row, "teamId") !== null) : page;
      const teams = await presentIds(
        findTeamIds,
        tx,
        considered.map((row) => text(row, "teamId")),
      );
      const users = await presentIds(
        findUserIds,
        tx,
        considered.map((row) => text(row, "userId")),
        run.excluded.user,
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

function invitationWriter(run: Run): TableWriter<InvitationRow> {
  const statuses = new Set<string>(INVITATION_STATUSES);
  return {
    table: "invitation",
    model: "invitation",
    present: findInvitationIds,
    insert: insertMigratedInvitations,
    async prepare(tx, page) {
      const organizations = await presentIds(
        findOrganizationIds,
        tx,
        page.map((row) => text(row, "organizationId")),
        run.excluded.organization,
      );
      const inviters = await presentIds(
        findUserIds,
        tx,
        page.map((row) => text(row, "inviterId")),
        run.excluded.user,
      );
      const teamIdsOf = (row: SourceRow) =>
        (text(row, "teamId") ?? "")
          .split(",")
          .map((id) => id.trim())
          .filter(Boolean);
      const teams = await presentIds(findTeamIds, tx, page.flatMap(teamIdsOf));
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

function sessionWriter(run: Run): TableWriter<SessionRow> {
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
      const users = await presentIds(
        findUserIds,
        tx,
        live.flatMap((row) => [text(row, "userId"), text(row, "impersonatedBy")]),
        run.excluded.user,
      );
      const organizations = await presentIds(
        findOrganizationIds,
        tx,
        live.map((row) => text(row, "activeOrganizationId")),
        run.excluded.organization,
      );
      const teams = await presentIds(
        findTeamIds,
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

/**
 * Every conflict, before anything is written: an email, slug or provider identity that
 * authd holds for a row of another id, or that the source repeats, and an id that authd
 * holds for a row with another email, slug or provider identity (serial ids of two
 * sources, say). Each conflicting row is excluded, with whatever refers to it. Also
 * counts the rows already in authd (what a refused run reports as unchanged).
 */
async function findConflicts(run: Run): Promise<ImportConflict[]> {
  const { sql } = run.deps;
  const conflicts: ImportConflict[] = [];
  const conflict = (entry: ImportConflict) => {
    conflicts.push(entry);
    run.excluded[entry.table].add(entry.sourceId);
  };
  const check = async <Held extends { id: string }>(
    table: ImportConflict["table"],
    present: (tx: Sql, ids: string[]) => Promise<Held[]>,
    keyOf: (row: SourceRow) => string,
    heldKey: (row: Held) => string,
    holders: (keys: SourceRow[]) => Promise<Map<string, string>>,
    repeated: string,
  ) => {
    const counts = run.counts.get(table) as TableCounts;
    let done = 0;
    for await (const page of run.snapshot.pages(table, run.options.batchSize)) {
      const ids = page.map((row) => row.id);
      const there = new Map((await present(sql, ids)).map((row) => [row.id, heldKey(row)]));
      for (const row of page.filter((candidate) => there.has(candidate.id))) {
        if (there.get(row.id) === keyOf(row)) {
          counts.unchanged += 1;
        } else {
          conflict({
            table,
            key: keyOf(row),
            sourceId: row.id,
            authdId: row.id,
            reason: `authd has this id for another ${table} (${there.get(row.id)})`,
          });
        }
      }
      const candidates = page.filter((row) => !there.has(row.id));
      for (const row of candidates.filter((candidate) => rank(candidate) > 1)) {
        conflict({ table, key: keyOf(row), sourceId: row.id, reason: repeated });
      }
      const firsts = candidates.filter((row) => rank(row) === 1);
      const held = await holders(firsts);
      for (const row of firsts) {
        const authdId = held.get(keyOf(row));
        if (authdId !== undefined && authdId !== row.id) {
          conflict({
            table,
            key: keyOf(row),
            sourceId: row.id,
            authdId,
            reason: `authd already has it for another ${table}`,
          });
        }
      }
      done += page.length;
      run.options.onProgress?.({ step: "check", table, done, total: counts.source });
    }
  };

  await check(
    "user",
    findUserIds,
    normalizedEmail,
    (user) => user.email,
    async (rows) =>
      new Map(
        (await findUsersByEmails(sql, rows.map(normalizedEmail))).map((user) => [
          user.email,
          user.id,
        ]),
      ),
    "another user of the source has this email (differing only in case)",
  );
  await check(
    "account",
    findAccountIds,
    providerKey,
    (account) => `${account.providerId}:${account.accountId}`,
    async (rows) =>
      new Map(
        (
          await findAccountsByProviderKeys(
            sql,
            rows.map((row) => ({
              providerId: text(row, "providerId") ?? "",
              accountId: text(row, "accountId") ?? "",
            })),
          )
        ).map((account) => [`${account.providerId}:${account.accountId}`, account.id]),
      ),
    "another account of the source has this provider identity",
  );
  if (run.snapshot.has("organization")) {
    await check(
      "organization",
      findOrganizationIds,
      (row) => text(row, "slug") ?? "",
      (organization) => organization.slug,
      async (rows) =>
        new Map(
          (
            await findOrganizationsBySlugs(
              sql,
              rows.map((row) => text(row, "slug") ?? ""),
            )
          ).map((organization) => [organization.slug, organization.id]),
        ),
      "another organization of the source has this slug",
    );
  }
  return conflicts;
}

/** Imports the source into authd (see the module comment); answers what it did. */
export async function importBetterAuth(
  deps: BetterAuthImportDeps,
  source: BetterAuthSource,
  options: BetterAuthImportOptions,
): Promise<BetterAuthImportReport> {
  return source.snapshot(async (snapshot) => {
    const counts = new Map<TargetTable, TableCounts>();
    for (const table of TARGET_TABLES) {
      counts.set(table, {
        table,
        source: await snapshot.count(SOURCE_OF[table]),
        imported: 0,
        unchanged: 0,
        skipped: 0,
      });
    }
    const run: Run = {
      deps,
      options,
      snapshot,
      label: source.label,
      counts,
      warnings: createWarnings(),
      now: new Date(),
      excluded: { user: new Set(), account: new Set(), organization: new Set() },
    };
    const report = (refused: boolean, conflicts: ImportConflict[]): BetterAuthImportReport => ({
      source: {
        database: source.label,
        schema: source.layout.schema,
        naming: source.layout.naming,
      },
      dryRun: options.dryRun,
      sessions: options.sessions,
      onConflict: options.onConflict,
      refused,
      items: [...counts.values()],
      conflicts,
      warnings: run.warnings.list(),
    });

    const conflicts = await findConflicts(run);
    if (conflicts.length > 0 && options.onConflict === "fail") return report(true, conflicts);
    // The check's counts of rows already there are the writing's to make.
    for (const entry of counts.values()) entry.unchanged = 0;

    await copy(run, userWriter(run));
    await copy(run, accountWriter(run));
    if (snapshot.has("organization")) {
      await copy(run, organizationWriter(run));
      await copy(run, teamWriter(run));
      await copy(run, memberWriter(run));
      await copy(run, teamMemberWriter(run, false));
      if (snapshot.layout.tables.member?.columns.has("teamId")) {
        await copy(run, teamMemberWriter(run, true));
      }
      await copy(run, invitationWriter(run));
    } else {
      for (const table of ["team", "member", "team_member", "invitation"] as const) {
        const entry = counts.get(table) as TableCounts;
        entry.skipped = entry.source;
      }
    }
    if (options.sessions) {
      await copy(run, sessionWriter(run));
    } else {
      const entry = counts.get("session") as TableCounts;
      entry.skipped = entry.source;
    }
    return report(false, conflicts);
  });
}
