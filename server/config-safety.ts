/**
 * Settings that pass the schema but are unsafe or inconsistent for a deployment
 * (`authd config validate --strict`, `authd doctor`). The schema (server/config/schema.ts)
 * says what is well-formed; this module says what is wise. The list is short on
 * purpose, and documented in docs/cli.md ("config validate --strict").
 */
import type { AuthdConfig, LoadedConfig } from "./config.js";

/** A finding of the strict check: a problem fails `--strict`, a warning does not. */
export interface ConfigFinding {
  /** The config key it is about, e.g. `baseURL` or `trustedOrigins.2`. */
  key: string;
  severity: "problem" | "warning";
  message: string;
}

/** The cookie cache may hold a revoked session this long (seconds) at most. */
export const COOKIE_CACHE_MAX_AGE_LIMIT = 3600;

/** localhost, *.localhost, 127.0.0.0/8 and ::1: addresses that never leave the machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  return (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    /^127(?:\.\d{1,3}){3}$/.test(host) ||
    host === "::1"
  );
}

export type TrustedOriginKind =
  /** scheme://host[:port], used as it is. */
  | "origin"
  /** A pattern such as https://*.example.com: `*` stands for one host label. */
  | "pattern"
  /** `*` alone, or a pattern whose whole host is `*`. */
  | "wildcard"
  /** A URL with a path, query or credentials: only its origin counts. */
  | "url"
  /** Not an http(s) origin: it trusts nothing. */
  | "invalid";

export interface TrustedOriginEntry {
  entry: string;
  kind: TrustedOriginKind;
  /** The origin the entry stands for (origin and url kinds). */
  origin?: string;
  /** Why the entry is not a plain origin or pattern, in an operator's words. */
  reason?: string;
}

/** What one `trustedOrigins` entry means to server/http/origin.ts. */
export function classifyTrustedOrigin(entry: string): TrustedOriginEntry {
  const trimmed = entry.replace(/\/+$/, "");
  if (/^(?:[a-z*]+:\/\/)?\*(?::\d+)?$/i.test(trimmed)) {
    return {
      entry,
      kind: "wildcard",
      reason:
        "a wildcard for every origin is not supported (it matches nothing) and would be unsafe; list the origins, or patterns such as https://*.example.com",
    };
  }
  const isPattern = entry.includes("*");
  // A pattern is checked as the URL it would be with each `*` filled in.
  const probe = isPattern ? entry.replace(/^\*:\/\//, "https://").replaceAll("*", "x") : entry;
  let url: URL;
  try {
    url = new URL(probe);
  } catch {
    return { entry, kind: "invalid", reason: "not a URL: expected scheme://host[:port]" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return { entry, kind: "invalid", reason: `${url.protocol} is not http: or https:` };
  }
  const extra = url.pathname !== "/" || url.search !== "" || url.hash !== "";
  const credentials = url.username !== "" || url.password !== "";
  if (isPattern) {
    if (extra || credentials) {
      return {
        entry,
        kind: "invalid",
        reason: "a pattern with a path, query or credentials matches no origin",
      };
    }
    return { entry, kind: "pattern" };
  }
  if (extra || credentials) {
    return {
      entry,
      kind: "url",
      origin: url.origin,
      reason: `only its origin ${url.origin} counts; write just that`,
    };
  }
  return { entry, kind: "origin", origin: url.origin };
}

/**
 * The strict findings: every one names its key and says what to
 * do. `secretFile` is where the development secret would be read or generated.
 */
export function auditConfig(loaded: LoadedConfig, secretFile: string): ConfigFinding[] {
  const { config } = loaded;
  const findings: ConfigFinding[] = [];
  const problem = (key: string, message: string) =>
    findings.push({ key, severity: "problem", message });
  const warning = (key: string, message: string) =>
    findings.push({ key, severity: "warning", message });

  if (!config.baseURL) {
    problem(
      "baseURL",
      "not set: authd derives its URL from each request's Host header and cookies follow the request's protocol; set baseURL (AUTHD_BASE_URL) to the public https:// URL",
    );
  } else if (new URL(config.baseURL).protocol !== "https:") {
    if (isLoopbackHost(new URL(config.baseURL).hostname)) {
      warning(
        "baseURL",
        `${config.baseURL} is http on a local address: fine for development, use https:// in production`,
      );
    } else {
      problem(
        "baseURL",
        `${config.baseURL} is not https: session cookies are not Secure and travel in clear text; use https://`,
      );
    }
  }

  config.trustedOrigins.forEach((entry, index) => {
    const key = `trustedOrigins.${index}`;
    const classified = classifyTrustedOrigin(entry);
    if (classified.kind === "wildcard" || classified.kind === "invalid") {
      problem(key, `${JSON.stringify(entry)}: ${classified.reason}`);
    } else if (classified.kind === "url") {
      warning(key, `${JSON.stringify(entry)}: ${classified.reason}`);
    } else if (classified.kind === "pattern") {
      warning(
        key,
        `${JSON.stringify(entry)} trusts every host it matches: make sure nobody else controls such a host`,
      );
    }
  });

  if (!config.secret) {
    problem(
      "secret",
      `not configured: the development secret file ${secretFile} would be used (generated per machine); set AUTHD_SECRET (generate one with \`authd secret generate\`)`,
    );
  }

  const { cookieCache } = config.session;
  if (cookieCache.enabled && cookieCache.maxAge > COOKIE_CACHE_MAX_AGE_LIMIT) {
    problem(
      "session.cookieCache.maxAge",
      `${cookieCache.maxAge} s: a revoked or banned session stays usable from the cookie cache that long; keep it at most ${COOKIE_CACHE_MAX_AGE_LIMIT} s (default 300)`,
    );
  }

  if (config.metrics.enabled && config.metrics.port === undefined) {
    warning(
      "metrics.enabled",
      `true without metrics.port: ${config.metrics.path} is served on the API port, where anyone who reaches it can read how the service is used; give the metrics a port of their own (metrics.port, AUTHD_METRICS_PORT) or block the path at the proxy`,
    );
  }

  if (config.cli.allowSessionMint) {
    problem(
      "cli.allowSessionMint",
      "true: `authd session create` can mint a session for any user; enable it only for tests",
    );
  }
  return findings;
}

/** Values that stand for a credential instead of being one (left over from a template). */
const PLACEHOLDER =
  /^(?:\$\{.*\}|\$[A-Z_][A-Z0-9_]*|<.*>|\{\{.*\}\}|changeme|change-me|todo|xxx+|placeholder|your[-_ ].*)$/i;

/** For each social provider: what is wrong with its clientId and clientSecret, if anything. */
export function socialCredentialProblems(config: AuthdConfig): Array<{
  provider: string;
  problems: string[];
}> {
  return Object.entries(config.socialProviders).map(([provider, settings]) => {
    const problems: string[] = [];
    for (const key of ["clientId", "clientSecret"] as const) {
      const value = settings[key];
      if (value.trim() === "") problems.push(`${key} is blank`);
      else if (PLACEHOLDER.test(value.trim())) {
        problems.push(
          `${key} looks like a placeholder (config files are not expanded); set the real value`,
        );
      }
    }
    return { provider, problems };
  });
}
