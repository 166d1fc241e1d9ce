/**
 * A user's platform roles: the comma-separated `role` column, or `admin.defaultRole` when
 * it is empty. A platform admin holds a role listed in `admin.adminRoles` or has an id
 * listed in `admin.adminUserIds`; platform administration and organization creation on
 * another user's behalf both ask this one rule.
 */
import type { AuthdConfig } from "../config.js";
import { splitRoles } from "../role-list.js";
import type { UserRow } from "./queries.js";

export function platformRolesOf(role: string | null, config: AuthdConfig): string[] {
  return splitRoles(role ?? config.admin.defaultRole);
}

/** A platform admin: a role in `admin.adminRoles`, or an id in `admin.adminUserIds`. */
export function isPlatformAdmin(user: UserRow, config: AuthdConfig): boolean {
  if (config.admin.adminUserIds.includes(user.id)) return true;
  return platformRolesOf(user.role, config).some((role) => config.admin.adminRoles.includes(role));
}
