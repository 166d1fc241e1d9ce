/**
 * `authd init`: asks on a TTY, takes flags and defaults elsewhere, and writes a
 * config file and `.env` from `templates/init/`. The fresh secret goes into `.env` only;
 * nothing is overwritten without --force.
 */
import { existsSync } from "node:fs";
import { appendFile, chmod, mkdir, readFile, stat, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { type Command, Option } from "commander";
import { CONFIG_FILE_NAMES, configSchema, validateConfig } from "../../server/config.js";
import { generateSecret } from "../../server/crypto/random.js";
import { packageRoot } from "../../server/db/migrations.js";
import { EXIT, ExitError, FileExistsError, UsageError } from "../exit-codes.js";
import { canPrompt, emit, type GlobalOptions, note } from "../output.js";

const DEFAULT_BASE_URL = "http://localhost:3000";
/** The schema's default sender, written out so operators see where to change it. */
const DEFAULT_MAIL_FROM = "authd <no-reply@localhost>";
/** Offered in the interactive checklist; --social accepts any valid id. */
const SUGGESTED_PROVIDERS = ["github", "google", "discord", "microsoft", "apple", "gitlab"];
const PROVIDER_ID = /^[a-z0-9][a-z0-9_-]*$/;
/** Lines init adds to an existing .gitignore: the secrets and the embedded data. */
const IGNORED_ENTRIES = [".env", ".authd/"] as const;
/** .env holds the secret: readable by its owner only. */
const PRIVATE_MODE = 0o600;

type ConfigFormat = "ts" | "json";

interface InitFlags {
  baseUrl: string;
  databaseUrl?: string;
  social: string[];
  organizations: boolean;
  smtpUrl?: string;
  mailFrom?: string;
  format: ConfigFormat;
  force?: boolean;
  dir?: string;
  dryRun?: boolean;
}

/** What the generated files say, from the flags or from the prompts. */
interface InitAnswers {
  baseURL: string;
  /** Absent: embedded PGlite. */
  databaseUrl?: string;
  socialProviders: string[];
  organizations: boolean;
  /** Absent: the outbox folder. */
  smtpUrl?: string;
  mailFrom: string;
}

// Each check answers a message for the prompt, or undefined when the value is fine.

function checkBaseUrl(value: string): string | undefined {
  const valid =
    /^https?:\/\/\S+$/i.test(value) && configSchema.shape.baseURL.safeParse(value).success;
  return valid ? undefined : "expected an http:// or https:// URL, e.g. https://auth.example.com";
}

function checkDatabaseUrl(value: string): string | undefined {
  return /^postgres(ql)?:\/\/\S+$/.test(value)
    ? undefined
    : "expected a postgres:// or postgresql:// URL";
}

function checkSmtpUrl(value: string): string | undefined {
  return /^smtps?:\/\/\S+$/.test(value) ? undefined : "expected an smtp:// or smtps:// URL";
}

function checkMailFrom(value: string): string | undefined {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (value.length < 3 || /[\u0000-\u001f\u007f]/.test(value)) {
    return 'expected a sender address, e.g. "Acme <no-reply@acme.example>"';
  }
  return undefined;
}

/** The prefix of a provider's variables in .env: `my-app` -> `MY_APP`. */
function providerEnvPrefix(id: string): string {
  return id.toUpperCase().replaceAll("-", "_");
}

function checkProviderIds(ids: string[]): string | undefined {
  const invalid = ids.find((id) => !PROVIDER_ID.test(id));
  if (invalid !== undefined) {
    return `${JSON.stringify(invalid)} is not a provider id (lower-case letters, digits, - and _)`;
  }
  const prefixes = new Map<string, string>();
  for (const id of ids) {
    const other = prefixes.get(providerEnvPrefix(id));
    if (other !== undefined && other !== id) {
      return `${JSON.stringify(other)} and ${JSON.stringify(id)} would share the variables ${providerEnvPrefix(id)}_CLIENT_ID/_CLIENT_SECRET`;
    }
    prefixes.set(providerEnvPrefix(id), id);
  }
  return undefined;
}

/** `--social github,google` (repeatable): ids in order, without blanks or repeats. */
function parseProviderList(value: string, previous: string[]): string[] {
  const ids = value
    .split(",")
    .map((id) => id.trim())
    .filter((id) => id !== "");
  return [...new Set([...previous, ...ids])];
}

/** Every answer checked again, whatever its origin; the message names the flag. */
function validateAnswers(answers: InitAnswers): void {
  const problems: Array<[string, string | undefined]> = [
    ["--base-url", checkBaseUrl(answers.baseURL)],
    [
      "--database-url",
      answers.databaseUrl === undefined ? undefined : checkDatabaseUrl(answers.databaseUrl),
    ],
    ["--social", checkProviderIds(answers.socialProviders)],
    ["--smtp-url", answers.smtpUrl === undefined ? undefined : checkSmtpUrl(answers.smtpUrl)],
    ["--mail-from", checkMailFrom(answers.mailFrom)],
  ];
  for (const [flag, problem] of problems) {
    if (problem !== undefined) throw new UsageError(`${flag}: ${problem}`);
  }
}

function answersFromFlags(flags: InitFlags): InitAnswers {
  return {
    baseURL: flags.baseUrl.trim(),
    databaseUrl: flags.databaseUrl?.trim() || undefined,
    socialProviders: flags.social,
    organizations: flags.organizations,
    smtpUrl: flags.smtpUrl?.trim() || undefined,
    mailFrom: flags.mailFrom?.trim() || DEFAULT_MAIL_FROM,
  };
}

/** The issue's questions, each defaulting to the flag's value. */
async function askAnswers(defaults: InitAnswers): Promise<InitAnswers> {
  const { checkbox, confirm, input, select } = await import("@inquirer/prompts");
  const orTrue = (check: (value: string) => string | undefined) => (value: string) =>
    check(value.trim()) ?? true;

  const baseURL = await input({
    message: "Public base URL of this server",
    default: defaults.baseURL,
    validate: orTrue(checkBaseUrl),
  });
  const database = await select({
    message: "Database",
    default: defaults.databaseUrl === undefined ? "embedded" : "postgres",
    choices: [
      { name: "Embedded (PGlite, kept in .authd/pgdata; no server needed)", value: "embedded" },
      { name: "PostgreSQL (a connection URL)", value: "postgres" },
    ],
  });
  const databaseUrl =
    database === "postgres"
      ? await input({
          message: "PostgreSQL URL (postgres://user:password@host:5432/database)",
          default: defaults.databaseUrl,
          validate: orTrue(checkDatabaseUrl),
        })
      : undefined;
  const socialProviders = await checkbox({
    message: "Social sign-in providers",
    choices: [...new Set([...SUGGESTED_PROVIDERS, ...defaults.socialProviders])].map((id) => ({
      name: id,
      value: id,
      checked: defaults.socialProviders.includes(id),
    })),
  });
  const organizations = await confirm({
    message: "Enable organizations (members, roles, invitations)?",
    default: defaults.organizations,
  });
  const mail = await select({
    message: "Email delivery",
    default: defaults.smtpUrl === undefined ? "outbox" : "smtp",
    choices: [
      { name: "Outbox folder (.authd/outbox, nothing sent; for development)", value: "outbox" },
      { name: "SMTP server", value: "smtp" },
    ],
  });
  let smtpUrl: string | undefined;
  let mailFrom = defaults.mailFrom;
  if (mail === "smtp") {
    smtpUrl = await input({
      message: "SMTP URL (smtps://user:password@smtp.example.com:465)",
      default: defaults.smtpUrl,
      validate: orTrue(checkSmtpUrl),
    });
    mailFrom = await input({
      message: "Sender (From) address",
      default: defaults.mailFrom,
      validate: orTrue(checkMailFrom),
    });
  }
  return {
    baseURL: baseURL.trim(),
    databaseUrl: databaseUrl?.trim(),
    socialProviders,
    organizations,
    smtpUrl: smtpUrl?.trim(),
    mailFrom: mailFrom.trim(),
  };
}

/** Replaces every `{{name}}`; a marker without a value is a bug in the template. */
function renderTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_marker, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`init template: no value for {{${name}}}`);
    return value;
  });
}

