// Turns a stored tape row back into the event the rules saw when it was appended.
import type { StoredEvent } from "../plan-append";
import type { AppliedEvent } from "./pod-state";

export function toAppliedEvent(row: StoredEvent): AppliedEvent {
  const meta = row.meta ? (JSON.parse(row.meta) as Record<string, unknown>) : {};
  return {
    ...meta,
    id: row.id,
    type: row.type,
    actor: row.actor,
    ...(row.role ? { role: row.role } : {}),
    ...(row.ts ? { ts: row.ts } : {}),
    body: JSON.parse(row.body),
    seq: row.seq,
    receivedAt: row.receivedAt,
  } as AppliedEvent;
}
