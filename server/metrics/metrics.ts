/**
 * What the rest of authd counts into, when metrics are on: one Metrics object per
 * buildApp (server/metrics/registry.ts makes it, with a registry of its own), reached as
 * `context.metrics`, which is null when metrics are off so that nothing is counted and
 * nothing is loaded. This module holds the shapes and the outcome rules only: it does not
 * load prom-client.
 */
import { AuthError } from "../errors.js";
import type { MailKind } from "../mail/templates.js";

export type SignInMethod = "email" | "social";

/**
 * How a sign-in ended: `invalid_credentials` (wrong password, refused id token or
 * authorization code), `banned`, `unverified` (verification required), `rejected` (any
 * other refusal: sign-up disabled, an expired social flow, the user declining at the
 * provider) or `error` (the server or the provider failed).
 */
export const SIGN_IN_OUTCOMES = [
  "success",
  "invalid_credentials",
  "banned",
  "unverified",
  "rejected",
  "error",
] as const;
export type SignInOutcome = (typeof SIGN_IN_OUTCOMES)[number];

/** The admission gate's counts: API requests served and queued, and the bound. */
export interface LoadStats {
  inFlight: number;
  waiting: number;
  max: number;
}

export interface Metrics {
  /** An answered request: its method, route pattern ("unmatched" when none), status, seconds. */
  countResponse(method: string, route: string, status: number, seconds: number): void;
  countSignIn(method: SignInMethod, outcome: SignInOutcome): void;
  /** A request the rate limiter answered 429, by route pattern. */
  countRateLimitHit(route: string): void;
  /**
   * A request turned away with 503 SERVICE_UNAVAILABLE because the server is overloaded,
   * by a reason from a short fixed list (a label: never text from the request).
   */
  shed(reason: string): void;
  /** A mail whose delivery finished, whether or not the request still waited for it. */
  countMail(kind: MailKind, outcome: "sent" | "failed"): void;
  /** Everything registered, in the Prometheus text format. */
  exposition(): Promise<string>;
  /** The Content-Type of the exposition. */
  readonly contentType: string;
  /** Stops what collects in the background (the event-loop monitor, the GC observer). */
  close(): void;
}

/** The outcome of a sign-in that threw: what the error says about the attempt. */
export function signInOutcome(error: unknown): SignInOutcome {
  if (!(error instanceof AuthError)) return "error";
  switch (error.code) {
    case "INVALID_EMAIL_OR_PASSWORD":
    case "INVALID_TOKEN":
      return "invalid_credentials";
    case "BANNED_USER":
      return "banned";
    case "EMAIL_NOT_VERIFIED":
      return "unverified";
    default:
      return error.status >= 500 ? "error" : "rejected";
  }
}

/** The outcome of a social callback that failed, from the code its redirect carries. */
export function socialCallbackOutcome(code: string): SignInOutcome {
  switch (code) {
    case "BANNED_USER":
      return "banned";
    // The provider refused the code, or the id token that came with it failed the check.
    case "invalid_code":
      return "invalid_credentials";
    case "internal_server_error":
    case "unable_to_get_user_info":
      return "error";
    default:
      return "rejected";
  }
}

/** Runs a sign-in and counts how it ended; with metrics off, just runs it. */
export async function countSignIn<T>(
  metrics: Metrics | null,
  method: SignInMethod,
  attempt: () => Promise<T>,
): Promise<T> {
  if (!metrics) return attempt();
  try {
    const result = await attempt();
    metrics.countSignIn(method, "success");
    return result;
  } catch (error) {
    metrics.countSignIn(method, signInOutcome(error));
    throw error;
  }
}