async function readTemplate(name: string): Promise<string> {
  return readFile(path.join(packageRoot(), "templates", "init", name), "utf8");
}

/** The same settings as the rendered files, to validate against the schema. */
function configObject(answers: InitAnswers, providerCredential: string): Record<string, unknown> {
  return {
    baseURL: answers.baseURL,
    emailAndPassword: { enabled: true },
    socialProviders: Object.fromEntries(
      answers.socialProviders.map((id) => [
        id,
        { clientId: providerCredential, clientSecret: providerCredential },
      ]),
    ),
    organization: { enabled: answers.organizations },
    mail: { from: answers.mailFrom },
  };
}

function tsSocialProviders(ids: string[]): string {
  if (ids.length === 0) return "{}";
  const envRead = (name: string) =>
    /^[A-Z_][A-Z0-9_]*$/.test(name)
      ? `process.env.${name}`
      : `process.env[${JSON.stringify(name)}]`;
  const entries = ids.map((id) => {
    const prefix = providerEnvPrefix(id);
    const key = /^[a-z_][a-z0-9_]*$/.test(id) ? id : JSON.stringify(id);
    return [
      `    ${key}: {`,
      `      clientId: ${envRead(`${prefix}_CLIENT_ID`)} ?? "",`,
      `      clientSecret: ${envRead(`${prefix}_CLIENT_SECRET`)} ?? "",`,
      "    },",
    ].join("\n");
  });
  return `{\n${entries.join("\n")}\n  }`;
}

