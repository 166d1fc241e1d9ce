/**
 * Bulk import of users with their password hashes (`authd user import`). No Fastify and
 * no terminal here: the CLI reads the file and prints; the rules live in this folder
 * (parse.ts reads the file, validate.ts checks each record, this module writes).
 *
 * Every record is validated before anything is written (each error with its record and
 * line number). Unless `continueOnError`, one invalid record means nothing is written.
 * Records go in batches, one transaction each, with one audit_event per batch; a run
 * stopped half-way resumes with `resumeFrom` = the records already imported.
 */
import {
  CREDENTIAL_PROVIDER,
  findCredentialAccount,
  insertAccounts,
  insertCredentialAccount,
  setCredentialPassword,
} from "../accounts/accounts.js";
import type { NewAccount } from "../accounts/queries.js";
import { type Actor, auditActorOf } from "../actor.js";
import { rolesAllow } from "../admin/access.js";
import type { AdminDeps } from "../admin/admin.js";
import { recordAuditEvent } from "../audit/audit.js";
import type { HashFormat, PasswordHasher } from "../crypto/password.js";
import { generateId } from "../crypto/random.js";
import type { Queryable } from "../db/connection.js";
import { transaction } from "../db/transaction.js";
import { AuthError, type ErrorCode } from "../errors.js";
import type { ImportedUserRow, UserRow } from "../users/queries.js";
import { findUsersByEmails, insertImportedUsers, updateUserAsAdmin } from "../users/users.js";
import type { RawRecord } from "./parse.js";
import {
  emailOf,
  failureOf,
  type ImportFailure,
  RecordError,
  type ValidRecord,
  validateRecord,
} from "./validate.js";

export type IfExists = "skip" | "update" | "fail";

export type ImportOutcome =
  | { record: number; status: "created" | "updated" | "skipped"; id: string; email: string }
  | ({ status: "failed" } & ImportFailure);

export interface ImportResult {
  /** Records looked at (after resumeFrom). */
  records: number;
  created: number;
  updated: number;
  skipped: number;
  failed: ImportFailure[];
  /** Per record, in file order. */
  outcomes: ImportOutcome[];
}

export interface ImportProgress {
  batch: number;
  batches: number;
  /** Valid records written so far (of `total`, the valid ones after the resume point). */
  done: number;
  total: number;
  /** The last record number of this batch: resume from here. */
  lastRecord: number;
}

export interface ImportOptions {
  ifExists: IfExists;
  /** The declared format of every `passwordHash`; a different one is a record error. */
  hash?: HashFormat;
  batchSize: number;
  /** Skip the first N records (they were imported by an earlier run). */
  resumeFrom: number;
  continueOnError: boolean;
  /** --dry-run: the caller rolls back; plain passwords are not hashed (costly, unused). */
  dryRun: boolean;
  onBatch?: (progress: ImportProgress) => void;
  /** The run's hashing (one hash per core at a time); without one, the run makes its own. */
  passwords?: PasswordHasher;
}

/** Strict mode found invalid records: nothing was written. */
export class ImportRejectedError extends AuthError {
  readonly failures: ImportFailure[];
  constructor(code: ErrorCode, message: string, failures: ImportFailure[]) {
    super(code, { message, details: failures });
    this.failures = failures;
  }
}

/** Never verifies (no known format); only ever written inside a rolled-back dry run. */
const DRY_RUN_HASH = "dry-run:not-hashed";

/**
 * Under --dry-run the rows are rolled back: a stand-in spares the costly hashing and
 * keeps every outcome what the real run's would be.
 */
function hashFor(
  password: string,
  options: Pick<RunOptions, "dryRun" | "passwords">,
): Promise<string> {
  return options.dryRun ? Promise.resolve(DRY_RUN_HASH) : options.passwords.hash(password);
}

const CONFLICT_CODE: ErrorCode = "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL";

function conflictMessage(email: string): string {
  return `${email} already exists (--if-exists skip or update to accept it)`;
}

async function existingEmails(sql: Queryable, emails: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let start = 0; start < emails.length; start += 1000) {
    for (const user of await findUsersByEmails(sql, emails.slice(start, start + 1000))) {
      found.add(user.email);
    }
  }
  return found;
}

interface BatchTotals {
  outcomes: ImportOutcome[];
}

/** Writes one batch in one transaction; answers the outcome of each record. */
type RunOptions = ImportOptions & { passwords: PasswordHasher };

