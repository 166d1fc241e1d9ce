/**
 * Platform administration (the admin API of Better Auth): the rules behind both
 * `POST /admin/*` and `authd user|session …`, so the two cannot disagree. No Fastify
 * here. Every action writes an audit_event in the same transaction as its change.
 */
import { z } from "zod";
import {
  findCredentialAccount,
  insertCredentialAccount,
  setCredentialPassword,
} from "../accounts/queries.js";
import { recordAuditEvent } from "../audit/audit.js";
import type { AuthdConfig } from "../config.js";
import { sha256 } from "../crypto/digest.js";
import { hashPassword } from "../crypto/password.js";
import { generateId } from "../crypto/random.js";
import type { Queryable, Sql } from "../db/connection.js";
import { isUniqueViolation, transaction } from "../db/transaction.js";
import { AuthError, type ErrorCode } from "../errors.js";
import type { SessionRow } from "../sessions/queries.js";
import {
  type ClientInfo,
  type CreatedSession,
  createSession,
  deleteSessionByIdOrDigest,
  listAllSessionsOfUser,
  revokeSessions,
} from "../sessions/sessions.js";
import {
  type AdminUserChanges,
  deleteUserById,
  findUserByEmail,
  findUserById,
  insertUser,
  type UserRow,
  updateUserAsAdmin,
} from "../users/queries.js";
import { assertNotBanned, checkPasswordLength, requireValidEmail } from "../users/users.js";
import {
  escapeLike,
  searchUsers,
  searchUsersKeyset,
  USER_COLUMNS,
  type UserColumn,
  type UserKeyset,
} from "./queries.js";

/** Who acts: a signed-in user over HTTP, or the operator at the shell. */
export type AdminActor =
  | { kind: "user"; user: UserRow; ipAddress: string | null; userAgent?: string | null }
  | { kind: "cli" };

export interface AdminDeps {
  sql: Sql;
  config: AuthdConfig;
}

/** The admin access-control statements, as Better Auth names them. */
export const ADMIN_STATEMENTS = {
  user: [
    "create",
    "list",
    "set-role",
    "ban",
    "impersonate",
    "impersonate-admins",
    "delete",
    "set-password",
    "set-email",
    "get",
    "update",
  ],
  session: ["list", "revoke", "delete"],
} as const;

type Resource = keyof typeof ADMIN_STATEMENTS;
export type PermissionRequest = Partial<Record<Resource, string[]>>;
type Grants = Partial<Record<Resource, readonly string[]>>;

/** admin holds everything but impersonate-admins (as in Better Auth); user nothing. */
const ADMIN_GRANTS: Grants = {
  user: ADMIN_STATEMENTS.user.filter((action) => action !== "impersonate-admins"),
  session: ADMIN_STATEMENTS.session,
};

export const DEFAULT_BAN_REASON = "No reason";

function rolesOf(role: string | null, config: AuthdConfig): string[] {
  return (role ?? config.admin.defaultRole)
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
}

/**
 * The roles that may be set: every role in `admin.adminRoles`, the default role, and
 * the built-in admin and user. A role in `adminRoles` holds the admin role's permissions.
 */
export function knownRoles(config: AuthdConfig): Set<string> {
  return new Set([...config.admin.adminRoles, config.admin.defaultRole, "admin", "user"]);
}

/** A platform admin: a role in `admin.adminRoles`, or an id in `admin.adminUserIds`. */
export function isPlatformAdmin(user: UserRow, config: AuthdConfig): boolean {
  if (config.admin.adminUserIds.includes(user.id)) return true;
  return rolesOf(user.role, config).some((role) => config.admin.adminRoles.includes(role));
}

function grantsOfRoles(roles: string[], config: AuthdConfig): Grants {
  const admin = roles.some((role) => role === "admin" || config.admin.adminRoles.includes(role));
  return admin ? ADMIN_GRANTS : {};
}

function allows(grants: Grants, request: PermissionRequest): boolean {
  const entries = Object.entries(request) as [Resource, string[]][];
  if (entries.length === 0) return false;
  return entries.every(([resource, actions]) =>
    actions.every((action) => grants[resource]?.includes(action) === true),
  );
}

