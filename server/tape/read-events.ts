// Tape reads for the API. Their routes' guard has already read the pod's state
// (and answered 404 for an unknown pod), so these go straight to the events.
import type { TapeStore } from "../db/tape-store";
import { searchSql, type EventFilter } from "../db/event-search";
import type { TapeEvent } from "../wire/events";
import { pageLength, sizesAfter, type Size } from "../history/tape-slices";
import { toTapeEvent } from "./to-tape-event";

/**
 * What one page after a seq may weigh, in bytes of bodies and meta (it holds at least one event):
 * a thousand events of up to 1 MiB each would be a gigabyte answer, built in memory first. A page
 * cut short says so by its last seq (nextAfter); a reader goes on from there.
 */
export const EVENTS_PAGE_BYTES = 8 * 1024 * 1024;
/** This many events fit in a page whatever they weigh (a body is at most 1 MiB): no sizes read first. */
const ALWAYS_FIT = 4;
/** Past any seq (the column is a 32-bit integer on PostgreSQL). */
const NO_END = 2_147_483_647;

export async function readEvents(
  store: TapeStore,
  podId: string,
  after: number,
  limit: number,
): Promise<TapeEvent[]> {
  let count = limit;
  if (limit > ALWAYS_FIT) {
    const sizes = await sizesAfter(store, podId, after, NO_END, limit);
    if (!sizes.length) return [];
    count = pageLength(sizes, 0, EVENTS_PAGE_BYTES).count;
  }
  return (await store.readEvents(podId, after, count)).map((e) => toTapeEvent(e));
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

const SIZES = `seq, octet_length(body) + COALESCE(octet_length(meta), 0) AS bytes`;

/**
 * A page of a search, newest first, cut by bytes as a page after a seq is; `more`: whether the
 * search may go on before its last seq (a page cut short, or as long as asked).
 */
export async function searchEventsPage(
  store: TapeStore,
  podId: string,
  filter: EventFilter,
  before: number,
  limit: number,
): Promise<{ events: TapeEvent[]; more: boolean }> {
  if (limit <= ALWAYS_FIT) {
    const events = await searchEvents(store, podId, filter, before, limit);
    return { events, more: events.length === limit };
  }
  const { sql, params } = searchSql(store.kind, SIZES, podId, filter, before, limit);
  const sizes = await store.prisma.$queryRawUnsafe<Size[]>(sql, ...params);
  if (!sizes.length) return { events: [], more: false };
  const { count } = pageLength(sizes, 0, EVENTS_PAGE_BYTES);
  const events = await searchEvents(store, podId, filter, before, count);
  return { events, more: count < sizes.length || sizes.length === limit };
}
