/**
 * Signing up and signing in with an email and a password: the rules of both flows, so
 * the routes only translate them to HTTP (cookies, redirects).
 */
import { needsRehash, type PasswordHasher } from "../crypto/password.js";
import { generateId } from "../crypto/random.js";
import type { Sql } from "../db/connection.js";
import { AuthError } from "../errors.js";
import { findInvitationForSignUp } from "../invitations/accept.js";
import type { UserRow } from "../users/queries.js";
import { assertNotBanned, findUserWithPassword, requireValidEmail } from "../users/users.js";
import {
  type LinkContext,
  sendVerificationMail,
  type VerificationDeps,
} from "../verification/verification.js";
import {
  CREDENTIAL_PROVIDER,
  createUserWithPassword,
  replacePasswordHash,
  type SignUpInput,
} from "./accounts.js";

/** What the flows need: the database, config and mailer, and the app's password hasher. */
export type CredentialDeps = VerificationDeps & { passwords: PasswordHasher };

export type SignUpOutcome =
  /** The account exists now; `signIn` says whether a session starts at once. */
  | { created: true; user: UserRow; signIn: boolean }
  /**
   * The address already has an account, and no session would start anyway: `user` is a
   * look-alike of the user a new sign-up would have made (a fresh id, nothing of the
   * existing account), answered in its place so sign-up tells no one which addresses
   * exist. Nothing is written and no mail is sent.
   */
  | { created: false; user: UserRow };

/**
 * The user a sign-up with this input would create, as insertUser would answer it, but
 * never stored: a new id of the same format, the address lower-cased, unverified, the
 * default role, not banned, created now.
 */
function lookAlikeNewUser(config: CredentialDeps["config"], input: SignUpInput): UserRow {
  const now = new Date();
  return {
    id: generateId(),
    email: requireValidEmail(input.email),
    emailVerified: false,
    name: input.name,
    image: input.image ?? null,
    role: config.admin.defaultRole,
    banned: false,
    banReason: null,
    banExpires: null,
    createdAt: now,
    updatedAt: now,
  };
}

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
    // The password is hashed before the insert finds the address taken, so a duplicate
    // costs the same hashing as a new account.
    user = await createUserWithPassword(deps.sql, config, deps.passwords, input);
  } catch (error) {
    // Without an immediate session, a duplicate looks like a success (as in Better Auth).
    if (error instanceof AuthError && error.code === "USER_ALREADY_EXISTS" && !signIn) {
      return { created: false, user: lookAlikeNewUser(config, input) };
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
    const mail = sendVerificationMail(deps, link, user, input.callbackURL, invitation?.id);
    // Where a duplicate would get the look-alike answer, the mail goes in the background
    // so that a new address is not told apart by the time its answer takes.
    if (signIn) await mail;
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
  const found = await findUserWithPassword(deps.sql, email, CREDENTIAL_PROVIDER);
  const stored = found?.passwordHash;
  // Unknown address or no password: the same statement, the same hashing work and the
  // same answer, so addresses cannot be enumerated by the answer or by its time.
  const valid = stored
    ? await deps.passwords.verify(stored, password)
    : await deps.passwords.verifyAgainstDummy(password);
  if (!found || !stored || !valid) throw new AuthError("INVALID_EMAIL_OR_PASSWORD");
  // An imported bcrypt/scrypt (or weaker argon2) hash becomes argon2id now.
  await rehashIfNeeded(deps.sql, deps.passwords, found.user.id, stored, password);
  const user = await assertNotBanned(deps.sql, found.user);
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
