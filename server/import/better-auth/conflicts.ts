/**
 * Before anything is written: every email, slug or provider identity of the source that
 * authd already holds for another row, or that the source repeats, and every id authd
 * holds for another row.
 */
import { findAccountIds, findAccountsByProviderKeys } from "../../accounts/accounts.js";
import type { Sql } from "../../db/connection.js";
import { findOrganizationIds, findOrganizationsBySlugs } from "../../organization/organization.js";
import { findUserIds, findUsersByEmails } from "../../users/users.js";
import type { ImportConflict, TableCounts } from "./report.js";
import { rank, text } from "./rows.js";
import { normalizedEmail, providerKey, type Run } from "./run.js";
import type { SourceRow } from "./source.js";

/**
 * Every conflict, before anything is written: an email, slug or provider identity that
 * authd holds for a row of another id, or that the source repeats, and an id that authd
 * holds for a row with another email, slug or provider identity (serial ids of two
 * sources, say). Each conflicting row is excluded, with whatever refers to it. Also
 * counts the rows already in authd (what a refused run reports as unchanged).
 */
export async function findConflicts(run: Run): Promise<ImportConflict[]> {
  const { sql } = run.deps;
  const conflicts: ImportConflict[] = [];
  const conflict = (entry: ImportConflict) => {
    conflicts.push(entry);
    run.excluded[entry.table].add(entry.sourceId);
  };
  const check = async <Held extends { id: string }>(
    table: ImportConflict["table"],
    present: (tx: Sql, ids: string[]) => Promise<Held[]>,
    keyOf: (row: SourceRow) => string,
    heldKey: (row: Held) => string,
    holders: (keys: SourceRow[]) => Promise<Map<string, string>>,
    repeated: string,
  ) => {
    const counts = run.counts.get(table) as TableCounts;
    let done = 0;
    for await (const page of run.snapshot.pages(table, run.options.batchSize)) {
      const ids = page.map((row) => row.id);
      const there = new Map((await present(sql, ids)).map((row) => [row.id, heldKey(row)]));
      for (const row of page.filter((candidate) => there.has(candidate.id))) {
        if (there.get(row.id) === keyOf(row)) {
          counts.unchanged += 1;
        } else {
          conflict({
            table,
            key: keyOf(row),
            sourceId: row.id,
            authdId: row.id,
            reason: `authd has this id for another ${table} (${there.get(row.id)})`,
          });
        }
      }
      const candidates = page.filter((row) => !there.has(row.id));
      for (const row of candidates.filter((candidate) => rank(candidate) > 1)) {
        conflict({ table, key: keyOf(row), sourceId: row.id, reason: repeated });
      }
      const firsts = candidates.filter((row) => rank(row) === 1);
      const held = await holders(firsts);
      for (const row of firsts) {
        const authdId = held.get(keyOf(row));
        if (authdId !== undefined && authdId !== row.id) {
          conflict({
            table,
            key: keyOf(row),
            sourceId: row.id,
            authdId,
            reason: `authd already has it for another ${table}`,
          });
        }
      }
      done += page.length;
      run.options.onProgress?.({ step: "check", table, done, total: counts.source });
    }
  };

  await check(
    "user",
    findUserIds,
    normalizedEmail,
    (user) => user.email,
    async (rows) =>
      new Map(
        (await findUsersByEmails(sql, rows.map(normalizedEmail))).map((user) => [
          user.email,
          user.id,
        ]),
      ),
    "another user of the source has this email (differing only in case)",
  );
  await check(
    "account",
    findAccountIds,
    providerKey,
    (account) => `${account.providerId}:${account.accountId}`,
    async (rows) =>
      new Map(
        (
          await findAccountsByProviderKeys(
            sql,
            rows.map((row) => ({
              providerId: text(row, "providerId") ?? "",
              accountId: text(row, "accountId") ?? "",
            })),
          )
        ).map((account) => [`${account.providerId}:${account.accountId}`, account.id]),
      ),
    "another account of the source has this provider identity",
  );
  if (run.snapshot.has("organization")) {
    await check(
      "organization",
      findOrganizationIds,
      (row) => text(row, "slug") ?? "",
      (organization) => organization.slug,
      async (rows) =>
        new Map(
          (
            await findOrganizationsBySlugs(
              sql,
              rows.map((row) => text(row, "slug") ?? ""),
            )
          ).map((organization) => [organization.slug, organization.id]),
        ),
      "another organization of the source has this slug",
    );
  }
  return conflicts;
}
