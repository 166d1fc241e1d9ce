/**
 * Checking one import record before anything is written: known fields, types and
 * bounds, a valid email, known roles, a password within the configured lengths or a
 * hash in a supported format. Each problem is reported with its record and line.
 */
import { z } from "zod";
import { normalizeRole } from "../admin/access.js";
import type { AdminDeps } from "../admin/admin.js";
import { detectHashFormat, HASH_FORMATS, type HashFormat } from "../crypto/password.js";
import { AuthError } from "../errors.js";
import { checkPasswordLength, requireValidEmail } from "../users/users.js";
import type { RawRecord } from "./parse.js";

/** The fields a record may carry. */
export const IMPORT_FIELDS = [
  "email",
  "name",
  "emailVerified",
  "role",
  "image",
  "createdAt",
  "password",
  "passwordHash",
] as const;

export interface ImportFailure {
  record: number;
  line?: number;
  email?: string;
  code: string;
  message: string;
}

const ISO_DATE =
  /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

const booleanText = z
  .enum(["true", "false", "TRUE", "FALSE", "True", "False", "1", "0"])
  .transform((value) => value === "1" || value.toLowerCase() === "true");

const importRecord = z.strictObject({
  email: z.string().max(320),
  name: z.string().max(255).optional(),
  emailVerified: z
    .union([z.boolean(), booleanText], { error: "expected true or false" })
    .optional(),
  role: z.union([z.string().max(255), z.array(z.string().max(64)).max(32)]).optional(),
  image: z.string().max(2048).optional(),
  createdAt: z
    .string()
    .max(64)
    .refine((value) => ISO_DATE.test(value) && !Number.isNaN(Date.parse(value)), {
      message: "expected an ISO 8601 date, e.g. 2024-05-01T12:00:00Z",
    })
    .optional(),
  password: z.string().optional(),
  passwordHash: z.string().max(1024).optional(),
});

/** A record that passed validation. */
export interface ValidRecord {
  record: number;
  line?: number;
  email: string;
  name?: string;
  emailVerified?: boolean;
  /** Normalized (comma-joined, every name known). */
  role?: string;
  image?: string;
  createdAt?: Date;
  password?: string;
  passwordHash?: string;
  hashFormat?: HashFormat;
}

export class RecordError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

const HASH_EXAMPLES: Record<HashFormat, string> = {
  argon2id: "$argon2id$v=19$m=…,t=…,p=…$salt$hash",
  bcrypt: "$2a$/$2b$/$2y$ with a cost and 53 characters",
  scrypt: "<hex salt>:<128 hex digits of key>",
};

/** Checks one record; throws a RecordError (or AuthError) naming the problem. */
export function validateRecord(
  raw: RawRecord,
  deps: AdminDeps,
  options: { hash?: HashFormat },
): ValidRecord {
  if (raw.error) throw new RecordError("VALIDATION_ERROR", raw.error);
  if (typeof raw.data !== "object" || raw.data === null || Array.isArray(raw.data)) {
    throw new RecordError("VALIDATION_ERROR", "expected an object with at least an email");
  }
  // null is "not given", as an empty CSV cell is.
  const present = Object.fromEntries(
    Object.entries(raw.data as Record<string, unknown>).filter(([, value]) => value !== null),
  );
  const parsed = importRecord.safeParse(present);
  if (!parsed.success) {
    const message = parsed.error.issues
      .map((issue) =>
        issue.code === "unrecognized_keys"
          ? `unknown field${issue.keys.length > 1 ? "s" : ""} ${issue.keys.join(", ")} (known: ${IMPORT_FIELDS.join(", ")})`
          : `${issue.path.map(String).join(".") || "record"}: ${issue.message}`,
      )
      .join("; ");
    throw new RecordError("VALIDATION_ERROR", message);
  }
  const data = parsed.data;
  const valid: ValidRecord = {
    record: raw.record,
    ...(raw.line === undefined ? {} : { line: raw.line }),
    email: requireValidEmail(data.email),
  };
  if (data.name !== undefined) valid.name = data.name;
  if (data.emailVerified !== undefined) valid.emailVerified = data.emailVerified;
  if (data.image !== undefined) valid.image = data.image;
  if (data.createdAt !== undefined) valid.createdAt = new Date(data.createdAt);
  if (data.role !== undefined) valid.role = normalizeRole(data.role, deps.config);
  if (data.password !== undefined && data.passwordHash !== undefined) {
    throw new RecordError("VALIDATION_ERROR", "give password or passwordHash, not both");
  }
  if (data.password !== undefined) {
    checkPasswordLength(deps.config, data.password);
    valid.password = data.password;
  }
  if (data.passwordHash !== undefined) {
    const format = detectHashFormat(data.passwordHash);
    if (!format) {
      throw new RecordError(
        "VALIDATION_ERROR",
        `passwordHash is in no supported format: ${HASH_FORMATS.map((name) => `${name} (${HASH_EXAMPLES[name]})`).join(", ")}`,
      );
    }
    if (options.hash && format !== options.hash) {
      throw new RecordError(
        "VALIDATION_ERROR",
        `passwordHash is not a ${options.hash} hash as --hash declares (it looks like ${format})`,
      );
    }
    valid.passwordHash = data.passwordHash;
    valid.hashFormat = format;
  }
  return valid;
}

export function failureOf(raw: RawRecord, error: unknown, email?: string): ImportFailure {
  const code =
    error instanceof RecordError || error instanceof AuthError ? error.code : "INTERNAL_ERROR";
  const message = error instanceof Error ? error.message : String(error);
  return {
    record: raw.record,
    ...(raw.line === undefined ? {} : { line: raw.line }),
    ...(email === undefined ? {} : { email }),
    code,
    message,
  };
}

export function emailOf(raw: RawRecord): string | undefined {
  const data = raw.data as { email?: unknown } | undefined;
  return typeof data?.email === "string" ? data.email.trim().toLowerCase() : undefined;
}
