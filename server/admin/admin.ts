/**
 * Platform administration (the admin API of Better Auth): the rules behind both
 * `POST /admin/*` and `authd user|session …`, so the two cannot disagree. No Fastify
 * here. Every action writes an audit_event in the same transaction as its change.
 *
 * This module holds what every admin operation shares; the permission rules are in
 * access.ts, the operations on users in users.ts and list-users.ts, those on sessions
 * (impersonation included) in sessions.ts.
 */
import { type Actor, auditActorOf } from "../actor.js";
import { recordAuditEvent } from "../audit/audit.js";
import type { AuthdConfig } from "../config.js";
import type { PasswordHasher } from "../crypto/password.js";
import type { Queryable, Sql } from "../db/connection.js";
import { AuthError } from "../errors.js";
import type { UserRow } from "../users/queries.js";
import { findUserByEmail, findUserById } from "../users/users.js";

export interface AdminDeps {
  sql: Sql;
  config: AuthdConfig;
  /** The app's (or the command's) password hashing. */
  passwords: PasswordHasher;
}

/** The audit row of an admin action (`admin.<action>`), in the action's transaction. */
export async function audit(
  sql: Queryable,
  actor: Actor,
  action: string,
  target: { type: "user" | "session"; id: string },
  details?: unknown,
): Promise<void> {
  await recordAuditEvent(sql, {
    action: `admin.${action}`,
    ...auditActorOf(actor),
    targetType: target.type,
    targetId: target.id,
    userAgent: actor.kind === "user" ? (actor.userAgent ?? null) : null,
    details,
  });
}

export async function requireUser(sql: Queryable, userId: string): Promise<UserRow> {
  const user = await findUserById(sql, userId);
  if (!user) throw new AuthError("USER_NOT_FOUND");
  return user;
}

/** A user by id, or by email when the argument holds an `@` (the CLI's `<id|email>`). */
export async function resolveUser(sql: Queryable, idOrEmail: string): Promise<UserRow> {
  const user = idOrEmail.includes("@")
    ? await findUserByEmail(sql, idOrEmail.trim().toLowerCase())
    : await findUserById(sql, idOrEmail);
  if (!user) throw new AuthError("USER_NOT_FOUND", { details: { user: idOrEmail } });
  return user;
}
