/**
 * What `authd init` writes: the config file and `.env` rendered from `templates/init/`,
 * the lines it adds to `.gitignore`, and the rules that keep it from overwriting
 * anything without --force.
 */
import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, stat, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { CONFIG_FILE_NAMES } from "../../server/config.js";
import { packageRoot } from "../../server/db/migrations.js";
import { FileExistsError, UsageError } from "../exit-codes.js";
import type { ConfigFormat, InitAnswers } from "./init-answers.js";
import { providerEnvPrefix, type SocialProviderAnswer } from "./init-social.js";

/** Lines init adds to an existing .gitignore: the secrets and the embedded data. */
const IGNORED_ENTRIES = [".env", ".authd/"] as const;
/** .env holds the secret: readable by its owner only. */
export const PRIVATE_MODE = 0o600;

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
export function configObject(
  answers: InitAnswers,
  providerCredential: string,
): Record<string, unknown> {
  return {
    baseURL: answers.baseURL,
    emailAndPassword: { enabled: true },
    socialProviders: Object.fromEntries(
      answers.socialProviders.map(({ id, issuer }) => [
        id,
        {
          clientId: providerCredential,
          clientSecret: providerCredential,
          ...(issuer === undefined ? {} : { issuer }),
        },
      ]),
    ),
    organization: { enabled: answers.organizations },
    mail: { from: answers.mailFrom },
  };
}

function tsSocialProviders(providers: SocialProviderAnswer[]): string {
  if (providers.length === 0) return "{}";
  const envRead = (name: string) =>
    /^[A-Z_][A-Z0-9_]*$/.test(name)
      ? `process.env.${name}`
      : `process.env[${JSON.stringify(name)}]`;
  const entries = providers.map(({ id, issuer }) => {
    const prefix = providerEnvPrefix(id);
    const key = /^[a-z_][a-z0-9_]*$/.test(id) ? id : JSON.stringify(id);
    return [
      `    ${key}: {`,
      `      clientId: ${envRead(`${prefix}_CLIENT_ID`)} ?? "",`,
      `      clientSecret: ${envRead(`${prefix}_CLIENT_SECRET`)} ?? "",`,
      ...(issuer === undefined ? [] : [`      issuer: ${JSON.stringify(issuer)},`]),
      "    },",
    ].join("\n");
  });
  return `{\n${entries.join("\n")}\n  }`;
}

export async function renderConfig(answers: InitAnswers, format: ConfigFormat): Promise<string> {
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

export async function renderEnv(answers: InitAnswers, format: ConfigFormat, secret: string) {
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
          ...answers.socialProviders.flatMap(({ id }) => [
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
export function missingIgnoreEntries(gitignore: string): string[] {
  const lines = new Set(gitignore.split(/\r?\n/).map((line) => line.trim()));
  const listed = (entry: string) => {
    const bare = entry.replace(/\/$/, "");
    return [bare, `${bare}/`, `/${bare}`, `/${bare}/`, ...(bare === ".env" ? [".env*"] : [])].some(
      (form) => lines.has(form),
    );
  };
  return IGNORED_ENTRIES.filter((entry) => !listed(entry));
}

/**
 * The files init would replace without --force, and other config files that discovery
 * would find besides the new one (not even --force deletes those).
 */
export function refuseExisting(dir: string, configName: string, force: boolean): void {
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
export async function writeFiles(
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

export async function prepareDirectory(dir: string, dryRun: boolean): Promise<void> {
  const info = await stat(dir).catch(() => undefined);
  if (info === undefined) {
    if (!dryRun) await mkdir(dir, { recursive: true });
  } else if (!info.isDirectory()) {
    throw new UsageError(`--dir: ${dir} is not a directory`);
  }
}
