"use client";
// The tape: a virtualized list (only visible rows are rendered, so a pod with
// 100,000 events scrolls like one with 10), filters, text search, a details
// pane, deep links (?tab=tape&seq=N) and j/k to move through events. An agent's
// turn (a prompt and its tool calls) is one row until expanded (tape-rows.ts).
import { useRouter, useSearchParams } from "next/navigation";
import { useEffect, useMemo, useRef, useState } from "react";
import type { TapeEvent } from "@/server/wire/events";
import { isFiltered, useTapeFilter, useTapeGrouping } from "./tape-filter-store";
import type { useLiveTape } from "./use-live-tape";
import { useTapeWindow } from "./use-tape-window";
import { useTapeSearch } from "./use-tape-search";
import { ConnectionState } from "./connection-state";
import { TapeFilters } from "./tape-filters";
import { ROW_H, TapeRow } from "./tape-row";
import { EventDetails } from "./event-details";
import { buildTapeRows, type TapeListRow, type TapeRowModel } from "./tape-rows";
import { CallRow, InnerRow, TurnRow } from "./turn-row";

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

  const { grouped, setGrouped } = useTapeGrouping();
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const toggle = (key: string) =>
    setExpanded((x) => (x.has(key) ? new Set([...x].filter((k) => k !== key)) : new Set([...x, key])));
  const { loadedEvents, version } = tape;
  const rows: TapeRowModel = useMemo(
    () => (filtered ? listRows(results) : buildTapeRows({ head, loaded: loadedEvents(), grouped, expanded })),
    // `live` and `version`: the loaded events changed (the cache itself is mutable).
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [filtered, results, head, grouped, expanded, live, version, loadedEvents],
  );

  const linked = Number(params.get("seq")) || null;
  const [selected, setSelected] = useState<number | null>(linked);
  const count = rows.count;
  const seqAt = (i: number) => rows.at(i)?.seq;
  // The row showing the selected event is marked, also when it is a folded turn's.
  const selectedIndex = selected === null ? -1 : rows.indexOf(selected);

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
    if (!filtered && count > 0) {
      const spans = [rows.at(first), rows.at(last)]
        .filter((r): r is TapeListRow => r !== undefined)
        .map(rows.span);
      if (spans.length) tape.ensure(Math.min(...spans.map((s) => s[0])), Math.max(...spans.map((s) => s[1])));
    }
    if (filtered && last >= results.length - OVERSCAN && search.hasNextPage && !search.isFetchingNextPage)
      void search.fetchNextPage();
  }, [first, last, filtered, count, results.length, search, tape, rows]);

  // Deep link: once the tape is known, scroll the linked event into view.
  const scrolledTo = useRef<number | null>(null);
  useEffect(() => {
    if (!linked || filtered || !head || scrolledTo.current === linked) return;
    scrolledTo.current = linked;
    setSelected(linked);
    scroller.current?.scrollTo({ top: Math.max(0, rows.indexOf(linked) * ROW_H - 3 * ROW_H) });
  }, [linked, head, filtered, rows]);

  const select = (seq: number | undefined) => {
    if (seq === undefined) return;
    setSelected(seq);
    router.replace(`?tab=tape&seq=${seq}`, { scroll: false });
    const i = rows.indexOf(seq);
    const el = scroller.current;
    if (el && i >= 0) {
      if (i * ROW_H < el.scrollTop) el.scrollTop = i * ROW_H;
      else if ((i + 1) * ROW_H > el.scrollTop + el.clientHeight)
        el.scrollTop = (i + 1) * ROW_H - el.clientHeight;
    }
  };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const tag = (e.target as HTMLElement).tagName;
      if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || e.metaKey || e.ctrlKey) return;
      if (e.key !== "j" && e.key !== "k") return;
      const i = selectedIndex;
      const next = Math.max(0, Math.min(count - 1, i + (e.key === "j" ? 1 : -1)));
      select(seqAt(next));
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });

  const selectedEvent =
    selected === null
      ? undefined
      : ((filtered ? results.find((e) => e.seq === selected) : undefined) ?? tape.get(selected));
  useEffect(() => {
    if (selected !== null && !selectedEvent) tape.ensure(selected, selected);
  }, [selected, selectedEvent, tape]);

  return (
    <section aria-label="Tape" className="space-y-3">
      <div className="flex flex-wrap items-center gap-3">
        <ConnectionState status={status} />
        <span className="text-sm text-zinc-500 tabular-nums" data-testid="tape-count">
          {filtered
            ? `${results.length}${search.hasNextPage ? "+" : ""} matching`
            : `${head.toLocaleString()} events`}
        </span>
        <label className="ml-auto flex items-center gap-1.5 text-sm text-zinc-600 dark:text-zinc-400">
          <input
            type="checkbox"
            checked={grouped}
            onChange={(e) => setGrouped(e.target.checked)}
            data-testid="group-turns"
          />
          Group agent turns
        </label>
        <span className="hidden text-xs text-zinc-500 sm:inline">j/k to move · click for details</span>
      </div>
      <TapeFilters />
      {(error || search.isError) && (
        <p
          role="alert"
          className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200"
        >
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
              {filtered
                ? search.isFetching
                  ? "Searching…"
                  : "No event matches these filters."
                : status === "live"
                  ? "No events yet. Agents report with POST /api/v1/pods/{podId}/events."
                  : "Loading the tape…"}
            </p>
          ) : (
            <ol style={{ height: count * ROW_H }} className="relative" aria-label="Events, newest first">
              {Array.from({ length: Math.max(0, last - first + 1) }, (_, k) => first + k).map((i) => {
                const row = rows.at(i);
                if (!row) return null;
                const props = { top: i * ROW_H, selected: i === selectedIndex, onSelect: select };
                if (row.kind === "turn")
                  return (
                    <TurnRow
                      key={row.key}
                      {...props}
                      seq={row.seq}
                      turn={row.turn}
                      expanded={row.expanded}
                      onToggle={() => toggle(row.turn.key)}
                    />
                  );
                if (row.kind === "call")
                  return <CallRow key={row.key} {...props} seq={row.seq} call={row.call} />;
                if (row.kind === "inner") return <InnerRow key={row.key} {...props} event={row.event} />;
                return <TapeRow key={row.key} {...props} seq={row.seq} event={row.event} />;
              })}
            </ol>
          )}
        </div>
        <aside
          aria-label="Event details"
          className="rounded-lg border border-zinc-200 bg-white p-3 text-sm lg:sticky lg:top-14 lg:max-h-[65vh] lg:overflow-y-auto dark:border-zinc-800 dark:bg-zinc-900"
          data-testid="event-details"
        >
          {selectedEvent ? (
            <EventDetails event={selectedEvent} />
          ) : (
            <p className="text-zinc-500">Select an event to see everything it says, its hash and its link.</p>
          )}
        </aside>
      </div>
    </section>
  );
}

/** Search results as rows, one per event (newest first, as the server pages them). */
function listRows(results: TapeEvent[]): TapeRowModel {
  const index = new Map(results.map((e, i) => [e.seq, i]));
  return {
    count: results.length,
    at: (i) =>
      results[i]
        ? { kind: "event", key: `e${results[i].seq}`, seq: results[i].seq, event: results[i] }
        : undefined,
    indexOf: (seq) => index.get(seq) ?? -1,
    span: (row) => [row.seq, row.seq],
  };
}
