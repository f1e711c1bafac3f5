"use client";
// The tape: a virtualized list (only visible rows are rendered, so a pod with
// 100,000 events scrolls like one with 10), filters, text search, a details
// pane, deep links (?tab=tape&seq=N) and j/k to move through events.
import { useRouter, useSearchParams } from "next/navigation";
import { useEffect, useMemo, useRef, useState } from "react";
import type { TapeEvent } from "@/server/wire/events";
import { isFiltered, useTapeFilter } from "./tape-filter-store";
import type { useLiveTape } from "./use-live-tape";
import { useTapeWindow } from "./use-tape-window";
import { useTapeSearch } from "./use-tape-search";
import { ConnectionState } from "./connection-state";
import { TapeFilters } from "./tape-filters";
import { ROW_H, TapeRow } from "./tape-row";
import { EventDetails } from "./event-details";

const OVERSCAN = 12;

/** `liveTape` is the pod page's one live subscription (the other tabs need it too). */
export function TapeView({ podId, liveTape }: { podId: string; liveTape: ReturnType<typeof useLiveTape> }) {
  const params = useSearchParams();
  const router = useRouter();
  const { events: live, status, error } = liveTape;
  const head = live.at(-1)?.seq ?? 0;
  const tape = useTapeWindow(podId, live);
  const { filter } = useTapeFilter();
  const filtered = isFiltered(filter);
  const search = useTapeSearch(podId, filter, filtered, head);
  const results = useMemo(() => search.data?.pages.flatMap((p) => p.events) ?? [], [search.data]);

  const linked = Number(params.get("seq")) || null;
  const [selected, setSelected] = useState<number | null>(linked);
  const count = filtered ? results.length : head;
  const seqAt = (i: number) => (filtered ? results[i]?.seq : head - i);
  const eventAt = (i: number): TapeEvent | undefined => (filtered ? results[i] : tape.get(head - i));

  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(600);
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setHeight(el.clientHeight));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const first = Math.max(0, Math.floor(scrollTop / ROW_H) - OVERSCAN);
  const last = Math.min(count - 1, Math.ceil((scrollTop + height) / ROW_H) + OVERSCAN);
  useEffect(() => {
    if (!filtered && count > 0) tape.ensure(head - last, head - first);
    if (filtered && last >= results.length - OVERSCAN && search.hasNextPage && !search.isFetchingNextPage) void search.fetchNextPage();
  }, [first, last, head, filtered, count, results.length, search, tape]);

  // Deep link: once the tape is known, scroll the linked event into view.
  const scrolledTo = useRef<number | null>(null);
  useEffect(() => {
    if (!linked || filtered || !head || scrolledTo.current === linked) return;
    scrolledTo.current = linked;
    setSelected(linked);
    scroller.current?.scrollTo({ top: Math.max(0, (head - linked) * ROW_H - 3 * ROW_H) });
  }, [linked, head, filtered]);

  const select = (seq: number | undefined) => {
    if (seq === undefined) return;
    setSelected(seq);
    router.replace(`?tab=tape&seq=${seq}`, { scroll: false });
    const i = filtered ? results.findIndex((e) => e.seq === seq) : head - seq;
    const el = scroller.current;
    if (el && i >= 0) {
      if (i * ROW_H < el.scrollTop) el.scrollTop = i * ROW_H;
      else if ((i + 1) * ROW_H > el.scrollTop + el.clientHeight) el.scrollTop = (i + 1) * ROW_H - el.clientHeight;
    }
  };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const tag = (e.target as HTMLElement).tagName;
      if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || e.metaKey || e.ctrlKey) return;
      if (e.key !== "j" && e.key !== "k") return;
      const i = selected === null ? -1 : filtered ? results.findIndex((r) => r.seq === selected) : head - selected;
      const next = Math.max(0, Math.min(count - 1, i + (e.key === "j" ? 1 : -1)));
      select(seqAt(next));
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });

  const selectedEvent = selected === null ? undefined : (filtered ? results.find((e) => e.seq === selected) : undefined) ?? tape.get(selected);
  useEffect(() => {
    if (selected !== null && !selectedEvent) tape.ensure(selected, selected);
  }, [selected, selectedEvent, tape]);

  return (
    <section aria-label="Tape" className="space-y-3">
      <div className="flex flex-wrap items-center gap-3">
        <ConnectionState status={status} />
        <span className="text-sm text-zinc-500 tabular-nums" data-testid="tape-count">
          {filtered ? `${results.length}${search.hasNextPage ? "+" : ""} matching` : `${head.toLocaleString()} events`}
        </span>
        <span className="ml-auto hidden text-xs text-zinc-500 sm:inline">j/k to move · click for details</span>
      </div>
      <TapeFilters />
      {(error || search.isError) && (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200">
          {error ?? search.error?.message}
        </p>
      )}
      <div className="grid gap-3 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div
          ref={scroller}
          onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
          className="relative h-[65vh] min-h-64 overflow-y-auto rounded-lg border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900"
          data-testid="tape"
          tabIndex={0}
          role="region"
          aria-label="Tape"
        >
          {count === 0 ? (
            <p className="p-8 text-center text-sm text-zinc-500">
              {filtered ? (search.isFetching ? "Searching…" : "No event matches these filters.") : status === "live" ? "No events yet. Agents report with POST /api/v1/pods/{podId}/events." : "Loading the tape…"}
            </p>
          ) : (
            <ol style={{ height: count * ROW_H }} className="relative" aria-label="Events, newest first">
              {Array.from({ length: Math.max(0, last - first + 1) }, (_, k) => first + k).map((i) => (
                <TapeRow key={seqAt(i) ?? `i${i}`} top={i * ROW_H} seq={seqAt(i)} event={eventAt(i)} selected={selected === seqAt(i)} onSelect={select} />
              ))}
            </ol>
          )}
        </div>
        <aside aria-label="Event details" className="rounded-lg border border-zinc-200 bg-white p-3 text-sm lg:sticky lg:top-14 lg:max-h-[65vh] lg:overflow-y-auto dark:border-zinc-800 dark:bg-zinc-900" data-testid="event-details">
          {selectedEvent ? <EventDetails event={selectedEvent} /> : <p className="text-zinc-500">Select an event to see everything it says, its hash and its link.</p>}
        </aside>
      </div>
    </section>
  );
}
