"use client";
// One row of the virtualized tape: seq, actor, role, type, a one-line summary, age.
import type { TapeEvent } from "@/server/wire/events";
import { describeEvent } from "./describe-event";
import { RelativeTime } from "../shared/relative-time";

export const ROW_H = 40;

export function TapeRow({
  top,
  seq,
  event,
  selected,
  onSelect,
}: {
  top: number;
  seq: number | undefined;
  event: TapeEvent | undefined;
  selected: boolean;
  onSelect: (seq: number | undefined) => void;
}) {
  return (
    <li
      style={{ top, height: ROW_H }}
      className={`absolute inset-x-0 flex cursor-pointer items-center gap-2 border-b border-zinc-100 px-3 text-sm dark:border-zinc-800 ${selected ? "bg-sky-50 dark:bg-sky-950/50" : "hover:bg-zinc-50 dark:hover:bg-zinc-800/50"}`}
      onClick={() => onSelect(seq)}
      data-testid="tape-event"
      data-seq={seq}
      aria-current={selected ? "true" : undefined}
      id={seq ? `seq-${seq}` : undefined}
    >
      <span className="w-14 shrink-0 font-mono text-xs text-zinc-500 tabular-nums">#{seq}</span>
      {event ? (
        <>
          <span className="w-24 shrink-0 truncate text-xs font-medium sm:w-32" title={event.actor}>
            {event.actor}
          </span>
          <span className="hidden w-24 shrink-0 truncate text-xs text-zinc-500 md:inline">
            {event.role ?? ""}
          </span>
          <span className="hidden w-32 shrink-0 truncate rounded-full border border-zinc-200 px-2 text-center text-[11px] text-zinc-600 sm:inline dark:border-zinc-700 dark:text-zinc-400">
            {event.type}
          </span>
          <span className="min-w-0 flex-1 truncate">{summary(event)}</span>
          <span className="hidden shrink-0 text-xs text-zinc-500 sm:inline">
            <RelativeTime iso={event.receivedAt} />
          </span>
        </>
      ) : (
        <span className="h-3 flex-1 animate-pulse rounded bg-zinc-100 dark:bg-zinc-800" />
      )}
    </li>
  );
}

const summary = (e: TapeEvent): string => describeEvent(e.type, e.body) ?? e.type;