/** Does this user (or role list) hold every requested permission? */
export function rolesAllow(
  subject: { user?: UserRow; role?: string },
  request: PermissionRequest,
  config: AuthdConfig,
): boolean {
  if (subject.user && config.admin.adminUserIds.includes(subject.user.id)) return true;
  const roles = subject.user
    ? rolesOf(subject.user.role, config)
    : rolesOf(subject.role ?? null, config);
  return allows(grantsOfRoles(roles, config), request);
}

/** The operator at the shell holds every permission: they already hold the database. */
function actorAllows(actor: AdminActor, request: PermissionRequest, config: AuthdConfig): boolean {
  return actor.kind === "cli" || rolesAllow({ user: actor.user }, request, config);
}

function authorize(
  deps: AdminDeps,
  actor: AdminActor,
  request: PermissionRequest,
  code: ErrorCode,
): void {
  if (!actorAllows(actor, request, deps.config)) throw new AuthError(code);
}

function isSelf(actor: AdminActor, userId: string): boolean {
  return actor.kind === "user" && actor.user.id === userId;
}

async function audit(
  sql: Queryable,
  actor: AdminActor,
  action: string,
  target: { type: "user" | "session"; id: string },
  details?: unknown,
): Promise<void> {
  await recordAuditEvent(sql, {
    action: `admin.${action}`,
    actorType: actor.kind === "user" ? "user" : "cli",
    actorId: actor.kind === "user" ? actor.user.id : null,
    targetType: target.type,
    targetId: target.id,
    ipAddress: actor.kind === "user" ? actor.ipAddress : null,
    userAgent: actor.kind === "user" ? (actor.userAgent ?? null) : null,
    details,
  });
}

async function requireUser(sql: Queryable, userId: string): Promise<UserRow> {
  const user = await findUserById(sql, userId);
  if (!user) throw new AuthError("USER_NOT_FOUND");
  return user;
}

/**
 * The role value to store: a string (possibly comma-separated) or a list, every name
 * known (400 YOU_ARE_NOT_ALLOWED_TO_SET_NON_EXISTENT_VALUE), stored comma-joined.
 */
export function normalizeRole(role: unknown, config: AuthdConfig): string {
  const names = typeof role === "string" ? role.split(",") : Array.isArray(role) ? role : null;
  if (!names || names.some((name) => typeof name !== "string")) {
    throw new AuthError("INVALID_ROLE_TYPE");
  }
  const trimmed = (names as string[]).map((name) => name.trim()).filter((name) => name !== "");
  if (trimmed.length === 0) throw new AuthError("INVALID_ROLE_TYPE");
  const known = knownRoles(config);
  if (trimmed.some((name) => !known.has(name))) {
    throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_SET_NON_EXISTENT_VALUE");
  }
  return [...new Set(trimmed)].join(",");
}

/** A user by id, or by email when the argument holds an `@` (the CLI's `<id|email>`). */
export async function resolveUser(sql: Queryable, idOrEmail: string): Promise<UserRow> {
  const user = idOrEmail.includes("@")
    ? await findUserByEmail(sql, idOrEmail.trim().toLowerCase())
    : await findUserById(sql, idOrEmail);
  if (!user) throw new AuthError("USER_NOT_FOUND", { details: { user: idOrEmail } });
  return user;
}

export interface CreateUserInput {
  email: string;
  name?: string;
  password?: string;
  role?: string | string[];
  emailVerified?: boolean;
  image?: string | null;
}

/** create-user: no password means no credential account (as in Better Auth). */
export async function createUser(
  deps: AdminDeps,
  actor: AdminActor,
  input: CreateUserInput,
): Promise<UserRow> {
  authorize(deps, actor, { user: ["create"] }, "YOU_ARE_NOT_ALLOWED_TO_CREATE_USERS");
  if (input.role !== undefined) {
    authorize(deps, actor, { user: ["set-role"] }, "YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE");
  }
  const email = requireValidEmail(input.email);
  const role =
    input.role === undefined
      ? deps.config.admin.defaultRole
      : normalizeRole(input.role, deps.config);
  let passwordHash: string | null = null;
  if (input.password !== undefined) {
    checkPasswordLength(deps.config, input.password);
    passwordHash = await hashPassword(input.password);
  }
  try {
    return await transaction(deps.sql, async (tx) => {
      const user = await insertUser(tx, {
        id: generateId(),
        email,
        name: input.name ?? "",
        image: input.image ?? null,
        emailVerified: input.emailVerified ?? false,
        role,
      });
      if (passwordHash) {
        await insertCredentialAccount(tx, { id: generateId(), userId: user.id, passwordHash });
      }
      await audit(tx, actor, "create_user", { type: "user", id: user.id }, { email, role });
      return user;
    });
  } catch (error) {
    if (isUniqueViolation(error, "user_email_key")) {
      throw new AuthError("USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL");
    }
    throw error;
  }
}

