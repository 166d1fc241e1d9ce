/** Every SQL statement on the session table. Tokens are looked up by their digest. */
import type { Queryable } from "../db/connection.js";
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

export interface NewSession {
  id: string;
  userId: string;
  tokenHash: string;
  expiresAt: Date;
  ipAddress: string | null;
  userAgent: string | null;
  impersonatedBy?: string | null;
  activeOrganizationId?: string | null;
}

export async function insertSession(sql: Queryable, session: NewSession): Promise<SessionRow> {
  const [row] = await sql<SessionRow[]>`
    insert into session (id, user_id, token_hash, expires_at, ip_address, user_agent,
                         impersonated_by, active_organization_id)
    values (${session.id}, ${session.userId}, ${session.tokenHash}, ${session.expiresAt},
            ${session.ipAddress}, ${session.userAgent}, ${session.impersonatedBy ?? null},
            ${session.activeOrganizationId ?? null})
    returning *`;
  if (!row) throw new Error("insert into session returned no row");
  return row;
}

export interface SessionWithUser {
  session: SessionRow;
  user: UserRow;
}

/** The session by token digest ($1) with its user, plus `extra` select-list items. */
const sessionLookup = (extra = "") => `
  select s.id, s.user_id, s.token_hash, s.expires_at, s.ip_address, s.user_agent,
         s.active_organization_id, s.active_team_id, s.impersonated_by,
         s.created_at, s.updated_at,
         u.email as u_email, u.email_verified as u_email_verified, u.name as u_name,
         u.image as u_image, u.role as u_role, u.banned as u_banned,
         u.ban_reason as u_ban_reason, u.ban_expires as u_ban_expires,
         u.created_at as u_created_at, u.updated_at as u_updated_at${extra}
  from session s join "user" u on u.id = s.user_id
  where s.token_hash = $1`;

const SESSION_WITH_USER_SQL = sessionLookup();

/** One round trip: the session by token digest, with its user. */
export async function findSessionWithUser(
  sql: Queryable,
  tokenHash: string,
): Promise<SessionWithUser | undefined> {
  const [row] = await sql.unsafe<JoinedRow[]>(SESSION_WITH_USER_SQL, [tokenHash], {
    prepare: true,
  });
  return row ? sessionWithUserOf(row) : undefined;
}

/**
 * A read that depends on who is calling, answered in the session lookup's own
 * statement (one round trip instead of two). Made once by sessionRider from a scalar
 * subquery over the session's columns as `s.*` (e.g. `s.user_id`); the subquery's own
 * parameters are numbered from $2 ($1 is the token digest).
 */
export interface SessionRider {
  readonly statement: string;
}

export function sessionRider(subquery: string): SessionRider {
  return { statement: sessionLookup(`,\n         (${subquery}) as rider`) };
}

/** findSessionWithUser plus the rider's value (null without a session). */
export async function findSessionWithUserAnd<T>(
  sql: Queryable,
  tokenHash: string,
  rider: SessionRider,
  riderParameters: readonly (string | null)[] = [],
): Promise<{ found: SessionWithUser; rider: T | null } | undefined> {
  const [row] = await sql.unsafe<(JoinedRow & { rider: T | null })[]>(
    rider.statement,
    [tokenHash, ...riderParameters],
    { prepare: true },
  );
  return row ? { found: sessionWithUserOf(row), rider: row.rider } : undefined;
}

function sessionWithUserOf(row: JoinedRow): SessionWithUser {
  return {
    session: {
      id: row.id,
      userId: row.userId,
      tokenHash: row.tokenHash,
      expiresAt: row.expiresAt,
      ipAddress: row.ipAddress,
      userAgent: row.userAgent,
      activeOrganizationId: row.activeOrganizationId,
      activeTeamId: row.activeTeamId,
      impersonatedBy: row.impersonatedBy,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    },
    user: {
      id: row.userId,
      email: row.uEmail,
      emailVerified: row.uEmailVerified,
      name: row.uName,
      image: row.uImage,
      role: row.uRole,
      banned: row.uBanned,
      banReason: row.uBanReason,
      banExpires: row.uBanExpires,
      createdAt: row.uCreatedAt,
      updatedAt: row.uUpdatedAt,
    },
  };
}

interface JoinedRow extends SessionRow {
  uEmail: string;
  uEmailVerified: boolean;
  uName: string;
  uImage: string | null;
  uRole: string | null;
  uBanned: boolean;
  uBanReason: string | null;
  uBanExpires: Date | null;
  uCreatedAt: Date;
  uUpdatedAt: Date;
}

export async function findSessionById(sql: Queryable, id: string): Promise<SessionRow | undefined> {
  const [row] = await sql<SessionRow[]>`select * from session where id = ${id}`;
  return row;
}

export async function findSessionByTokenHash(
  sql: Queryable,
  tokenHash: string,
): Promise<SessionRow | undefined> {
  const [row] = await sql<SessionRow[]>`select * from session where token_hash = ${tokenHash}`;
  return row;
}

export async function listActiveSessionsOfUser(
  sql: Queryable,
  userId: string,
): Promise<SessionRow[]> {
  return sql<SessionRow[]>`
    select * from session where user_id = ${userId} and expires_at > now()
    order by created_at desc, id`;
}

export async function extendSession(
  sql: Queryable,
  id: string,
  expiresAt: Date,
): Promise<SessionRow | undefined> {
  const [row] = await sql<SessionRow[]>`
    update session set expires_at = ${expiresAt}, updated_at = now() where id = ${id} returning *`;
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
  if (dryRun) {
    const [row] = await sql<{ count: number }[]>`
      select count(*)::int as count from session where expires_at < ${before}`;
    return row?.count ?? 0;
  }
  const rows =
    limit === undefined
      ? await sql`delete from session where expires_at < ${before}`
      : await sql`
          delete from session where id in (
            select id from session where expires_at < ${before} limit ${limit})`;
  return rows.count;
}