async function renderConfig(answers: InitAnswers, format: ConfigFormat): Promise<string> {
  if (format === "json") {
    const rendered = renderTemplate(await readTemplate("authd.config.json.template"), {
      baseURL: JSON.stringify(answers.baseURL),
      socialProviders: JSON.stringify(configObject(answers, "").socialProviders),
      organizationsEnabled: JSON.stringify(answers.organizations),
      mailFrom: JSON.stringify(answers.mailFrom),
    });
    // Parsed and printed again: proves the result is JSON and indents it evenly.
    return `${JSON.stringify(JSON.parse(rendered), null, 2)}\n`;
  }
  return renderTemplate(await readTemplate("authd.config.ts.template"), {
    baseURL: JSON.stringify(answers.baseURL),
    databaseComment:
      answers.databaseUrl === undefined
        ? "embedded PGlite, kept in .authd/pgdata. To use PostgreSQL,\n  // set DATABASE_URL in .env and run `npx authd migrate`."
        : "PostgreSQL, at DATABASE_URL in .env (kept there because it\n  // usually holds a password). `npx authd migrate` applies the schema.",
    socialProviders: tsSocialProviders(answers.socialProviders),
    organizationsEnabled: JSON.stringify(answers.organizations),
    mailComment:
      answers.smtpUrl === undefined
        ? "No SMTP_URL in .env: messages are written to .authd/outbox, not sent."
        : "Sent through the server at SMTP_URL in .env.",
    mailFrom: JSON.stringify(answers.mailFrom),
  });
}

/** A value for a `.env` line, quoted when node's parser would cut it (`#`, quotes). */
function envValue(name: string, value: string): string {
  if (/^[A-Za-z0-9_\-.:/@%+=,~?&]*$/.test(value)) return value;
  if (/[\r\n]/.test(value)) throw new UsageError(`${name}: line breaks cannot go into .env`);
  if (!value.includes("'")) return `'${value}'`;
  if (!value.includes('"')) return `"${value}"`;
  throw new UsageError(`${name}: a value with both ' and " cannot go into .env`);
}

async function renderEnv(answers: InitAnswers, format: ConfigFormat, secret: string) {
  const database =
    answers.databaseUrl === undefined
      ? [
          "# No DATABASE_URL: embedded PGlite keeps the data in .authd/pgdata.",
          "# DATABASE_URL=postgres://user:password@localhost:5432/authd",
        ]
      : [
          "# PostgreSQL connection; without it authd uses embedded PGlite.",
          `DATABASE_URL=${envValue("--database-url", answers.databaseUrl)}`,
        ];
  const mail =
    answers.smtpUrl === undefined
      ? [
          "# No SMTP_URL: emails are written to .authd/outbox, not sent.",
          "# SMTP_URL=smtps://user:password@smtp.example.com:465",
        ]
      : ["# Outgoing mail server.", `SMTP_URL=${envValue("--smtp-url", answers.smtpUrl)}`];
  // A JSON config cannot read variables, so its credentials go in the file itself.
  const providers =
    format === "ts" && answers.socialProviders.length > 0
      ? [
          "# Social sign-in credentials from each provider's developer console;",
          "# authd.config.ts reads them.",
          ...answers.socialProviders.flatMap((id) => [
            `${providerEnvPrefix(id)}_CLIENT_ID=`,
            `${providerEnvPrefix(id)}_CLIENT_SECRET=`,
          ]),
        ]
      : [];
  const block = (lines: string[]) => (lines.length === 0 ? "" : `\n${lines.join("\n")}\n`);
  const rendered = renderTemplate(await readTemplate("env.template"), {
    secret,
    database: block(database),
    mail: block(mail),
    socialProviders: block(providers),
  });
  return `${rendered.replace(/\n{3,}/g, "\n\n").trimEnd()}\n`;
}

