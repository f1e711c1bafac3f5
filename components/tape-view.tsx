"use client";
import { useTapeFilter } from "./tape-filter-store";
import { useLiveTape, type TapeStatus } from "./use-live-tape";
import { EventBody } from "./event-body";
import { RelativeTime } from "./relative-time";

const STATUS: Record<TapeStatus, { label: string; dot: string }> = {
  connecting: { label: "Connecting…", dot: "bg-zinc-400" },
  "catching-up": { label: "Catching up…", dot: "bg-sky-500 animate-pulse" },
  live: { label: "Live", dot: "bg-emerald-500" },
  offline: { label: "Reconnecting…", dot: "bg-amber-500 animate-pulse" },
  error: { label: "Error", dot: "bg-red-500" },
};

const FILTERS = ["all", "checkpoint", "note"] as const;

export function TapeView({ podId }: { podId: string }) {
  const { events, status, error } = useLiveTape(podId);
  const { type, setType } = useTapeFilter();
  const shown = (type === "all" ? events : events.filter((e) => e.type === type)).slice().reverse();

  return (
    <section aria-label="Tape" className="space-y-3">
      <div className="flex flex-wrap items-center gap-3">
        <h2 className="text-sm font-semibold uppercase tracking-wide text-zinc-500">Tape</h2>
        <span className="flex items-center gap-1.5 text-sm" data-testid="connection-state" data-state={status} role="status">
          <span aria-hidden className={`h-2 w-2 rounded-full ${STATUS[status].dot}`} />
          {STATUS[status].label}
        </span>
        <div className="ml-auto flex rounded-md border border-zinc-200 p-0.5 text-sm dark:border-zinc-800" role="group" aria-label="Filter by type">
          {FILTERS.map((f) => (
            <button
              key={f}
              onClick={() => setType(f)}
              aria-pressed={type === f}
              className={`rounded px-2.5 py-1 capitalize ${type === f ? "bg-zinc-900 text-white dark:bg-zinc-100 dark:text-zinc-900" : "text-zinc-600 hover:bg-zinc-100 dark:text-zinc-400 dark:hover:bg-zinc-800"}`}
            >
              {f}
            </button>
          ))}
        </div>
      </div>
      {error && (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200">
          {error}
        </p>
      )}
      {shown.length === 0 && !error ? (
        <div className="rounded-lg border border-dashed border-zinc-300 p-8 text-center text-sm text-zinc-500 dark:border-zinc-700">
          {status === "live" ? "No events yet. Agents report with POST /api/v1/pods/{podId}/events." : "Loading the tape…"}
        </div>
      ) : (
        <ol className="divide-y divide-zinc-200 overflow-hidden rounded-lg border border-zinc-200 bg-white dark:divide-zinc-800 dark:border-zinc-800 dark:bg-zinc-900" data-testid="tape">
          {shown.map((e) => (
            <li key={e.seq} id={`seq-${e.seq}`} data-testid="tape-event" data-seq={e.seq} className="grid grid-cols-[3.5rem_1fr] gap-3 px-4 py-3">
              <div className="font-mono text-xs text-zinc-500 tabular-nums">#{e.seq}</div>
              <div className="min-w-0 space-y-1.5">
                <div className="flex flex-wrap items-center gap-2 text-xs">
                  <span className="font-medium text-zinc-900 dark:text-zinc-100">{e.actor}</span>
                  {e.role && <span className="rounded-full bg-zinc-100 px-2 py-0.5 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300">{e.role}</span>}
                  <span className="rounded-full border border-zinc-200 px-2 py-0.5 text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">{e.type}</span>
                  <span className="ml-auto text-zinc-500">
                    <RelativeTime iso={e.ts ?? e.receivedAt} />
                  </span>
                </div>
                <EventBody type={e.type} body={e.body} />
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
