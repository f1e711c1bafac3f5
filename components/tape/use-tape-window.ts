"use client";
// Random access to a tape of any length, for the virtualized list: events are
// fetched in pages of PAGE seqs when rows come into view, and cached (a stored
// event never changes). Live events arrive through the socket hook.
import { useCallback, useMemo, useState } from "react";
import type { TapeEvent } from "@/server/wire/events";
import { callApi } from "../shared/api-client";
import { readEventsRoute } from "../shared/api-routes";

export const PAGE = 200;

/**
 * The events of seqs page·PAGE+1 … (page+1)·PAGE. The server cuts an answer of large events short
 * by bytes (its last seq says where): the rest of the page is read on from there, until the page
 * is whole or the tape ends.
 */
async function readPage(podId: string, page: number): Promise<TapeEvent[]> {
  const end = (page + 1) * PAGE;
  const events: TapeEvent[] = [];
  for (let after = page * PAGE; after < end;) {
    const body = await callApi(readEventsRoute, { podId, after, limit: end - after });
    events.push(...body.events);
    const last = body.events.at(-1)?.seq;
    if (last === undefined || body.events.length === end - after) break;
    after = last;
  }
  return events;
}

export function useTapeWindow(podId: string, live: TapeEvent[]) {
  // The caches belong to one pod, and fill only from it: a new pod starts from empty ones.
  const cache = useMemo(
    () => ({ podId, pages: new Map<number, TapeEvent[] | "loading">(), bySeq: new Map<number, TapeEvent>() }),
    [podId],
  );
  // Live events go in as they render (no second render per frame); fetched pages re-render through `loaded`.
  useMemo(() => live.forEach((e) => cache.bySeq.set(e.seq, e)), [live, cache]);
  const [version, loaded] = useState(0);

  /** Makes sure the events with seq in [from, to] are (being) loaded. */
  const ensure = useCallback(
    (from: number, to: number) => {
      for (
        let page = Math.floor((Math.max(1, from) - 1) / PAGE);
        page <= Math.floor((Math.max(1, to) - 1) / PAGE);
        page++
      ) {
        if (cache.pages.has(page)) continue;
        cache.pages.set(page, "loading");
        readPage(cache.podId, page)
          .then((events) => {
            // A page read while not yet full stays as read: later events arrive live.
            for (const e of events) cache.bySeq.set(e.seq, e);
            cache.pages.set(page, events);
            loaded((v) => v + 1);
          })
          .catch(() => cache.pages.delete(page));
      }
    },
    [cache],
  );

  const get = useCallback((seq: number) => cache.bySeq.get(seq), [cache]);
  /** Every event loaded so far (live and paged in); `version` changes when a page arrives. */
  const loadedEvents = useCallback(() => cache.bySeq.values(), [cache]);
  return { get, ensure, loadedEvents, version };
}