export const listUsersQuery = z.object({
  searchValue: z.string().max(320).optional(),
  searchField: z.enum(["email", "name"]).default("email"),
  searchOperator: z.enum(["contains", "starts_with", "ends_with"]).default("contains"),
  /** A shell glob on the email (`*@spam.example`); the CLI's `--email`. */
  emailGlob: z.string().max(320).optional(),
  /** Only banned (true) or unbanned (false) users; the CLI's `--banned`. */
  banned: z.boolean().optional(),
  limit: z.coerce.number().int().min(0).max(1000).optional(),
  offset: z.coerce.number().int().min(0).optional(),
  sortBy: z.enum(Object.keys(USER_COLUMNS) as [UserColumn, ...UserColumn[]]).optional(),
  sortDirection: z.enum(["asc", "desc"]).default("asc"),
  filterField: z.enum(Object.keys(USER_COLUMNS) as [UserColumn, ...UserColumn[]]).default("email"),
  filterValue: z.union([z.string().max(320), z.boolean(), z.number()]).optional(),
  filterOperator: z.enum(["eq", "ne", "lt", "lte", "gt", "gte", "contains"]).default("eq"),
});
export type ListUsersQuery = z.input<typeof listUsersQuery>;

export interface UserList {
  users: UserRow[];
  total: number;
  limit?: number;
  offset?: number;
}

/** Without a limit at most this many rows come back (as in Better Auth). */
export const DEFAULT_LIST_LIMIT = 100;

function globToLike(glob: string): string {
  return escapeLike(glob).replace(/\*/g, "%").replace(/\?/g, "_");
}

/** The search, filter and ban conditions of a list-users query, ready for the SQL. */
function userConditions(query: z.output<typeof listUsersQuery>) {
  let search: { field: "email" | "name"; pattern: string } | undefined;
  if (query.emailGlob !== undefined) {
    search = { field: "email", pattern: globToLike(query.emailGlob.toLowerCase()) };
  } else if (query.searchValue) {
    const value = escapeLike(query.searchValue);
    const pattern =
      query.searchOperator === "starts_with"
        ? `${value}%`
        : query.searchOperator === "ends_with"
          ? `%${value}`
          : `%${value}%`;
    search = { field: query.searchField, pattern };
  }
  const filter =
    query.filterValue === undefined
      ? undefined
      : {
          field: query.filterField,
          operator: query.filterOperator,
          value:
            typeof query.filterValue === "number" ? String(query.filterValue) : query.filterValue,
        };
  return { search, filter, banned: query.banned };
}

/** list-users: search and filter combine with AND; `total` counts every match. */
export async function listUsers(
  deps: AdminDeps,
  actor: AdminActor,
  input: ListUsersQuery,
): Promise<UserList> {
  authorize(deps, actor, { user: ["list"] }, "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS");
  const query = listUsersQuery.parse(input);
  const { users, total } = await searchUsers(deps.sql, {
    ...userConditions(query),
    sortBy: query.sortBy ?? "createdAt",
    sortDirection: query.sortDirection,
    limit: query.limit || DEFAULT_LIST_LIMIT,
    offset: query.offset ?? 0,
  });
  return {
    users,
    total,
    ...(query.limit ? { limit: query.limit } : {}),
    ...(query.offset ? { offset: query.offset } : {}),
  };
}

/** Filters only the CLI offers (`authd user list`), beside those of list-users. */
export interface UserPageOptions {
  emailVerified?: boolean;
  /** Created strictly after this instant. */
  createdAfter?: Date;
  /** From a previous page's `nextCursor`: continue after its last user. */
  cursor?: string;
}

export interface UserPage {
  users: UserRow[];
  total: number;
  limit: number;
  offset: number;
  /** Where the next page starts; null on the last page. */
  nextCursor: string | null;
}

/** An opaque cursor: base64url of the JSON `[createdAt, id]` of the last user shown. */
export function encodeUserCursor(position: UserKeyset): string {
  return Buffer.from(JSON.stringify([position.createdAt, position.id])).toString("base64url");
}

const CURSOR_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;

