"use client";
// Random access to a tape of any length, for the virtualized list: events are
// fetched in pages of PAGE seqs when rows come into view, and cached (a stored
// event never changes). Live events arrive through the socket hook.
import { useCallback, useEffect, useRef, useState } from "react";
import type { TapeEvent } from "@/server/wire/events";

export const PAGE = 200;

export function useTapeWindow(podId: string, live: TapeEvent[]) {
  const pages = useRef(new Map<number, TapeEvent[] | "loading">());
  const bySeq = useRef(new Map<number, TapeEvent>());
  const [version, setVersion] = useState(0);

  useEffect(() => {
    for (const e of live) bySeq.current.set(e.seq, e);
    setVersion((v) => v + 1);
  }, [live]);

  useEffect(() => {
    pages.current.clear();
    bySeq.current.clear();
  }, [podId]);

  /** Makes sure the events with seq in [from, to] are (being) loaded. */
  const ensure = useCallback(
    (from: number, to: number) => {
      for (let page = Math.floor((Math.max(1, from) - 1) / PAGE); page <= Math.floor((Math.max(1, to) - 1) / PAGE); page++) {
        if (pages.current.has(page)) continue;
        pages.current.set(page, "loading");
        fetch(`/api/v1/pods/${encodeURIComponent(podId)}/events?after=${page * PAGE}&limit=${PAGE}`, { cache: "no-store" })
          .then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))))
          .then((body: { events: TapeEvent[] }) => {
            // A page read while not yet full stays as read: later events arrive live.
            for (const e of body.events) bySeq.current.set(e.seq, e);
            pages.current.set(page, body.events);
            setVersion((v) => v + 1);
          })
          .catch(() => pages.current.delete(page));
      }
    },
    [podId],
  );

  const get = useCallback((seq: number) => bySeq.current.get(seq), []);
  return { get, ensure, version };
}
