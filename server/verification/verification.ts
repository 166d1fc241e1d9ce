/**
 * Email verification and email change: HS256 tokens with the
 * configured lifetime, not stored anywhere. A verification token sets emailVerified;
 * an email-change token sets the new email (and, for a verified user, resets
 * emailVerified to false, sending a verification to the new address).
 */
import type { AuthdConfig } from "../config.js";
import { signToken, TokenExpiredError, verifyToken } from "../crypto/jwt.js";
import type { Sql } from "../db/connection.js";
import { isUniqueViolation } from "../db/transaction.js";
import { AuthError } from "../errors.js";
import type { LogSink } from "../logger.js";
import type { Mailer, MailOutcome } from "../mail/mailer.js";
import { describeDuration } from "../mail/templates.js";
import { pageUrl } from "../pages/links.js";
import type { UserRow } from "../users/queries.js";
import {
  changeUserEmail,
  findUserByEmail,
  requireValidEmail,
  setEmailVerified,
} from "../users/users.js";

export interface VerificationDeps {
  sql: Sql;
  config: AuthdConfig;
  /** The newest secret signs mailed tokens. */
  secret: string;
  /** Tokens signed with any of these (newest first) are accepted while secrets rotate. */
  secrets: readonly string[];
  mailer: Mailer;
}

/** Where links point and where mail problems are logged, for one request. */
export interface LinkContext {
  /** e.g. https://auth.example.com/api/auth */
  baseUrl: string;
  logger: LogSink;
}

export type EmailTokenPurpose = "change-email-confirmation" | "change-email-verification";

function verifyUrl(
  config: AuthdConfig,
  link: LinkContext,
  token: string,
  callbackURL: string | undefined,
): string {
  // Without a callback the link answers JSON; with one it redirects there. The served
  // verify-email page shows the result when the caller named no page of its own
  // (`verified=1` marks success; a failure adds `error`).
  const target = callbackURL || pageUrl(config, link.baseUrl, "/verify-email?verified=1");
  const query = new URLSearchParams({ token });
  if (target) query.set("callbackURL", target);
  return `${link.baseUrl}/verify-email?${query.toString()}`;
}

/**
 * Mails a verification link for the user's current address. With `invitationId` (a
 * sign-up from an invitation) following the link also accepts it.
 */
export async function sendVerificationMail(
  deps: VerificationDeps,
  link: LinkContext,
  user: UserRow,
  callbackURL?: string,
  invitationId?: string,
): Promise<MailOutcome> {
  const { expiresIn } = deps.config.emailVerification;
  const claims = invitationId
    ? { email: user.email, userId: user.id, invitationId }
    : { email: user.email, userId: user.id };
  const token = await signToken(claims, deps.secret, expiresIn);
  return deps.mailer.send(
    {
      kind: "verification",
      to: user.email,
      url: verifyUrl(deps.config, link, token, callbackURL),
      variables: { name: user.name || user.email, expiresIn: describeDuration(expiresIn) },
    },
    link.logger,
  );
}

/**
 * change-email: a verified user confirms from the current address; an
 * unverified one proves the new address by following the link sent there.
 */
export async function sendChangeEmailMail(
  deps: VerificationDeps,
  link: LinkContext,
  user: UserRow,
  newEmail: string,
  callbackURL?: string,
): Promise<MailOutcome> {
  const { expiresIn } = deps.config.emailVerification;
  const requestType: EmailTokenPurpose = user.emailVerified
    ? "change-email-confirmation"
    : "change-email-verification";
  const token = await signToken(
    { email: user.email, userId: user.id, updateTo: newEmail, requestType },
    deps.secret,
    expiresIn,
  );
  return deps.mailer.send(
    {
      kind: "change-email",
      to: user.emailVerified ? user.email : newEmail,
      url: verifyUrl(deps.config, link, token, callbackURL),
      variables: {
        name: user.name || user.email,
        newEmail,
        expiresIn: describeDuration(expiresIn),
      },
    },
    link.logger,
  );
}

/** change-email exists only where `user.changeEmail.enabled`. */
export function assertChangeEmailEnabled(config: AuthdConfig): void {
  if (!config.user.changeEmail.enabled) throw new AuthError("CHANGE_EMAIL_DISABLED");
}

