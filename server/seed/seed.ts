/**
 * Seed files, the public face: parse (schema.ts), validate the whole file (validate.ts),
 * plan by natural keys (plan.ts) and apply in one transaction (apply.ts). No CLI
 * concerns here: bin/commands/seed.ts reads the file, shows progress and prints.
 */
export {
  applySeed,
  applySeedContinuing,
  type ContinuedSeed,
  SEED_BATCH_SIZE,
  type SeedFailure,
} from "./apply.js";
export { newPasswordWork, type PasswordWork } from "./passwords.js";
export type { PlanOptions } from "./plan.js";
export {
  type ApplyOptions,
  countReport,
  SEED_KINDS,
  type SeedEntry,
  type SeedKind,
  type SeedProgress,
  type SeedReport,
  type SeedStatus,
} from "./report.js";
export {
  formatPath,
  IF_EXISTS,
  type IfExists,
  parseSeedText,
  type SeedIssue,
  type SeedOrganization,
  type SeedUser,
  teamsOf,
} from "./schema.js";
export {
  type InvitationExpiry,
  type PreparedSeed,
  type SeedContext,
  validateSeed,
} from "./validate.js";
