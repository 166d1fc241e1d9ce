/**
 * The admin's operations on sessions: impersonation, listing and revoking a user's
 * sessions, and the session `authd session create` mints for browser tests.
 */
import type { Actor, UserActor } from "../actor.js";
import { sha256 } from "../crypto/digest.js";
import { transaction } from "../db/transaction.js";
import { AuthError } from "../errors.js";
import type { SessionRow } from "../sessions/queries.js";
import {
  type ClientInfo,
  type CreatedSession,
  createSession,
  deleteSessionByIdOrDigest,
  listAllSessionsOfUser,
  revokeSessions,
} from "../sessions/sessions.js";
import type { UserRow } from "../users/queries.js";
import { isPlatformAdmin } from "../users/roles.js";
import { assertNotBanned } from "../users/users.js";
import { authorize, rolesAllow } from "./access.js";
import { type AdminDeps, audit, requireUser } from "./admin.js";

export interface Impersonation extends CreatedSession {
  user: UserRow;
}

/**
 * impersonate-user: a session of the target marked `impersonatedBy`, living
 * `admin.impersonationSessionDuration`. Admins are off limits unless the caller holds
 * impersonate-admins (an `adminUserIds` entry) or `allowImpersonatingAdmins` is on.
 * From the CLI (`authd user impersonate --as`), `impersonator` names the admin user the
 * session is recorded against (the column references a user): that user's permissions
 * are checked exactly as over HTTP, and the audit row's actor is the operator (`cli`).
 */
export async function impersonateUser(
  deps: AdminDeps,
  actor: Actor,
  userId: string,
  client: ClientInfo,
  options: { impersonator?: UserRow; lifetimeSeconds?: number } = {},
): Promise<Impersonation> {
  const impersonator = actor.kind === "user" ? actor.user : options.impersonator;
  if (!impersonator) throw new Error("impersonateUser: an operator needs an impersonator");
  if (!rolesAllow({ user: impersonator }, { user: ["impersonate"] }, deps.config)) {
    throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_IMPERSONATE_USERS");
  }
  const target = await requireUser(deps.sql, userId);
  if (
    isPlatformAdmin(target, deps.config) &&
    !deps.config.admin.allowImpersonatingAdmins &&
    !rolesAllow({ user: impersonator }, { user: ["impersonate-admins"] }, deps.config)
  ) {
    throw new AuthError("YOU_CANNOT_IMPERSONATE_ADMINS");
  }
  // The session-create rule holds here too: a banned user gets no session.
  const user = await assertNotBanned(deps.sql, target);
  return transaction(deps.sql, async (tx) => {
    const created = await createSession(tx, deps.config, {
      userId: user.id,
      client,
      impersonatedBy: impersonator.id,
      lifetimeSeconds: options.lifetimeSeconds ?? deps.config.admin.impersonationSessionDuration,
    });
    await audit(
      tx,
      actor,
      "impersonate_user",
      { type: "user", id: user.id },
      actor.kind === "user"
        ? { sessionId: created.session.id }
        : { sessionId: created.session.id, impersonatedBy: impersonator.id },
    );
    return { session: created.session, token: created.token, user };
  });
}

/** What `audit` records beyond the transaction and the actor. */
type AuditEntry =
  Parameters<typeof audit> extends [unknown, unknown, ...infer Entry] ? Entry : never;

/**
 * Deletes a session (by id, or by the digest of its token) and writes its audit row in
 * the same transaction, so neither stands without the other. `entry` answers the row
 * for what was removed (undefined: nothing matched), or null for none.
 */
async function deleteSessionAudited(
  deps: AdminDeps,
  actor: Actor,
  idOrToken: string,
  digest: string,
  entry: (removed: SessionRow | undefined) => AuditEntry | null,
): Promise<SessionRow | undefined> {
  return transaction(deps.sql, async (tx) => {
    const removed = await deleteSessionByIdOrDigest(tx, idOrToken, digest);
    const recorded = entry(removed);
    if (recorded) await audit(tx, actor, ...recorded);
    return removed;
  });
}

/** Ends an impersonation session (the HTTP layer restores the admin's own cookie). */
export async function stopImpersonating(
  deps: AdminDeps,
  actor: UserActor,
  impersonation: SessionRow,
): Promise<void> {
  await deleteSessionAudited(deps, actor, impersonation.id, impersonation.tokenHash, () => [
    "stop_impersonating",
    { type: "user", id: impersonation.userId },
    { sessionId: impersonation.id },
  ]);
}

/** Every session of the user, expired ones included; an unknown user is USER_NOT_FOUND. */
export async function listUserSessions(
  deps: AdminDeps,
  actor: Actor,
  userId: string,
): Promise<SessionRow[]> {
  authorize(deps, actor, { session: ["list"] }, "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_SESSIONS");
  await requireUser(deps.sql, userId);
  return listAllSessionsOfUser(deps.sql, userId);
}

/**
 * revoke-user-session by session id (what list-user-sessions shows) or raw token.
 * Answers whether a session went; HTTP answers success either way (as in Better Auth).
 */
export async function revokeUserSession(
  deps: AdminDeps,
  actor: Actor,
  sessionIdOrToken: string,
): Promise<SessionRow | undefined> {
  authorize(deps, actor, { session: ["revoke"] }, "YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS");
  return deleteSessionAudited(deps, actor, sessionIdOrToken, sha256(sessionIdOrToken), (removed) =>
    removed
      ? ["revoke_user_session", { type: "session", id: removed.id }, { userId: removed.userId }]
      : null,
  );
}

/** Ends every session of the user; answers how many. */
export async function revokeUserSessions(
  deps: AdminDeps,
  actor: Actor,
  userId: string,
): Promise<number> {
  authorize(deps, actor, { session: ["revoke"] }, "YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS");
  return transaction(deps.sql, async (tx) => {
    await requireUser(tx, userId);
    const count = await revokeSessions(tx, userId);
    await audit(tx, actor, "revoke_user_sessions", { type: "user", id: userId }, { count });
    return count;
  });
}

/**
 * A session minted for browser tests (`authd session create`): the
 * caller checks `cli.allowSessionMint`; a banned user gets none.
 */
export async function mintSession(
  deps: AdminDeps,
  actor: Actor,
  userId: string,
  lifetimeSeconds: number,
): Promise<Impersonation> {
  const user = await assertNotBanned(deps.sql, await requireUser(deps.sql, userId));
  return transaction(deps.sql, async (tx) => {
    const created = await createSession(tx, deps.config, {
      userId: user.id,
      client: { ipAddress: null, userAgent: "authd-cli" },
      lifetimeSeconds,
    });
    await audit(
      tx,
      actor,
      "create_session",
      { type: "session", id: created.session.id },
      {
        userId: user.id,
      },
    );
    return { session: created.session, token: created.token, user };
  });
}
