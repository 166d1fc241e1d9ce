/**
 * The admin's operations on users: create, get, update, set-role, ban and unban,
 * remove and set-password.
 */
import { z } from "zod";
import {
  findCredentialAccount,
  insertCredentialAccount,
  setCredentialPassword,
} from "../accounts/accounts.js";
import type { Actor } from "../actor.js";
import { generateId } from "../crypto/random.js";
import { isUniqueViolation, transaction } from "../db/transaction.js";
import { AuthError } from "../errors.js";
import { revokeSessions } from "../sessions/sessions.js";
import type { AdminUserChanges, UserRow } from "../users/queries.js";
import {
  checkPasswordLength,
  deleteUserById,
  insertUser,
  requireValidEmail,
  updateUserAsAdmin,
} from "../users/users.js";
import { authorize, isSelf, normalizeRole } from "./access.js";
import { type AdminDeps, audit, requireUser } from "./admin.js";

export const DEFAULT_BAN_REASON = "No reason";

export interface CreateUserInput {
  email: string;
  name?: string;
  password?: string;
  role?: string | string[];
  emailVerified?: boolean;
  image?: string | null;
}

/** create-user: no password means no credential account (as in Better Auth). */
export async function createUser(
  deps: AdminDeps,
  actor: Actor,
  input: CreateUserInput,
): Promise<UserRow> {
  authorize(deps, actor, { user: ["create"] }, "YOU_ARE_NOT_ALLOWED_TO_CREATE_USERS");
  if (input.role !== undefined) {
    authorize(deps, actor, { user: ["set-role"] }, "YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE");
  }
  const email = requireValidEmail(input.email);
  const role =
    input.role === undefined
      ? deps.config.admin.defaultRole
      : normalizeRole(input.role, deps.config);
  let passwordHash: string | null = null;
  if (input.password !== undefined) {
    checkPasswordLength(deps.config, input.password);
    passwordHash = await deps.passwords.hash(input.password);
  }
  try {
    return await transaction(deps.sql, async (tx) => {
      const user = await insertUser(tx, {
        id: generateId(),
        email,
        name: input.name ?? "",
        image: input.image ?? null,
        emailVerified: input.emailVerified ?? false,
        role,
      });
      if (passwordHash) {
        await insertCredentialAccount(tx, { id: generateId(), userId: user.id, passwordHash });
      }
      await audit(tx, actor, "create_user", { type: "user", id: user.id }, { email, role });
      return user;
    });
  } catch (error) {
    if (isUniqueViolation(error, "user_email_key")) {
      throw new AuthError("USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL");
    }
    throw error;
  }
}

export async function getUser(deps: AdminDeps, actor: Actor, userId: string): Promise<UserRow> {
  authorize(deps, actor, { user: ["get"] }, "YOU_ARE_NOT_ALLOWED_TO_GET_USER");
  return requireUser(deps.sql, userId);
}

/** Text PostgreSQL can store: at most `max` characters and no NUL. */
const storedText = (max: number) =>
  z
    .string()
    .max(max)
    .refine((value) => !value.includes("\u0000"), "must not contain NUL bytes");

const updateUserData = z.strictObject({
  name: storedText(255).optional(),
  image: storedText(2048).nullable().optional(),
  // The address rule (requireValidEmail) answers INVALID_EMAIL, a NUL included.
  email: z.string().max(320).optional(),
  emailVerified: z.boolean().optional(),
  role: z.union([z.string(), z.array(z.string())]).optional(),
  banned: z.boolean().optional(),
  banReason: storedText(1024).nullable().optional(),
  banExpires: z.coerce.date().nullable().optional(),
});

/**
 * update-user: never the password or the id; a role needs set-role,
 * ban fields need ban (and never oneself), an email stays unique.
 */
export async function updateUser(
  deps: AdminDeps,
  actor: Actor,
  userId: string,
  data: Record<string, unknown>,
): Promise<UserRow> {
  authorize(deps, actor, { user: ["update"] }, "YOU_ARE_NOT_ALLOWED_TO_UPDATE_USERS");
  if (Object.keys(data).length === 0) throw new AuthError("NO_DATA_TO_UPDATE");
  if ("password" in data) throw new AuthError("PASSWORD_CANNOT_BE_UPDATED_VIA_UPDATE_USER");
  if ("id" in data) throw new AuthError("USER_ID_CANNOT_BE_UPDATED");
  const parsed = updateUserData.safeParse(data);
  if (!parsed.success) {
    throw new AuthError("VALIDATION_ERROR", {
      details: parsed.error.issues.map((issue) => ({
        path: ["data", ...issue.path.map(String)].join("."),
        message: issue.message,
      })),
    });
  }
  const { role, banned, banReason, banExpires, email, ...rest } = parsed.data;
  const changes: AdminUserChanges = { ...rest };
  if (role !== undefined) {
    authorize(deps, actor, { user: ["set-role"] }, "YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE");
    changes.role = normalizeRole(role, deps.config);
  }
  if (email !== undefined) changes.email = requireValidEmail(email);
  const touchesBan = banned !== undefined || banReason !== undefined || banExpires !== undefined;
  if (touchesBan) {
    authorize(deps, actor, { user: ["ban"] }, "YOU_ARE_NOT_ALLOWED_TO_BAN_USERS");
    if (banned === true && isSelf(actor, userId)) throw new AuthError("YOU_CANNOT_BAN_YOURSELF");
    Object.assign(changes, { banned, banReason, banExpires });
  }
  try {
    return await transaction(deps.sql, async (tx) => {
      const user = await updateUserAsAdmin(tx, userId, changes);
      if (!user) throw new AuthError("USER_NOT_FOUND");
      if (banned === true) await revokeSessions(tx, userId);
      await audit(
        tx,
        actor,
        "update_user",
        { type: "user", id: userId },
        {
          fields: Object.keys(parsed.data),
        },
      );
      return user;
    });
  } catch (error) {
    if (isUniqueViolation(error, "user_email_key")) {
      throw new AuthError("USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL");
    }
    throw error;
  }
}

