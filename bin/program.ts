/**
 * The command tree (reference/cli.md): global flags, one module per command group,
 * and the mapping of every failure to a documented exit code.
 */
import { Command, CommanderError } from "commander";
import { registerAccount } from "./commands/account.js";
import { registerCompletion } from "./commands/completion.js";
import { registerConfig } from "./commands/config.js";
import { registerDoctor } from "./commands/doctor.js";
import { registerHealthcheck } from "./commands/healthcheck.js";
import { registerInit } from "./commands/init.js";
import { registerMigrate } from "./commands/migrate.js";
import { registerOrg } from "./commands/org.js";
import { registerPassword } from "./commands/password.js";
import { registerSecret } from "./commands/secret.js";
import { registerSeed } from "./commands/seed.js";
import { registerServe } from "./commands/serve.js";
import { registerSession } from "./commands/session.js";
import { registerUser } from "./commands/user.js";
import { registerVersion } from "./commands/version.js";
import { EXIT, exitCodeFor } from "./exit-codes.js";
import { type GlobalOptions, reportError } from "./output.js";

export function buildProgram(): Command {
  const program = new Command("authd")
    .description("Self-hosted account and organization service")
    .option("-c, --config <path>", "config file (default: $AUTHD_CONFIG, then ./authd.config.*)")
    .option("--json", "print one JSON document on stdout (alias of -o json)")
    .option("-o, --output <format>", "output format: human or json", "human")
    .option("--no-input", "never prompt; a missing answer is a usage error")
    .option("-y, --yes", "accept confirmations of moderate actions")
    .option("--no-color", "plain text output")
    .option("--debug", "print stack traces of unexpected errors")
    .showHelpAfterError()
    .exitOverride();
  program.configureOutput({ writeErr: (text) => process.stderr.write(text) });

  registerInit(program);
  registerServe(program);
  registerMigrate(program);
  registerDoctor(program);
  registerConfig(program);
  registerHealthcheck(program);
  registerSecret(program);
  registerPassword(program);
  registerSeed(program);
  registerVersion(program);
  registerUser(program);
  registerSession(program);
  registerAccount(program);
  registerOrg(program);
  registerCompletion(program);

  // Every subcommand inherits the strict parsing and the usage-error behaviour.
  for (const command of program.commands) {
    command.showHelpAfterError().exitOverride();
    for (const sub of command.commands) sub.showHelpAfterError().exitOverride();
  }
  return program;
}

/** Runs the CLI and answers the exit code (never throws). */
export async function runCli(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === "number" ? process.exitCode : EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version displays end with 0; every parse failure is a usage error.
      if (
        error.code === "commander.helpDisplayed" ||
        error.code === "commander.help" ||
        error.code === "commander.version" ||
        error.exitCode === 0
      ) {
        return EXIT.ok;
      }
      return EXIT.usage;
    }
    const options = program.opts<GlobalOptions>();
    reportError(error, options);
    return exitCodeFor(error);
  }
}
