"use client";
import { useEffect, useMemo, useRef, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import type { PodStateView } from "@/server/wire/views";
import { callApi } from "../shared/api-client";
import { readPodStateRoute } from "../shared/api-routes";
import { TaskBoard } from "./task-board";

/**
 * How long the slider rests before the board asks for that seq (keys, or a value set at once). A
 * drag passes through hundreds of seqs; only where the person settles is worth a replay on the
 * server: while the pointer holds the thumb nothing is asked, and letting go asks at once.
 */
export const SETTLE_MS = 250;

/** The board now, or — with the scrubber — as it was at any earlier seq. */
export function BoardWithTimeTravel({
  podId,
  live,
  canAct,
}: {
  podId: string;
  live: PodStateView;
  canAct: boolean;
}) {
  // `draft` follows the thumb; `atSeq` is what was settled on and asked for (null: now).
  const [draft, setDraft] = useState<number | null>(null);
  const [atSeq, setAtSeq] = useState<number | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const held = useRef(false);
  useEffect(() => () => clearTimeout(timer.current), []);
  const settle = (seq: number | null, afterMs: number) => {
    clearTimeout(timer.current);
    if (afterMs === 0) setAtSeq(seq);
    else timer.current = setTimeout(() => setAtSeq(seq), afterMs);
  };
  const seqOf = (value: string) => (Number(value) >= live.seq ? null : Number(value));
  const past = useQuery({
    queryKey: ["state-at", podId, atSeq],
    enabled: atSeq !== null,
    // The signal is consumed, so a request the person has moved on from is cancelled, not awaited.
    queryFn: ({ signal }) => callApi(readPodStateRoute, { podId, atSeq: atSeq ?? undefined }, { signal }),
    placeholderData: (prev) => prev,
    staleTime: Infinity, // the past does not change
  });
  const shown = atSeq === null ? live : (past.data ?? live);
  const settled =
    draft === atSeq && (atSeq === null || (!past.isPlaceholderData && past.data?.seq === atSeq));
  const backToLive = () => (setDraft(null), settle(null, 0));
  const editable = canAct && atSeq === null;
  // The thumb moves the draft many times a second; the board (thousands of cards) renders only when what it shows changes.
  const board = useMemo(
    () => <TaskBoard state={shown} podId={podId} canAct={editable} />,
    [shown, podId, editable],
  );
  return (
    <div
      className="space-y-3"
      data-testid="time-travel"
      data-shown-seq={shown.seq}
      data-settled={settled ? "yes" : "no"}
      aria-busy={!settled}
    >
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <label htmlFor="time-travel" className="text-zinc-500">
          Time travel
        </label>
        <input
          id="time-travel"
          type="range"
          min={1}
          max={Math.max(1, live.seq)}
          value={draft ?? live.seq}
          onChange={(e) => {
            const seq = seqOf(e.target.value);
            setDraft(seq);
            if (!held.current) settle(seq, SETTLE_MS);
          }}
          onPointerDown={(e) => {
            held.current = true;
            // Wherever the pointer is let go (the thumb may be dragged off the slider), that is where it settled.
            const input = e.currentTarget;
            const release = () => {
              window.removeEventListener("pointerup", release);
              window.removeEventListener("pointercancel", release);
              held.current = false;
              settle(seqOf(input.value), 0);
            };
            window.addEventListener("pointerup", release);
            window.addEventListener("pointercancel", release);
          }}
          onKeyUp={(e) => settle(seqOf(e.currentTarget.value), 0)}
          className="w-64 max-w-full accent-zinc-900 dark:accent-zinc-100"
          aria-valuetext={draft === null ? "now" : `as of seq ${draft}`}
        />
        <span className="tabular-nums" data-testid="time-travel-label">
          {draft === null ? `now (#${live.seq})` : `as of #${draft}`}
        </span>
        {draft !== null && (
          <button
            onClick={backToLive}
            className="rounded-md border border-zinc-300 px-2 py-0.5 text-xs hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-800"
          >
            Back to live
          </button>
        )}
      </div>
      {atSeq !== null && (
        <p className="rounded-md bg-sky-50 px-3 py-1.5 text-sm text-sky-800 dark:bg-sky-950 dark:text-sky-300">
          Showing the board and inbox as of seq {shown.seq}; new events keep arriving in the tape.
        </p>
      )}
      {board}
      {atSeq !== null && (
        <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="inbox-then">
          Inbox then: {shown.inbox.length ? shown.inbox.map((i) => i.title).join(" · ") : "empty"}
        </p>
      )}
    </div>
  );
}