export async function setRole(
  deps: AdminDeps,
  actor: Actor,
  userId: string,
  role: unknown,
): Promise<UserRow> {
  authorize(deps, actor, { user: ["set-role"] }, "YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE");
  const value = normalizeRole(role, deps.config);
  return transaction(deps.sql, async (tx) => {
    const user = await updateUserAsAdmin(tx, userId, { role: value });
    if (!user) throw new AuthError("USER_NOT_FOUND");
    await audit(tx, actor, "set_role", { type: "user", id: userId }, { role: value });
    return user;
  });
}

/**
 * ban-user: a reason (default "No reason"), an expiry in seconds or none; sessions end
 * unless `keepSessions` (the CLI's `--keep-sessions`; a banned user still cannot sign
 * in or refresh, but live sessions run until they expire).
 */
export async function banUser(
  deps: AdminDeps,
  actor: Actor,
  userId: string,
  input: { reason?: string; expiresIn?: number; keepSessions?: boolean } = {},
): Promise<UserRow> {
  authorize(deps, actor, { user: ["ban"] }, "YOU_ARE_NOT_ALLOWED_TO_BAN_USERS");
  if (isSelf(actor, userId)) throw new AuthError("YOU_CANNOT_BAN_YOURSELF");
  const banReason = input.reason || DEFAULT_BAN_REASON;
  const banExpires =
    input.expiresIn === undefined ? null : new Date(Date.now() + input.expiresIn * 1000);
  return transaction(deps.sql, async (tx) => {
    const user = await updateUserAsAdmin(tx, userId, { banned: true, banReason, banExpires });
    if (!user) throw new AuthError("USER_NOT_FOUND");
    const sessions = input.keepSessions ? 0 : await revokeSessions(tx, userId);
    await audit(
      tx,
      actor,
      "ban_user",
      { type: "user", id: userId },
      {
        reason: banReason,
        expiresAt: banExpires,
        sessionsRevoked: sessions,
        ...(input.keepSessions ? { sessionsKept: true } : {}),
      },
    );
    return user;
  });
}

export async function unbanUser(deps: AdminDeps, actor: Actor, userId: string): Promise<UserRow> {
  authorize(deps, actor, { user: ["ban"] }, "YOU_ARE_NOT_ALLOWED_TO_BAN_USERS");
  return transaction(deps.sql, async (tx) => {
    const user = await updateUserAsAdmin(tx, userId, {
      banned: false,
      banReason: null,
      banExpires: null,
    });
    if (!user) throw new AuthError("USER_NOT_FOUND");
    await audit(tx, actor, "unban_user", { type: "user", id: userId });
    return user;
  });
}

/** remove-user: never oneself; sessions, accounts and memberships go by cascade. */
export async function removeUser(deps: AdminDeps, actor: Actor, userId: string): Promise<UserRow> {
  authorize(deps, actor, { user: ["delete"] }, "YOU_ARE_NOT_ALLOWED_TO_DELETE_USERS");
  if (isSelf(actor, userId)) throw new AuthError("YOU_CANNOT_REMOVE_YOURSELF");
  return transaction(deps.sql, async (tx) => {
    const user = await requireUser(tx, userId);
    await deleteUserById(tx, userId);
    await audit(tx, actor, "remove_user", { type: "user", id: userId }, { email: user.email });
    return user;
  });
}

/**
 * set-user-password: creates the credential account when missing. Sessions stay (the
 * HTTP endpoint, as in Better Auth) unless `revokeSessions` (the CLI's default);
 * answers how many sessions ended.
 */
export async function setUserPassword(
  deps: AdminDeps,
  actor: Actor,
  userId: string,
  newPassword: string,
  options: { revokeSessions?: boolean } = {},
): Promise<{ sessionsRevoked: number }> {
  authorize(deps, actor, { user: ["set-password"] }, "YOU_ARE_NOT_ALLOWED_TO_SET_USERS_PASSWORD");
  checkPasswordLength(deps.config, newPassword);
  await requireUser(deps.sql, userId);
  const passwordHash = await deps.passwords.hash(newPassword);
  return transaction(deps.sql, async (tx) => {
    await requireUser(tx, userId);
    const account = await findCredentialAccount(tx, userId);
    if (account) await setCredentialPassword(tx, userId, passwordHash);
    else await insertCredentialAccount(tx, { id: generateId(), userId, passwordHash });
    const sessionsRevoked = options.revokeSessions ? await revokeSessions(tx, userId) : 0;
    await audit(
      tx,
      actor,
      "set_user_password",
      { type: "user", id: userId },
      options.revokeSessions ? { sessionsRevoked } : undefined,
    );
    return { sessionsRevoked };
  });
}