export function decodeUserCursor(cursor: string): UserKeyset {
  let position: unknown;
  try {
    if (!/^[A-Za-z0-9_-]{1,1024}$/.test(cursor)) throw new Error("not base64url");
    position = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    position = undefined;
  }
  if (
    !Array.isArray(position) ||
    position.length !== 2 ||
    typeof position[0] !== "string" ||
    typeof position[1] !== "string" ||
    !CURSOR_TIMESTAMP.test(position[0]) ||
    Number.isNaN(Date.parse(position[0]))
  ) {
    throw new AuthError("VALIDATION_ERROR", {
      message: "Invalid cursor: pass a nextCursor value from a previous page",
      details: [{ path: "cursor", message: "not a cursor this server issued" }],
    });
  }
  return { createdAt: position[0], id: position[1] };
}

/**
 * One page of users in creation order (oldest first) with keyset paging: the same
 * filters as list-users plus the CLI's own. `nextCursor` continues exactly after the
 * last user shown, however the table changes between pages; it is null on the last page.
 */
export async function listUsersPage(
  deps: AdminDeps,
  actor: AdminActor,
  input: ListUsersQuery,
  options: UserPageOptions = {},
): Promise<UserPage> {
  authorize(deps, actor, { user: ["list"] }, "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS");
  const query = listUsersQuery.parse(input);
  const after = options.cursor === undefined ? undefined : decodeUserCursor(options.cursor);
  const limit = query.limit || DEFAULT_LIST_LIMIT;
  const offset = after ? 0 : (query.offset ?? 0);
  // One row more than the page tells whether another page follows.
  const { users: rows, total } = await searchUsersKeyset(
    deps.sql,
    {
      ...userConditions(query),
      emailVerified: options.emailVerified,
      createdAfter: options.createdAfter,
      limit: limit + 1,
      offset,
    },
    after,
  );
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const nextCursor =
    rows.length > limit && last
      ? encodeUserCursor({ createdAt: last.keysetCreatedAt, id: last.id })
      : null;
  const users = page.map(({ keysetCreatedAt: _position, ...user }) => user);
  return { users, total, limit, offset, nextCursor };
}

export async function getUser(
  deps: AdminDeps,
  actor: AdminActor,
  userId: string,
): Promise<UserRow> {
  authorize(deps, actor, { user: ["get"] }, "YOU_ARE_NOT_ALLOWED_TO_GET_USER");
  return requireUser(deps.sql, userId);
}

/** Text PostgreSQL can store: at most `max` characters and no NUL. */
const storedText = (max: number) =>
  z
    .string()
    .max(max)
    .refine((value) => !value.includes("\u0000"), "must not contain NUL bytes");

const updateUserData = z.strictObject({
  name: storedText(255).optional(),
  image: storedText(2048).nullable().optional(),
  // The address rule (requireValidEmail) answers INVALID_EMAIL, a NUL included.
  email: z.string().max(320).optional(),
  emailVerified: z.boolean().optional(),
  role: z.union([z.string(), z.array(z.string())]).optional(),
  banned: z.boolean().optional(),
  banReason: storedText(1024).nullable().optional(),
  banExpires: z.coerce.date().nullable().optional(),
});

/**
 * update-user: never the password or the id; a role needs set-role,
 * ban fields need ban (and never oneself), an email stays unique.
 */
