/**
 * The configuration contract: the schema, file discovery, environment
 * overrides and defaults. This is the only module that reads `process.env`.
 */
import { existsSync, readFileSync } from "node:fs";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseEnv } from "node:util";
import { z } from "zod";
import { generateSecret } from "./crypto/random.js";

// biome-ignore lint/suspicious/noExplicitAny: config callbacks receive domain objects whose types live in later modules
type AnyFunction = (...args: any[]) => unknown;
const fn = z.custom<AnyFunction>((value) => typeof value === "function", {
  message: "expected a function",
});
const seconds = (fallback: number) => z.number().int().min(0).default(fallback);
const positiveInt = z.number().int().min(1);
const httpUrl = z.url({ protocol: /^https?$/ });

/** A permission statement: resource -> allowed actions. */
const roleStatement = z.record(z.string().min(1), z.array(z.string().min(1)));

const socialProvider = z.strictObject({
  clientId: z.string().min(1),
  clientSecret: z.string().min(1),
  scopes: z.array(z.string()).optional(),
  issuer: httpUrl.optional(),
  authorizationEndpoint: httpUrl.optional(),
  tokenEndpoint: httpUrl.optional(),
  userInfoEndpoint: httpUrl.optional(),
  redirectURI: httpUrl.optional(),
});

const rateLimitRule = z.union([
  z.literal(false),
  z.strictObject({ window: positiveInt, max: positiveInt }),
]);

