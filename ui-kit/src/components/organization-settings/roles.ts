/**
 * What the signed-in member may do, mirroring the server's built-in roles (owner: all;
 * admin: all but deleting the organization and touching owners; member: nothing), so
 * the page hides what would be refused. The server still decides every call.
 */
import type { Messages } from "../../i18n/types.js";

export const BUILT_IN_ROLES = ["owner", "admin", "member"] as const;
export type BuiltInRole = (typeof BUILT_IN_ROLES)[number];

/** A member's roles: the server stores several joined by commas ("admin,member"). */
export function rolesOf(role: string | null | undefined): string[] {
  return (role ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
}

export function hasRole(role: string | null | undefined, name: string): boolean {
  return rolesOf(role).includes(name);
}

/** Owners and admins manage members, invitations and the organization's details. */
export function canManage(role: string | null | undefined): boolean {
  return hasRole(role, "owner") || hasRole(role, "admin");
}

/** Roles `role` may give: only owners give the owner role. */
export function assignableRoles(role: string | null | undefined): BuiltInRole[] {
  if (hasRole(role, "owner")) return ["owner", "admin", "member"];
  if (hasRole(role, "admin")) return ["admin", "member"];
  return [];
}

/** Whether `actorRole` may change or remove a member holding `targetRole`. */
export function canManageMember(
  actorRole: string | null | undefined,
  targetRole: string | null | undefined,
): boolean {
  if (!canManage(actorRole)) return false;
  return hasRole(actorRole, "owner") || !hasRole(targetRole, "owner");
}

/** A role's name in the page's language; custom roles keep their own name. */
export function roleLabel(role: string, messages: Messages["organization"]): string {
  const names = messages.roles as Readonly<Record<string, string>>;
  return rolesOf(role)
    .map((name) => names[name] ?? name)
    .join(", ");
}
