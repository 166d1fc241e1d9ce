/**
 * `authd doctor`: the effective configuration (secrets redacted) and one line per check
 * of what authd needs to run: Node.js, configuration, secret, database, schema, clock
 * skew, mail, base URL, trusted origins, cookie security, social provider credentials.
 * Exit 0 when nothing failed, else the code of the most telling failure.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { Command } from "commander";
import {
  ConfigError,
  dataPath,
  type LoadedConfig,
  loadConfig,
  redactConfig,
} from "../../server/config.js";
import {
  classifyTrustedOrigin,
  isLoopbackHost,
  socialCredentialProblems,
} from "../../server/config-safety.js";
import { type Database, describeDatabaseUrl, openDatabase } from "../../server/db/connection.js";
import { EmbeddedDatabaseLockedError } from "../../server/db/embedded.js";
import { migrationStatus } from "../../server/db/migrations.js";
import { createMailTransport } from "../../server/mail/transport.js";
import { EXIT, ExitError } from "../exit-codes.js";
import { emit, formatTable, type GlobalOptions, note, outputFormat, useColor } from "../output.js";

export type CheckStatus = "ok" | "warn" | "fail";

export interface Check {
  name: string;
  status: CheckStatus;
  detail: string;
}

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

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Every secret the configuration holds, so that no check detail can repeat one. */
function secretsOf(loaded: LoadedConfig): string[] {
  const { config } = loaded;
  const secrets: string[] = [];
  if (config.secret) secrets.push(config.secret);
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

function checkSecret(loaded: LoadedConfig): Check {
  if (loaded.config.secret) {
    const from = loaded.envSources.secret;
    const where = from ?? (loaded.file ? path.basename(loaded.file) : "the configuration");
    return { name: "secret", status: "ok", detail: `configured (${where})` };
  }
  if (loaded.production) {
    return {
      name: "secret",
      status: "fail",
      detail:
        "missing: AUTHD_SECRET is required when NODE_ENV=production (generate one with `authd secret generate`)",
    };
  }
  const file = dataPath(loaded, "secret");
  return {
    name: "secret",
    status: "warn",
    detail: existsSync(file)
      ? `not configured: the development secret in ${file} is used; set AUTHD_SECRET in production`
      : `not configured: a development secret will be generated in ${file}`,
  };
}

class DeadlineError extends Error {}

/** Rejects when `work` takes longer than `seconds`: doctor must never hang. */
async function within<T>(seconds: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new DeadlineError(`no answer within ${seconds} s`)),
      seconds * 1000,
    );
    timer.unref();
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

function describeSchema(
  status: Awaited<ReturnType<typeof migrationStatus>>,
  embedded: boolean,
): Check & { behind: boolean } {
  const unknown =
    status.unknown.length > 0
      ? `${status.unknown.length} unknown to this version of authd (a newer version ran them): ${status.unknown.join(", ")}`
      : "";
  if (status.pending.length > 0) {
    const pending = `${status.pending.length} pending`;
    const both = (detail: string) => (unknown ? `${detail}; ${unknown}` : detail);
    // The embedded database belongs to authd alone: serve migrates it on start.
    return embedded
      ? {
          name: "schema",
          status: "warn",
          detail: both(`${pending}: \`authd serve\` applies them to the embedded database`),
          behind: false,
        }
      : {
          name: "schema",
          status: "fail",
          detail: both(`${pending}: run \`authd migrate\``),
          behind: true,
        };
  }
  if (unknown) return { name: "schema", status: "warn", detail: unknown, behind: false };
  return {
    name: "schema",
    status: "ok",
    detail: `up to date (${status.applied.length} migrations applied)`,
    behind: false,
  };
}

/** Clock skew between this host and the database server: warn above, fail above. */
export const CLOCK_SKEW_WARN_MS = 2_000;
export const CLOCK_SKEW_FAIL_MS = 30_000;

/**
 * The clock check from a measured skew (database minus local, in ms). authd writes
 * expiry times from this host's clock and the database compares some with now(), and
 * several authd hosts share one database: clocks that disagree cut sessions, links and
 * invitations short or make them outlive their expiry.
 */
export function describeClockSkew(skewMs: number, roundTripMs: number): Check {
  const size = Math.abs(skewMs);
  const seconds = (size / 1000).toFixed(1);
  const direction = skewMs >= 0 ? "ahead of" : "behind";
  const measured = `round trip ${Math.round(roundTripMs)} ms`;
  if (size <= CLOCK_SKEW_WARN_MS) {
    return {
      name: "clock",
      status: "ok",
      detail: `database clock within ${seconds} s of this host's (${measured})`,
    };
  }
  const consequence =
    "expiry times written by authd and compared by the database disagree; sync both clocks (NTP)";
  return {
    name: "clock",
    status: size > CLOCK_SKEW_FAIL_MS ? "fail" : "warn",
    detail: `database clock ${seconds} s ${direction} this host's (${measured}): ${consequence}`,
  };
}

