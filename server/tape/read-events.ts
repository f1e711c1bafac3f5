// Tape reads for the API. Their routes' guard has already read the pod's state
// (and answered 404 for an unknown pod), so these go straight to the events.
import type { TapeStore } from "../db/tape-store";
import type { EventFilter } from "../db/event-search";
import type { TapeEvent } from "../wire/events";
import { toTapeEvent } from "./to-tape-event";

export async function readEvents(
  store: TapeStore,
  podId: string,
  after: number,
  limit: number,
): Promise<TapeEvent[]> {
  return (await store.readEvents(podId, after, limit)).map((e) => toTapeEvent(e));
}

export async function searchEvents(
  store: TapeStore,
  podId: string,
  filter: EventFilter,
  before: number,
  limit: number,
): Promise<TapeEvent[]> {
  return (await store.searchEvents(podId, filter, before, limit)).map((e) => toTapeEvent(e));
}
