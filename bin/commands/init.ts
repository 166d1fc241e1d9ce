/**
 * `authd init`: asks on a TTY, takes flags and defaults elsewhere, and writes a
 * config file and `.env` from `templates/init/`. The fresh secret goes into `.env` only;
 * nothing is overwritten without --force. The questions are in init-answers.ts, the
 * rendering and writing of files in init-files.ts.
 */
import { existsSync } from "node:fs";
import { appendFile, readFile } from "node:fs/promises";
import path from "node:path";
import { type Command, Option } from "commander";
import { validateConfig } from "../../server/config.js";
import { generateSecret } from "../../server/crypto/random.js";
import { registeredCallbackURL } from "../../server/social/callback-url.js";
import { providerSourceProblems } from "../../server/social/config-check.js";
import { BUILT_IN_PROVIDERS } from "../../server/social/providers/index.js";
import { EXIT, ExitError } from "../exit-codes.js";
import { canPrompt, emit, type GlobalOptions, note } from "../output.js";
import {
  answersFromFlags,
  askAnswers,
  DEFAULT_BASE_URL,
  DEFAULT_MAIL_FROM,
  type InitFlags,
  validateAnswers,
} from "./init-answers.js";
import {
  configObject,
  missingIgnoreEntries,
  PRIVATE_MODE,
  prepareDirectory,
  refuseExisting,
  renderConfig,
  renderEnv,
  writeFiles,
} from "./init-files.js";
import { parseProviderList, providerLabel } from "./init-social.js";

function displayPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative === "" || relative.startsWith("..") || path.isAbsolute(relative)
    ? file
    : relative;
}

async function runInit(flags: InitFlags, command: Command): Promise<void> {
  const globals = command.optsWithGlobals<GlobalOptions>();
  const dir = path.resolve(flags.dir ?? ".");
  const configName = flags.format === "json" ? "authd.config.json" : "authd.config.ts";
  const configFile = path.join(dir, configName);
  const envFile = path.join(dir, ".env");
  const force = flags.force === true;
  const dryRun = flags.dryRun === true;

  // Before any question: nobody should answer five prompts to be refused.
  refuseExisting(dir, configName, force);
  // --database-url is also a global flag (the program parses it wherever it stands).
  let answers = answersFromFlags({
    ...flags,
    databaseUrl: flags.databaseUrl ?? globals.databaseUrl,
  });
  if (canPrompt(globals) && !globals.yes) {
    validateAnswers(answers);
    try {
      answers = await askAnswers(answers);
    } catch (error) {
      if (error instanceof Error && error.name === "ExitPromptError") {
        throw new ExitError("init cancelled; nothing was written", EXIT.interrupted, "CANCELLED");
      }
      throw error;
    }
  }
  validateAnswers(answers);
  // A guard on the templates: the settings must satisfy the schema once credentials exist,
  // and every provider must have a source of endpoints, as `config validate` demands.
  const settings = validateConfig(configObject(answers, "placeholder"), configName);
  const sourceProblems = providerSourceProblems(settings, BUILT_IN_PROVIDERS);
  if (sourceProblems.length > 0) throw new Error(`init: ${sourceProblems.join("; ")}`);
  const callbackURLs = Object.fromEntries(
    answers.socialProviders.map(({ id }) => [id, registeredCallbackURL(settings, id) ?? ""]),
  );

  const configText = await renderConfig(answers, flags.format);
  const secret = dryRun ? "<generated when written>" : generateSecret();
  const envText = await renderEnv(answers, flags.format, secret);
  const gitignore = path.join(dir, ".gitignore");
  const ignoreAdditions = existsSync(gitignore)
    ? missingIgnoreEntries(await readFile(gitignore, "utf8"))
    : [];

  await prepareDirectory(dir, dryRun);
  if (!dryRun) {
    refuseExisting(dir, configName, force);
    await writeFiles(
      [
        { file: configFile, text: configText, mode: 0o644 },
        { file: envFile, text: envText, mode: PRIVATE_MODE },
      ],
      force,
    );
    if (ignoreAdditions.length > 0) {
      const current = await readFile(gitignore, "utf8");
      const separator = current === "" || current.endsWith("\n") ? "" : "\n";
      await appendFile(gitignore, `${separator}${ignoreAdditions.join("\n")}\n`);
    }
  }

  const embeddedDatabase = answers.databaseUrl === undefined;
  const result = {
    files: [configFile, envFile],
    format: flags.format,
    embeddedDatabase,
    socialProviders: answers.socialProviders.map(({ id }) => id),
    callbackURLs,
    organizations: answers.organizations,
    gitignoreAdded: ignoreAdditions,
    dryRun,
  };
  /** After writing: what was written, and what to do next (stderr: stdout stays data). */
  const printNextSteps = (): void => {
    note(`Wrote ${displayPath(configFile)}`);
    note(`Wrote ${displayPath(envFile)} (mode 600, with a new AUTHD_SECRET; keep it out of git)`);
    if (ignoreAdditions.length > 0) {
      note(`Added ${ignoreAdditions.join(" and ")} to ${displayPath(gitignore)}`);
    }
    if (answers.socialProviders.length > 0) {
      note(
        `\nRegister these callback URLs at the providers (they follow baseURL):\n${answers.socialProviders
          .map((provider) => `  ${providerLabel(provider)}: ${callbackURLs[provider.id]}`)
          .join("\n")}`,
      );
    }
    const steps: string[] = [];
    if (dir !== process.cwd()) steps.push(`cd ${displayPath(dir)}`);
    if (answers.socialProviders.length > 0) {
      const ids = answers.socialProviders.map(({ id }) => id).join(", ");
      if (flags.format === "ts") {
        steps.push(`fill in the ${ids} client id(s) and secret(s) in .env`);
      } else {
        note(
          `The social providers (${ids}) have empty clientId and clientSecret in ${configName}; fill them in before starting (a JSON config cannot read .env, so keep the file out of git, or use --format ts).`,
        );
        steps.push(`fill in socialProviders in ${configName}`);
      }
    }
    if (!embeddedDatabase) steps.push("npx authd migrate");
    steps.push("npx authd serve");
    note(`\nNext steps:\n${steps.map((step) => `  ${step}`).join("\n")}`);
  };
  emit(result, globals, {
    quietField: "files",
    human: () =>
      dryRun
        ? printDryRun([
            { file: configFile, text: configText },
            { file: envFile, text: envText },
            ...(ignoreAdditions.length > 0
              ? [{ file: `${gitignore} (appended)`, text: `${ignoreAdditions.join("\n")}\n` }]
              : []),
          ])
        : printNextSteps(),
  });
  if (dryRun) note("Dry run: nothing was written.");
}

