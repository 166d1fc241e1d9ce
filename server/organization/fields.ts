/**
 * Rules of the data every path writes (HTTP, CLI, seed, hooks): the slug pattern, the
 * lengths of the HTTP body and what metadata can be stored.
 */
import { AuthError } from "../errors.js";

/** Whether `value`, a string or anything holding strings, has a NUL in a key or a value. */
function holdsNul(value: unknown): boolean {
  if (typeof value === "string") return value.includes("\u0000");
  if (Array.isArray(value)) return value.some(holdsNul);
  if (value && typeof value === "object") {
    return Object.entries(value).some(([key, inner]) => key.includes("\u0000") || holdsNul(inner));
  }
  return false;
}

/**
 * Why metadata cannot be stored, if it cannot: it is kept as jsonb, which holds no NUL
 * character, and is capped at 16 KB of JSON.
 */
export function metadataProblem(metadata: Record<string, unknown>): string | undefined {
  if (JSON.stringify(metadata).length > 16384) return "metadata is limited to 16 KB of JSON";
  if (holdsNul(metadata)) return "metadata must not contain NUL characters";
  return undefined;
}

/** Every way an organization's metadata is written checks it here (HTTP, CLI, seed, hooks). */
export function requireStorableMetadata(
  metadata: Record<string, unknown> | null | undefined,
): void {
  const problem = metadata ? metadataProblem(metadata) : undefined;
  if (problem) {
    throw new AuthError("VALIDATION_ERROR", {
      message: "Invalid body parameters",
      details: [{ path: "metadata", message: problem }],
    });
  }
}

/** The slug rule (docs/http-api.md): lowercase letters and digits joined by single hyphens. */
export const ORGANIZATION_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** How long each field may be, in characters: the HTTP body's schema and the rule below. */
export const ORGANIZATION_FIELD_LIMITS = { name: 255, slug: 100, logo: 2048 } as const;

/** The slug rule and the lengths of the HTTP body, for every way an organization is written. */
export function requireOrganizationFields(data: {
  name?: string;
  slug?: string;
  logo?: string | null;
}): void {
  if (
    data.name !== undefined &&
    (data.name.length === 0 || data.name.length > ORGANIZATION_FIELD_LIMITS.name)
  ) {
    throw new AuthError("VALIDATION_ERROR", { message: "a name has 1 to 255 characters" });
  }
  if (
    data.slug !== undefined &&
    (!ORGANIZATION_SLUG_PATTERN.test(data.slug) ||
      data.slug.length > ORGANIZATION_FIELD_LIMITS.slug)
  ) {
    throw new AuthError("VALIDATION_ERROR", {
      message: "a slug is lowercase letters and digits, joined by single hyphens",
    });
  }
  if (data.logo && data.logo.length > ORGANIZATION_FIELD_LIMITS.logo) {
    throw new AuthError("VALIDATION_ERROR", { message: "a logo URL has at most 2048 characters" });
  }
}
