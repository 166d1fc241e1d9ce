/**
 * The JSONL form of a seed document (`authd db export -o jsonl`, accepted by `db seed`):
 * one JSON object per line, each with a `kind`, so a big database streams out line by
 * line. Children name their organization by slug and follow its line:
 *
 *   {"kind":"seed","version":1}
 *   {"kind":"user","email":"a@example.test","name":"A",...}
 *   {"kind":"organization","slug":"acme","name":"Acme","owner":"a@example.test"}
 *   {"kind":"team","organization":"acme","name":"Core"}
 *   {"kind":"member","organization":"acme","user":"b@example.test","role":"member"}
 *   {"kind":"invitation","organization":"acme","email":"c@example.test","role":"member",...}
 *
 * Reading assembles the lines into the ordinary document, which is then validated as a
 * whole (issue paths name the assembled document: users[3] is the fourth user line).
 */

export type SeedLineKind = "seed" | "user" | "organization" | "team" | "member" | "invitation";

export const CHILD_KINDS = { team: "teams", member: "members", invitation: "invitations" } as const;

export interface LineIssue {
  path: string;
  message: string;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** True when `text` looks like JSONL: a first line that is an object with a `kind`. */
export function looksLikeSeedLines(text: string): boolean {
  const first = text.trimStart().split("\n", 1)[0] ?? "";
  try {
    const parsed: unknown = JSON.parse(first);
    return isObject(parsed) && typeof parsed.kind === "string";
  } catch {
    return false;
  }
}

/**
 * Assembles JSONL lines into a seed document. Answers the document, or the problems
 * found (by line number) when a line is not JSON, has an unknown kind, or names an
 * organization no earlier line introduced.
 */
export function assembleSeedLines(
  text: string,
): { document: Json; issues: [] } | { issues: LineIssue[] } {
  const issues: LineIssue[] = [];
  const document: Json = {};
  const users: unknown[] = [];
  const organizations: Json[] = [];
  const bySlug = new Map<string, Json>();
  const lines = text.split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    if (raw.trim() === "") continue;
    const where = `line ${index + 1}`;
    let line: unknown;
    try {
      line = JSON.parse(raw);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      issues.push({ path: where, message: `not valid JSON: ${reason}` });
      continue;
    }
    if (!isObject(line)) {
      issues.push({ path: where, message: "expected a JSON object with a kind" });
      continue;
    }
    const { kind, ...fields } = line;
    switch (kind) {
      case "seed":
        if ("version" in document) {
          issues.push({ path: where, message: "a second seed line" });
        } else document.version = fields.version;
        break;
      case "user":
        users.push(fields);
        break;
      case "organization": {
        organizations.push(fields);
        if (typeof fields.slug === "string") bySlug.set(fields.slug, fields);
        break;
      }
      case "team":
      case "member":
      case "invitation": {
        const { organization: slug, ...child } = fields;
        const parent = typeof slug === "string" ? bySlug.get(slug) : undefined;
        if (!parent) {
          issues.push({
            path: where,
            message:
              typeof slug === "string"
                ? `organization "${slug}" has no organization line before this ${kind}`
                : `a ${kind} line needs "organization": "<slug>"`,
          });
          break;
        }
        const list = CHILD_KINDS[kind];
        const existing = parent[list];
        if (Array.isArray(existing)) existing.push(child);
        else parent[list] = [child];
        break;
      }
      default:
        issues.push({
          path: where,
          message: `unknown kind ${JSON.stringify(kind)} (expected seed, user, organization, team, member or invitation)`,
        });
    }
  }
  if (issues.length > 0) return { issues };
  if (users.length > 0) document.users = users;
  if (organizations.length > 0) document.organizations = organizations;
  return { document, issues: [] };
}
