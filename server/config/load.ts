/**
 * Loading the configuration: file discovery, the file itself (JSON, or TypeScript and
 * JavaScript through jiti), environment overrides and flags, merged in that order of
 * precedence and then validated.
 */
import { existsSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { readEnvironment } from "./environment.js";
import { ConfigError, describeType, validateConfig } from "./messages.js";
import type { AuthdConfig } from "./schema.js";

/** The module a config file's `import … from "authd"` loads (compiled, or the source under tests). */
const DEFINE_CONFIG_MODULE = ((): string => {
  const compiled = fileURLToPath(new URL("../define-config.js", import.meta.url));
  return existsSync(compiled) ? compiled : compiled.replace(/\.js$/, ".ts");
})();

export const CONFIG_FILE_NAMES = [
  "authd.config.ts",
  "authd.config.mts",
  "authd.config.js",
  "authd.config.mjs",
  "authd.config.json",
] as const;

/** Environment variables that override the file, by config path. */
const ENV_OVERRIDES: ReadonlyArray<{
  name: string;
  path: string[];
  numeric?: boolean;
  /** `true`/`1` and `false`/`0` become booleans; anything else fails validation as given. */
  boolean?: boolean;
  /** Also read from the file named by `<name>_FILE` (mounted container secrets). */
  secret?: boolean;
  /** Several values separated by commas or newlines become a list (secrets while rotating). */
  list?: boolean;
}> = [
  { name: "DATABASE_URL", path: ["database", "url"], secret: true },
  // Later entries win: AUTHD_DATABASE_URL over DATABASE_URL.
  { name: "AUTHD_DATABASE_URL", path: ["database", "url"], secret: true },
  { name: "AUTHD_SECRET", path: ["secret"], secret: true, list: true },
  { name: "AUTHD_BASE_URL", path: ["baseURL"] },
  { name: "AUTHD_DATA_DIR", path: ["dataDir"] },
  { name: "HOST", path: ["server", "host"] },
  { name: "PORT", path: ["server", "port"], numeric: true },
  { name: "SMTP_URL", path: ["mail", "smtpUrl"], secret: true },
  { name: "MAIL_FROM", path: ["mail", "from"] },
  { name: "REDIS_URL", path: ["redis", "url"], secret: true },
  { name: "LOG_LEVEL", path: ["log", "level"] },
  { name: "AUTHD_LOG_FORMAT", path: ["log", "format"] },
  { name: "AUTHD_METRICS_ENABLED", path: ["metrics", "enabled"], boolean: true },
  { name: "AUTHD_METRICS_PORT", path: ["metrics", "port"], numeric: true },
];

/** An environment flag's value: `true`/`1`, `false`/`0`, or the text as given. */
function booleanOrText(value: string): boolean | string {
  const lower = value.trim().toLowerCase();
  if (lower === "true" || lower === "1") return true;
  if (lower === "false" || lower === "0") return false;
  return value;
}

export interface LoadConfigOptions {
  cwd?: string;
  /** `--config PATH`; wins over `$AUTHD_CONFIG` and discovery. */
  configPath?: string;
  /** The environment to read; defaults to `process.env` merged over `./.env`. */
  env?: Record<string, string | undefined>;
  /** Flag values (highest precedence), as config paths, e.g. `{server: {port: 4000}}`. */
  overrides?: Record<string, unknown>;
  /** The flag behind each override, by config path (`"server.port": "--port"`): problems name it. */
  flagNames?: Record<string, string>;
}

export interface LoadedConfig {
  config: AuthdConfig;
  /** Absolute path of the file used, or null when running on defaults. */
  file: string | null;
  /** NODE_ENV=production or the production profile (`--profile`, $AUTHD_PROFILE): secrets are mandatory, nothing is generated, dangerous commands are refused. */
  production: boolean;
  /** Which config paths came from which environment variable (for `doctor`). */
  envSources: Record<string, string>;
  cwd: string;
  /** The raw object read from the file, before env and flags (for `config show` sources). */
  fileValues?: Record<string, unknown>;
  /** The flag values given as `overrides` (for `config show` sources). */
  flagValues?: Record<string, unknown>;
  /** Which config paths came from which flag (`"database.url": "--database-url"`). */
  flagSources?: Record<string, string>;
}

export function findConfigFile(
  cwd: string,
  env: Record<string, string | undefined>,
  explicit?: string,
): string | null {
  const chosen = explicit ?? env.AUTHD_CONFIG;
  if (chosen) {
    const absolute = path.resolve(cwd, chosen);
    if (!existsSync(absolute)) {
      throw new ConfigError([`${chosen}: config file not found`]);
    }
    return absolute;
  }
  for (const name of CONFIG_FILE_NAMES) {
    const candidate = path.join(cwd, name);
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

async function readConfigFile(file: string): Promise<unknown> {
  const label = path.basename(file);
  if (file.endsWith(".json")) {
    const text = await readFile(file, "utf8");
    try {
      return JSON.parse(text);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new ConfigError([`${label}: invalid JSON (${reason})`]);
    }
  }
  if (/\.(ts|mts|js|mjs)$/.test(file)) {
    try {
      const { createJiti } = await import("jiti");
      const jiti = createJiti(import.meta.url, {
        moduleCache: false,
        fsCache: false,
        // A file without a default export is an error, not a config of its named exports.
        interopDefault: false,
        // `import … from "authd"` means the authd that is running, wherever the file
        // sits: no node_modules/authd is needed beside it (global installs, checkouts).
        alias: { authd: DEFINE_CONFIG_MODULE },
      });
      const module = await jiti.import<{ default?: unknown }>(file);
      const loaded = module?.default;
      if (loaded === undefined) {
        throw new ConfigError([
          `${label}: expected a default export (export default defineConfig({...}))`,
        ]);
      }
      return loaded;
    } catch (error) {
      if (error instanceof ConfigError) throw error;
      const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
      throw new ConfigError([`${label}: could not be loaded (${reason})`]);
    }
  }
  throw new ConfigError([
    `${label}: unsupported config file type (use ${CONFIG_FILE_NAMES.join(", ")})`,
  ]);
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Whether `root` holds a defined value at `keys` (a path of nested objects). */
export function hasPath(root: Record<string, unknown> | undefined, keys: string[]): boolean {
  let node: unknown = root;
  for (const key of keys) {
    if (!isPlainObject(node) || !(key in node)) return false;
    node = node[key];
  }
  return node !== undefined;
}

function setPath(target: Record<string, unknown>, keys: string[], value: unknown): void {
  let node = target;
  for (const key of keys.slice(0, -1)) {
    const next = node[key];
    if (!isPlainObject(next)) {
      const created: Record<string, unknown> = {};
      node[key] = created;
      node = created;
    } else {
      node = next;
    }
  }
  const last = keys[keys.length - 1];
  if (last !== undefined) node[last] = value;
}

function deepMerge(base: unknown, over: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = isPlainObject(base) ? { ...base } : {};
  for (const [key, value] of Object.entries(over)) {
    if (value === undefined) continue;
    const current = result[key];
    result[key] =
      isPlainObject(value) && isPlainObject(current) ? deepMerge(current, value) : value;
  }
  return result;
}

/** Discovery, file, environment, flags, validation: the whole configuration contract. */
export async function loadConfig(options: LoadConfigOptions = {}): Promise<LoadedConfig> {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const env = options.env ?? readEnvironment(cwd);
  const file = findConfigFile(cwd, env, options.configPath);
  const fromFile = file ? await readConfigFile(file) : {};
  if (!isPlainObject(fromFile)) {
    throw new ConfigError([
      `${file ? path.basename(file) : "config"}: expected an object, got ${describeType(fromFile)}`,
    ]);
  }

  const fromEnv: Record<string, unknown> = {};
  const envSources: Record<string, string> = {};
  for (const override of ENV_OVERRIDES) {
    let value = env[override.name];
    let source = override.name;
    const file = override.secret ? env[`${override.name}_FILE`] : undefined;
    if ((value === undefined || value === "") && file) {
      // `<NAME>_FILE`: the value is the file's content (one trailing newline dropped),
      // so a secret can be mounted (Docker/Kubernetes secrets) instead of set in env.
      try {
        value = readFileSync(path.resolve(cwd, file), "utf8").replace(/\r?\n$/, "");
      } catch (error) {
        const code = (error as { code?: string }).code ?? "unreadable";
        throw new ConfigError([`${override.name}_FILE: cannot read ${file} (${code})`]);
      }
      source = `${override.name}_FILE`;
    }
    if (value === undefined || value === "") continue;
    const parsed = override.boolean
      ? booleanOrText(value)
      : override.numeric && /^\d+$/.test(value)
        ? Number(value)
        : value;
    const parts = override.list ? value.split(/[,\n]/).map((part) => part.trim()) : [];
    setPath(fromEnv, override.path, parts.length > 1 ? parts.filter(Boolean) : parsed);
    envSources[override.path.join(".")] = source;
  }

  const overrides = options.overrides ?? {};
  const merged = deepMerge(deepMerge(fromFile, fromEnv), overrides);
  const label = file ? path.basename(file) : "defaults";
  const flagSources: Record<string, string> = {};
  for (const [keyPath, flag] of Object.entries(options.flagNames ?? {})) {
    if (hasPath(overrides, keyPath.split("."))) flagSources[keyPath] = flag;
  }
  const config = validateConfig(merged, label, envSources, flagSources);
  return {
    config,
    file,
    production: env.NODE_ENV === "production" || env.AUTHD_PROFILE === "production",
    envSources,
    cwd,
    fileValues: fromFile,
    flagValues: overrides,
    flagSources,
  };
}

/** Absolute path of a directory or file under the configured data directory. */
export function dataPath(loaded: Pick<LoadedConfig, "config" | "cwd">, ...parts: string[]): string {
  return path.resolve(loaded.cwd, loaded.config.dataDir, ...parts);
}
