/**
 * What a configuration may hold: every key, its type, its bounds and its default. A
 * config file, the environment and flags are merged first (load.ts), then checked here.
 */
import { z } from "zod";

// biome-ignore lint/suspicious/noExplicitAny: config callbacks receive domain objects whose types live in later modules
type AnyFunction = (...args: any[]) => unknown;
const fn = z.custom<AnyFunction>((value) => typeof value === "function", {
  message: "expected a function",
});
const seconds = (fallback: number) => z.number().int().min(0).default(fallback);
const positiveInt = z.number().int().min(1);
const httpUrl = z.url({ protocol: /^https?$/ });

/** A PostgreSQL connection URL's scheme. */
export const POSTGRES_URL = /^postgres(ql)?:\/\//;

/**
 * What a connection URL the drivers cannot read is told: a password holding `#`, `/`,
 * `?` or `@` must be percent-encoded, or the URL ends inside it.
 */
export function unparseableUrlProblem(expected: string): string {
  return `expected ${expected} that parses (percent-encode special characters in the user name and password, e.g. # as %23, / as %2F, ? as %3F, @ as %40)`;
}

/** A service's connection URL: its scheme, and a URL the drivers can read. */
const serviceUrl = (scheme: RegExp, expected: string) =>
  z
    .string()
    .regex(scheme, `expected ${expected}`)
    .refine((value) => URL.canParse(value), unparseableUrlProblem(expected));

/** A permission statement: resource -> allowed actions. */
const roleStatement = z.record(z.string().min(1), z.array(z.string().min(1)));

const socialProvider = z.strictObject({
  clientId: z.string().min(1),
  clientSecret: z.string().min(1),
  /** Display name on sign-in buttons; the catalogue's name (or the id) otherwise. */
  name: z.string().min(1).max(100).optional(),
  scopes: z.array(z.string()).optional(),
  issuer: httpUrl.optional(),
  authorizationEndpoint: httpUrl.optional(),
  tokenEndpoint: httpUrl.optional(),
  userInfoEndpoint: httpUrl.optional(),
  redirectURI: httpUrl.optional(),
  /** No new user is created by this provider; existing users still sign in. */
  disableSignUp: z.boolean().default(false),
  /** New users only when the sign-in asked for it (`requestSignUp: true`). */
  disableImplicitSignUp: z.boolean().default(false),
});

/** The routes of the pages authd serves (under `pages.path`), and their assets. */
export const PAGE_SEGMENTS = [
  "sign-in",
  "sign-up",
  "forgot-password",
  "reset-password",
  "verify-email",
  "accept-invitation",
  "account",
  "organization",
  "assets",
] as const;

/** `child` is `parent` or lies below it, path segment by path segment. */
export function isPathWithin(child: string, parent: string): boolean {
  if (parent === "/") return true;
  return child === parent || child.startsWith(`${parent}/`);
}

const rateLimitRule = z.union([
  z.literal(false),
  z.strictObject({ window: positiveInt, max: positiveInt }),
]);

