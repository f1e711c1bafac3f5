import type { StoredEvent } from "../domain/plan-append";
import type { EventMeta, TapeEvent } from "../wire/events";
import { noteEventBytes } from "./wire-bytes";

/** Stored rows keep body and meta as JSON text (what the hash covers); the wire carries them parsed. */
export function toTapeEvent(e: StoredEvent, body: unknown = JSON.parse(e.body)): TapeEvent {
  return noteEventBytes({ ...e, body, meta: e.meta ? (JSON.parse(e.meta) as EventMeta) : null }, e);
}