export const configSchema = z.strictObject({
  /** Public URL of the server, e.g. https://auth.example.com. Derived from the request when absent. */
  baseURL: httpUrl.optional(),
  basePath: z
    .string()
    .regex(/^\/[A-Za-z0-9._~/-]*$/, "expected a path starting with /")
    .refine((value) => value === "/" || !value.endsWith("/"), "expected no trailing slash")
    .default("/api/auth"),
  secret: z.string().min(32, "expected at least 32 characters").optional(),
  trustedOrigins: z.array(z.string().min(1)).default([]),
  /** Where embedded data lives: PGlite files, the dev secret, the mail outbox. */
  dataDir: z.string().min(1).default(".authd"),
  database: z
    .strictObject({
      url: z
        .string()
        .regex(/^postgres(ql)?:\/\//, "expected a postgres:// URL")
        .optional(),
      poolSize: z.number().int().min(1).max(1000).default(10),
      connectTimeout: z.number().int().min(1).default(10),
    })
    .prefault({}),
  server: z
    .strictObject({
      host: z.string().min(1).default("0.0.0.0"),
      port: z.number().int().min(0).max(65535).default(3000),
      bodyLimit: z.number().int().min(1024).default(65536),
      trustProxy: z
        .union([z.boolean(), z.number().int().min(0), z.array(z.string())])
        .default(false),
      shutdownTimeout: z.number().int().min(1).default(30),
    })
    .prefault({}),
  log: z
    .strictObject({
      level: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
      /** One log line per request start and end (at info). Off for high request rates. */
      requests: z.boolean().default(true),
      /** JSON lines (for log shippers), or one readable line per entry; auto: pretty on a TTY. */
      format: z.enum(["auto", "json", "pretty"]).default("auto"),
    })
    .prefault({}),
  emailAndPassword: z
    .strictObject({
      enabled: z.boolean().default(true),
      minPasswordLength: positiveInt.default(8),
      maxPasswordLength: positiveInt.default(128),
      requireEmailVerification: z.boolean().default(false),
      resetPasswordTokenExpiresIn: seconds(3600),
      revokeSessionsOnPasswordReset: z.boolean().default(false),
      autoSignIn: z.boolean().default(true),
    })
    .refine((value) => value.minPasswordLength <= value.maxPasswordLength, {
      message: "expected minPasswordLength <= maxPasswordLength",
      path: ["minPasswordLength"],
    })
    .prefault({}),
  emailVerification: z
    .strictObject({
      sendOnSignUp: z.boolean().optional(),
      sendOnSignIn: z.boolean().default(false),
      expiresIn: seconds(3600),
      autoSignInAfterVerification: z.boolean().default(false),
    })
    .prefault({}),
  session: z
    .strictObject({
      expiresIn: seconds(604800),
      updateAge: seconds(86400),
      freshAge: seconds(86400),
      cookiePrefix: z
        .string()
        .regex(/^[A-Za-z0-9_-]+$/, "expected letters, digits, - or _")
        .default("authd"),
      cookieCache: z
        .strictObject({ enabled: z.boolean().default(false), maxAge: seconds(300) })
        .prefault({}),
    })
    .prefault({}),
  user: z
    .strictObject({
      changeEmail: z.strictObject({ enabled: z.boolean().default(false) }).prefault({}),
      deleteUser: z
        .strictObject({
          enabled: z.boolean().default(false),
          requireEmailConfirmation: z.boolean().default(true),
          expiresIn: seconds(86400),
        })
        .prefault({}),
    })
    .prefault({}),
  account: z
    .strictObject({
      accountLinking: z
        .strictObject({
          enabled: z.boolean().default(true),
          allowUnlinkingAll: z.boolean().default(false),
        })
        .prefault({}),
    })
    .prefault({}),
  socialProviders: z
    .record(z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, "expected a lower-case id"), socialProvider)
    .default({}),
  organization: z
    .strictObject({
      enabled: z.boolean().default(true),
      allowUserToCreateOrganization: z.union([z.boolean(), fn]).default(true),
      organizationLimit: z.union([positiveInt, fn]).optional(),
      creatorRole: z.string().min(1).default("owner"),
      membershipLimit: z.union([positiveInt, fn]).default(100),
      invitationExpiresIn: seconds(172800),
      invitationLimit: positiveInt.default(100),
      /**
       * The page an invitation link opens, with `{id}` for the invitation id; by default
       * `<origin of baseURL>/accept-invitation/{id}`.
       */
      invitationAcceptURL: httpUrl
        .refine(
          (value) => value.includes("%7Bid%7D") || value.includes("{id}"),
          "expected {id} in the URL",
        )
        .optional(),
      disableOrganizationDeletion: z.boolean().default(false),
      teams: z
        .strictObject({
          enabled: z.boolean().default(false),
          maximumTeams: z.union([positiveInt, fn]).optional(),
          maximumMembersPerTeam: z.union([positiveInt, fn]).optional(),
          allowRemovingAllTeams: z.boolean().default(false),
          defaultTeam: z.strictObject({ enabled: z.boolean().default(true) }).prefault({}),
        })
        .prefault({}),
      roles: z.record(z.string().min(1), roleStatement).optional(),
      hooks: z
        .strictObject({
          beforeCreateOrganization: fn.optional(),
          afterCreateOrganization: fn.optional(),
          beforeDeleteOrganization: fn.optional(),
          afterDeleteOrganization: fn.optional(),
        })
        .optional(),
    })
    .prefault({}),
  admin: z
    .strictObject({
      enabled: z.boolean().default(true),
      defaultRole: z.string().min(1).default("user"),
      adminRoles: z.array(z.string().min(1)).default(["admin"]),
      adminUserIds: z.array(z.string().min(1)).default([]),
      impersonationSessionDuration: seconds(3600),
      allowImpersonatingAdmins: z.boolean().default(false),
    })
    .prefault({}),
  rateLimit: z
    .strictObject({
      enabled: z.boolean().default(true),
      window: positiveInt.default(10),
      max: positiveInt.default(100),
      storage: z.enum(["memory", "redis"]).optional(),
      customRules: z.record(z.string().startsWith("/"), rateLimitRule).default({}),
    })
    .prefault({}),
  redis: z
    .strictObject({
      url: z
        .string()
        .regex(/^rediss?:\/\//, "expected a redis:// URL")
        .optional(),
    })
    .prefault({}),
  mail: z
    .strictObject({
      from: z.string().min(3).default("authd <no-reply@localhost>"),
      smtpUrl: z
        .string()
        .regex(/^smtps?:\/\//, "expected an smtp:// or smtps:// URL")
        .optional(),
      outboxDir: z.string().min(1).optional(),
      /** Seconds a send may take before the request goes on without it. */
      timeout: z.number().int().min(1).default(10),
    })
    .prefault({}),
  cli: z.strictObject({ allowSessionMint: z.boolean().default(false) }).prefault({}),
});

/** What a config file may contain (every key optional). */
export type AuthdConfigInput = z.input<typeof configSchema>;
/** The validated configuration with every default filled in. */
export type AuthdConfig = z.output<typeof configSchema>;

/** The module a config file's `import … from "authd"` loads (compiled, or the source under tests). */
const DEFINE_CONFIG_MODULE = ((): string => {
  const compiled = fileURLToPath(new URL("./define-config.js", import.meta.url));
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
  /** Also read from the file named by `<name>_FILE` (mounted container secrets). */
  secret?: boolean;
}> = [
  { name: "DATABASE_URL", path: ["database", "url"], secret: true },
  // Later entries win: AUTHD_DATABASE_URL (also what `--database-url` sets) over DATABASE_URL.
  { name: "AUTHD_DATABASE_URL", path: ["database", "url"], secret: true },
  { name: "AUTHD_SECRET", path: ["secret"], secret: true },
  { name: "AUTHD_BASE_URL", path: ["baseURL"] },
  { name: "AUTHD_DATA_DIR", path: ["dataDir"] },
  { name: "HOST", path: ["server", "host"] },
  { name: "PORT", path: ["server", "port"], numeric: true },
  { name: "SMTP_URL", path: ["mail", "smtpUrl"], secret: true },
  { name: "MAIL_FROM", path: ["mail", "from"] },
  { name: "REDIS_URL", path: ["redis", "url"], secret: true },
  { name: "LOG_LEVEL", path: ["log", "level"] },
  { name: "AUTHD_LOG_FORMAT", path: ["log", "format"] },
];

/** A configuration problem: exit code 78 from the CLI, never a stack trace. */
export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(problems.join("\n"));
    this.name = "ConfigError";
    this.problems = problems;
  }
}

export interface LoadConfigOptions {
  cwd?: string;
  /** `--config PATH`; wins over `$AUTHD_CONFIG` and discovery. */
  configPath?: string;
  /** The environment to read; defaults to `process.env` merged over `./.env`. */
  env?: Record<string, string | undefined>;
  /** Flag values (highest precedence), as config paths, e.g. `{server: {port: 4000}}`. */
  overrides?: Record<string, unknown>;
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
}

/** The effective environment: the shell's variables over those of `./.env`. */
export function readEnvironment(cwd: string): Record<string, string | undefined> {
  const file = path.join(cwd, ".env");
  let fromFile: Record<string, string> = {};
  if (existsSync(file)) {
    try {
      // Synchronous on purpose: it runs once at start-up, before anything else.
      fromFile = parseEnv(readFileSync(file, "utf8")) as Record<string, string>;
    } catch {
      throw new ConfigError([`${file}: could not be parsed as KEY=value lines`]);
    }
  }
  return { ...fromFile, ...process.env };
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

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
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

/** Levenshtein distance, for "did you mean" hints on unknown keys. */
function editDistance(a: string, b: string): number {
  const previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = previous[0] ?? 0;
    previous[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = previous[j] ?? 0;
      const cost = a[i - 1]?.toLowerCase() === b[j - 1]?.toLowerCase() ? 0 : 1;
      previous[j] = Math.min(above + 1, (previous[j - 1] ?? 0) + 1, diagonal + cost);
      diagonal = above;
    }
  }
  return previous[b.length] ?? 0;
}

/** The keys an object schema accepts at `keys` below the root, if it is an object there. */
function knownKeysAt(keys: PropertyKey[]): string[] {
  let schema: z.ZodType = configSchema;
  for (const key of [...keys, null]) {
    // Unwrap optional/default/prefault/nullable layers to reach the object.
    for (;;) {
      if (
        schema instanceof z.ZodOptional ||
        schema instanceof z.ZodNullable ||
        schema instanceof z.ZodDefault ||
        schema instanceof z.ZodPrefault
      ) {
        schema = schema.def.innerType as z.ZodType;
      } else if (schema instanceof z.ZodPipe) {
        schema = schema.def.in as z.ZodType;
      } else {
        break;
      }
    }
    if (key === null) break;
    if (schema instanceof z.ZodObject) {
      const next = (schema.shape as Record<string, z.ZodType>)[String(key)];
      if (!next) return [];
      schema = next;
    } else if (schema instanceof z.ZodRecord) {
      schema = schema.def.valueType as z.ZodType;
    } else {
      return [];
    }
  }
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

export function suggestKey(unknown: string, candidates: string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const distance = editDistance(unknown, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  const allowed = Math.max(2, Math.floor(unknown.length / 3));
  return best !== undefined && bestDistance <= allowed ? best : undefined;
}

function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  const type = typeof value;
  return type === "object" ? "an object" : `${/^[aeiou]/.test(type) ? "an" : "a"} ${type}`;
}

function withArticle(noun: string): string {
  return `${/^[aeiou]/.test(noun) ? "an" : "a"} ${noun}`;
}

/** One line per zod issue, in the words an operator reads: what was expected. */
function describeIssue(issue: z.core.$ZodIssue): string[] {
  switch (issue.code) {
    case "invalid_type": {
      const expected = issue.expected === "custom" ? "value" : issue.expected;
      return [
        "input" in issue && issue.input === undefined
          ? `expected ${withArticle(String(expected))}, but it is missing`
          : `expected ${withArticle(String(expected))}, got ${describeType(issue.input)}`,
      ];
    }
    case "too_small": {
      const bound = `${issue.inclusive ? ">=" : ">"} ${String(issue.minimum)}`;
      if (issue.origin === "number" || issue.origin === "int")
        return [`expected a number ${bound}`];
      if (issue.origin === "string") {
        return issue.message.startsWith("expected")
          ? [issue.message]
          : [
              Number(issue.minimum) === 1
                ? "expected a non-empty string"
                : `expected at least ${String(issue.minimum)} characters`,
            ];
      }
      if (issue.origin === "array") return [`expected at least ${String(issue.minimum)} items`];
      return [issue.message];
    }
    case "too_big": {
      const bound = `${issue.inclusive ? "<=" : "<"} ${String(issue.maximum)}`;
      if (issue.origin === "number" || issue.origin === "int")
        return [`expected a number ${bound}`];
      if (issue.origin === "string")
        return [`expected at most ${String(issue.maximum)} characters`];
      return [issue.message];
    }
    case "invalid_format":
      if (issue.message.startsWith("expected")) return [issue.message];
      if (issue.format === "url") return ["expected an http(s) URL"];
      return [`expected a valid ${issue.format}`];
    case "invalid_value":
      return [`expected one of ${issue.values.map((value) => JSON.stringify(value)).join(", ")}`];
    case "invalid_union":
      return ["expected a value of another type (see the configuration reference)"];
    default:
      return [issue.message];
  }
}

/**
 * Validate a raw config object. Each problem names where the value came from (the file
 * or the environment variable), the key path and what was expected.
 */
export function validateConfig(
  raw: unknown,
  sourceLabel: string,
  envSources: Record<string, string> = {},
): AuthdConfig {
  const result = configSchema.safeParse(raw ?? {}, { reportInput: true });
  if (result.success) return result.data;
  const problems: string[] = [];
  for (const issue of result.error.issues) {
    const keyPath = issue.path.map(String).join(".");
    if (issue.code === "unrecognized_keys") {
      const known = knownKeysAt(issue.path);
      for (const key of issue.keys) {
        const hint = suggestKey(key, known);
        const full = keyPath ? `${keyPath}.${key}` : key;
        problems.push(
          `${sourceLabel}: ${full}: unknown key${hint ? ` (did you mean "${hint}"?)` : ""}`,
        );
      }
      continue;
    }
    const envName = envSources[keyPath];
    for (const line of describeIssue(issue)) {
      problems.push(
        envName ? `${envName}: ${line}` : `${sourceLabel}: ${keyPath || "(root)"}: ${line}`,
      );
    }
  }
  throw new ConfigError(problems);
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
    const numeric = override.numeric && /^\d+$/.test(value) ? Number(value) : value;
    setPath(fromEnv, override.path, numeric);
    envSources[override.path.join(".")] = source;
  }

  const merged = deepMerge(deepMerge(fromFile, fromEnv), options.overrides ?? {});
  const label = file ? path.basename(file) : "defaults";
  const config = validateConfig(merged, label, envSources);
  return {
    config,
    file,
    production: env.NODE_ENV === "production" || env.AUTHD_PROFILE === "production",
    envSources,
    cwd,
    fileValues: fromFile,
    flagValues: options.overrides ?? {},
  };
}

/** The values of `--profile` and $AUTHD_PROFILE; anything else is a usage error. */
export const PROFILES = ["dev", "test", "production"] as const;

/** What the CLI needs to know of its surroundings (clig.dev: prompts, colour, CI). */
export interface CliEnvironment {
  /** CI=true or AUTHD_NO_INPUT set: never prompt. */
  noInput: boolean;
  /** NO_COLOR, TERM=dumb or AUTHD_NO_COLOR: plain text. */
  noColor: boolean;
  /** AUTHD_OUTPUT: the default of `-o`. */
  output?: string;
  /**
   * AUTHD_PROFILE: dev, test or production (the `--profile` flag sets it); as set, so
   * the CLI can refuse another value (bin/program.ts).
   */
  profile?: string;
  /** NODE_ENV=production or AUTHD_PROFILE=production (what `loaded.production` says). */
  production: boolean;
  /** libuv's thread pool (argon2 hashes run there): UV_THREADPOOL_SIZE, else 4. */
  threadPoolSize: number;
}

export function readCliEnvironment(
  env: Record<string, string | undefined> = process.env,
): CliEnvironment {
  const truthy = (value: string | undefined) =>
    value !== undefined && value !== "" && value !== "0" && value.toLowerCase() !== "false";
  return {
    noInput: truthy(env.CI) || truthy(env.AUTHD_NO_INPUT),
    noColor: truthy(env.NO_COLOR) || env.TERM === "dumb" || truthy(env.AUTHD_NO_COLOR),
    output: env.AUTHD_OUTPUT || undefined,
    profile: env.AUTHD_PROFILE || undefined,
    production: env.NODE_ENV === "production" || env.AUTHD_PROFILE === "production",
    threadPoolSize: Number(env.UV_THREADPOOL_SIZE) || 4,
  };
}

/** Absolute path of a directory or file under the configured data directory. */
export function dataPath(loaded: Pick<LoadedConfig, "config" | "cwd">, ...parts: string[]): string {
  return path.resolve(loaded.cwd, loaded.config.dataDir, ...parts);
}

/**
 * The secret signs cookies and tokens. In production it must be configured; in
 * development one is generated once and kept in `<dataDir>/secret`.
 */
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
  if (loaded.config.secret) return { secret: loaded.config.secret, source: { kind: "configured" } };
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

const SECRET_KEYS = new Set(["secret", "clientSecret", "password"]);

/** The effective configuration for display, with every secret replaced. */
export function redactConfig(config: AuthdConfig): unknown {
  const redactUrl = (value: string): string => {
    try {
      const url = new URL(value);
      if (url.password) url.password = "***";
      return url.toString();
    } catch {
      return value;
    }
  };
  const walk = (value: unknown, key: string): unknown => {
    if (typeof value === "function") return "[function]";
    if (typeof value === "string") {
      if (SECRET_KEYS.has(key)) return "***";
      if (/url$/i.test(key)) return redactUrl(value);
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
