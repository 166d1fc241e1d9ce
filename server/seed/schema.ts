/**
 * The seed document: its shapes (zod, one item at a time so every item's errors are
 * reported even when another item is malformed) and the parsing of its text. Field
 * rules are the domains' own; the seed only adds where in the file a value sits.
 */
import { parseDocument } from "yaml";
import { z } from "zod";
import { CREDENTIAL_PROVIDER } from "../accounts/accounts.js";
import { detectHashFormat } from "../crypto/password.js";
import { AuthError } from "../errors.js";
import { invitationExpiresAt, requireInvitationLifetime } from "../invitations/invite.js";
import {
  metadataProblem,
  ORGANIZATION_SLUG_PATTERN,
  requireOrganizationFields,
} from "../organization/fields.js";
import { requireTeamName } from "../teams/teams.js";
import { requireValidEmail } from "../users/users.js";
import { assembleSeedLines, looksLikeSeedLines } from "./document.js";

export const IF_EXISTS = ["skip", "update", "fail"] as const;
export type IfExists = (typeof IF_EXISTS)[number];

// ---------------------------------------------------------------------------------
// Parsing.

/**
 * Parses the text of a seed file: YAML for `.yaml`/`.yml` files, JSON for `.json`, JSONL
 * (server/seed/document.ts) for `.jsonl`/`.ndjson`; from stdin, JSONL when the first line
 * is an object with a `kind`, JSON when the text starts with `{`, YAML otherwise.
 */
export function parseSeedText(text: string, source: string): unknown {
  const asLines =
    /\.(jsonl|ndjson)$/i.test(source) ||
    (!/\.(json|ya?ml)$/i.test(source) && looksLikeSeedLines(text));
  if (asLines) {
    const assembled = assembleSeedLines(text);
    if (assembled.issues.length > 0) throw invalidFile(assembled.issues, source);
    return "document" in assembled ? assembled.document : {};
  }
  const asJson = /\.json$/i.test(source) || (!/\.ya?ml$/i.test(source) && /^\s*\{/.test(text));
  if (asJson) {
    try {
      return JSON.parse(text);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw seedInvalid(`${source}: not valid JSON: ${reason}`);
    }
  }
  try {
    // YAML 1.2 core schema: no custom tags, so a seed file cannot construct objects. A
    // warning (a tag it does not know, read as plain text) refuses the file too, rather
    // than reaching the terminal as a Node.js process warning.
    const document = parseDocument(text, { schema: "core", prettyErrors: true });
    const problem = document.errors[0] ?? document.warnings[0];
    if (problem) throw problem;
    return document.toJS({ maxAliasCount: 100 });
  } catch (error) {
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw seedInvalid(`${source}: not valid YAML: ${reason}`);
  }
}

// ---------------------------------------------------------------------------------
// The seed file format.

/** The message a domain rule refuses a value with, or undefined when the value passes. */
export function refusal(check: () => unknown): string | undefined {
  try {
    check();
    return undefined;
  } catch (error) {
    if (error instanceof AuthError) return error.message;
    throw error;
  }
}

/** A domain rule as a refinement: its refusal becomes an issue at the value's path. */
function domainRule<T>(check: (value: T) => unknown) {
  return (value: T, ctx: z.RefinementCtx<T>): void => {
    const problem = refusal(() => check(value));
    if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem });
  };
}

/** The address rule of every other way in (requireValidEmail): the same addresses pass. */
const email = z.string({ error: "expected an email address" }).transform((value, ctx) => {
  try {
    return requireValidEmail(value);
  } catch {
    ctx.addIssue({ code: "custom", message: "not a valid email address" });
    return z.NEVER;
  }
});

/** `true`: the password of `db seed --password-file`. */
type PasswordSource = { fromEnv: string } | { file: string } | { hash: string } | { flag: true };

const PASSWORD_SHAPES =
  'use {"fromEnv": "NAME"}, {"file": "path"}, {"hash": "$argon2id$..."} or true (the --password-file password)';

const password = z.unknown().transform((value, ctx): PasswordSource => {
  if (value === true) return { flag: true };
  if (typeof value === "string") {
    ctx.addIssue({
      code: "custom",
      message: `a plain-text password is refused (it would sit in the file); ${PASSWORD_SHAPES}`,
    });
    return z.NEVER;
  }
  const keys = value && typeof value === "object" ? Object.keys(value) : [];
  const record = value as Record<string, unknown>;
  const key = keys[0];
  if (keys.length !== 1 || (key !== "fromEnv" && key !== "file" && key !== "hash")) {
    ctx.addIssue({
      code: "custom",
      message: `expected exactly one password source: ${PASSWORD_SHAPES}`,
    });
    return z.NEVER;
  }
  const text = record[key];
  if (typeof text !== "string" || text.length === 0) {
    ctx.addIssue({ code: "custom", path: [key], message: "expected a non-empty string" });
    return z.NEVER;
  }
  if (key === "hash" && detectHashFormat(text) === undefined) {
    ctx.addIssue({
      code: "custom",
      path: [key],
      message:
        'expected a hash authd verifies: argon2id ("$argon2id$v=19$m=..."), bcrypt ("$2b$10$...") or scrypt ("<salt hex>:<key hex>")',
    });
    return z.NEVER;
  }
  return { [key]: text } as PasswordSource;
});

