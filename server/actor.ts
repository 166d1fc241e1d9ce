/**
 * Who performs an operation. Every domain operation that both the HTTP API and the CLI
 * offer takes one, so the two paths run the same rules: a signed-in user is checked for
 * membership and permissions, the operator at the shell (who controls the database
 * anyway) is not, and each is recorded as such in the audit trail.
 */
import type { SessionRow } from "./sessions/queries.js";
import type { UserRow } from "./users/queries.js";

export interface UserActor {
  kind: "user";
  user: UserRow;
  /** The session the request came with; null when there is none (a server-side call). */
  session: SessionRow | null;
  ipAddress?: string | null;
  userAgent?: string | null;
}

export interface OperatorActor {
  kind: "operator";
  /** How the operator is named in logs (the CLI command). */
  name: string;
}

export type Actor = UserActor | OperatorActor;

/** Who acted, as the audit trail records it. */
export interface AuditActor {
  actorType: "user" | "cli";
  actorId: string | null;
  ipAddress: string | null;
}

export function auditActorOf(actor: Actor): AuditActor {
  return actor.kind === "user"
    ? { actorType: "user", actorId: actor.user.id, ipAddress: actor.ipAddress ?? null }
    : { actorType: "cli", actorId: null, ipAddress: null };
}

/** The organization a call names, else the user's active one; the operator has none. */
export function namedOrActiveOrganization(
  actor: Actor,
  named: string | null | undefined,
): string | null | undefined {
  return named || (actor.kind === "user" ? actor.session?.activeOrganizationId : undefined);
}

/** The operator as the CLI names it. */
export function operator(name = "authd"): OperatorActor {
  return { kind: "operator", name };
}
