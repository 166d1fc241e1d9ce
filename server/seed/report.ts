/**
 * What a seed run reports, by natural key and status, and what it is asked to do: the
 * shapes shared by planning, applying and the CLI that prints them.
 */
import type { IfExists } from "./schema.js";

export type SeedStatus = "created" | "updated" | "unchanged";
export interface SeedEntry {
  /** null for rows a dry run would create. */
  id: string | null;
  status: SeedStatus;
}
export const SEED_KINDS = [
  "users",
  "accounts",
  "organizations",
  "teams",
  "members",
  "invitations",
] as const;
export type SeedKind = (typeof SEED_KINDS)[number];
export type SeedReport = Record<SeedKind, Record<string, SeedEntry>>;

export interface SeedProgress {
  phase: "hash" | "verify" | "write";
  done: number;
  total: number;
}

export interface ApplyOptions {
  ifExists: IfExists;
  dryRun?: boolean;
  /**
   * Test data only: hash each distinct plain password once per run and give every user
   * with that password the same hash (same salt), which reveals who shares a password.
   */
  sharePasswordHashes?: boolean;
  onProgress?: (progress: SeedProgress) => void;
}

export function countReport(report: SeedReport): Record<SeedKind, Record<SeedStatus, number>> {
  const counts = {} as Record<SeedKind, Record<SeedStatus, number>>;
  for (const kind of SEED_KINDS) {
    const tally = { created: 0, updated: 0, unchanged: 0 };
    for (const entry of Object.values(report[kind])) tally[entry.status] += 1;
    counts[kind] = tally;
  }
  return counts;
}

export function emptyReport(): SeedReport {
  return Object.fromEntries(SEED_KINDS.map((kind) => [kind, {}])) as SeedReport;
}

export function mergeReport(into: SeedReport, from: SeedReport): void {
  for (const kind of SEED_KINDS) Object.assign(into[kind], from[kind]);
}
