/**
 * The secret that signs cookies and tokens, and keeping every secret out of what the
 * CLI displays (`config show`, `doctor`).
 */
import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { generateSecret } from "../crypto/random.js";
import { dataPath, isPlainObject, type LoadedConfig } from "./load.js";
import { ConfigError } from "./messages.js";
import type { AuthdConfig } from "./schema.js";

/** Where the secret in use came from, for the start-up summary. */
export type SecretSource =
  | { kind: "configured" }
  | { kind: "stored"; file: string }
  | { kind: "generated"; file: string };

/**
 * The secret: configured (file or AUTHD_SECRET), else in development the one kept in
 * `<dataDir>/secret`, generated there on first use. Production requires a configured one.
 */
export async function ensureSecret(
  loaded: LoadedConfig,
): Promise<{ secret: string; source: SecretSource }> {
  // The newest of a configured list; secretList(config) gives them all.
  const configured = secretList(loaded.config)[0];
  if (configured) return { secret: configured, source: { kind: "configured" } };
  if (loaded.production) {
    throw new ConfigError([
      "AUTHD_SECRET: a secret is required when NODE_ENV=production (generate one with `authd secret generate`)",
    ]);
  }
  const file = dataPath(loaded, "secret");
  if (existsSync(file)) {
    const stored = (await readFile(file, "utf8")).trim();
    if (stored.length >= 32) {
      loaded.config.secret = stored;
      return { secret: stored, source: { kind: "stored", file } };
    }
  }
  await mkdir(path.dirname(file), { recursive: true });
  const generated = generateSecret();
  await writeFile(file, `${generated}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  loaded.config.secret = generated;
  return { secret: generated, source: { kind: "generated", file } };
}

/**
 * The configured secrets, newest first: the newest signs and seals, the older ones are
 * still accepted until they are removed from the list. Empty when none is configured.
 */
export function secretList(config: AuthdConfig): string[] {
  const { secret } = config;
  if (secret === undefined) return [];
  return typeof secret === "string" ? [secret] : [...secret];
}

const SECRET_KEYS = new Set(["secret", "clientSecret", "password"]);

/**
 * A URL as it was written, with the password of its user info replaced. Read from the
 * text rather than re-serialized, so the rest shows as configured; a URL that does not
 * parse (a password with an unencoded `#` or `/`) loses everything up to its last `@`.
 */
function maskUrlPassword(value: string): string {
  const scheme = value.indexOf("://");
  if (scheme < 0) return value;
  const start = scheme + 3;
  const rest = value.slice(start);
  // Where a parser ends the authority; unparseable, the whole rest may hold the password.
  const end = URL.canParse(value) ? rest.search(/[/?#\\]/) : -1;
  const authority = end < 0 ? rest : rest.slice(0, end);
  const at = authority.lastIndexOf("@");
  const colon = authority.indexOf(":");
  if (at < 0 || colon < 0 || colon + 1 >= at) return value;
  return `${value.slice(0, start + colon + 1)}***${value.slice(start + at)}`;
}

/** The effective configuration for display, with every secret replaced. */
export function redactConfig(config: AuthdConfig): unknown {
  const walk = (value: unknown, key: string): unknown => {
    if (typeof value === "function") return "[function]";
    if (typeof value === "string") {
      if (SECRET_KEYS.has(key)) return "***";
      if (/url$/i.test(key)) return maskUrlPassword(value);
      return value;
    }
    if (Array.isArray(value)) return value.map((item) => walk(item, key));
    if (isPlainObject(value)) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, k)]));
    }
    return value;
  };
  return walk(config, "");
}
