/**
 * Exit codes, stable and documented in docs/cli.md.
 * Every failure the CLI knows of maps to one of these; anything else is 1.
 */

import { ConfigError } from "../server/config.js";
import { DatabaseUnavailableError } from "../server/db/connection.js";
import { EmbeddedDatabaseLockedError } from "../server/db/embedded.js";
import { MigrationLockedError } from "../server/db/migrations.js";
import { AuthError } from "../server/errors.js";
import { SourceSchemaError } from "../server/import/better-auth/errors.js";
import { ListenError, SchemaOutOfDateError } from "../server/serve.js";

export const EXIT = {
  ok: 0,
  internal: 1,
  usage: 2,
  notFound: 3,
  conflict: 4,
  ruleRefused: 5,
  partial: 6,
  migrationsPending: 10,
  migrationDrift: 11,
  unavailable: 69,
  cannotListen: 71,
  cannotCreate: 73,
  tempFail: 75,
  config: 78,
  interrupted: 130,
} as const;

/** A bad flag, argument or missing answer under --no-input. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** A file the command would write already exists (and --force was not given). */
export class FileExistsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FileExistsError";
  }
}

/** A command that fails on purpose with a chosen code (e.g. doctor's failed checks). */
export class ExitError extends Error {
  readonly exitCode: number;
  /** The stable code printed with --json. */
  readonly code: string;
  /** What `--json` prints as the error's details (the conflicts of a refused import, say). */
  readonly details: unknown;
  constructor(message: string, exitCode: number, code = "CHECK_FAILED", details?: unknown) {
    super(message);
    this.name = "ExitError";
    this.exitCode = exitCode;
    this.code = code;
    this.details = details;
  }
}

/** The global --timeout passed: safe to retry (exit 75). */
export class CommandTimeoutError extends Error {
  constructor(seconds: number) {
    super(
      `timed out after ${seconds} s (--timeout); an open transaction is rolled back; safe to retry`,
    );
    this.name = "CommandTimeoutError";
  }
}

/** Input that is malformed rather than refused: a usage error, like a bad flag. */
const INPUT_ERRORS = new Set<string>([
  "VALIDATION_ERROR",
  "INVALID_EMAIL",
  "PASSWORD_TOO_SHORT",
  "PASSWORD_TOO_LONG",
  "ROLE_NOT_FOUND",
  "INVALID_ROLE_TYPE",
  "YOU_ARE_NOT_ALLOWED_TO_SET_NON_EXISTENT_VALUE",
]);

function exitCodeForAuthError(error: AuthError): number {
  if (INPUT_ERRORS.has(error.code)) return EXIT.usage;
  if (error.code.endsWith("_NOT_FOUND")) return EXIT.notFound;
  if (
    /ALREADY_EXISTS|ALREADY_TAKEN|SLUG_IS_TAKEN|ALREADY_A_MEMBER|ALREADY_INVITED/.test(error.code)
  ) {
    return EXIT.conflict;
  }
  if (error.status >= 500) return EXIT.internal;
  return EXIT.ruleRefused;
}

export function exitCodeFor(error: unknown): number {
  if (error instanceof ExitError) return error.exitCode;
  if (error instanceof UsageError) return EXIT.usage;
  // --from names a database that is not a Better Auth one: a bad argument.
  if (error instanceof SourceSchemaError) return EXIT.usage;
  if (error instanceof ConfigError) return EXIT.config;
  if (error instanceof DatabaseUnavailableError) return EXIT.unavailable;
  if (error instanceof EmbeddedDatabaseLockedError) return EXIT.tempFail;
  if (error instanceof MigrationLockedError) return EXIT.tempFail;
  if (error instanceof CommandTimeoutError) return EXIT.tempFail;
  if (error instanceof SchemaOutOfDateError) return EXIT.migrationsPending;
  if (error instanceof ListenError) return EXIT.cannotListen;
  if (error instanceof FileExistsError) return EXIT.cannotCreate;
  if (error instanceof AuthError) return exitCodeForAuthError(error);
  return EXIT.internal;
}

/** The stable code printed with --json: the HTTP catalogue's code where there is one. */
export function errorCodeFor(error: unknown): string {
  if (error instanceof AuthError) return error.code;
  if (error instanceof UsageError) return "USAGE_ERROR";
  if (error instanceof SourceSchemaError) return "SOURCE_NOT_RECOGNIZED";
  if (error instanceof ConfigError) return "CONFIG_ERROR";
  if (error instanceof DatabaseUnavailableError) return "DATABASE_UNAVAILABLE";
  if (error instanceof EmbeddedDatabaseLockedError) return "DATABASE_LOCKED";
  if (error instanceof MigrationLockedError) return "MIGRATION_LOCKED";
  if (error instanceof SchemaOutOfDateError) return "MIGRATIONS_PENDING";
  if (error instanceof ListenError) return "CANNOT_LISTEN";
  if (error instanceof FileExistsError) return "FILE_EXISTS";
  if (error instanceof ExitError) return error.code;
  if (error instanceof CommandTimeoutError) return "TIMEOUT";
  return "INTERNAL_ERROR";
}
