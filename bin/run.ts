/**
 * Runs the CLI: loads the command group named on the command line, parses, and maps
 * every failure to a documented exit code. Only that group's modules are imported, so
 * `authd serve` does not carry every other command's code in its heap for its lifetime.
 */
import { type Command, CommanderError, type Option } from "commander";
import { vanishedRowError } from "../server/errors.js";
import { EXIT, exitCodeFor, UsageError } from "./exit-codes.js";
import { type GlobalOptions, reportError, wantsJson } from "./output.js";
import { createRoot, pointToHelp } from "./root.js";

type Register = (program: Command) => void;

/**
 * What registers the top-level command `name`, imported on demand; undefined for the
 * root's own words (help) and for `completion`, which needs the whole tree.
 */
export function loadGroup(name: string): Promise<Register> | undefined {
  switch (name) {
    case "init":
      return import("./commands/init.js").then((module) => module.registerInit);
    case "serve":
      return import("./commands/serve.js").then((module) => module.registerServe);
    case "migrate":
      return import("./commands/migrate.js").then((module) => module.registerMigrate);
    case "doctor":
      return import("./commands/doctor.js").then((module) => module.registerDoctor);
    case "config":
      return import("./commands/config.js").then((module) => module.registerConfig);
    case "healthcheck":
      return import("./commands/healthcheck.js").then((module) => module.registerHealthcheck);
    case "secret":
      return import("./commands/secret.js").then((module) => module.registerSecret);
    case "password":
      return import("./commands/password.js").then((module) => module.registerPassword);
    case "seed":
    case "db":
      // seed.ts registers both `seed` and `db`; two more modules add to `db`, in the
      // order the whole tree registers them.
      return Promise.all([
        import("./commands/seed.js"),
        import("./commands/db.js"),
        import("./commands/cleanup.js"),
      ]).then(([seed, db, cleanup]) => (program) => {
        const group = seed.registerSeed(program);
        db.registerDbCommands(group);
        cleanup.registerCleanup(group);
      });
    case "version":
      return import("./commands/version.js").then((module) => module.registerVersion);
    case "user":
      return Promise.all([import("./commands/user.js"), import("./commands/user-import.js")]).then(
        ([user, userImport]) =>
          (program) =>
            userImport.registerUserImport(user.registerUser(program)),
      );
    case "import":
      return import("./commands/import.js").then((module) => module.registerImport);
    case "session":
      return import("./commands/session.js").then((module) => module.registerSession);
    case "account":
      return import("./commands/account.js").then((module) => module.registerAccount);
    case "org":
      return import("./commands/org.js").then((module) => module.registerOrg);
    default:
      return undefined;
  }
}

function takesValue(option: Option): boolean {
  return option.required || option.optional;
}

/** Commander's test for a word that may be an option (a lone "-" is an argument). */
function maybeOption(arg: string | undefined): boolean {
  return arg !== undefined && arg.length > 1 && arg.startsWith("-");
}

/**
 * The first `count` words that the root reads as arguments rather than as its own flags
 * or their values, reading flags as commander does (`-qo json`, `-cfile`, `--fields=a,b`).
 * Stops early at a flag the root does not declare (--help, a typo) or at `--`: commander
 * reads what follows differently, and the whole tree is loaded for whatever it makes of it.
 */
