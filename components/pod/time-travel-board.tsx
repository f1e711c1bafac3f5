"use client";
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import type { PodStateView } from "@/server/wire/views";
import { getJson } from "../shared/api-client";
import { TaskBoard } from "./task-board";

/** The board now, or — with the scrubber — as it was at any earlier seq. */
export function BoardWithTimeTravel({ podId, live, canAct }: { podId: string; live: PodStateView; canAct: boolean }) {
  const [atSeq, setAtSeq] = useState<number | null>(null);
  const past = useQuery({
    queryKey: ["state-at", podId, atSeq],
    enabled: atSeq !== null,
    queryFn: () => getJson<PodStateView>(`/api/v1/pods/${podId}/state?atSeq=${atSeq}`),
    placeholderData: (prev) => prev,
  });
  const shown = atSeq === null ? live : (past.data ?? live);
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <label htmlFor="time-travel" className="text-zinc-500">Time travel</label>
        <input
          id="time-travel"
          type="range"
          min={1}
          max={Math.max(1, live.seq)}
          value={atSeq ?? live.seq}
          onChange={(e) => setAtSeq(Number(e.target.value) >= live.seq ? null : Number(e.target.value))}
          className="w-64 max-w-full accent-zinc-900 dark:accent-zinc-100"
          aria-valuetext={atSeq === null ? "now" : `as of seq ${atSeq}`}
        />
        <span className="tabular-nums" data-testid="time-travel-label">{atSeq === null ? `now (#${live.seq})` : `as of #${atSeq}`}</span>
        {atSeq !== null && (
          <button onClick={() => setAtSeq(null)} className="rounded-md border border-zinc-300 px-2 py-0.5 text-xs hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-800">
            Back to live
          </button>
        )}
      </div>
      {atSeq !== null && <p className="rounded-md bg-sky-50 px-3 py-1.5 text-sm text-sky-800 dark:bg-sky-950 dark:text-sky-300">Showing the board and inbox as of seq {shown.seq}; new events keep arriving in the tape.</p>}
      <TaskBoard state={shown} podId={podId} canAct={canAct && atSeq === null} />
      {atSeq !== null && (
        <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="inbox-then">Inbox then: {shown.inbox.length ? shown.inbox.map((i) => i.title).join(" · ") : "empty"}</p>
      )}
    </div>
  );
}
