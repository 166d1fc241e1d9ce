/**
 * Rate limits with @fastify/rate-limit: by client address and route,
 * 100 requests per 10 s by default; 3 per 10 s on sign-in, sign-up, change-password
 * and change-email; 3 per 60 s on password-reset and verification mail; all
 * configurable. Counters live in memory, or in Redis when `redis.url` is set so that
 * every instance shares them (in memory again while Redis is unreachable:
 * rate-limit-store.ts). 429 answers carry Retry-After and X-Retry-After.
 */
import rateLimit from "@fastify/rate-limit";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Redis } from "ioredis";
import type { AuthdConfig } from "../config.js";
import type { Metrics } from "../metrics/metrics.js";
import { redisCountersWithFallback } from "./rate-limit-store.js";

interface Rule {
  window: number;
  max: number;
}

/** The built-in special rules, by path below the base path (Better Auth's defaults). */
export const DEFAULT_SPECIAL_RULES: ReadonlyArray<readonly [string, Rule]> = [
  ["/sign-in/", { window: 10, max: 3 }],
  ["/sign-up/", { window: 10, max: 3 }],
  ["/change-password", { window: 10, max: 3 }],
  ["/change-email", { window: 10, max: 3 }],
  ["/request-password-reset", { window: 60, max: 3 }],
  ["/forget-password", { window: 60, max: 3 }],
  ["/send-verification-email", { window: 60, max: 3 }],
];

function routePath(request: FastifyRequest, basePath: string): string {
  // The route pattern, not the raw URL: one bucket for /reset-password/:token.
  const url = request.routeOptions.url ?? request.url.split("?")[0] ?? "/";
  const base = basePath === "/" ? "" : basePath;
  return url.startsWith(base) ? url.slice(base.length) || "/" : url;
}

/** The rule for a path: a custom rule wins, then the special rules, then the default. */
export function ruleFor(config: AuthdConfig, path: string): Rule | false {
  const custom = config.rateLimit.customRules;
  for (const [prefix, rule] of Object.entries(custom)) {
    if (path === prefix || path.startsWith(prefix.endsWith("/") ? prefix : `${prefix}/`))
      return rule;
  }
  for (const [prefix, rule] of DEFAULT_SPECIAL_RULES) {
    if (prefix.endsWith("/") ? path.startsWith(prefix) : path === prefix) return rule;
  }
  return { window: config.rateLimit.window, max: config.rateLimit.max };
}

/** Whether `authd serve` needs a Redis client: rate limits on, counted in Redis. */
export function countsInRedis(config: AuthdConfig): boolean {
  return (
    config.rateLimit.enabled &&
    config.redis.url !== undefined &&
    (config.rateLimit.storage ?? "redis") === "redis"
  );
}

export interface RateLimitOptions {
  /** Shared counters across instances. */
  redis?: Redis;
  /** Key prefix of those counters (default "authd-rate-limit:"). */
  namespace?: string;
  /** Counts each 429 by route pattern, when metrics are on. */
  metrics?: Metrics | null;
}

export async function registerRateLimit(
  app: FastifyInstance,
  config: AuthdConfig,
  options: RateLimitOptions = {},
): Promise<void> {
  if (!config.rateLimit.enabled) return;
  const { redis, namespace = "authd-rate-limit:", metrics } = options;
  const useRedis = (config.rateLimit.storage ?? (redis ? "redis" : "memory")) === "redis";
  const counters =
    useRedis && redis ? redisCountersWithFallback(redis, namespace, app.log) : undefined;
  if (counters) app.addHook("onClose", async () => counters.detach());
  // A route's bucket and rule follow from its pattern alone, and the limiter asks for
  // them four times a request (key, allow-list, max, window): worked out once per route.
  const limits = new Map<string, { path: string; rule: Rule | false }>();
  const limitOf = (request: FastifyRequest) => {
    const pattern = request.routeOptions.url;
    let limit = pattern === undefined ? undefined : limits.get(pattern);
    if (limit === undefined) {
      const path = routePath(request, config.basePath);
      limit = { path, rule: ruleFor(config, path) };
      // Patterns are as many as the routes; a request without one is not remembered.
      if (pattern !== undefined) limits.set(pattern, limit);
    }
    return limit;
  };
  await app.register(rateLimit, {
    global: true,
    // The store does not fail (Redis errors fall back to memory); should it ever, a
    // request goes through uncounted rather than fail.
    skipOnError: true,
    ...(counters ? { store: counters.Store } : {}),
    keyGenerator: (request) => `${request.ip}|${limitOf(request).path}`,
    allowList: (request) => limitOf(request).rule === false,
    max: (request) => {
      const { rule } = limitOf(request);
      return rule === false ? Number.MAX_SAFE_INTEGER : rule.max;
    },
    timeWindow: (request) => {
      const { rule } = limitOf(request);
      return (rule === false ? 1 : rule.window) * 1000;
    },
    addHeadersOnExceeding: {
      "x-ratelimit-limit": true,
      "x-ratelimit-remaining": true,
      "x-ratelimit-reset": true,
    },
    addHeaders: {
      "x-ratelimit-limit": true,
      "x-ratelimit-remaining": true,
      "x-ratelimit-reset": true,
      "retry-after": true,
    },
    ...(metrics
      ? {
          onExceeded: (request: FastifyRequest) =>
            metrics.countRateLimitHit(request.routeOptions.url ?? "unmatched"),
        }
      : {}),
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      code: "TOO_MANY_REQUESTS",
      message: "Too many requests. Please try again later.",
      retryAfter: Math.ceil(context.ttl / 1000),
    }),
  });
  // X-Retry-After goes on in the error handler, where every 429 is answered: a hook
  // here would run on every answer for the few that are refused.
}
