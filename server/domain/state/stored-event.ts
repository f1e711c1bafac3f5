// Turns a stored tape row back into the event the rules saw when it was appended.
import type { StoredEvent } from "../plan-append";
import type { AppliedEvent } from "./pod-state";

/**
 * The row's fields set on the object its meta parses to, in the order `{ ...meta, id, type, … }`
 * gives them. Not that spread: copying a parsed object's properties into a literal cost ~20 µs a
 * row, most of a history replay's reading; the parsed object is this call's own to change.
 */
export function toAppliedEvent(row: StoredEvent): AppliedEvent {
  const meta: unknown = row.meta ? JSON.parse(row.meta) : null;
  // The server writes meta as an object; anything else keeps the spread's meaning.
  const e = (
    meta !== null && typeof meta === "object" && !Array.isArray(meta) ? meta : { ...(meta as object) }
  ) as Record<string, unknown>;
  // None of these names is an accessor of Object.prototype, so assigning defines them as data.
  e.id = row.id;
  e.type = row.type;
  e.actor = row.actor;
  if (row.role) e.role = row.role;
  if (row.ts) e.ts = row.ts;
  e.body = JSON.parse(row.body);
  e.seq = row.seq;
  e.receivedAt = row.receivedAt;
  return e as AppliedEvent;
}
