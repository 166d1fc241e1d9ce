/**
 * The root of the command tree: global flags and the checks that run before any
 * command, shared by the whole tree (program.ts) and by a single command group
 * loaded on its own (run.ts).
 */
import { Command, InvalidArgumentError, Option } from "commander";
import { PROFILES, readCliEnvironment, readEnvironment } from "../server/config.js";
import { parseTimeout } from "./commands/shared.js";
import { authdVersion } from "./commands/version.js";
import { CommandTimeoutError, EXIT, UsageError } from "./exit-codes.js";
import { type GlobalOptions, OUTPUT_FORMATS, outputFormat, reportError } from "./output.js";

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

/** The root command: the global flags, the version flag and the checks every command runs first. */
export function createRoot(): Command {
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
    // Output format, prompts and colour read the same environment, ./.env included.
    root.setOptionValue("cliEnvironment", environment);
    // The prompt library colours through Node's styleText, which reads NO_COLOR alone:
    // authd's other switches (--no-color, AUTHD_NO_COLOR, TERM=dumb) reach it that way.
    if (globals.color === false || environment.noColor) process.env.NO_COLOR = "1";
    const { profile } = environment;
    if (profile !== undefined && !(PROFILES as readonly string[]).includes(profile)) {
      throw new UsageError(
        `AUTHD_PROFILE: invalid value "${profile}"; allowed values are ${PROFILES.join(", ")}`,
      );
    }
    // --database-url and --verbose reach the configuration as flags (command-config.ts).
    // A URL with a password in argv shows in `ps` and shell history (clig.dev). The
    // profile counts wherever loadConfig would find it, ./.env included.
    if (globals.databaseUrl !== undefined && environment.production) {
      throw new UsageError(
        "--database-url is refused in the production profile: set AUTHD_DATABASE_URL or DATABASE_URL",
      );
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
  program.version(authdVersion(), "-V, --version", "print the version");
  return program;
}

/** A usage error is one line and where to read more, never the whole help. */
export function pointToHelp(parent: Command, path = "authd"): void {
  for (const command of parent.commands) {
    const name = `${path} ${command.name()}`;
    command.showHelpAfterError(`see '${name} --help'`).exitOverride();
    pointToHelp(command, name);
  }
}
