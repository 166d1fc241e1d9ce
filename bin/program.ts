/**
 * The command tree: global flags, one module per command group,
 * and the mapping of every failure to a documented exit code.
 */
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { PROFILES, readCliEnvironment, readEnvironment } from "../server/config.js";
import { registerAccount } from "./commands/account.js";
import { registerCleanup } from "./commands/cleanup.js";
import { registerCompletion } from "./commands/completion.js";
import { registerConfig } from "./commands/config.js";
import { registerDbCommands } from "./commands/db.js";
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
import { parseTimeout } from "./commands/shared.js";
import { registerUser } from "./commands/user.js";
import { registerUserImport } from "./commands/user-import.js";
import { registerVersion } from "./commands/version.js";
import { CommandTimeoutError, EXIT, exitCodeFor, UsageError } from "./exit-codes.js";
import {
  type GlobalOptions,
  OUTPUT_FORMATS,
  outputFormat,
  reportError,
  wantsJson,
} from "./output.js";

function parseFields(value: string): string[] {
  const fields = value
    .split(",")
    .map((field) => field.trim())
    .filter(Boolean);
  if (fields.length === 0) throw new InvalidArgumentError("expected field names, e.g. id,email");
  return fields;
}

/** Commands that wait on purpose: the overall --timeout does not end them. */
const UNTIMED = new Set(["serve", "healthcheck"]);

export function buildProgram(): Command {
  const program = new Command("authd")
    .description("Self-hosted account and organization service")
    .option("-c, --config <path>", "config file (default: $AUTHD_CONFIG, then ./authd.config.*)")
    .option(
      "--database-url <url>",
      "PostgreSQL URL (default: $AUTHD_DATABASE_URL, then $DATABASE_URL); refused in the production profile",
    )
    .option("--json", "print one JSON document on stdout (alias of -o json)")
    .addOption(
      new Option(
        "-o, --output <format>",
        "output format (default: $AUTHD_OUTPUT, else human)",
      ).choices(OUTPUT_FORMATS),
    )
    .option("-q, --quiet", "print only ids, one per line (for xargs)")
    .option(
      "--fields <names>",
      "only these fields (comma-separated) in table, csv and json",
      parseFields,
    )
    .option("--no-input", "never prompt; a missing answer is a usage error")
    .option("-y, --yes", "accept confirmations of moderate actions")
    .option("--dry-run", "check and show what would change; write nothing")
    .option("--no-color", "plain text output")
    .option("--debug", "print stack traces of unexpected errors")
    .option("-v, --verbose", "log at debug level (serve; same as LOG_LEVEL=debug)")
    .option("--timeout <duration>", "give up after this long (exit 75), e.g. 30s", parseTimeout)
    .addOption(
      new Option(
        "--profile <profile>",
        "dev, test or production (default: $AUTHD_PROFILE); production refuses db reset, migrate down and session create",
      ).choices(PROFILES),
    )
    .configureHelp({ showGlobalOptions: true })
    .showHelpAfterError("see 'authd --help'")
    .exitOverride();

  program.hook("preAction", (root, actionCommand) => {
    const globals = root.opts<GlobalOptions>();
    // Flags > environment: the profile reaches loadConfig through $AUTHD_PROFILE.
    if (globals.profile) process.env.AUTHD_PROFILE = globals.profile;
    // A bad $AUTHD_PROFILE is refused like a bad --profile, before any work: a misspelt
    // "prod" would otherwise silently run without the production profile's guards. Read
    // as loadConfig reads it: the shell's variables over those of ./.env.
    const environment = readCliEnvironment(readEnvironment(process.cwd()));
    const { profile } = environment;
    if (profile !== undefined && !(PROFILES as readonly string[]).includes(profile)) {
      throw new UsageError(
        `AUTHD_PROFILE: invalid value "${profile}"; allowed values are ${PROFILES.join(", ")}`,
      );
    }
    // Flags > environment > file: the log level reaches loadConfig as LOG_LEVEL.
    if (globals.verbose) process.env.LOG_LEVEL = "debug";
    if (globals.databaseUrl !== undefined) {
      // A URL with a password in argv shows in `ps` and shell history (clig.dev). The
      // profile counts wherever loadConfig would find it, ./.env included.
      if (environment.production) {
        throw new UsageError(
          "--database-url is refused in the production profile: set AUTHD_DATABASE_URL or DATABASE_URL",
        );
      }
      process.env.AUTHD_DATABASE_URL = globals.databaseUrl;
    }
    // A bad $AUTHD_OUTPUT is a usage error before any work, not after a write.
    outputFormat(globals);
    // Global flags a command also reads as its own options.
    if (globals.dryRun) actionCommand.setOptionValue("dryRun", true);
    if (globals.quiet) actionCommand.setOptionValue("quiet", true);
    if (globals.timeout !== undefined && !UNTIMED.has(actionCommand.name())) {
      const seconds = globals.timeout;
      setTimeout(() => {
        reportError(new CommandTimeoutError(seconds), globals);
        process.exit(EXIT.tempFail);
      }, seconds * 1000).unref();
    }
  });
  program.configureOutput({ writeErr: (text) => process.stderr.write(text) });

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
  registerSession(program);
  registerAccount(program);
  registerOrg(program);
  registerCompletion(program);

  // A usage error is one line and where to read more, never the whole help.
  const pointToHelp = (parent: Command, path: string): void => {
    for (const command of parent.commands) {
      const name = `${path} ${command.name()}`;
      command.showHelpAfterError(`see '${name} --help'`).exitOverride();
      pointToHelp(command, name);
    }
  };
  pointToHelp(program, "authd");
  return program;
}

/** `authd org member add` for that command: what its help is called under. */
function commandPath(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at; at = at.parent) names.unshift(at.name());
  return names.join(" ");
}

/** Runs the CLI and answers the exit code (never throws). */
export async function runCli(argv: string[]): Promise<number> {
  const program = buildProgram();
  let running: Command = program;
  program.hook("preAction", (_root, actionCommand) => {
    running = actionCommand;
  });
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === "number" ? process.exitCode : EXIT.ok;
  } catch (error) {
    const options = program.opts<GlobalOptions>();
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
      // Commander has printed its own parse errors; one raised by a command's action
      // (a flag that contradicts another, say) is printed here.
      if (error.code === "commander.invalidArgument" && running !== program) {
        reportError(new UsageError(error.message.replace(/^error: /, "")), options);
        printHelpPointer(running, options);
      }
      return EXIT.usage;
    }
    reportError(error, options);
    // A command's own usage error points at its help; one about the environment
    // (a bad $AUTHD_PROFILE, found before any command runs) has no flag to fix.
    if (error instanceof UsageError && running !== program) printHelpPointer(running, options);
    return exitCodeFor(error);
  }
}

function printHelpPointer(command: Command, options: GlobalOptions): void {
  if (!wantsJson(options)) process.stderr.write(`see '${commandPath(command)} --help'\n`);
}
