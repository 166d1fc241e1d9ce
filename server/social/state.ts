/**
 * The state of one authorization in flight: a 32-character random value sent to the
 * provider, whose SHA-256 digest names a verification row holding what the callback
 * needs (the PKCE verifier, where to send the browser, a linking request). The row
 * lives ten minutes and is used up by the first callback that names it.
 */
import { z } from "zod";
import { sha256 } from "../crypto/digest.js";
import { generateId, randomString, TOKEN_LENGTHS } from "../crypto/random.js";
import type { Queryable } from "../db/connection.js";
import { consumeVerification, insertVerification } from "../verification/verification.js";

export const STATE_LIFETIME_SECONDS = 600;
const STATE_PREFIX = "oauth-state:";
const STATE_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
/** The characters a PKCE code verifier may hold. */
const VERIFIER_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~";

const stateDataSchema = z.object({
  providerId: z.string(),
  codeVerifier: z.string(),
  redirectURI: z.string(),
  callbackURL: z.string(),
  newUserCallbackURL: z.string().optional(),
  errorCallbackURL: z.string().optional(),
  link: z.object({ userId: z.string(), email: z.string() }).optional(),
  requestSignUp: z.boolean(),
  nonce: z.string().optional(),
  /** Milliseconds since the epoch. */
  expiresAt: z.number(),
});

export type StateData = z.infer<typeof stateDataSchema>;

export type NewState = Omit<StateData, "codeVerifier" | "nonce" | "expiresAt">;

function identifierOf(state: string): string {
  return `${STATE_PREFIX}${sha256(state)}`;
}

/** Stores a new state (with a nonce when `withNonce`); answers the state and what it holds. */
export async function createState(
  sql: Queryable,
  data: NewState,
  options: { withNonce: boolean },
): Promise<{ state: string; data: StateData }> {
  const state = randomString(TOKEN_LENGTHS.oauthState, STATE_ALPHABET);
  const expiresAt = Date.now() + STATE_LIFETIME_SECONDS * 1000;
  const stored: StateData = {
    ...data,
    codeVerifier: randomString(TOKEN_LENGTHS.codeVerifier, VERIFIER_ALPHABET),
    ...(options.withNonce ? { nonce: randomString(TOKEN_LENGTHS.oauthState) } : {}),
    expiresAt,
  };
  await insertVerification(sql, {
    id: generateId(),
    identifier: identifierOf(state),
    value: JSON.stringify(stored),
    expiresAt: new Date(expiresAt),
  });
  return { state, data: stored };
}

export type ConsumedState = { found: false } | { found: true; data: StateData; expired: boolean };

/**
 * Deletes the row of `state` and answers what it held: one callback per state, however
 * many arrive. A row that cannot be read counts as not found.
 */
export async function consumeState(sql: Queryable, state: string): Promise<ConsumedState> {
  if (state.length !== TOKEN_LENGTHS.oauthState) return { found: false };
  const row = await consumeVerification(sql, identifierOf(state));
  if (!row) return { found: false };
  let parsed: ReturnType<typeof stateDataSchema.safeParse>;
  try {
    parsed = stateDataSchema.safeParse(JSON.parse(row.value));
  } catch {
    return { found: false };
  }
  if (!parsed.success) return { found: false };
  const now = Date.now();
  const expired = row.expiresAt.getTime() <= now || parsed.data.expiresAt <= now;
  return { found: true, data: parsed.data, expired };
}