export async function updateUser(
  deps: AdminDeps,
  actor: AdminActor,
  userId: string,
  data: Record<string, unknown>,
): Promise<UserRow> {
  authorize(deps, actor, { user: ["update"] }, "YOU_ARE_NOT_ALLOWED_TO_UPDATE_USERS");
  if (Object.keys(data).length === 0) throw new AuthError("NO_DATA_TO_UPDATE");
  if ("password" in data) throw new AuthError("PASSWORD_CANNOT_BE_UPDATED_VIA_UPDATE_USER");
  if ("id" in data) throw new AuthError("USER_ID_CANNOT_BE_UPDATED");
  const parsed = updateUserData.safeParse(data);
  if (!parsed.success) {
    throw new AuthError("VALIDATION_ERROR", {
      details: parsed.error.issues.map((issue) => ({
        path: ["data", ...issue.path.map(String)].join("."),
        message: issue.message,
      })),
    });
  }
  const { role, banned, banReason, banExpires, email, ...rest } = parsed.data;
  const changes: AdminUserChanges = { ...rest };
  if (role !== undefined) {
    authorize(deps, actor, { user: ["set-role"] }, "YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE");
    changes.role = normalizeRole(role, deps.config);
  }
  if (email !== undefined) changes.email = requireValidEmail(email);
  const touchesBan = banned !== undefined || banReason !== undefined || banExpires !== undefined;
  if (touchesBan) {
    authorize(deps, actor, { user: ["ban"] }, "YOU_ARE_NOT_ALLOWED_TO_BAN_USERS");
    if (banned === true && isSelf(actor, userId)) throw new AuthError("YOU_CANNOT_BAN_YOURSELF");
    Object.assign(changes, { banned, banReason, banExpires });
  }
  try {
    return await transaction(deps.sql, async (tx) => {
      const user = await updateUserAsAdmin(tx, userId, changes);
      if (!user) throw new AuthError("USER_NOT_FOUND");
      if (banned === true) await revokeSessions(tx, userId);
      await audit(
        tx,
        actor,
        "update_user",
        { type: "user", id: userId },
        {
          fields: Object.keys(parsed.data),
        },
      );
      return user;
    });
  } catch (error) {
    if (isUniqueViolation(error, "user_email_key")) {
      throw new AuthError("USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL");
    }
    throw error;
  }
}

export async function setRole(
  deps: AdminDeps,
  actor: AdminActor,
  userId: string,
  role: unknown,
): Promise<UserRow> {
  authorize(deps, actor, { user: ["set-role"] }, "YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE");
  const value = normalizeRole(role, deps.config);
  return transaction(deps.sql, async (tx) => {
    const user = await updateUserAsAdmin(tx, userId, { role: value });
    if (!user) throw new AuthError("USER_NOT_FOUND");
    await audit(tx, actor, "set_role", { type: "user", id: userId }, { role: value });
    return user;
  });
}

/**
 * ban-user: a reason (default "No reason"), an expiry in seconds or none; sessions end
 * unless `keepSessions` (the CLI's `--keep-sessions`; a banned user still cannot sign
 * in or refresh, but live sessions run until they expire).
 */
export async function banUser(
  deps: AdminDeps,
  actor: AdminActor,
  userId: string,
  input: { reason?: string; expiresIn?: number; keepSessions?: boolean } = {},
): Promise<UserRow> {
  authorize(deps, actor, { user: ["ban"] }, "YOU_ARE_NOT_ALLOWED_TO_BAN_USERS");
  if (isSelf(actor, userId)) throw new AuthError("YOU_CANNOT_BAN_YOURSELF");
  const banReason = input.reason || DEFAULT_BAN_REASON;
  const banExpires =
    input.expiresIn === undefined ? null : new Date(Date.now() + input.expiresIn * 1000);
  return transaction(deps.sql, async (tx) => {
    const user = await updateUserAsAdmin(tx, userId, { banned: true, banReason, banExpires });
    if (!user) throw new AuthError("USER_NOT_FOUND");
    const sessions = input.keepSessions ? 0 : await revokeSessions(tx, userId);
    await audit(
      tx,
      actor,
      "ban_user",
      { type: "user", id: userId },
      {
        reason: banReason,
        expiresAt: banExpires,
        sessionsRevoked: sessions,
        ...(input.keepSessions ? { sessionsKept: true } : {}),
      },
    );
    return user;
  });
}

export async function unbanUser(
  deps: AdminDeps,
  actor: AdminActor,
  userId: string,
): Promise<UserRow> {
  authorize(deps, actor, { user: ["ban"] }, "YOU_ARE_NOT_ALLOWED_TO_BAN_USERS");
  return transaction(deps.sql, async (tx) => {
    const user = await updateUserAsAdmin(tx, userId, {
      banned: false,
      banReason: null,
      banExpires: null,
    });
    if (!user) throw new AuthError("USER_NOT_FOUND");
    await audit(tx, actor, "unban_user", { type: "user", id: userId });
    return user;
  });
}

export interface Impersonation extends CreatedSession {
  user: UserRow;
}

/**
 * impersonate-user: a session of the target marked `impersonatedBy`, living
 * `admin.impersonationSessionDuration`. Admins are off limits unless the caller holds
 * impersonate-admins (an `adminUserIds` entry) or `allowImpersonatingAdmins` is on.
 * From the CLI (`authd user impersonate --as`), `impersonator` names the admin user the
 * session is recorded against (the column references a user): that user's permissions
 * are checked exactly as over HTTP, and the audit row's actor is `cli`.
 */
