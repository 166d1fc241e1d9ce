/**
 * Signing up and signing in with an email and a password: the rules of both flows, so
 * the routes only translate them to HTTP (cookies, redirects).
 */
import { needsRehash, type PasswordHasher } from "../crypto/password.js";
import type { Sql } from "../db/connection.js";
import { AuthError } from "../errors.js";
import { findInvitationForSignUp } from "../invitations/accept.js";
import type { UserRow } from "../users/queries.js";
import { assertNotBanned, findUserByEmail, requireValidEmail } from "../users/users.js";
import {
  type LinkContext,
  sendVerificationMail,
  type VerificationDeps,
} from "../verification/verification.js";
import {
  createUserWithPassword,
  findCredentialAccount,
  replacePasswordHash,
  type SignUpInput,
} from "./accounts.js";

/** What the flows need: the database, config and mailer, and the app's password hasher. */
export type CredentialDeps = VerificationDeps & { passwords: PasswordHasher };

export type SignUpOutcome =
  /** The account exists now; `signIn` says whether a session starts at once. */
  | { created: true; user: UserRow; signIn: boolean }
  /**
   * The address already has an account, and no session would start anyway: the caller
   * answers as if it had been created, so sign-up tells no one which addresses exist.
   */
  | { created: false; existingUserId: string | null; email: string };

/**
 * sign-up with email and password: the account, then the verification mail where it is
 * wanted (or where an invitation to this address will be accepted by following it).
 */
export async function signUpWithEmail(
  deps: CredentialDeps,
  link: LinkContext,
  input: SignUpInput & { callbackURL?: string; invitationId?: string },
): Promise<SignUpOutcome> {
  const { config } = deps;
  if (!config.emailAndPassword.enabled) throw new AuthError("EMAIL_PASSWORD_SIGN_UP_DISABLED");
  const signIn =
    config.emailAndPassword.autoSignIn && !config.emailAndPassword.requireEmailVerification;
  let user: UserRow;
  try {
    user = await createUserWithPassword(deps.sql, config, deps.passwords, input);
  } catch (error) {
    // Without an immediate session, a duplicate looks like a success (as in Better Auth).
    if (error instanceof AuthError && error.code === "USER_ALREADY_EXISTS" && !signIn) {
      const email = requireValidEmail(input.email);
      const existing = await findUserByEmail(deps.sql, email);
      return { created: false, existingUserId: existing?.id ?? null, email };
    }
    throw error;
  }
  const sendOnSignUp =
    config.emailVerification.sendOnSignUp ?? config.emailAndPassword.requireEmailVerification;
  // An invitation addressed to this email is accepted by following the verification
  // link, so that link goes out even where verification is not required.
  const invitation =
    input.invitationId && config.organization.enabled
      ? await findInvitationForSignUp(deps.sql, input.invitationId, user.email)
      : undefined;
  if (sendOnSignUp || invitation) {
    await sendVerificationMail(deps, link, user, input.callbackURL, invitation?.id);
  }
  return { created: true, user, signIn };
}

/**
 * sign-in with email and password: the same work and the same answer for an unknown
 * address as for a wrong password; an imported or weaker hash is upgraded; a banned
 * user is refused; an unverified one too where verification is required (with a new
 * link when `sendOnSignIn`). Answers the user to start a session for.
 */
export async function signInWithEmail(
  deps: CredentialDeps,
  link: LinkContext,
  input: { email: string; password: string; callbackURL?: string },
): Promise<UserRow> {
  const { config } = deps;
  if (!config.emailAndPassword.enabled) throw new AuthError("EMAIL_PASSWORD_DISABLED");
  const email = requireValidEmail(input.email);
  const { password } = input;
  if (password.length > config.emailAndPassword.maxPasswordLength) {
    throw new AuthError("PASSWORD_TOO_LONG");
  }
  const found = await findUserByEmail(deps.sql, email);
  const account = found ? await findCredentialAccount(deps.sql, found.id) : undefined;
  // Unknown address or no password: the same work and the same answer, so addresses
  // cannot be enumerated.
  const valid = account?.password
    ? await deps.passwords.verify(account.password, password)
    : await deps.passwords.verifyAgainstDummy(password);
  if (!found || !valid) throw new AuthError("INVALID_EMAIL_OR_PASSWORD");
  // An imported bcrypt/scrypt (or weaker argon2) hash becomes argon2id now.
  if (account?.password) {
    await rehashIfNeeded(deps.sql, deps.passwords, found.id, account.password, password);
  }
  const user = await assertNotBanned(deps.sql, found);
  if (config.emailAndPassword.requireEmailVerification && !user.emailVerified) {
    if (config.emailVerification.sendOnSignIn) {
      await sendVerificationMail(deps, link, user, input.callbackURL);
    }
    throw new AuthError("EMAIL_NOT_VERIFIED");
  }
  return user;
}

/**
 * After a successful password check at sign-in: a stored hash in another format (an
 * imported bcrypt or scrypt one) or with weaker argon2 parameters is replaced by an
 * argon2id hash of the same password. Answers whether it was replaced.
 */
export async function rehashIfNeeded(
  sql: Sql,
  passwords: PasswordHasher,
  userId: string,
  stored: string,
  password: string,
): Promise<boolean> {
  if (!needsRehash(stored)) return false;
  return replacePasswordHash(sql, userId, stored, await passwords.hash(password));
}
