/**
 * Platform administration from the shell: `user`, `session`, `account` and
 * `user import` call the admin domain as the operator, over the database one command
 * opens. The operator's audit rows say actor_type "cli".
 */
import { type OperatorActor, operator } from "../server/actor.js";
import type { AdminDeps } from "../server/admin/admin.js";
import type { LoadedConfig } from "../server/config.js";
import { createPasswordHasher } from "../server/crypto/password.js";
import type { Database } from "../server/db/connection.js";
import type { GlobalOptions } from "./output.js";
import { withDatabase } from "./with-database.js";

export const CLI_ACTOR: OperatorActor = operator();

export interface AdminSession {
  deps: AdminDeps;
  db: Database;
  loaded: LoadedConfig;
  /** --dry-run: the command's writes are rolled back at the end. */
  dryRun: boolean;
}

/** Opens the database for one command (rolled back under --dry-run) and closes it. */
export function withAdmin<T>(
  globals: GlobalOptions,
  work: (admin: AdminSession) => Promise<T>,
): Promise<T> {
  return withDatabase(globals, ({ loaded, db, dryRun }) =>
    work({
      deps: { sql: db.sql, config: loaded.config, passwords: createPasswordHasher() },
      db,
      loaded,
      dryRun,
    }),
  );
}
