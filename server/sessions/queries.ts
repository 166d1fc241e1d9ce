/**
 * Every SQL statement that writes the session table, and its lookups; tokens are looked
 * up by their digest. The operator's paged list of sessions is in list-queries.ts.
 */
import { Batcher } from "../db/batcher.js";
import { columns, columnsOf, type Fragment, insertValues } from "../db/columns.js";
import type { Queryable, Sql } from "../db/connection.js";
import { deleteExpiredRows } from "../db/expired.js";
import { keysReader, rowReader } from "../db/readers.js";
import type { UserRow } from "../users/queries.js";

export interface SessionRow {
  id: string;
  userId: string;
  tokenHash: string;
  expiresAt: Date;
  ipAddress: string | null;
  userAgent: string | null;
  activeOrganizationId: string | null;
  activeTeamId: string | null;
  impersonatedBy: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export const SESSION_COLUMNS = columnsOf<SessionRow>()([
  "id",
  "userId",
  "tokenHash",
  "expiresAt",
  "ipAddress",
  "userAgent",
  "activeOrganizationId",
  "activeTeamId",
  "impersonatedBy",
  "createdAt",
  "updatedAt",
]);

export type NewSession = Pick<
  SessionRow,
  "id" | "userId" | "tokenHash" | "expiresAt" | "ipAddress" | "userAgent"
> &
  Partial<Pick<SessionRow, "impersonatedBy" | "activeOrganizationId">>;

export async function insertSession(sql: Queryable, session: NewSession): Promise<SessionRow> {
  const [row] = await sql<SessionRow[]>`
    insert into session (id, user_id, token_hash, expires_at, ip_address, user_agent,
                         impersonated_by, active_organization_id)
    values (${session.id}, ${session.userId}, ${session.tokenHash}, ${session.expiresAt},
            ${session.ipAddress}, ${session.userAgent}, ${session.impersonatedBy ?? null},
            ${session.activeOrganizationId ?? null})
    returning ${columns(sql, SESSION_COLUMNS)}`;
  if (!row) throw new Error("insert into session returned no row");
  return row;
}

export interface SessionWithUser {
  session: SessionRow;
  user: UserRow;
}

/**
 * A read that depends on who is calling, answered in the session lookup's own
 * statement (one round trip instead of two): a scalar subquery over the session `s` and
 * its user `u`, plus parameters of its own that each caller gives (`riderParameters`,
 * text, in the order of `parameters`). The definition is a function of the pool, so a
 * rider is plain data that any app can use; each app builds its statement once.
 */
export interface SessionRider {
  /** Names of the caller's parameters, in the order callers pass their values. */
  readonly parameters: readonly string[];
  /** The subquery; `caller[name]` is that parameter of the caller at hand (text). */
  readonly subquery: (sql: Sql, caller: Readonly<Record<string, Fragment>>) => Fragment;
}

export function sessionRider<const Names extends readonly string[]>(
  parameters: Names,
  subquery: (sql: Sql, caller: Readonly<Record<Names[number], Fragment>>) => Fragment,
): SessionRider {
  return { parameters, subquery };
}

const NO_RIDER: SessionRider = { parameters: [], subquery: (sql) => sql`` };

/**
 * The most parameters a rider may take: the lookup's statement is written out for each
 * count up to this (see batchedLookup).
 */
const MOST_RIDER_PARAMETERS = 3;

/**
 * Sessions by token digest with their users, for a batch of callers at once
 * (server/db/batcher.ts): one array of digests, and one array per rider parameter,
 * element i belonging to caller i, unnested together into the rows `p`; each result row
 * carries its caller's index. The statement's text depends only on the rider, so
 * postgres.js prepares it once per connection.
 *
 * Everything but the values is built once, here: postgres.js walks a statement's
 * fragments again on every call, and Node 20 never optimizes a fragment's construction
 * (docs/architecture.md, "Fragments are built once"). So the caller's columns are
 * written out (`p.r1`, not an identifier fragment, which is escaped again each time) and
 * the statement is written once per parameter count rather than joined from a list.
 */
function batchedLookup(sql: Sql, rider: SessionRider) {
  if (rider.parameters.length > MOST_RIDER_PARAMETERS) {
    throw new Error(`a session rider takes at most ${MOST_RIDER_PARAMETERS} parameters`);
  }
  // Caller i's parameter n is element i of the array n: the column p.rn of its row.
  const callerColumns = [sql`p.r1`, sql`p.r2`, sql`p.r3`];
  const caller = Object.fromEntries(
    rider.parameters.map((name, index) => [name, callerColumns[index] as Fragment]),
  );
  const riderColumn = rider === NO_RIDER ? sql`` : sql`, (${rider.subquery(sql, caller)}) as rider`;
  // Read by position (`values()`): with this many columns postgres.js would build each
  // row property by property, and V8 turns an object grown that way past 16 properties
  // into a slow dictionary, on the busiest statement there is. postgres.js types such a
  // row as a list of unknowns; JoinedValues is the select list's order.
  const selected = sql`
  select p.caller::int as caller,
         s.id, s.user_id, s.token_hash, s.expires_at, s.ip_address, s.user_agent,
         s.active_organization_id, s.active_team_id, s.impersonated_by,
         s.created_at, s.updated_at,
         u.email as u_email, u.email_verified as u_email_verified, u.name as u_name,
         u.image as u_image, u.role as u_role, u.banned as u_banned,
         u.ban_reason as u_ban_reason, u.ban_expires as u_ban_expires,
         u.created_at as u_created_at, u.updated_at as u_updated_at${riderColumn}`;
  const joined = sql`
  join session s on s.token_hash = p.token_hash
  join "user" u on u.id = s.user_id`;
  const rows = (statement: Promise<unknown> & { values(): Promise<unknown> }) =>
    statement.values() as Promise<JoinedValues[]>;
  switch (rider.parameters.length) {
    case 0:
      return (hashes: string[]): Promise<JoinedValues[]> =>
        rows(sql`${selected}
  from unnest(${hashes}::text[]) with ordinality as p(token_hash, caller) ${joined}`);
    case 1:
      return (hashes: string[], p: (string | null)[][]): Promise<JoinedValues[]> =>
        rows(sql`${selected}
  from unnest(${hashes}::text[], ${p[0] ?? []}::text[])
       with ordinality as p(token_hash, r1, caller) ${joined}`);
    case 2:
      return (hashes: string[], p: (string | null)[][]): Promise<JoinedValues[]> =>
        rows(sql`${selected}
  from unnest(${hashes}::text[], ${p[0] ?? []}::text[], ${p[1] ?? []}::text[])
       with ordinality as p(token_hash, r1, r2, caller) ${joined}`);
    default:
      return (hashes: string[], p: (string | null)[][]): Promise<JoinedValues[]> =>
        rows(sql`${selected}
  from unnest(${hashes}::text[], ${p[0] ?? []}::text[], ${p[1] ?? []}::text[],
              ${p[2] ?? []}::text[])
       with ordinality as p(token_hash, r1, r2, r3, caller) ${joined}`);
  }
}

interface Lookup {
  tokenHash: string;
  riderParameters: readonly (string | null)[];
}

type Found = { found: SessionWithUser; rider: unknown } | undefined;

/**
 * Concurrent lookups of one statement share a round trip: every authenticated request
 * starts with one, so under load this is the busiest statement authd sends.
 */
const lookupBatcher = (sql: Sql, rider: SessionRider) => {
  const statement = batchedLookup(sql, rider);
  const count = rider.parameters.length;
  return new Batcher<Lookup, Found>({
    run: async (lookups) => {
      const hashes: string[] = [];
      const parameters: (string | null)[][] = [];
      for (let n = 0; n < count; n++) parameters.push([]);
      for (const lookup of lookups) {
        hashes.push(lookup.tokenHash);
        for (let n = 0; n < count; n++) parameters[n]?.push(lookup.riderParameters[n] ?? null);
      }
      const rows = await statement(hashes, parameters);
      const outcomes: Found[] = new Array(lookups.length).fill(undefined);
      for (const row of rows) {
        outcomes[row[0] - 1] = { found: sessionWithUserOf(row), rider: row[22] ?? null };
      }
      return outcomes;
    },
  });
};

/**
 * The session lookups of one connection pool, batched with concurrent ones (one batcher
 * per rider). Made by whoever owns the pool (buildApp), so two apps share nothing.
 */
export interface SessionLookups {
  /** The session by token digest, with its user. */
  find(tokenHash: string): Promise<SessionWithUser | undefined>;
  /** find plus the rider's value (null without a session). */
  findWith<T>(
    tokenHash: string,
    rider: SessionRider,
    riderParameters?: readonly (string | null)[],
  ): Promise<{ found: SessionWithUser; rider: T | null } | undefined>;
}

export function createSessionLookups(sql: Sql): SessionLookups {
  const byRider = new Map<SessionRider, Batcher<Lookup, Found>>();
  const load = (rider: SessionRider, lookup: Lookup): Promise<Found> => {
    let batcher = byRider.get(rider);
    if (!batcher) {
      batcher = lookupBatcher(sql, rider);
      byRider.set(rider, batcher);
    }
    return batcher.load(lookup);
  };
  return {
    async find(tokenHash) {
      return (await load(NO_RIDER, { tokenHash, riderParameters: [] }))?.found;
    },
    async findWith<T>(
      tokenHash: string,
      rider: SessionRider,
      riderParameters: readonly (string | null)[] = [],
    ) {
      if (riderParameters.length > rider.parameters.length) {
        throw new Error(`this rider takes ${rider.parameters.length} parameters`);
      }
      const found = await load(rider, { tokenHash, riderParameters });
      return found && { found: found.found, rider: found.rider as T | null };
    },
  };
}

function sessionWithUserOf(row: JoinedValues): SessionWithUser {
  return {
    session: {
      id: row[1],
      userId: row[2],
      tokenHash: row[3],
      expiresAt: row[4],
      ipAddress: row[5],
      userAgent: row[6],
      activeOrganizationId: row[7],
      activeTeamId: row[8],
      impersonatedBy: row[9],
      createdAt: row[10],
      updatedAt: row[11],
    },
    user: {
      id: row[2],
      email: row[12],
      emailVerified: row[13],
      name: row[14],
      image: row[15],
      role: row[16],
      banned: row[17],
      banReason: row[18],
      banExpires: row[19],
      createdAt: row[20],
      updatedAt: row[21],
    },
  };
}

/** A row of the batched lookup, in the order of its select list. */
type JoinedValues = [
  caller: number,
  id: string,
  userId: string,
  tokenHash: string,
  expiresAt: Date,
  ipAddress: string | null,
  userAgent: string | null,
  activeOrganizationId: string | null,
  activeTeamId: string | null,
  impersonatedBy: string | null,
  createdAt: Date,
  updatedAt: Date,
  uEmail: string,
  uEmailVerified: boolean,
  uName: string,
  uImage: string | null,
  uRole: string | null,
  uBanned: boolean,
  uBanReason: string | null,
  uBanExpires: Date | null,
  uCreatedAt: Date,
  uUpdatedAt: Date,
  rider?: unknown,
];

const selectSession = rowReader<SessionRow>("session", SESSION_COLUMNS);

export function findSessionById(sql: Queryable, id: string): Promise<SessionRow | undefined> {
  return selectSession(sql, sql`id = ${id}`);
}

export function findSessionByTokenHash(
  sql: Queryable,
  tokenHash: string,
): Promise<SessionRow | undefined> {
  return selectSession(sql, sql`token_hash = ${tokenHash}`);
}

/** The sessions `where` finds, newest first. */
function listSessions(sql: Queryable, where: Fragment): Promise<SessionRow[]> {
  return sql<SessionRow[]>`
    select ${columns(sql, SESSION_COLUMNS)} from session where ${where}
    order by created_at desc, id`;
}

export function listActiveSessionsOfUser(sql: Queryable, userId: string): Promise<SessionRow[]> {
  return listSessions(sql, sql`user_id = ${userId} and expires_at > now()`);
}

export async function extendSession(
  sql: Queryable,
  id: string,
  expiresAt: Date,
): Promise<SessionRow | undefined> {
  const [row] = await sql<SessionRow[]>`
    update session set expires_at = ${expiresAt}, updated_at = now() where id = ${id}
    returning ${columns(sql, SESSION_COLUMNS)}`;
  return row;
}

export async function deleteSessionById(sql: Queryable, id: string): Promise<boolean> {
  const rows = await sql`delete from session where id = ${id}`;
  return rows.count > 0;
}

/** Deletes a session of `userId` by id or by token digest; another user's is untouched. */
export async function deleteSessionOfUser(
  sql: Queryable,
  userId: string,
  selector: { id?: string; tokenHash?: string },
): Promise<boolean> {
  const rows = await sql`
    delete from session
    where user_id = ${userId}
      and (id = ${selector.id ?? null} or token_hash = ${selector.tokenHash ?? null})`;
  return rows.count > 0;
}

export async function deleteSessionsOfUser(
  sql: Queryable,
  userId: string,
  exceptId?: string,
): Promise<number> {
  const rows = await sql`
    delete from session
    where user_id = ${userId} and (${exceptId ?? null}::text is null or id <> ${exceptId ?? null})`;
  return rows.count;
}

/** Sessions that expired before `before` (cleanup; get-session deletes the ones it meets). */
export async function deleteExpiredSessions(
  sql: Queryable,
  before: Date,
  dryRun = false,
  /** Delete at most this many (a batch of `authd db cleanup --batch-size`). */
  limit?: number,
): Promise<number> {
  return deleteExpiredRows(sql, sql`session`, before, dryRun, limit);
}

// --- A session's active organization and team -------------------------------------

export async function setActiveOrganizationOfSession(
  sql: Queryable,
  sessionId: string,
  organizationId: string | null,
  teamId: string | null = null,
): Promise<void> {
  await sql`
    update session set active_organization_id = ${organizationId}, active_team_id = ${teamId},
                       updated_at = now()
    where id = ${sessionId}`;
}

/** Clears a session's active organization and team; a session with neither is left as it is. */
export async function clearActiveOrganizationOfSession(
  sql: Queryable,
  sessionId: string,
): Promise<void> {
  await sql`
    update session set active_organization_id = null, active_team_id = null, updated_at = now()
    where id = ${sessionId}
      and (active_organization_id is not null or active_team_id is not null)`;
}

/** Leaving or losing an organization clears it as active on the user's sessions. */
export async function clearActiveOrganizationOfUser(
  sql: Queryable,
  userId: string,
  organizationId: string,
): Promise<void> {
  await sql`
    update session set active_organization_id = null, active_team_id = null, updated_at = now()
    where user_id = ${userId} and active_organization_id = ${organizationId}`;
}

export async function setActiveTeamOfSession(
  sql: Queryable,
  sessionId: string,
  teamId: string | null,
): Promise<SessionRow | undefined> {
  const [row] = await sql<SessionRow[]>`
    update session set active_team_id = ${teamId}, updated_at = now()
    where id = ${sessionId}
    returning ${columns(sql, SESSION_COLUMNS)}`;
  return row;
}

/** A user taken out of a team no longer has it as the active team of any session. */
export async function clearActiveTeamOfUser(
  sql: Queryable,
  userId: string,
  teamId: string,
): Promise<void> {
  await sql`
    update session set active_team_id = null, updated_at = now()
    where user_id = ${userId} and active_team_id = ${teamId}`;
}

/**
 * The step of a larger statement that makes organizations active on sessions, for
 * writes that must land together with the membership (create, accept an invitation).
 * `switches` is a query giving (session_id, organization_id) rows.
 */
export function activateOrganizationsStep(sql: Queryable, switches: Fragment): Fragment {
  return sql`
    update session set active_organization_id = switched.organization_id,
                       active_team_id = null, updated_at = now()
    from (${switches}) as switched
    where session.id = switched.session_id`;
}

/**
 * The same for one session, by its key, when `when` (a query) has a row: the
 * accept-invitation statement's switch, which stays an index lookup of the session.
 */
export function activateOrganizationStep(
  sql: Queryable,
  sessionId: string,
  organizationId: string,
  when: Fragment,
): Fragment {
  return sql`
    update session set active_organization_id = ${organizationId},
                       active_team_id = null, updated_at = now()
    where id = ${sessionId} and exists (${when})`;
}

// --- Sessions as the platform admin and the operator see them -------------------------

/** Every session of the user, expired ones included (list-user-sessions, as in Better Auth). */
export function listAllSessionsOfUser(sql: Queryable, userId: string): Promise<SessionRow[]> {
  return listSessions(sql, sql`user_id = ${userId}`);
}

/** Deletes a session by id or token digest, whoever it belongs to; answers its row. */
export async function deleteSessionByIdOrDigest(
  sql: Queryable,
  id: string,
  tokenHash: string,
): Promise<SessionRow | undefined> {
  const [row] = await sql<SessionRow[]>`
    delete from session where id = ${id} or token_hash = ${tokenHash}
    returning ${columns(sql, SESSION_COLUMNS)}`;
  return row;
}

/**
 * One multi-row INSERT of sessions brought from another system, each with the digest of
 * its token (the token itself is never stored); a row whose id or digest is already taken
 * is left out. Answers the ids that went in.
 */
export async function insertMigratedSessions(
  sql: Queryable,
  sessions: SessionRow[],
): Promise<string[]> {
  if (sessions.length === 0) return [];
  const rows = sessions.map((session) => ({
    ...session,
    expiresAt: session.expiresAt.toISOString(),
    createdAt: session.createdAt.toISOString(),
    updatedAt: session.updatedAt.toISOString(),
  }));
  const values = insertValues(sql, rows, SESSION_COLUMNS);
  const inserted = await sql<Array<{ id: string }>>`
    insert into session ${values} on conflict do nothing returning id`;
  return inserted.map((row) => row.id);
}

/** Which of these ids are sessions (an import's "already there"). */
export const findSessionIds = keysReader<{ id: string }>(
  "session",
  columnsOf<{ id: string }>()(["id"]),
  "id",
);
