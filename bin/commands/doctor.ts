/**
 * `authd doctor`: the effective configuration (secrets redacted) and one line per check
 * of what authd needs to run: Node.js, configuration, secret, database, schema, clock
 * skew, mail, base URL, trusted origins, cookie security, social provider credentials,
 * and one `social.<id>` line per provider saying whether it answers from here (a warning
 * at worst). Exit 0 when nothing failed, else the code of the most telling failure. The
 * checks live in doctor-services.ts (database, schema, clock, mail), doctor-settings.ts
 * and doctor-social.ts.
 */
import type { Command } from "commander";
import { ConfigError, type LoadedConfig, redactConfig, secretList } from "../../server/config.js";
import { loadCommandConfig } from "../command-config.js";
import { EXIT, ExitError } from "../exit-codes.js";
import { emit, formatTable, type GlobalOptions, note, outputFormat, useColor } from "../output.js";
import { type Check, type CheckStatus, message } from "./doctor-check.js";
import { checkDatabase, checkMail } from "./doctor-services.js";
import {
  checkBaseUrl,
  checkCookies,
  checkSecret,
  checkSocialProviders,
  checkTrustedOrigins,
  socialCheckFromProblems,
} from "./doctor-settings.js";
import { checkProviderReachability } from "./doctor-social.js";

/** package.json "engines": the oldest Node.js authd supports. */
const MINIMUM_NODE = { major: 20, minor: 19 } as const;

export function checkNodeVersion(version: string = process.versions.node): Check {
  const [major = 0, minor = 0] = version.split(".").map((part) => Number.parseInt(part, 10));
  const supported =
    major > MINIMUM_NODE.major || (major === MINIMUM_NODE.major && minor >= MINIMUM_NODE.minor);
  const wanted = `${MINIMUM_NODE.major}.${MINIMUM_NODE.minor}`;
  return supported
    ? { name: "node", status: "ok", detail: `v${version} (>= ${wanted})` }
    : { name: "node", status: "fail", detail: `v${version}: authd needs Node.js >= ${wanted}` };
}

/** Every secret the configuration holds, so that no check detail can repeat one. */
function secretsOf(loaded: LoadedConfig): string[] {
  const { config } = loaded;
  const secrets: string[] = [];
  secrets.push(...secretList(config));
  for (const provider of Object.values(config.socialProviders)) secrets.push(provider.clientSecret);
  for (const url of [config.database.url, config.mail.smtpUrl, config.redis.url]) {
    if (!url) continue;
    try {
      const { password } = new URL(url);
      if (password) secrets.push(password, decodeURIComponent(password));
    } catch {
      // An unparsable URL was refused by the schema already.
    }
  }
  // A secret of one to three characters would also match ordinary words ("b" in "Debian").
  return secrets.filter((secret) => secret.length >= 4);
}

function scrubber(loaded: LoadedConfig): (text: string) => string {
  const secrets = secretsOf(loaded);
  return (text) => {
    let result = text.replace(/(\/\/[^:/@\s]*):[^@/\s]*@/g, "$1:***@");
    for (const secret of secrets) result = result.split(secret).join("***");
    return result;
  };
}

/** Checks after config, in report order (for the skipped list). */
const LATER_CHECKS = [
  "secret",
  "database",
  "schema",
  "clock",
  "mail",
  "baseURL",
  "origins",
  "cookies",
  "social",
] as const;

export interface DoctorReport {
  /** The redacted effective configuration, or null when it did not load. */
  config: unknown;
  checks: Check[];
  ok: boolean;
  /** Names of checks that could not run because one they depend on failed. */
  skipped: string[];
  exitCode: number;
  loaded: LoadedConfig | null;
}

/** Checks whose failure is a configuration error (exit 78). */
const CONFIGURATION_CHECKS = new Set(["config", "secret", "origins", "cookies", "social"]);

/**
 * The exit code: configuration (config, secret, origins, cookies,
 * social) 78, services (database, mail) 69, schema alone 10, else (clock, node) 1.
 */
function exitCodeOf(checks: Check[], schemaBehind: boolean): number {
  const failed = new Set(checks.filter((check) => check.status === "fail").map((c) => c.name));
  if (failed.size === 0) return EXIT.ok;
  if ([...failed].some((name) => CONFIGURATION_CHECKS.has(name))) return EXIT.config;
  if (failed.has("database") || failed.has("mail")) return EXIT.unavailable;
  if (failed.size === 1 && failed.has("schema") && schemaBehind) return EXIT.migrationsPending;
  return EXIT.internal;
}

