/**
 * What `authd init` asks: the answers from flags and defaults, or from prompts on a
 * terminal, each checked the same way whatever its origin.
 */
import { configSchema, unparseableUrlProblem } from "../../server/config.js";
import { UsageError } from "../exit-codes.js";
import { askProviders, checkProviders, type SocialProviderAnswer } from "./init-social.js";

export const DEFAULT_BASE_URL = "http://localhost:3000";
/** The schema's default sender, written out so operators see where to change it. */
export const DEFAULT_MAIL_FROM = "authd <no-reply@localhost>";

export type ConfigFormat = "ts" | "json";

export interface InitFlags {
  baseUrl: string;
  databaseUrl?: string;
  social: SocialProviderAnswer[];
  organizations: boolean;
  smtpUrl?: string;
  mailFrom?: string;
  format: ConfigFormat;
  force?: boolean;
  dir?: string;
  dryRun?: boolean;
}

/** What the generated files say, from the flags or from the prompts. */
export interface InitAnswers {
  baseURL: string;
  /** Absent: embedded PGlite. */
  databaseUrl?: string;
  socialProviders: SocialProviderAnswer[];
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
  if (!/^postgres(ql)?:\/\/\S+$/.test(value)) return "expected a postgres:// or postgresql:// URL";
  return URL.canParse(value) ? undefined : unparseableUrlProblem("a postgres:// URL");
}

function checkSmtpUrl(value: string): string | undefined {
  if (!/^smtps?:\/\/\S+$/.test(value)) return "expected an smtp:// or smtps:// URL";
  return URL.canParse(value) ? undefined : unparseableUrlProblem("an smtp:// URL");
}

function checkMailFrom(value: string): string | undefined {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (value.length < 3 || /[\u0000-\u001f\u007f]/.test(value)) {
    return 'expected a sender address, e.g. "Acme <no-reply@acme.example>"';
  }
  return undefined;
}

/** Every answer checked again, whatever its origin; the message names the flag. */
export function validateAnswers(answers: InitAnswers): void {
  const problems: Array<[string, string | undefined]> = [
    ["--base-url", checkBaseUrl(answers.baseURL)],
    [
      "--database-url",
      answers.databaseUrl === undefined ? undefined : checkDatabaseUrl(answers.databaseUrl),
    ],
    ["--social", checkProviders(answers.socialProviders)],
    ["--smtp-url", answers.smtpUrl === undefined ? undefined : checkSmtpUrl(answers.smtpUrl)],
    ["--mail-from", checkMailFrom(answers.mailFrom)],
  ];
  for (const [flag, problem] of problems) {
    if (problem !== undefined) throw new UsageError(`${flag}: ${problem}`);
  }
}

export function answersFromFlags(flags: InitFlags): InitAnswers {
  return {
    baseURL: flags.baseUrl.trim(),
    databaseUrl: flags.databaseUrl?.trim() || undefined,
    socialProviders: flags.social,
    organizations: flags.organizations,
    smtpUrl: flags.smtpUrl?.trim() || undefined,
    mailFrom: flags.mailFrom?.trim() || DEFAULT_MAIL_FROM,
  };
}

/** The questions, each defaulting to the flag's value. */
export async function askAnswers(defaults: InitAnswers): Promise<InitAnswers> {
  const { confirm, input, select } = await import("@inquirer/prompts");
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
  const socialProviders = await askProviders(defaults.socialProviders);
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
