/** Every SQL statement on the audit_event table. */
import { columns, columnsOf, type Fragment } from "../db/columns.js";
import type { Queryable } from "../db/connection.js";

export interface AuditEventRow {
  id: string;
  actorId: string | null;
  actorType: "user" | "cli" | "system";
  action: string;
  targetType: string | null;
  targetId: string | null;
  organizationId: string | null;
  ipAddress: string | null;
  userAgent: string | null;
  details: unknown;
  createdAt: Date;
}

const AUDIT_EVENT_COLUMNS = columnsOf<AuditEventRow>()([
  "id",
  "actorId",
  "actorType",
  "action",
  "targetType",
  "targetId",
  "organizationId",
  "ipAddress",
  "userAgent",
  "details",
  "createdAt",
]);

export type NewAuditEvent = Omit<AuditEventRow, "createdAt" | "details"> & { details?: unknown };

export async function insertAuditEvent(sql: Queryable, event: NewAuditEvent): Promise<void> {
  await sql`
    insert into audit_event (id, actor_id, actor_type, action, target_type, target_id,
                             organization_id, ip_address, user_agent, details)
    values (${event.id}, ${event.actorId}, ${event.actorType}, ${event.action},
            ${event.targetType}, ${event.targetId}, ${event.organizationId},
            ${event.ipAddress}, ${event.userAgent},
            ${event.details === undefined ? null : sql.json(event.details as never)})`;
}

export async function listAuditEvents(
  sql: Queryable,
  filter: { action?: string; targetId?: string; limit?: number } = {},
): Promise<AuditEventRow[]> {
  return sql<AuditEventRow[]>`
    select ${columns(sql, AUDIT_EVENT_COLUMNS)} from audit_event
    where (${filter.action ?? null}::text is null or action = ${filter.action ?? null})
      and (${filter.targetId ?? null}::text is null or target_id = ${filter.targetId ?? null})
    order by created_at desc, id
    limit ${filter.limit ?? 100}`;
}

/**
 * The step of a larger statement that records audit events, for writes that must land
 * with their audit rows in one statement. `events` gives rows named like the columns.
 */
export function recordAuditEventsStep(sql: Queryable, events: Fragment): Fragment {
  return sql`
    insert into audit_event (id, actor_id, actor_type, action, target_type, target_id,
                             organization_id, ip_address, user_agent, details)
    select id, actor_id, actor_type, action, target_type, target_id, organization_id,
           ip_address, user_agent, details
    from (${events}) as events`;
}
