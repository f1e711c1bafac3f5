import type { StoredEvent } from "../domain/plan-append";
import type { TapeEvent } from "../wire/events";

/** Stored rows keep the body as JSON text (it is what the hash covers); the wire carries it parsed. */
export function toTapeEvent(e: StoredEvent): TapeEvent {
  return { ...e, body: JSON.parse(e.body) };
}