export const seedUser = z.strictObject({
  email,
  name: z.string().max(255).optional(),
  emailVerified: z.boolean().optional(),
  role: z.string().trim().min(1).optional(),
  password: password.optional(),
  accounts: z
    .array(
      z.strictObject({
        providerId: z
          .string()
          .trim()
          .min(1)
          .refine((id) => id !== CREDENTIAL_PROVIDER, {
            error: `"${CREDENTIAL_PROVIDER}" is the password account: set the user's password instead`,
          }),
        accountId: z.string().trim().min(1),
      }),
    )
    .optional(),
});

/** "48h", "7d", "30m", "90s", "3600" or 3600: seconds. */
const duration = z.union([z.number(), z.string()]).transform((value, ctx): number => {
  const match = typeof value === "string" ? /^\s*(\d+)\s*([smhd]?)\s*$/.exec(value) : null;
  const unit = { "": 1, s: 1, m: 60, h: 3600, d: 86400 } as const;
  const seconds =
    typeof value === "number"
      ? value
      : match
        ? Number(match[1]) * unit[(match[2] ?? "") as keyof typeof unit]
        : Number.NaN;
  if (refusal(() => requireInvitationLifetime(seconds)) !== undefined) {
    ctx.addIssue({ code: "custom", message: 'expected a duration such as "48h", "7d" or seconds' });
    return z.NEVER;
  }
  const tooLong = refusal(() => invitationExpiresAt(new Date(), seconds));
  if (tooLong !== undefined) {
    ctx.addIssue({ code: "custom", message: tooLong });
    return z.NEVER;
  }
  return seconds;
});

/** The team rule (requireTeamName) on the trimmed name. */
const teamName = z.string().trim().superRefine(domainRule(requireTeamName));

export const seedOrganization = z.strictObject({
  // The organization's slug rule; off its pattern, the message adds an example.
  slug: z.string().superRefine((slug, ctx) => {
    const problem = ORGANIZATION_SLUG_PATTERN.test(slug)
      ? refusal(() => requireOrganizationFields({ slug }))
      : "expected lowercase letters, digits and single hyphens (e.g. acme-corp)";
    if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem });
  }),
  name: z
    .string()
    .trim()
    .superRefine(domainRule((name: string) => requireOrganizationFields({ name }))),
  owner: email,
  logo: z
    .string()
    .superRefine(domainRule((logo: string) => requireOrganizationFields({ logo })))
    .nullable()
    .optional(),
  metadata: z
    .record(z.string(), z.unknown())
    .superRefine((value, ctx) => {
      const problem = metadataProblem(value);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    })
    .nullable()
    .optional(),
  members: z
    .array(
      z
        .strictObject({
          user: email,
          role: z.string().trim().min(1),
          team: teamName.optional(),
          teams: z.array(teamName).min(1).optional(),
        })
        .refine((member) => member.team === undefined || member.teams === undefined, {
          error: 'give either "team" or "teams", not both',
        }),
    )
    .optional(),
  teams: z.array(z.strictObject({ name: teamName })).optional(),
  invitations: z
    .array(
      z
        .strictObject({
          email,
          role: z.string().trim().min(1),
          expiresIn: duration.optional(),
          expiresAt: z.iso
            .datetime({ offset: true, error: "expected an ISO 8601 time" })
            .optional(),
          team: teamName.optional(),
          teams: z.array(teamName).min(1).optional(),
        })
        .refine(
          (invitation) => invitation.expiresIn === undefined || invitation.expiresAt === undefined,
          {
            error: 'give either "expiresIn" or "expiresAt", not both',
          },
        )
        .refine((invitation) => invitation.team === undefined || invitation.teams === undefined, {
          error: 'give either "team" or "teams", not both',
        }),
    )
    .optional(),
});

/** A member's or invitation's teams, from `team` or `teams`. */
export function teamsOf(item: { team?: string; teams?: string[] }): string[] {
  return item.teams ?? (item.team === undefined ? [] : [item.team]);
}

export const seedTop = z.strictObject({
  version: z.literal(1, { error: "expected version: 1" }),
  users: z.array(z.unknown()).optional(),
  organizations: z.array(z.unknown()).optional(),
});

export type SeedUser = z.output<typeof seedUser>;
export type SeedOrganization = z.output<typeof seedOrganization>;

export interface SeedIssue {
  /** JSON path, e.g. organizations[2].members[0].user */
  path: string;
  message: string;
}

export function formatPath(parts: ReadonlyArray<PropertyKey>): string {
  let text = "";
  for (const part of parts) {
    if (typeof part === "number") text += `[${part}]`;
    else text += text ? `.${String(part)}` : String(part);
  }
  return text || "(file)";
}

function seedInvalid(message: string, issues?: SeedIssue[]): AuthError {
  return new AuthError("VALIDATION_ERROR", {
    message,
    details: issues ? { issues } : undefined,
  });
}

export function invalidFile(issues: SeedIssue[], source?: string): AuthError {
  const lines = issues.map((issue) => `  ${issue.path}: ${issue.message}`).join("\n");
  return seedInvalid(
    `${source ? `${source}: ` : ""}seed file is invalid (${issues.length} problem${issues.length === 1 ? "" : "s"}); nothing was written:\n${lines}`,
    issues,
  );
}
