/**
 * Applying a seed: the plan written in dependency order with batched multi-row inserts,
 * in one transaction (applySeed) or item by item (applySeedContinuing), audited.
 */
import {
  CREDENTIAL_PROVIDER,
  insertAccounts,
  setCredentialPassword,
} from "../accounts/accounts.js";
import type { NewAccount } from "../accounts/queries.js";
import { recordAuditEvent } from "../audit/audit.js";
import type { AuthdConfig } from "../config.js";
import { generateId } from "../crypto/random.js";
import type { Queryable, Sql } from "../db/connection.js";
import { transaction } from "../db/transaction.js";
import { AuthError } from "../errors.js";
import { insertMembers, updateMemberRoleRow } from "../organization/organization.js";
import { insertTeamMembers } from "../teams/teams.js";
import { insertUsers, updateUserSeedFields } from "../users/users.js";
import { newPasswordWork, preparePasswords } from "./passwords.js";
import { type Plan, type PlanOptions, plan, readExisting } from "./plan.js";
import {
  type ApplyOptions,
  countReport,
  emptyReport,
  mergeReport,
  type SeedReport,
} from "./report.js";
import type { PreparedSeed } from "./validate.js";

/** Rows per multi-row INSERT: well under PostgreSQL's 65,535 parameters. */
export const SEED_BATCH_SIZE = 500;

async function inBatches<T>(
  rows: T[],
  write: (batch: T[]) => Promise<void>,
  onBatch: (count: number) => void,
): Promise<void> {
  for (let start = 0; start < rows.length; start += SEED_BATCH_SIZE) {
    const batch = rows.slice(start, start + SEED_BATCH_SIZE);
    await write(batch);
    onBatch(batch.length);
  }
}

/** Writes a plan, in dependency order, multi-row inserts of SEED_BATCH_SIZE rows. */
async function writePlan(tx: Queryable, final: Plan, step: (count: number) => void): Promise<void> {
  await inBatches(final.newUsers, (batch) => insertUsers(tx, batch), step);
  for (const update of final.userUpdates) await updateUserSeedFields(tx, update.id, update);
  await inBatches(final.newAccounts, (batch) => insertAccounts(tx, batch), step);
  const missing: NewAccount[] = [];
  for (const update of final.passwordUpdates) {
    if (update.hasAccount) await setCredentialPassword(tx, update.userId, update.hash);
    else {
      missing.push({
        id: generateId(),
        userId: update.userId,
        providerId: CREDENTIAL_PROVIDER,
        accountId: update.userId,
        password: update.hash,
      });
    }
  }
  await insertAccounts(tx, missing);
  for (const write of final.organizationWrites) await write(tx);
  await inBatches(final.newMembers, (batch) => insertMembers(tx, batch), step);
  for (const update of final.memberRoleUpdates)
    await updateMemberRoleRow(tx, update.id, update.role);
  await inBatches(final.newTeamMembers, (batch) => insertTeamMembers(tx, batch), step);
  for (const write of final.invitationWrites) await write(tx);
}

function rowsToWrite(final: Plan): number {
  return (
    final.newUsers.length +
    final.newAccounts.length +
    final.newMembers.length +
    final.newTeamMembers.length
  );
}

/**
 * `--atomic` (the default): plans against the database and, unless it is a dry run,
 * writes everything in one transaction (re-planned inside it, so rows created meanwhile
 * are seen) with one audit event. Answers the report by natural key.
 */
export async function applySeed(
  sql: Sql,
  seed: PreparedSeed,
  config: AuthdConfig,
  options: ApplyOptions,
): Promise<SeedReport> {
  const work = newPasswordWork();
  // Outside the transaction: the conflict check and the slow hashing, with no locks held.
  const draft = await plan(seed, await readExisting(sql, seed), config, options, work);
  if (options.dryRun) return draft.report;

  return transaction(
    sql,
    async (tx) => {
      const final = await plan(seed, await readExisting(tx, seed), config, options, work);
      const total = rowsToWrite(final);
      let done = 0;
      await writePlan(tx, final, (count) => {
        done += count;
        options.onProgress?.({ phase: "write", done, total });
      });
      await recordAuditEvent(tx, {
        action: "seed.apply",
        actorType: "cli",
        details: { ifExists: options.ifExists, counts: countReport(final.report) },
      });
      return final.report;
    },
    // A retry would re-plan from scratch; the hashes are kept in `work`.
    { retries: 2 },
  );
}

