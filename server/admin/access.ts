/**
 * Who may do what in platform administration: the admin statements, the roles that
 * hold them, the role values that may be stored, and the has-permission check.
 */
import type { Actor } from "../actor.js";
import type { AuthdConfig } from "../config.js";
import { AuthError, type ErrorCode } from "../errors.js";
import type { UserRow } from "../users/queries.js";
import { platformRolesOf } from "../users/roles.js";
import { findUserById } from "../users/users.js";
import type { AdminDeps } from "./admin.js";

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

/**
 * The roles that may be set: every role in `admin.adminRoles`, the default role, and
 * the built-in admin and user. A role in `adminRoles` holds the admin role's permissions.
 */
export function knownRoles(config: AuthdConfig): Set<string> {
  return new Set([...config.admin.adminRoles, config.admin.defaultRole, "admin", "user"]);
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
    ? platformRolesOf(subject.user.role, config)
    : platformRolesOf(subject.role ?? null, config);
  return allows(grantsOfRoles(roles, config), request);
}

/** The operator at the shell holds every permission: they already hold the database. */
function actorAllows(actor: Actor, request: PermissionRequest, config: AuthdConfig): boolean {
  return actor.kind === "operator" || rolesAllow({ user: actor.user }, request, config);
}

export function authorize(
  deps: AdminDeps,
  actor: Actor,
  request: PermissionRequest,
  code: ErrorCode,
): void {
  if (!actorAllows(actor, request, deps.config)) throw new AuthError(code);
}

export function isSelf(actor: Actor, userId: string): boolean {
  return actor.kind === "user" && actor.user.id === userId;
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
