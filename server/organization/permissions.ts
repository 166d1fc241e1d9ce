/**
 * Organization roles and permissions. A role is a map
 * resource -> allowed actions; a member may hold several roles (comma-separated) and
 * is allowed what any one of them allows. Custom roles from `organization.roles` add
 * to (or redefine) the defaults. One function decides, for every endpoint and for
 * `has-permission`.
 */
import type { AuthdConfig } from "../config.js";
import { AuthError } from "../errors.js";
import { joinRoles, splitRoles } from "../role-list.js";

export type Statement = Record<string, readonly string[]>;

/** The resources and their actions (plus `ac`, the access-control resource). */
export const STATEMENTS: Statement = {
  organization: ["update", "delete"],
  member: ["create", "update", "delete"],
  invitation: ["create", "cancel"],
  team: ["create", "update", "delete"],
  ac: ["create", "read", "update", "delete"],
};

export const DEFAULT_ROLES: Record<string, Statement> = {
  owner: STATEMENTS,
  admin: { ...STATEMENTS, organization: ["update"] },
  member: { ac: ["read"] },
};

export function rolesOf(config: AuthdConfig): Record<string, Statement> {
  return { ...DEFAULT_ROLES, ...(config.organization.roles ?? {}) };
}

/** The roles in `role` that this configuration does not define. */
export function unknownRoles(config: AuthdConfig, role: string | readonly string[]): string[] {
  const known = rolesOf(config);
  return splitRoles(role).filter((name) => !Object.hasOwn(known, name));
}

export type PermissionRequest = Record<string, readonly string[]>;

/**
 * Does a member holding `role` have every action asked for? A single role must
 * grant the whole request (roles are not merged action by action).
 */
export function hasPermission(
  config: AuthdConfig,
  role: string,
  request: PermissionRequest,
): boolean {
  const roles = rolesOf(config);
  const asked = Object.entries(request);
  if (asked.length === 0) return false;
  return splitRoles(role).some((name) => {
    const statement = roles[name];
    if (!statement) return false;
    return asked.every(([resource, actions]) => {
      const allowed = statement[resource];
      return allowed !== undefined && actions.every((action) => allowed.includes(action));
    });
  });
}

/** Does `role` include the creator role (owner by default)? */
export function isCreatorRole(config: AuthdConfig, role: string): boolean {
  return splitRoles(role).includes(config.organization.creatorRole);
}

/** The roles named must exist (ROLE_NOT_FOUND lists those that do not); answers them joined. */
export function requireKnownRoles(config: AuthdConfig, role: string | readonly string[]): string {
  const roles = splitRoles(role);
  if (roles.length === 0) throw new AuthError("ROLE_NOT_FOUND");
  const unknown = unknownRoles(config, roles);
  if (unknown.length > 0) {
    throw new AuthError("ROLE_NOT_FOUND", { message: `ROLE_NOT_FOUND: ${unknown.join(", ")}` });
  }
  return joinRoles(roles);
}