/** Which of init's .gitignore entries the file does not list yet. */
function missingIgnoreEntries(gitignore: string): string[] {
  const lines = new Set(gitignore.split(/\r?\n/).map((line) => line.trim()));
  const listed = (entry: string) => {
    const bare = entry.replace(/\/$/, "");
    return [bare, `${bare}/`, `/${bare}`, `/${bare}/`, ...(bare === ".env" ? [".env*"] : [])].some(
      (form) => lines.has(form),
    );
  };
  return IGNORED_ENTRIES.filter((entry) => !listed(entry));
}

function displayPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative === "" || relative.startsWith("..") || path.isAbsolute(relative)
    ? file
    : relative;
}

/**
 * The files init would replace without --force, and other config files that discovery
 * would find besides the new one (not even --force deletes those).
 */
function refuseExisting(dir: string, configName: string, force: boolean): void {
  const targets = [configName, ".env"].filter((name) => existsSync(path.join(dir, name)));
  const competing = CONFIG_FILE_NAMES.filter(
    (name) => name !== configName && existsSync(path.join(dir, name)),
  );
  const problems: string[] = [];
  if (targets.length > 0 && !force) {
    problems.push(
      `${targets.join(" and ")} already ${targets.length === 1 ? "exists" : "exist"} in ${dir}; pass --force to overwrite`,
    );
  }
  if (competing.length > 0) {
    problems.push(
      `${competing.join(", ")} already ${competing.length === 1 ? "exists" : "exist"} in ${dir} and would compete with ${configName}; remove ${competing.length === 1 ? "it" : "them"} or choose another --format`,
    );
  }
  if (problems.length > 0) {
    throw new FileExistsError(`nothing was written: ${problems.join("; ")}`);
  }
}

/** Writes both files; without --force, a file that appeared meanwhile still stops it. */
async function writeFiles(
  files: Array<{ file: string; text: string; mode: number }>,
  force: boolean,
): Promise<void> {
  const written: string[] = [];
  for (const { file, text, mode } of files) {
    try {
      await writeFile(file, text, { mode, flag: force ? "w" : "wx" });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      for (const earlier of written) await unlink(earlier);
      throw new FileExistsError(
        `nothing was written: ${path.basename(file)} appeared while writing; pass --force to overwrite`,
      );
    }
    // writeFile's mode applies only to a new file: an overwritten .env is narrowed here.
    if (mode === PRIVATE_MODE) await chmod(file, mode);
    written.push(file);
  }
}

async function prepareDirectory(dir: string, dryRun: boolean): Promise<void> {
  const info = await stat(dir).catch(() => undefined);
  if (info === undefined) {
    if (!dryRun) await mkdir(dir, { recursive: true });
  } else if (!info.isDirectory()) {
    throw new UsageError(`--dir: ${dir} is not a directory`);
  }
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
  // A guard on the templates: the settings must satisfy the schema once credentials exist.
  validateConfig(configObject(answers, "placeholder"), configName);

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
    socialProviders: answers.socialProviders,
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
    const steps: string[] = [];
    if (dir !== process.cwd()) steps.push(`cd ${displayPath(dir)}`);
    if (answers.socialProviders.length > 0) {
      const ids = answers.socialProviders.join(", ");
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
      new Option("--social <ids>", "social provider ids, comma-separated (e.g. github,google)")
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
  $ authd init --format json --database-url postgres://authd@localhost:5432/authd
  $ authd init --dry-run`,
    )
    .action(runInit);
}
