/** The audit trail of admin and security events (the audit_event table). */
import { generateId } from "../crypto/random.js";
import type { Queryable } from "../db/connection.js";
import { insertAuditEvent, type NewAuditEvent } from "./queries.js";

export interface AuditEvent {
  action: string;
  actorType: "user" | "cli" | "system";
  actorId?: string | null;
  targetType?: string | null;
  targetId?: string | null;
  organizationId?: string | null;
  ipAddress?: string | null;
  userAgent?: string | null;
  details?: unknown;
}

/** The row an event becomes (with a fresh id). */
export function auditEventRow(event: AuditEvent): NewAuditEvent {
  return {
    id: generateId(),
    action: event.action,
    actorType: event.actorType,
    actorId: event.actorId ?? null,
    targetType: event.targetType ?? null,
    targetId: event.targetId ?? null,
    organizationId: event.organizationId ?? null,
    ipAddress: event.ipAddress ?? null,
    userAgent: event.userAgent ?? null,
    details: event.details,
  };
}

export async function recordAuditEvent(sql: Queryable, event: AuditEvent): Promise<void> {
  await insertAuditEvent(sql, auditEventRow(event));
}

export { recordAuditEventsStep } from "./queries.js";