export function leadingWords(args: string[], root: Command, count: number): string[] {
  const find = (flag: string) =>
    root.options.find((option) => option.short === flag || option.long === flag);
  const words: string[] = [];
  let at = 0;
  // After an option that takes a value: commander takes a required one whatever it
  // looks like, an optional one only when it does not look like an option.
  const skipValue = (option: Option) => {
    if (option.required || !maybeOption(args[at])) at += 1;
  };
  while (at < args.length && words.length < count) {
    const arg = args[at] as string;
    at += 1;
    if (arg === "--") return words;
    if (!maybeOption(arg)) {
      words.push(arg);
      continue;
    }
    if (arg.startsWith("--")) {
      const equals = arg.indexOf("=");
      const option = find(equals === -1 ? arg : arg.slice(0, equals));
      if (!option || (equals !== -1 && !takesValue(option))) return words;
      if (equals === -1 && takesValue(option)) skipValue(option);
      continue;
    }
    // Short flags, alone or combined: the first that takes a value ends the word,
    // with its value attached (-cfile) or in the next word.
    for (let char = 1; char < arg.length; char += 1) {
      const option = find(`-${arg[char]}`);
      if (!option) return words;
      if (takesValue(option)) {
        if (char === arg.length - 1) skipValue(option);
        break;
      }
    }
  }
  return words;
}

/**
 * The program with the group the command line names (`authd serve …`, `authd help
 * serve`); the whole tree when it names none, or one it does not know, so the root
 * help, a usage error's suggestions and completion read every command as before.
 */
async function programFor(argv: string[]): Promise<Command> {
  const root = createRoot();
  const words = leadingWords(argv.slice(2), root, 2);
  const name = words[0] === "help" ? words[1] : words[0];
  const group = name === undefined ? undefined : loadGroup(name);
  if (group === undefined) {
    const { buildProgram } = await import("./program.js");
    return buildProgram(root);
  }
  (await group)(root);
  pointToHelp(root);
  return root;
}

/** `authd org member add` for that command: what its help is called under. */
function commandPath(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at; at = at.parent) names.unshift(at.name());
  return names.join(" ");
}

/**
 * The output flags as the command line spells them. A parse error stops commander
 * before it has read the global flags, yet `--json` must still shape that error.
 */
function outputFlagsIn(args: string[]): GlobalOptions {
  const flags: GlobalOptions = {};
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] ?? "";
    if (arg === "--") break;
    if (arg === "--json") flags.json = true;
    else if (arg === "-o" || arg === "--output") flags.output = args[index + 1];
    else if (arg.startsWith("--output=")) flags.output = arg.slice("--output=".length);
    else if (/^-o[^-]/.test(arg)) flags.output = arg.slice(2);
  }
  return flags;
}

/** Commander's own error lines and help pointers, off on `command` and below. */
function silenceParseErrors(command: Command): void {
  command.configureOutput({ outputError: () => {}, writeErr: () => {} });
  for (const sub of command.commands) silenceParseErrors(sub);
}

/** Runs the CLI and answers the exit code (never throws). */
export async function runCli(argv: string[]): Promise<number> {
  const program = await programFor(argv);
  const asWritten = outputFlagsIn(argv.slice(2));
  // With JSON output a parse error is a JSON document too, printed below.
  const jsonErrors = wantsJson(asWritten);
  if (jsonErrors) silenceParseErrors(program);
  let running: Command = program;
  program.hook("preAction", (_root, actionCommand) => {
    running = actionCommand;
  });
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === "number" ? process.exitCode : EXIT.ok;
  } catch (error) {
    const options = { ...asWritten, ...program.opts<GlobalOptions>() };
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
      if (jsonErrors || (error.code === "commander.invalidArgument" && running !== program)) {
        reportError(new UsageError(error.message.replace(/^error: /, "")), options);
        printHelpPointer(running, options);
      }
      return EXIT.usage;
    }
    // A row the command names deleted meanwhile (by a request or another command)
    // reports as the catalogue's not-found error, as it would had it been gone already.
    const known = vanishedRowError(error) ?? error;
    reportError(known, options);
    // A command's own usage error points at its help; one about the environment
    // (a bad $AUTHD_PROFILE, found before any command runs) has no flag to fix.
    if (known instanceof UsageError && running !== program) printHelpPointer(running, options);
    return exitCodeFor(known);
  }
}

function printHelpPointer(command: Command, options: GlobalOptions): void {
  if (!wantsJson(options)) process.stderr.write(`see '${commandPath(command)} --help'\n`);
}