const configObject = z.strictObject({
  /** Public URL of the server, e.g. https://auth.example.com. Derived from the request when absent. */
  baseURL: httpUrl.optional(),
  basePath: z
    .string()
    .regex(/^\/[A-Za-z0-9._~/-]*$/, "expected a path starting with /")
    .refine((value) => value === "/" || !value.endsWith("/"), "expected no trailing slash")
    .default("/api/auth"),
  /**
   * The secret that signs cookies and seals stored keys; a list (newest first) while
   * rotating: the newest signs, every listed one is still accepted.
   */
  secret: z
    .union([
      z.string().min(32, "expected at least 32 characters"),
      z.array(z.string().min(32, "expected at least 32 characters")).min(1).max(16),
    ])
    .optional(),
  trustedOrigins: z.array(z.string().min(1)).default([]),
  /** Where embedded data lives: PGlite files, the dev secret, the mail outbox. */
  dataDir: z.string().min(1).default(".authd"),
  database: z
    .strictObject({
      url: serviceUrl(POSTGRES_URL, "a postgres:// URL").optional(),
      poolSize: z.number().int().min(1).max(1000).default(10),
      connectTimeout: z.number().int().min(1).default(10),
      /**
       * Seconds one statement may run before PostgreSQL cancels it (the request then
       * answers 503); 0 leaves it to the server's own setting. Applies to `serve`.
       */
      statementTimeout: seconds(10),
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
      /**
       * Seconds a shutdown keeps serving with /readyz at 503 before the listener closes,
       * so load balancers notice (one health check interval or more) and stop sending.
       */
      drainDelay: seconds(5),
      /**
       * Requests (that reach the database) served at once; more wait in a queue. By
       * default four per database connection (`database.poolSize` × 4).
       */
      maxConcurrentRequests: positiveInt.max(100_000).optional(),
      /** Requests that may wait for a turn; past it, 503 at once. */
      maxQueuedRequests: z.number().int().min(0).max(1_000_000).default(1000),
      /** Seconds a request may wait for a turn before it is answered 503. */
      queueTimeout: z.number().positive().max(60).default(2),
      /**
       * Seconds a client has to send its request headers, and its whole request (headers
       * and body), before the server answers 408 and closes the connection: a client
       * trickling bytes cannot hold a connection, and its slot, indefinitely.
       */
      headersTimeout: positiveInt.default(20),
      requestTimeout: positiveInt.default(30),
    })
    // The drain delay is spent within the shutdown timeout, which must leave room for
    // the in-flight requests after it.
    .refine((value) => value.drainDelay < value.shutdownTimeout, {
      error: (issue) => {
        const server = issue.input as { drainDelay: number; shutdownTimeout: number };
        return `expected less than server.shutdownTimeout (${server.shutdownTimeout}), got ${server.drainDelay}: the drain delay is spent within the shutdown timeout (lower drainDelay, default 5, or raise shutdownTimeout)`;
      },
      path: ["drainDelay"],
    })
    // The headers are part of the request (Node refuses a headers timeout above it).
    .refine((value) => value.headersTimeout <= value.requestTimeout, {
      error: (issue) => {
        const server = issue.input as { headersTimeout: number; requestTimeout: number };
        return `expected at most server.requestTimeout (${server.requestTimeout}), got ${server.headersTimeout}: the headers are part of the request`;
      },
      path: ["headersTimeout"],
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
  /**
   * `Authorization: Bearer <session token>` accepted wherever the session cookie is, and
   * the signed token answered in `set-auth-token`: for clients that keep no cookies.
   */
  bearer: z.strictObject({ enabled: z.boolean().default(false) }).prefault({}),
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
          /** Providers whose addresses link to an existing user even when not vouched for. */
          trustedProviders: z.array(z.string().min(1)).default([]),
          /** link-social may link an account whose address differs from the user's. */
          allowDifferentEmails: z.boolean().default(false),
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
      url: serviceUrl(/^rediss?:\/\//, "a redis:// URL").optional(),
    })
    .prefault({}),
  mail: z
    .strictObject({
      from: z.string().min(3).default("authd <no-reply@localhost>"),
      smtpUrl: serviceUrl(/^smtps?:\/\//, "an smtp:// or smtps:// URL").optional(),
      outboxDir: z.string().min(1).optional(),
      /** Seconds a send may take before the request goes on without it. */
      timeout: z.number().int().min(1).default(10),
    })
    .prefault({}),
  /**
   * Prometheus metrics: off by default. With a port, on a listener of their own (kept off
   * the public port); without one, on the main listener at `path`, outside the base path.
   */
  metrics: z
    .strictObject({
      enabled: z.boolean().default(false),
      port: z.number().int().min(0).max(65535).optional(),
      path: z
        .string()
        .regex(
          /^\/[A-Za-z0-9._~/-]*$/,
          "expected a path starting with / (letters, digits, . _ ~ - /; no query)",
        )
        .refine((value) => value !== "/" && !value.endsWith("/"), "expected no trailing slash")
        .default("/metrics"),
    })
    .prefault({}),
  /** Signed tokens (JWT) for other services: GET {basePath}/token, keys at {basePath}/jwks. */
  jwt: z
    .strictObject({
      enabled: z.boolean().default(false),
      /** EdDSA signs with Ed25519, ES256 with P-256, RS256 with a 2048-bit RSA key. */
      algorithm: z.enum(["EdDSA", "ES256", "RS256"]).default("EdDSA"),
      /** Seconds a token is valid; short, since a token cannot be revoked once issued. */
      expiresIn: z.number().int().min(30).max(3600).default(900),
      /** `iss`; by default the origin of baseURL, else of the request. */
      issuer: z.string().min(1).optional(),
      /** `aud`; by default the issuer. */
      audience: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
    })
    .prefault({}),
  cli: z.strictObject({ allowSessionMint: z.boolean().default(false) }).prefault({}),
  /** The sign-in, account and organization pages authd serves itself. */
  pages: z
    .strictObject({
      enabled: z.boolean().default(true),
      path: z
        .string()
        .regex(
          /^\/[A-Za-z0-9._~/-]*$/,
          "expected a path starting with / (letters, digits, . _ ~ - /; no query)",
        )
        .refine((value) => value === "/" || !value.endsWith("/"), "expected no trailing slash")
        .refine(
          (value) => !value.split("/").some((part) => part === "." || part === ".."),
          "expected no . or .. segments",
        )
        .refine((value) => !value.includes("//"), "expected no empty segments (//)")
        .default("/"),
    })
    .prefault({}),
});

type ConfigObject = z.output<typeof configObject>;

/** A problem with where the pages sit, or null. */
function pagesProblem({ basePath, pages }: ConfigObject): string | null {
  // The pages own a fixed set of routes: neither may they sit inside the API, nor may
  // the API sit where a page or the assets are served.
  if (!pages.enabled) return null;
  const pagesPrefix = pages.path === "/" ? "" : pages.path;
  const hidden =
    (basePath !== "/" && isPathWithin(pages.path, basePath)) ||
    pages.path === basePath ||
    PAGE_SEGMENTS.some((segment) => isPathWithin(basePath, `${pagesPrefix}/${segment}`));
  return hidden
    ? `expected a path apart from the API's basePath "${basePath}": pages at "${pages.path}" would hide API routes (choose another pages.path or basePath, or set pages.enabled: false)`
    : null;
}

/** A problem with where the metrics are served, or null. */
function metricsProblem({ basePath, pages, metrics, server }: ConfigObject): {
  key: "path" | "port";
  message: string;
} | null {
  if (!metrics.enabled) return null;
  if (metrics.port !== undefined) {
    return metrics.port !== 0 && metrics.port === server.port
      ? {
          key: "port",
          message: `expected a port other than server.port (${server.port}): the metrics listener is a second one`,
        }
      : null;
  }
  // On the main listener, beside the API, the probes and the pages: apart from all three.
  const { path } = metrics;
  if (basePath !== "/" && isPathWithin(path, basePath)) {
    return {
      key: "path",
      message: `expected a path outside the API's basePath "${basePath}" (or set metrics.port to serve them on their own port)`,
    };
  }
  const pagesPrefix = pages.path === "/" ? "" : pages.path;
  const taken =
    path === "/healthz" ||
    path === "/readyz" ||
    (pages.enabled &&
      (path === pages.path ||
        PAGE_SEGMENTS.some((segment) => isPathWithin(path, `${pagesPrefix}/${segment}`))));
  return taken
    ? {
        key: "path",
        message: `expected a path no probe or page uses, got "${path}" (the default is /metrics)`,
      }
    : null;
}

export const configSchema = configObject.superRefine((config, context) => {
  const pages = pagesProblem(config);
  if (pages) context.addIssue({ code: "custom", path: ["pages", "path"], message: pages });
  const metrics = metricsProblem(config);
  if (metrics) {
    context.addIssue({ code: "custom", path: ["metrics", metrics.key], message: metrics.message });
  }
});

/** What a config file may contain (every key optional). */
export type AuthdConfigInput = z.input<typeof configSchema>;
/** The validated configuration with every default filled in. */
export type AuthdConfig = z.output<typeof configSchema>;