async function checkClock(db: Database, timeout: number): Promise<Check> {
  try {
    const before = Date.now();
    const started = performance.now();
    const [row] = await within(
      timeout,
      db.sql<{ ms: number }[]>`
        select (extract(epoch from clock_timestamp()) * 1000)::float8 as ms`,
    );
    const roundTrip = performance.now() - started;
    if (row === undefined) throw new Error("no answer");
    // The database read its clock about halfway through the round trip.
    return describeClockSkew(row.ms - (before + roundTrip / 2), roundTrip);
  } catch (error) {
    return {
      name: "clock",
      status: "warn",
      detail: `cannot read the database clock: ${message(error)}`,
    };
  }
}

interface DatabaseChecks {
  checks: Check[];
  /** The schema check failed because migrations are pending (exit 10 on its own). */
  schemaBehind: boolean;
}

async function checkDatabase(loaded: LoadedConfig): Promise<DatabaseChecks> {
  const { url, connectTimeout: timeout } = loaded.config.database;
  let db: Database;
  const opening = openDatabase(loaded, { max: 1 });
  try {
    // postgres.js reconnects without end while a server accepts and then closes the
    // connection (say, an HTTP server on that port), so the URL case gets a deadline too.
    db = url ? await within(timeout + 1, opening) : await opening;
  } catch (error) {
    if (url && error instanceof DeadlineError) {
      opening
        .then(
          (late) => late.close(),
          () => {},
        )
        .catch(() => {});
      return {
        checks: [
          {
            name: "database",
            status: "fail",
            detail: `cannot reach PostgreSQL at ${describeDatabaseUrl(url)}: ${error.message} (is a PostgreSQL server listening there?)`,
          },
        ],
        schemaBehind: false,
      };
    }
    if (error instanceof EmbeddedDatabaseLockedError) {
      // A running `authd serve` owns it: that is no fault, but nothing can be checked.
      return {
        checks: [{ name: "database", status: "warn", detail: `not checked: ${error.message}` }],
        schemaBehind: false,
      };
    }
    return {
      checks: [{ name: "database", status: "fail", detail: message(error) }],
      schemaBehind: false,
    };
  }
  try {
    const checks: Check[] = [];
    try {
      const started = performance.now();
      const [row] = await within(
        timeout,
        db.sql<{ version: string }[]>`select current_setting('server_version') as version`,
      );
      const latency = Math.max(0, Math.round(performance.now() - started));
      checks.push({
        name: "database",
        status: "ok",
        detail: `${db.label}: PostgreSQL ${row?.version ?? "?"}, latency ${latency} ms`,
      });
    } catch (error) {
      checks.push({ name: "database", status: "fail", detail: `${db.label}: ${message(error)}` });
      return { checks, schemaBehind: false };
    }
    let schemaBehind = false;
    try {
      const schema = describeSchema(await within(timeout, migrationStatus(db.sql)), db.embedded);
      checks.push({ name: schema.name, status: schema.status, detail: schema.detail });
      schemaBehind = schema.behind;
    } catch (error) {
      checks.push({
        name: "schema",
        status: "fail",
        detail: `cannot read the migrations: ${message(error)}`,
      });
    }
    checks.push(await checkClock(db, timeout));
    return { checks, schemaBehind };
  } finally {
    await db.close().catch(() => {});
  }
}

async function checkMail(loaded: LoadedConfig): Promise<Check> {
  const transport = createMailTransport(loaded);
  try {
    const started = performance.now();
    await transport.verify();
    if (transport.kind === "smtp") {
      const elapsed = Math.max(0, Math.round(performance.now() - started));
      return {
        name: "mail",
        status: "ok",
        detail: `${transport.describe}: verified in ${elapsed} ms`,
      };
    }
    if (loaded.production) {
      return {
        name: "mail",
        status: "warn",
        detail: `no SMTP server: mail is written to ${transport.describe}, not delivered; set SMTP_URL`,
      };
    }
    return {
      name: "mail",
      status: "ok",
      detail: `outbox ${transport.describe} is writable (no SMTP_URL: messages are saved as .eml files)`,
    };
  } catch (error) {
    return { name: "mail", status: "fail", detail: message(error) };
  } finally {
    transport.close();
  }
}

function checkBaseUrl(loaded: LoadedConfig): Check {
  const { baseURL } = loaded.config;
  if (!baseURL) {
    return {
      name: "baseURL",
      status: "warn",
      detail: "derived from each request; set baseURL / AUTHD_BASE_URL in production",
    };
  }
  if (baseURL.startsWith("http://") && loaded.production) {
    return {
      name: "baseURL",
      status: "warn",
      detail: `${baseURL}: cookies will not be Secure over http; use https:// in production`,
    };
  }
  return { name: "baseURL", status: "ok", detail: baseURL };
}