/** A top-level item of the file that --continue-on-error could not write. */
export interface SeedFailure {
  /** users[3] or organizations[1], as in validation issues. */
  path: string;
  /** The item's natural key: the email or the slug. */
  key: string;
  code: string;
  message: string;
}

export interface ContinuedSeed {
  report: SeedReport;
  failed: SeedFailure[];
}

/** Items tried together before falling back to one transaction per item. */
const USER_CHUNK = 500;
const ORGANIZATION_CHUNK = 50;

interface SeedItem {
  path: string;
  key: string;
  seed: PreparedSeed;
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size) {
    out.push(items.slice(start, start + size));
  }
  return out;
}

/**
 * `--continue-on-error`: every top-level item (a user with its accounts, an
 * organization with its teams, members and invitations) lands whole or not at all, in
 * its own transaction; the others are written anyway. For speed, items go in chunks
 * (500 users, 50 organizations) in one transaction each, and only a chunk that fails is
 * retried item by item, which gives the same result. Passwords are all hashed first,
 * across every core. Users come before organizations, so an organization whose owner or
 * member failed fails too (USER_NOT_FOUND). Errors other than the domain's (AuthError),
 * e.g. a lost connection, stop the run.
 */
export async function applySeedContinuing(
  sql: Sql,
  seed: PreparedSeed,
  config: AuthdConfig,
  options: ApplyOptions,
): Promise<ContinuedSeed> {
  const work = newPasswordWork();
  const report = emptyReport();
  const failed: SeedFailure[] = [];
  const knownUserIds = new Map<string, string>();
  await preparePasswords(seed, await readExisting(sql, seed), options, work);

  const part = (items: SeedItem[]): PreparedSeed => ({
    users: items.flatMap((item) => item.seed.users),
    organizations: items.flatMap((item) => item.seed.organizations),
    referencedUsers: seed.referencedUsers,
  });
  const total = seed.users.length + seed.organizations.length;
  let done = 0;

  /** Plans (and unless dry, writes) some items as one unit; answers its plan. */
  const attempt = async (unit: PreparedSeed): Promise<Plan> => {
    const planOptions: PlanOptions = { ...options, knownUserIds };
    if (options.dryRun) {
      return plan(unit, await readExisting(sql, unit), config, planOptions, work);
    }
    return transaction(
      sql,
      async (tx) => {
        const final = await plan(unit, await readExisting(tx, unit), config, planOptions, work);
        await writePlan(tx, final, () => {});
        return final;
      },
      { retries: 2 },
    );
  };
  const landed = (final: Plan, count: number) => {
    mergeReport(report, final.report);
    for (const [address, id] of final.userIds) knownUserIds.set(address, id);
    done += count;
    options.onProgress?.({ phase: "write", done, total });
  };

  const groups = [
    ...chunks(
      seed.users.map((user, index) => ({
        path: `users[${index}]`,
        key: user.email,
        seed: { users: [user], organizations: [], referencedUsers: seed.referencedUsers },
      })),
      USER_CHUNK,
    ),
    ...chunks(
      seed.organizations.map((organization, index) => ({
        path: `organizations[${index}]`,
        key: organization.slug,
        seed: { users: [], organizations: [organization], referencedUsers: seed.referencedUsers },
      })),
      ORGANIZATION_CHUNK,
    ),
  ];
  for (const group of groups) {
    if (group.length > 1) {
      try {
        landed(await attempt(part(group)), group.length);
        continue;
      } catch (error) {
        if (!(error instanceof AuthError)) throw error;
      }
    }
    for (const item of group) {
      try {
        landed(await attempt(item.seed), 1);
      } catch (error) {
        if (!(error instanceof AuthError)) throw error;
        failed.push({
          path: item.path,
          key: item.key,
          code: error.code,
          message: error.message.replace(/; nothing was written$/, ""),
        });
        done += 1;
        options.onProgress?.({ phase: "write", done, total });
      }
    }
  }

  if (!options.dryRun) {
    await transaction(sql, (tx) =>
      recordAuditEvent(tx, {
        action: "seed.apply",
        actorType: "cli",
        details: {
          ifExists: options.ifExists,
          continueOnError: true,
          counts: countReport(report),
          failed: failed.length,
        },
      }),
    );
  }
  return { report, failed };
}
