"use client";
// The tape: a virtualized list (only visible rows are rendered, so a pod with
// 100,000 events scrolls like one with 10), filters, text search, a details
// pane, deep links (?tab=tape&seq=N) and j/k to move through events.
import { useRouter, useSearchParams } from "next/navigation";
import { useEffect, useMemo, useRef, useState } from "react";
import type { TapeEvent } from "@/server/wire/events";
import { EVENT_TYPES, ROLES } from "@/server/wire/events";
import { isFiltered, useTapeFilter } from "./tape-filter-store";
import type { useLiveTape, TapeStatus } from "./use-live-tape";
import { useTapeWindow } from "./use-tape-window";
import { useTapeSearch } from "./use-tape-search";
import { describeEvent } from "./describe-event";
import { EventBody } from "./event-body";
import { RelativeTime } from "../shared/relative-time";

const ROW_H = 40;
const OVERSCAN = 12;

const STATUS: Record<TapeStatus, { label: string; dot: string }> = {
  connecting: { label: "Connecting…", dot: "bg-zinc-400" },
  "catching-up": { label: "Catching up…", dot: "bg-sky-500 animate-pulse" },
  live: { label: "Live", dot: "bg-emerald-500" },
  offline: { label: "Reconnecting…", dot: "bg-amber-500 animate-pulse" },
  error: { label: "Error", dot: "bg-red-500" },
};

/** `liveTape` is the pod page's one live subscription (the other tabs need it too). */
export function TapeView({ podId, liveTape }: { podId: string; liveTape: ReturnType<typeof useLiveTape> }) {
  const params = useSearchParams();
  const router = useRouter();
  const { events: live, status, error } = liveTape;
  const head = live.at(-1)?.seq ?? 0;
  const tape = useTapeWindow(podId, live);
  const { filter, set, clear } = useTapeFilter();
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

  const input = "rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-950";
  return (
    <section aria-label="Tape" className="space-y-3">
      <div className="flex flex-wrap items-center gap-3">
        <span className="flex items-center gap-1.5 text-sm" data-testid="connection-state" data-state={status} role="status">
          <span aria-hidden className={`h-2 w-2 rounded-full ${STATUS[status].dot}`} />
          {STATUS[status].label}
        </span>
        <span className="text-sm text-zinc-500 tabular-nums" data-testid="tape-count">
          {filtered ? `${results.length}${search.hasNextPage ? "+" : ""} matching` : `${head.toLocaleString()} events`}
        </span>
        <span className="ml-auto hidden text-xs text-zinc-500 sm:inline">j/k to move · click for details</span>
      </div>
      <form className="flex flex-wrap gap-2" role="search" aria-label="Filter the tape" onSubmit={(e) => e.preventDefault()}>
        <select aria-label="Type" value={filter.type} onChange={(e) => set({ type: e.target.value })} className={input}>
          <option value="">All types</option>
          {EVENT_TYPES.map((t) => <option key={t} value={t}>{t}</option>)}
        </select>
        <select aria-label="Role" value={filter.role} onChange={(e) => set({ role: e.target.value })} className={input}>
          <option value="">All roles</option>
          {ROLES.map((r) => <option key={r} value={r}>{r}</option>)}
        </select>
        <input aria-label="Actor" placeholder="Actor" value={filter.actor} onChange={(e) => set({ actor: e.target.value })} className={`${input} w-32`} />
        <input aria-label="Task" placeholder="Task" value={filter.taskId} onChange={(e) => set({ taskId: e.target.value })} className={`${input} w-28`} />
        <input aria-label="Run" placeholder="Run" value={filter.runId} onChange={(e) => set({ runId: e.target.value })} className={`${input} w-24`} />
        <input aria-label="Search text" type="search" placeholder="Search text…" value={filter.q} onChange={(e) => set({ q: e.target.value })} className={`${input} min-w-40 flex-1`} />
        {filtered && <button type="button" onClick={clear} className="rounded-md px-2 py-1 text-sm text-zinc-600 hover:bg-zinc-100 dark:text-zinc-400 dark:hover:bg-zinc-800">Clear</button>}
      </form>
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
        >
          {count === 0 ? (
            <p className="p-8 text-center text-sm text-zinc-500">
              {filtered ? (search.isFetching ? "Searching…" : "No event matches these filters.") : status === "live" ? "No events yet. Agents report with POST /api/v1/pods/{podId}/events." : "Loading the tape…"}
            </p>
          ) : (
            <ol style={{ height: count * ROW_H }} className="relative" aria-label="Events, newest first">
              {Array.from({ length: Math.max(0, last - first + 1) }, (_, k) => first + k).map((i) => (
                <Row key={seqAt(i) ?? `i${i}`} top={i * ROW_H} seq={seqAt(i)} event={eventAt(i)} selected={selected === seqAt(i)} onSelect={select} />
              ))}
            </ol>
          )}
        </div>
        <aside aria-label="Event details" className="rounded-lg border border-zinc-200 bg-white p-3 text-sm lg:sticky lg:top-14 lg:max-h-[65vh] lg:overflow-y-auto dark:border-zinc-800 dark:bg-zinc-900" data-testid="event-details">
          {selectedEvent ? <Details event={selectedEvent} /> : <p className="text-zinc-500">Select an event to see everything it says, its hash and its link.</p>}
        </aside>
      </div>
    </section>
  );
}