async function writeBatch(
  deps: AdminDeps,
  actor: Actor,
  batch: ValidRecord[],
  hashes: Map<number, string>,
  options: RunOptions,
): Promise<BatchTotals> {
  return transaction(deps.sql, async (tx) => {
    const outcomes: ImportOutcome[] = [];
    const existing = new Map<string, UserRow>(
      (
        await findUsersByEmails(
          tx,
          batch.map((entry) => entry.email),
        )
      ).map((user) => [user.email, user]),
    );
    const now = new Date();
    const fresh = batch.filter((entry) => !existing.has(entry.email));
    const rows: ImportedUserRow[] = fresh.map((entry) => ({
      id: generateId(),
      email: entry.email,
      name: entry.name ?? "",
      image: entry.image ?? null,
      emailVerified: entry.emailVerified ?? false,
      role: entry.role ?? deps.config.admin.defaultRole,
      createdAt: entry.createdAt ?? now,
    }));
    const inserted = new Map(
      (await insertImportedUsers(tx, rows)).map((row) => [row.email, row.id]),
    );
    // Taken since the batch looked (a concurrent writer): handled as existing users.
    const raced = fresh.filter((entry) => !inserted.has(entry.email));
    for (const user of await findUsersByEmails(
      tx,
      raced.map((entry) => entry.email),
    )) {
      existing.set(user.email, user);
    }
    const accounts: NewAccount[] = [];
    const hashOf = async (entry: ValidRecord) =>
      entry.passwordHash ??
      hashes.get(entry.record) ??
      (entry.password === undefined ? undefined : await hashFor(entry.password, options));
    for (const entry of batch) {
      const id = inserted.get(entry.email);
      if (id) {
        const passwordHash = await hashOf(entry);
        if (passwordHash) {
          accounts.push({
            id: generateId(),
            userId: id,
            providerId: CREDENTIAL_PROVIDER,
            accountId: id,
            password: passwordHash,
          });
        }
        outcomes.push({ record: entry.record, status: "created", id, email: entry.email });
        continue;
      }
      const user = existing.get(entry.email);
      if (!user) throw new Error(`import: ${entry.email} neither inserted nor found`);
      if (options.ifExists === "fail") {
        if (!options.continueOnError) {
          throw new AuthError(CONFLICT_CODE, {
            message: `record ${entry.record}: ${conflictMessage(entry.email)}`,
          });
        }
        outcomes.push({
          status: "failed",
          record: entry.record,
          ...(entry.line === undefined ? {} : { line: entry.line }),
          email: entry.email,
          code: CONFLICT_CODE,
          message: conflictMessage(entry.email),
        });
        continue;
      }
      const changes = {
        ...(entry.name === undefined ? {} : { name: entry.name }),
        ...(entry.image === undefined ? {} : { image: entry.image }),
        ...(entry.emailVerified === undefined ? {} : { emailVerified: entry.emailVerified }),
        ...(entry.role === undefined ? {} : { role: entry.role }),
      };
      const givesPassword = entry.password !== undefined || entry.passwordHash !== undefined;
      const changing =
        options.ifExists === "update" && (Object.keys(changes).length > 0 || givesPassword);
      if (!changing) {
        outcomes.push({ record: entry.record, status: "skipped", id: user.id, email: user.email });
        continue;
      }
      if (Object.keys(changes).length > 0) await updateUserAsAdmin(tx, user.id, changes);
      const passwordHash = await hashOf(entry);
      if (passwordHash !== undefined) {
        if (await findCredentialAccount(tx, user.id)) {
          await setCredentialPassword(tx, user.id, passwordHash);
        } else {
          await insertCredentialAccount(tx, { id: generateId(), userId: user.id, passwordHash });
        }
      }
      outcomes.push({ record: entry.record, status: "updated", id: user.id, email: user.email });
    }
    await insertAccounts(tx, accounts);
    const idsWith = (status: "created" | "updated") =>
      outcomes.flatMap((outcome) => (outcome.status === status ? [outcome.id] : []));
    const formats: Record<string, number> = {};
    for (const entry of batch) {
      const kind = entry.hashFormat ?? (entry.password === undefined ? undefined : "plain");
      if (kind) formats[kind] = (formats[kind] ?? 0) + 1;
    }
    await recordAuditEvent(tx, {
      action: "admin.import_users",
      ...auditActorOf(actor),
      targetType: "user",
      userAgent: actor.kind === "user" ? (actor.userAgent ?? null) : null,
      details: {
        records: [batch[0]?.record, batch.at(-1)?.record],
        created: idsWith("created"),
        updated: idsWith("updated"),
        skipped: outcomes.filter((outcome) => outcome.status === "skipped").length,
        failed: outcomes.filter((outcome) => outcome.status === "failed").length,
        ifExists: options.ifExists,
        passwords: formats,
      },
    });
    return { outcomes };
  });
}

/**
 * Imports the records (see the module comment). Strict mode (no `continueOnError`)
 * throws ImportRejectedError when any record is invalid, before writing anything:
 * USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL when every problem is an existing email under
 * `ifExists: "fail"`, VALIDATION_ERROR otherwise.
 */
