/**
 * The whole command tree: the root (root.ts) and every command group, one module each.
 * `authd` itself loads only the group being run (run.ts); this builds everything for
 * the root help, an unknown command and `authd completion`.
 */
import type { Command } from "commander";
import { registerAccount } from "./commands/account.js";
import { registerCleanup } from "./commands/cleanup.js";
import { registerCompletion } from "./commands/completion.js";
import { registerConfig } from "./commands/config.js";
import { registerDbCommands } from "./commands/db.js";
import { registerDoctor } from "./commands/doctor.js";
import { registerHealthcheck } from "./commands/healthcheck.js";
import { registerImport } from "./commands/import.js";
import { registerInit } from "./commands/init.js";
import { registerMigrate } from "./commands/migrate.js";
import { registerOrg } from "./commands/org.js";
import { registerPassword } from "./commands/password.js";
import { registerSecret } from "./commands/secret.js";
import { registerSeed } from "./commands/seed.js";
import { registerServe } from "./commands/serve.js";
import { registerSession } from "./commands/session.js";
import { registerUser } from "./commands/user.js";
import { registerUserImport } from "./commands/user-import.js";
import { registerVersion } from "./commands/version.js";
import { createRoot, pointToHelp } from "./root.js";

/** The whole command tree, every group registered in the order the help lists them. */
export function buildProgram(program: Command = createRoot()): Command {
  registerInit(program);
  registerServe(program);
  registerMigrate(program);
  registerDoctor(program);
  registerConfig(program);
  registerHealthcheck(program);
  registerSecret(program);
  registerPassword(program);
  const db = registerSeed(program);
  registerDbCommands(db);
  registerCleanup(db);
  registerVersion(program);
  registerUserImport(registerUser(program));
  registerImport(program);
  registerSession(program);
  registerAccount(program);
  registerOrg(program);
  registerCompletion(program);

  pointToHelp(program);
  return program;
}
