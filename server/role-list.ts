/**
 * How a list of roles is stored, for a user's platform roles and a member's roles alike:
 * names joined by commas.
 */

/** "owner,admin" -> ["owner", "admin"]; roles are trimmed, never empty, each once. */
export function splitRoles(role: string | readonly string[]): string[] {
  const parts = typeof role === "string" ? role.split(",") : role;
  return [...new Set(parts.map((part) => part.trim()).filter(Boolean))];
}

export function joinRoles(roles: readonly string[]): string {
  return splitRoles(roles).join(",");
}