/** Each trusted origin must be an http(s) origin (no path); `*` is warned about. */
function checkTrustedOrigins(loaded: LoadedConfig): Check {
  const entries = loaded.config.trustedOrigins.map(classifyTrustedOrigin);
  if (entries.length === 0) {
    return {
      name: "origins",
      status: "ok",
      detail: "no trusted origins: only authd's own origin may send cookie-carrying requests",
    };
  }
  const faulty = entries.filter((entry) => entry.kind === "invalid");
  const doubtful = entries.filter((entry) => entry.kind === "wildcard" || entry.kind === "url");
  if (faulty.length > 0 || doubtful.length > 0) {
    return {
      name: "origins",
      status: faulty.length > 0 ? "fail" : "warn",
      detail: [...faulty, ...doubtful]
        .map((entry) => `${JSON.stringify(entry.entry)}: ${entry.reason}`)
        .join("; "),
    };
  }
  return {
    name: "origins",
    status: "ok",
    detail: entries
      .map((entry) => (entry.kind === "pattern" ? `${entry.entry} (pattern)` : entry.entry))
      .join(", "),
  };
}

function trustsProxy(value: LoadedConfig["config"]["server"]["trustProxy"]): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return value !== false && value !== 0;
}

/**
 * Whether session cookies will be Secure, as server/http/session-cookies.ts decides:
 * from baseURL's scheme when it is set, else from each request's protocol (which only
 * a trusted proxy's X-Forwarded-Proto makes https: authd itself serves plain http).
 * Cookies that are not Secure fail in production, except on a loopback address.
 */
function checkCookies(loaded: LoadedConfig): Check {
  const { baseURL, server, session } = loaded.config;
  const secureName = `__Secure-${session.cookiePrefix}.session_token`;
  const plainName = `${session.cookiePrefix}.session_token`;
  const proxied = trustsProxy(server.trustProxy);
  const insecure = (detail: string): Check => ({
    name: "cookies",
    status: loaded.production ? "fail" : "warn",
    detail,
  });
  if (baseURL) {
    const url = new URL(baseURL);
    if (url.protocol === "https:") {
      return { name: "cookies", status: "ok", detail: `Secure (${secureName}): baseURL is https` };
    }
    if (isLoopbackHost(url.hostname)) {
      return {
        name: "cookies",
        status: loaded.production ? "warn" : "ok",
        detail: `not Secure (${plainName}): baseURL ${baseURL} is http on a local address (development only)`,
      };
    }
    return insecure(
      `not Secure (${plainName}): baseURL ${baseURL} is http, so browsers send the session cookie in clear text${
        proxied
          ? "; if the trusted proxy in front terminates TLS, set baseURL to https:// so that cookies are Secure"
          : "; use https://"
      }`,
    );
  }
  if (proxied) {
    return {
      name: "cookies",
      status: "ok",
      detail: `per request: Secure (${secureName}) when the trusted proxy sends X-Forwarded-Proto: https (server.trustProxy)`,
    };
  }
  return insecure(
    `never Secure (${plainName}): without baseURL cookies follow each request's protocol, and authd serves plain http; set baseURL to the public https:// URL (or server.trustProxy behind a TLS proxy)`,
  );
}

/** Every social provider needs a real clientId and clientSecret. */
function checkSocialProviders(loaded: LoadedConfig): Check {
  const providers = socialCredentialProblems(loaded.config);
  if (providers.length === 0) {
    return { name: "social", status: "ok", detail: "no social providers configured" };
  }
  const faulty = providers.filter((provider) => provider.problems.length > 0);
  if (faulty.length > 0) {
    return {
      name: "social",
      status: "fail",
      detail: faulty
        .map((provider) => `${provider.provider}: ${provider.problems.join(", ")}`)
        .join("; "),
    };
  }
  return {
    name: "social",
    status: "ok",
    detail: `${providers.map((provider) => provider.provider).join(", ")}: clientId and clientSecret set`,
  };
}

/**
 * Social credentials the schema refused as missing or empty (the usual state right
 * after `authd init --social`): named as a failed social check of their own, so that
 * the operator sees which provider lacks what even though the config did not load.
 */
function socialCheckFromProblems(problems: string[]): Check | undefined {
  const missing = new Map<string, string[]>();
  for (const problem of problems) {
    const match =
      /(?:^|: )socialProviders\.([^.:\s]+)\.(clientId|clientSecret): expected (?:a non-empty string|a string, but it is missing)$/.exec(
        problem,
      );
    if (!match?.[1] || !match[2]) continue;
    missing.set(match[1], [...(missing.get(match[1]) ?? []), match[2]]);
  }
  if (missing.size === 0) return undefined;
  return {
    name: "social",
    status: "fail",
    detail: [...missing]
      .map(([provider, keys]) => `${provider}: ${keys.join(" and ")} missing`)
      .join("; "),
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
    loaded = await loadConfig({ configPath: globals.config });
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
  const [database, mail] = await Promise.all([checkDatabase(loaded), checkMail(loaded)]);
  checks.push(
    ...database.checks,
    mail,
    checkBaseUrl(loaded),
    checkTrustedOrigins(loaded),
    checkCookies(loaded),
    checkSocialProviders(loaded),
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
    const fromEnv = new Map(Object.entries(loaded.envSources));
    out.push(
      formatTable(
        ["SETTING", "VALUE", "SOURCE"],
        rows.map(([key = "", value = ""]) => [key, value, fromEnv.get(key) ?? ""]),
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
      "check the configuration, database, schema, clock, mail, origins, cookies and social providers; print the effective config",
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