function Row({ top, seq, event, selected, onSelect }: { top: number; seq: number | undefined; event: TapeEvent | undefined; selected: boolean; onSelect: (seq: number | undefined) => void }) {
  return (
    <li
      style={{ top, height: ROW_H }}
      className={`absolute inset-x-0 flex cursor-pointer items-center gap-2 border-b border-zinc-100 px-3 text-sm dark:border-zinc-800 ${selected ? "bg-sky-50 dark:bg-sky-950/50" : "hover:bg-zinc-50 dark:hover:bg-zinc-800/50"}`}
      onClick={() => onSelect(seq)}
      data-testid="tape-event"
      data-seq={seq}
      aria-selected={selected}
      id={seq ? `seq-${seq}` : undefined}
    >
      <span className="w-14 shrink-0 font-mono text-xs text-zinc-500 tabular-nums">#{seq}</span>
      {event ? (
        <>
          <span className="w-24 shrink-0 truncate text-xs font-medium sm:w-32" title={event.actor}>{event.actor}</span>
          <span className="hidden w-24 shrink-0 truncate text-xs text-zinc-500 md:inline">{event.role ?? ""}</span>
          <span className="hidden w-32 shrink-0 truncate rounded-full border border-zinc-200 px-2 text-center text-[11px] text-zinc-600 sm:inline dark:border-zinc-700 dark:text-zinc-400">{event.type}</span>
          <span className="min-w-0 flex-1 truncate">{summary(event)}</span>
          <span className="hidden shrink-0 text-xs text-zinc-500 sm:inline"><RelativeTime iso={event.receivedAt} /></span>
        </>
      ) : (
        <span className="h-3 flex-1 animate-pulse rounded bg-zinc-100 dark:bg-zinc-800" />
      )}
    </li>
  );
}

const summary = (e: TapeEvent): string => describeEvent(e.type, e.body) ?? e.type;

function Details({ event }: { event: TapeEvent }) {
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-mono text-xs text-zinc-500">#{event.seq}</span>
        <span className="font-medium">{event.actor}</span>
        {event.role && <span className="rounded-full bg-zinc-100 px-2 text-xs dark:bg-zinc-800">{event.role}</span>}
        <span className="rounded-full border border-zinc-200 px-2 text-xs dark:border-zinc-700">{event.type}</span>
      </div>
      <p className="text-xs text-zinc-500">
        received <RelativeTime iso={event.receivedAt} /> ({new Date(event.receivedAt).toLocaleString()})
        {/* The agent's own clock, shown as its claim: ages and ordering follow the server's receipt. */}
        {event.ts && <> · agent says {event.ts}</>}
      </p>
      <EventBody type={event.type} body={event.body} />
      {event.meta && <p className="text-xs text-zinc-500">{Object.entries(event.meta).map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(", ") : v}`).join(" · ")}</p>}
      <dl className="space-y-0.5 font-mono text-[10px] text-zinc-500">
        <div className="truncate" title={event.id}>id {event.id}</div>
        <div className="truncate" title={event.hash}>hash {event.hash}</div>
        <div className="truncate" title={event.prevHash}>prev {event.prevHash}</div>
      </dl>
    </div>
  );
}