export async function importUsers(
  deps: AdminDeps,
  actor: Actor,
  raws: RawRecord[],
  given: ImportOptions,
): Promise<ImportResult> {
  const options: RunOptions = { ...given, passwords: given.passwords ?? deps.passwords };
  if (
    actor.kind === "user" &&
    !rolesAllow(
      { user: actor.user },
      { user: ["create", "update", "set-role", "set-password"] },
      deps.config,
    )
  ) {
    throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_CREATE_USERS");
  }
  const pending = raws.filter((raw) => raw.record > options.resumeFrom);
  const failures: ImportFailure[] = [];
  const valid: ValidRecord[] = [];
  const firstRecordOf = new Map<string, number>();
  for (const raw of pending) {
    try {
      const entry = validateRecord(raw, deps, options);
      const earlier = firstRecordOf.get(entry.email);
      if (earlier !== undefined) {
        throw new RecordError(
          "VALIDATION_ERROR",
          `${entry.email} appears twice in the file (also record ${earlier})`,
        );
      }
      firstRecordOf.set(entry.email, entry.record);
      valid.push(entry);
    } catch (error) {
      if (!(error instanceof RecordError || error instanceof AuthError)) throw error;
      failures.push(failureOf(raw, error, emailOf(raw)));
    }
  }
  if (options.ifExists === "fail" && valid.length > 0) {
    const taken = await existingEmails(
      deps.sql,
      valid.map((entry) => entry.email),
    );
    for (const entry of valid.filter((candidate) => taken.has(candidate.email))) {
      failures.push({
        record: entry.record,
        ...(entry.line === undefined ? {} : { line: entry.line }),
        email: entry.email,
        code: CONFLICT_CODE,
        message: conflictMessage(entry.email),
      });
    }
  }
  failures.sort((a, b) => a.record - b.record);
  if (failures.length > 0 && !options.continueOnError) {
    const conflictsOnly = failures.every((failure) => failure.code === CONFLICT_CODE);
    throw new ImportRejectedError(
      conflictsOnly ? CONFLICT_CODE : "VALIDATION_ERROR",
      `${failures.length} of ${pending.length} record${pending.length === 1 ? " is" : "s are"} invalid; nothing was imported (--continue-on-error imports the valid ones)`,
      failures,
    );
  }
  const failedRecords = new Set(failures.map((failure) => failure.record));
  const writable = valid.filter((entry) => !failedRecords.has(entry.record));

  const outcomes: ImportOutcome[] = failures.map((failure) => ({ status: "failed", ...failure }));
  const batches = Math.ceil(writable.length / options.batchSize);
  let done = 0;
  for (let index = 0; index < batches; index++) {
    const batch = writable.slice(index * options.batchSize, (index + 1) * options.batchSize);
    // Hashing happens before the transaction, so no row is locked meanwhile;
    // the run's hasher runs one hash per core at a time. Users that exist and are not
    // updated need no hash (writeBatch hashes any it still lacks).
    const existing =
      options.ifExists === "update"
        ? new Set<string>()
        : await existingEmails(
            deps.sql,
            batch.map((entry) => entry.email),
          );
    const hashes = new Map<number, string>();
    await Promise.all(
      batch.map(async (entry) => {
        if (entry.password === undefined || existing.has(entry.email)) return;
        hashes.set(entry.record, await hashFor(entry.password, options));
      }),
    );
    const lastRecord = batch.at(-1)?.record ?? options.resumeFrom;
    try {
      const written = await writeBatch(deps, actor, batch, hashes, options);
      outcomes.push(...written.outcomes);
    } catch (error) {
      const resumeFrom =
        index === 0
          ? options.resumeFrom
          : (writable[index * options.batchSize - 1]?.record ?? options.resumeFrom);
      const hint =
        index === 0 || options.dryRun
          ? "nothing of this run was written"
          : `records up to ${resumeFrom} are imported; rerun with --resume-from ${resumeFrom}`;
      if (error instanceof AuthError) {
        throw new AuthError(error.code, {
          message: `${error.message} (${hint})`,
          status: error.status,
          details: { resumeFrom },
        });
      }
      if (error instanceof Error) error.message = `${error.message} (${hint})`;
      throw error;
    }
    done += batch.length;
    options.onBatch?.({ batch: index + 1, batches, done, total: writable.length, lastRecord });
  }
  outcomes.sort((a, b) => a.record - b.record);
  const count = (status: ImportOutcome["status"]) =>
    outcomes.filter((outcome) => outcome.status === status).length;
  return {
    records: pending.length,
    created: count("created"),
    updated: count("updated"),
    skipped: count("skipped"),
    failed: outcomes.flatMap((outcome) => {
      if (outcome.status !== "failed") return [];
      const { status: _status, ...failure } = outcome;
      return [failure];
    }),
    outcomes,
  };
}