export async function impersonateUser(
  deps: AdminDeps,
  actor: AdminActor,
  userId: string,
  client: ClientInfo,
  options: { impersonator?: UserRow; lifetimeSeconds?: number } = {},
): Promise<Impersonation> {
  const impersonator = actor.kind === "user" ? actor.user : options.impersonator;
  if (!impersonator) throw new Error("impersonateUser: a cli actor needs an impersonator");
  if (!rolesAllow({ user: impersonator }, { user: ["impersonate"] }, deps.config)) {
    throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_IMPERSONATE_USERS");
  }
  const target = await requireUser(deps.sql, userId);
  if (
    isPlatformAdmin(target, deps.config) &&
    !deps.config.admin.allowImpersonatingAdmins &&
    !rolesAllow({ user: impersonator }, { user: ["impersonate-admins"] }, deps.config)
  ) {
    throw new AuthError("YOU_CANNOT_IMPERSONATE_ADMINS");
  }
  // The session-create rule holds here too: a banned user gets no session.
  const user = await assertNotBanned(deps.sql, target);
  return transaction(deps.sql, async (tx) => {
    const created = await createSession(tx, deps.config, {
      userId: user.id,
      client,
      impersonatedBy: impersonator.id,
      lifetimeSeconds: options.lifetimeSeconds ?? deps.config.admin.impersonationSessionDuration,
    });
    await audit(
      tx,
      actor,
      "impersonate_user",
      { type: "user", id: user.id },
      actor.kind === "user"
        ? { sessionId: created.session.id }
        : { sessionId: created.session.id, impersonatedBy: impersonator.id },
    );
    return { ...created, user };
  });
}

/** Ends an impersonation session (the HTTP layer restores the admin's own cookie). */
export async function stopImpersonating(
  deps: AdminDeps,
  actor: Extract<AdminActor, { kind: "user" }>,
  impersonation: SessionRow,
): Promise<void> {
  await transaction(deps.sql, async (tx) => {
    await deleteSessionByIdOrDigest(tx, impersonation.id, impersonation.tokenHash);
    await audit(
      tx,
      actor,
      "stop_impersonating",
      { type: "user", id: impersonation.userId },
      {
        sessionId: impersonation.id,
      },
    );
  });
}

/** Every session of the user, expired ones included; an unknown user is USER_NOT_FOUND. */
export async function listUserSessions(
  deps: AdminDeps,
  actor: AdminActor,
  userId: string,
): Promise<SessionRow[]> {
  authorize(deps, actor, { session: ["list"] }, "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_SESSIONS");
  await requireUser(deps.sql, userId);
  return listAllSessionsOfUser(deps.sql, userId);
}

/**
 * revoke-user-session by session id (what list-user-sessions shows) or raw token.
 * Answers whether a session went; HTTP answers success either way (as in Better Auth).
 */
export async function revokeUserSession(
  deps: AdminDeps,
  actor: AdminActor,
  sessionIdOrToken: string,
): Promise<SessionRow | undefined> {
  authorize(deps, actor, { session: ["revoke"] }, "YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS");
  return transaction(deps.sql, async (tx) => {
    const removed = await deleteSessionByIdOrDigest(tx, sessionIdOrToken, sha256(sessionIdOrToken));
    if (removed) {
      await audit(
        tx,
        actor,
        "revoke_user_session",
        { type: "session", id: removed.id },
        {
          userId: removed.userId,
        },
      );
    }
    return removed;
  });
}

/** Ends every session of the user; answers how many. */
export async function revokeUserSessions(
  deps: AdminDeps,
  actor: AdminActor,
  userId: string,
): Promise<number> {
  authorize(deps, actor, { session: ["revoke"] }, "YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS");
  return transaction(deps.sql, async (tx) => {
    await requireUser(tx, userId);
    const count = await revokeSessions(tx, userId);
    await audit(tx, actor, "revoke_user_sessions", { type: "user", id: userId }, { count });
    return count;
  });
}