export async function runDoctor(globals: GlobalOptions): Promise<DoctorReport> {
  const checks: Check[] = [checkNodeVersion()];
  let loaded: LoadedConfig;
  try {
    loaded = await loadCommandConfig(globals);
  } catch (error) {
    const detail = error instanceof ConfigError ? error.problems.join("; ") : message(error);
    checks.push({ name: "config", status: "fail", detail });
    const social =
      error instanceof ConfigError ? socialCheckFromProblems(error.problems) : undefined;
    if (social) checks.push(social);
    return {
      config: null,
      checks,
      ok: false,
      skipped: LATER_CHECKS.filter((name) => !social || name !== "social"),
      exitCode: EXIT.config,
      loaded: null,
    };
  }

  const environment = Object.values(loaded.envSources).sort();
  checks.push({
    name: "config",
    status: "ok",
    detail: [
      loaded.file ?? "no config file (defaults)",
      environment.length > 0 ? `environment: ${environment.join(", ")}` : "",
      loaded.production ? "NODE_ENV=production" : "",
    ]
      .filter(Boolean)
      .join("; "),
  });
  checks.push(checkSecret(loaded));
  const [database, mail, providers] = await Promise.all([
    checkDatabase(loaded),
    checkMail(loaded),
    checkProviderReachability(loaded),
  ]);
  checks.push(
    ...database.checks,
    mail,
    checkBaseUrl(loaded),
    checkTrustedOrigins(loaded),
    checkCookies(loaded),
    checkSocialProviders(loaded),
    ...providers,
  );

  const scrub = scrubber(loaded);
  const scrubbed = checks.map((check) => ({ ...check, detail: scrub(check.detail) }));
  const exitCode = exitCodeOf(scrubbed, database.schemaBehind);
  return {
    config: redactConfig(loaded.config),
    checks: scrubbed,
    ok: exitCode === EXIT.ok,
    skipped: ["schema", "clock"].filter(
      (name) => !database.checks.some((check) => check.name === name),
    ),
    exitCode,
    loaded,
  };
}

/** `a.b.c  value` lines: the nested configuration as an operator greps it. */
function flatten(value: unknown, prefix: string, rows: string[][]): void {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0 && prefix) rows.push([prefix, "{}"]);
    for (const [key, child] of entries) flatten(child, prefix ? `${prefix}.${key}` : key, rows);
    return;
  }
  if (value === undefined) return;
  rows.push([prefix, typeof value === "string" ? value : JSON.stringify(value)]);
}

const COLOURS: Record<CheckStatus, string> = { ok: "32", warn: "33", fail: "31" };

function printHuman(report: DoctorReport, colour: boolean): void {
  const out: string[] = [];
  if (report.loaded) {
    const { loaded } = report;
    out.push(`Configuration: ${loaded.file ?? "no config file (defaults)"}`);
    const rows: string[][] = [];
    flatten(report.config, "", rows);
    const sourceOf = new Map(Object.entries({ ...loaded.envSources, ...loaded.flagSources }));
    out.push(
      formatTable(
        ["SETTING", "VALUE", "SOURCE"],
        rows.map(([key = "", value = ""]) => [key, value, sourceOf.get(key) ?? ""]),
      ),
      "",
    );
  }
  const table = formatTable(
    ["STATUS", "CHECK", "DETAIL"],
    report.checks.map((check) => [check.status, check.name, check.detail]),
  );
  out.push(
    colour
      ? table.replace(
          /^(ok|warn|fail)(?= )/gm,
          (status) => `\u001b[${COLOURS[status as CheckStatus]}m${status}\u001b[0m`,
        )
      : table,
  );
  process.stdout.write(`${out.join("\n")}\n`);
  if (report.skipped.length > 0) {
    note(`Skipped: ${report.skipped.join(", ")} (they need a check above that did not pass).`);
  }
}

export function registerDoctor(program: Command): void {
  program
    .command("doctor")
    .description(
      "check the configuration, database, schema, clock, mail, origins, cookies and social providers (and whether each answers); print the effective config",
    )
    .action(async (_flags: unknown, command: Command) => {
      const globals = command.optsWithGlobals<GlobalOptions>();
      // Work abandoned at a deadline may hold the event loop open (a reconnecting client):
      // once the report is out, leave anyway. Unref'd, so a clean run exits at once.
      const leave = () => setTimeout(() => process.exit(), 1000).unref();
      let report: DoctorReport;
      try {
        report = await runDoctor(globals);
      } finally {
        leave();
      }
      emit({ config: report.config, checks: report.checks, ok: report.ok }, globals, {
        listField: "checks",
        columns: ["status", "name", "detail"],
        quietField: "name",
        human: () => printHuman(report, useColor(globals)),
      });
      const failed = report.checks.filter((check) => check.status === "fail");
      if (failed.length > 0) {
        const names = failed.map((check) => check.name).join(", ");
        throw new ExitError(
          `${failed.length} check${failed.length === 1 ? "" : "s"} failed: ${names}`,
          report.exitCode,
        );
      }
      if (outputFormat(globals) === "human" && !globals.quiet) {
        const warned = report.checks.filter((check) => check.status === "warn");
        note(
          warned.length > 0
            ? `No check failed; ${warned.length} warning${warned.length === 1 ? "" : "s"}: ${warned.map((check) => check.name).join(", ")}.`
            : "All checks passed.",
        );
      }
      process.exitCode = EXIT.ok;
    });
}
