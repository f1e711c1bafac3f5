import type { TapeStore } from "../db/tape-store";
import type { EventFilter } from "../db/event-search";
import { getPod } from "../pods/read-pods";
import type { TapeEvent } from "../wire/events";
import { toTapeEvent } from "./to-tape-event";

export async function readEvents(store: TapeStore, podId: string, after: number, limit: number): Promise<TapeEvent[]> {
  await getPod(store, podId); // 404 for an unknown pod rather than an empty page
  return (await store.readEvents(podId, after, limit)).map((e) => toTapeEvent(e));
}

export async function searchEvents(store: TapeStore, podId: string, filter: EventFilter, before: number, limit: number): Promise<TapeEvent[]> {
  await getPod(store, podId);
  return (await store.searchEvents(podId, filter, before, limit)).map((e) => toTapeEvent(e));
}