/** The files a dry run would write, each under a `==> path <==` header (as `head` prints them). */
function printDryRun(files: Array<{ file: string; text: string }>): void {
  process.stdout.write(files.map(({ file, text }) => `==> ${file} <==\n${text}`).join("\n"));
}

export function registerInit(program: Command): void {
  const init = program
    .command("init")
    .description("write authd.config.ts (or .json) and .env with a new secret")
    .option("--base-url <url>", "public URL of the server", DEFAULT_BASE_URL);
  // Where the program declares --database-url globally, that one carries the value.
  if (!program.options.some((option) => option.long === "--database-url")) {
    init.option("--database-url <url>", "PostgreSQL URL for .env (default: embedded PGlite)");
  }
  init
    .addOption(
      new Option(
        "--social <providers>",
        "social providers, comma-separated: built-in ids (github,google) or id=<OpenID Connect issuer URL>",
      )
        .argParser(parseProviderList)
        .default([], "none"),
    )
    .option("--no-organizations", "disable organizations")
    .option("--smtp-url <url>", "SMTP URL for .env (default: an outbox folder, nothing sent)")
    .option("--mail-from <address>", `sender address (default: "${DEFAULT_MAIL_FROM}")`)
    .addOption(
      new Option("--format <format>", "config file format").choices(["ts", "json"]).default("ts"),
    )
    .option("--force", "overwrite an existing config file and .env")
    .option("--dir <path>", "directory to write into (default: the current one)")
    .addHelpText(
      "after",
      `
On a terminal, init asks; with --yes, --no-input, CI=true or no TTY it takes the
flags and defaults. The secret goes only into .env (mode 600). Existing files are
never replaced without --force (exit 73).

Examples:
  $ authd init
  $ authd init --yes --social github,google --smtp-url smtp://localhost:1025
  $ authd init --social github,acme=https://id.acme.example
  $ authd init --format json --database-url postgres://authd@localhost:5432/authd
  $ authd init --dry-run`,
    )
    .action(runInit);
}