/**
 * change-email: the new address must be valid, differ from the current one and have no
 * account; then the link goes out (to the current address of a verified user, to the
 * new one otherwise).
 */
export async function requestEmailChange(
  deps: VerificationDeps,
  link: LinkContext,
  user: UserRow,
  requestedEmail: string,
  callbackURL?: string,
): Promise<MailOutcome> {
  assertChangeEmailEnabled(deps.config);
  const newEmail = requireValidEmail(requestedEmail);
  if (newEmail === user.email) throw new AuthError("EMAIL_IS_THE_SAME");
  // An address that already has an account is refused.
  if (await findUserByEmail(deps.sql, newEmail)) throw new AuthError("COULD_NOT_UPDATE_EMAIL");
  return sendChangeEmailMail(deps, link, user, newEmail, callbackURL);
}

/** Why a mailed link did not apply; COULD_NOT_UPDATE_EMAIL: the new address was taken since. */
export type VerifyEmailFailure =
  | "INVALID_TOKEN"
  | "TOKEN_EXPIRED"
  | "USER_NOT_FOUND"
  | "COULD_NOT_UPDATE_EMAIL";

export class VerifyEmailError extends Error {
  readonly reason: VerifyEmailFailure;
  constructor(reason: VerifyEmailFailure) {
    super(reason);
    this.reason = reason;
  }
}

export interface VerifiedEmail {
  user: UserRow;
  /** The address changed (an email-change token). */
  changed: boolean;
  /** This token verified the address; false when it already was (a replayed link). */
  newlyVerified: boolean;
  /** The invitation a sign-up named, to accept once verified. */
  invitationId?: string;
}

/** Applies a verification or email-change token; throws VerifyEmailError. */
export async function applyEmailToken(
  deps: VerificationDeps,
  link: LinkContext,
  token: string,
): Promise<VerifiedEmail> {
  let claims: Record<string, unknown>;
  try {
    claims = await verifyToken(token, deps.secrets);
  } catch (error) {
    throw new VerifyEmailError(
      error instanceof TokenExpiredError ? "TOKEN_EXPIRED" : "INVALID_TOKEN",
    );
  }
  const email = typeof claims.email === "string" ? claims.email.toLowerCase() : undefined;
  if (!email) throw new VerifyEmailError("INVALID_TOKEN");
  const user = await findUserByEmail(deps.sql, email);
  if (!user) throw new VerifyEmailError("USER_NOT_FOUND");
  if (typeof claims.userId === "string" && claims.userId !== user.id) {
    // The address now belongs to someone else: the token was not made for them.
    throw new VerifyEmailError("INVALID_TOKEN");
  }

  const updateTo = typeof claims.updateTo === "string" ? claims.updateTo.toLowerCase() : undefined;
  if (!updateTo) {
    // Conditional update: of two visits at once, only one verifies (and may sign in).
    const verified = user.emailVerified ? undefined : await setEmailVerified(deps.sql, user.id);
    if (!verified)
      return { user: { ...user, emailVerified: true }, changed: false, newlyVerified: false };
    const invitationId = typeof claims.invitationId === "string" ? claims.invitationId : undefined;
    return { user: verified, changed: false, newlyVerified: true, invitationId };
  }

  const confirmation = claims.requestType === "change-email-confirmation";
  let changed: UserRow | undefined;
  try {
    // Confirmed from the old address: the new one is not proven yet.
    changed = await changeUserEmail(deps.sql, user.id, updateTo, !confirmation);
  } catch (error) {
    if (isUniqueViolation(error, "user_email_key")) {
      throw new VerifyEmailError("COULD_NOT_UPDATE_EMAIL");
    }
    throw error;
  }
  if (!changed) throw new VerifyEmailError("USER_NOT_FOUND");
  if (confirmation) await sendVerificationMail(deps, link, changed);
  return { user: changed, changed: true, newlyVerified: !confirmation };
}

/** The store of one-time tokens (their digests) other domains keep in the verification table. */
export {
  consumeVerification,
  deleteVerificationsByValue,
  findVerification,
  insertVerification,
} from "./queries.js";