/** remove-user: never oneself; sessions, accounts and memberships go by cascade. */
export async function removeUser(
  deps: AdminDeps,
  actor: AdminActor,
  userId: string,
): Promise<UserRow> {
  authorize(deps, actor, { user: ["delete"] }, "YOU_ARE_NOT_ALLOWED_TO_DELETE_USERS");
  if (isSelf(actor, userId)) throw new AuthError("YOU_CANNOT_REMOVE_YOURSELF");
  return transaction(deps.sql, async (tx) => {
    const user = await requireUser(tx, userId);
    await deleteUserById(tx, userId);
    await audit(tx, actor, "remove_user", { type: "user", id: userId }, { email: user.email });
    return user;
  });
}

/**
 * set-user-password: creates the credential account when missing. Sessions stay (the
 * HTTP endpoint, as in Better Auth) unless `revokeSessions` (the CLI's default);
 * answers how many sessions ended.
 */
export async function setUserPassword(
  deps: AdminDeps,
  actor: AdminActor,
  userId: string,
  newPassword: string,
  options: { revokeSessions?: boolean } = {},
): Promise<{ sessionsRevoked: number }> {
  authorize(deps, actor, { user: ["set-password"] }, "YOU_ARE_NOT_ALLOWED_TO_SET_USERS_PASSWORD");
  checkPasswordLength(deps.config, newPassword);
  await requireUser(deps.sql, userId);
  const passwordHash = await hashPassword(newPassword);
  return transaction(deps.sql, async (tx) => {
    await requireUser(tx, userId);
    const account = await findCredentialAccount(tx, userId);
    if (account) await setCredentialPassword(tx, userId, passwordHash);
    else await insertCredentialAccount(tx, { id: generateId(), userId, passwordHash });
    const sessionsRevoked = options.revokeSessions ? await revokeSessions(tx, userId) : 0;
    await audit(
      tx,
      actor,
      "set_user_password",
      { type: "user", id: userId },
      options.revokeSessions ? { sessionsRevoked } : undefined,
    );
    return { sessionsRevoked };
  });
}

/**
 * A has-permission request: per resource, a list of actions that must
 * all be allowed, or `{actions, connector}` where connector "OR" lets any one suffice
 * ("AND", the default, needs them all). Every resource listed must pass.
 */
export type PermissionCheck = Partial<
  Record<Resource, string[] | { actions: string[]; connector?: "OR" | "AND" }>
>;

function checkAllows(
  subject: { user?: UserRow; role?: string },
  check: PermissionCheck,
  config: AuthdConfig,
): boolean {
  const entries = Object.entries(check).filter(([, asked]) => asked !== undefined);
  if (entries.length === 0) return false;
  return entries.every(([resource, asked]) => {
    const allowed = (actions: string[]) => rolesAllow(subject, { [resource]: actions }, config);
    if (Array.isArray(asked)) return allowed(asked);
    if (asked?.connector === "OR") return asked.actions.some((action) => allowed([action]));
    return allowed(asked?.actions ?? []);
  });
}

/**
 * has-permission: the signed-in caller is evaluated when there is one; otherwise a
 * `userId` or a `role` (server-side calls). Not an action, so not audited.
 */
export async function hasPermission(
  deps: AdminDeps,
  subject: { user?: UserRow; userId?: string; role?: string },
  permissions: PermissionCheck,
): Promise<boolean> {
  if (subject.user) return checkAllows({ user: subject.user }, permissions, deps.config);
  if (subject.userId) {
    const user = await findUserById(deps.sql, subject.userId);
    if (!user) throw new AuthError("USER_NOT_FOUND", { status: 400 });
    return checkAllows({ user }, permissions, deps.config);
  }
  if (subject.role) return checkAllows({ role: subject.role }, permissions, deps.config);
  throw new AuthError("VALIDATION_ERROR", { message: "user id or role is required" });
}

/**
 * A session minted for browser tests (`authd session create`): the
 * caller checks `cli.allowSessionMint`; a banned user gets none.
 */
export async function mintSession(
  deps: AdminDeps,
  actor: AdminActor,
  userId: string,
  lifetimeSeconds: number,
): Promise<Impersonation> {
  const user = await assertNotBanned(deps.sql, await requireUser(deps.sql, userId));
  return transaction(deps.sql, async (tx) => {
    const created = await createSession(tx, deps.config, {
      userId: user.id,
      client: { ipAddress: null, userAgent: "authd-cli" },
      lifetimeSeconds,
    });
    await audit(
      tx,
      actor,
      "create_session",
      { type: "session", id: created.session.id },
      {
        userId: user.id,
      },
    );
    return { ...created, user };
  });
}
