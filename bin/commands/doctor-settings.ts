/**
 * Doctor's checks of the settings a deployment gets wrong: the secret, the base URL,
 * trusted origins, whether session cookies will be Secure, and social provider
 * credentials (also when the configuration did not load for want of them).
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { dataPath, type LoadedConfig, secretList } from "../../server/config.js";
import {
  classifyTrustedOrigin,
  isLoopbackHost,
  socialCredentialProblems,
} from "../../server/config-safety.js";
import { providerSourceProblems } from "../../server/social/config-check.js";
import { BUILT_IN_PROVIDERS } from "../../server/social/providers/index.js";
import type { Check } from "./doctor-check.js";

export function checkSecret(loaded: LoadedConfig): Check {
  if (loaded.config.secret) {
    const from = loaded.envSources.secret;
    const where = from ?? (loaded.file ? path.basename(loaded.file) : "the configuration");
    const count = secretList(loaded.config).length;
    // While rotating, the older secrets are still accepted: say how many, never which.
    const rotating =
      count > 1
        ? `: ${count} secrets, the newest signs and seals, ${count - 1} older ${count === 2 ? "one is" : "ones are"} still accepted`
        : "";
    return { name: "secret", status: "ok", detail: `configured (${where})${rotating}` };
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

export function checkBaseUrl(loaded: LoadedConfig): Check {
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
export function checkTrustedOrigins(loaded: LoadedConfig): Check {
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
export function checkCookies(loaded: LoadedConfig): Check {
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

/**
 * Every social provider needs a real clientId and clientSecret, and a source of
 * endpoints (built in, an issuer, or all three endpoints), which `serve` demands too.
 */
export function checkSocialProviders(loaded: LoadedConfig): Check {
  const providers = socialCredentialProblems(loaded.config);
  if (providers.length === 0) {
    return { name: "social", status: "ok", detail: "no social providers configured" };
  }
  const faulty = providers.filter((provider) => provider.problems.length > 0);
  const sources = providerSourceProblems(loaded.config, BUILT_IN_PROVIDERS);
  if (faulty.length > 0 || sources.length > 0) {
    return {
      name: "social",
      status: "fail",
      detail: [
        ...faulty.map((provider) => `${provider.provider}: ${provider.problems.join(", ")}`),
        ...sources,
      ].join("; "),
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
export function socialCheckFromProblems(problems: string[]): Check | undefined {
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
