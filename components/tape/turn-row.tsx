"use client";
// An agent turn on the tape as one row ("Turn · 14 tool calls (Bash 6, …) · 2 failed · 1m 12s"),
// a button that expands it, and the rows of its calls: tool, input, outcome, duration, gate.
import type { TapeEvent } from "@/server/wire/events";
import { describeTurn, formatDuration, type Gate, type ToolCallView, type Turn } from "./group-turns";
import { describeEvent } from "./describe-event";
import { RelativeTime } from "../shared/relative-time";
import { ROW_H } from "./tape-row";

const rowClass = (selected: boolean) =>
  `absolute inset-x-0 flex items-center gap-2 border-b border-zinc-100 px-3 text-sm dark:border-zinc-800 ${selected ? "bg-sky-50 dark:bg-sky-950/50" : "hover:bg-zinc-50 dark:hover:bg-zinc-800/50"}`;

export function TurnRow({
  top,
  turn,
  seq,
  expanded,
  selected,
  onToggle,
  onSelect,
}: {
  top: number;
  turn: Turn;
  seq: number;
  expanded: boolean;
  selected: boolean;
  onToggle: () => void;
  onSelect: (seq: number) => void;
}) {
  const summary = describeTurn(turn);
  const prompt = turn.prompt ? describeEvent("prompt.submitted", turn.prompt.body) : null;
  return (
    <li
      style={{ top, height: ROW_H }}
      className={rowClass(selected)}
      data-testid="tape-turn"
      data-seq={seq}
      data-session={turn.sessionId}
      aria-current={selected ? "true" : undefined}
      id={`seq-${seq}`}
    >
      <span className="w-14 shrink-0 font-mono text-xs text-zinc-500 tabular-nums">#{seq}</span>
      <span className="w-24 shrink-0 truncate text-xs font-medium sm:w-32" title={turn.actor}>
        {turn.actor}
      </span>
      <button
        type="button"
        aria-expanded={expanded}
        onClick={() => {
          onToggle();
          onSelect(seq);
        }}
        className="flex min-w-0 flex-1 items-center gap-2 rounded text-left focus-visible:outline-2 focus-visible:outline-sky-600"
      >
        <span aria-hidden className="w-3 shrink-0 text-xs text-zinc-500">
          {expanded ? "▾" : "▸"}
        </span>
        <span className="min-w-0 truncate font-medium" data-testid="turn-summary" title={summary}>
          {summary}
        </span>
        {prompt && (
          <span className="hidden min-w-0 flex-1 truncate text-zinc-500 md:inline">
            — {prompt.replace(/^Prompt: /, "")}
          </span>
        )}
      </button>
      <span className="hidden shrink-0 text-xs text-zinc-500 sm:inline">
        <RelativeTime iso={turn.events.at(-1)!.receivedAt} />
      </span>
    </li>
  );
}

const OUTCOME: Record<ToolCallView["outcome"], { text: string; tone: string }> = {
  succeeded: { text: "✓ ok", tone: "text-emerald-700 dark:text-emerald-400" },
  failed: { text: "✗ failed", tone: "text-red-700 dark:text-red-400" },
  running: { text: "… running", tone: "text-zinc-500" },
};

function GateBadge({ gate }: { gate: Gate }) {
  const tone =
    gate.decision === "allow"
      ? "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-300"
      : "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-300";
  return (
    <span className={`shrink-0 rounded px-1.5 text-[11px] ${tone}`} title={gate.reason}>
      {gate.decision === "allow" ? "allowed" : "denied"} by {gate.by}
    </span>
  );
}

export function CallRow({
  top,
  call,
  seq,
  selected,
  onSelect,
}: {
  top: number;
  call: ToolCallView;
  seq: number;
  selected: boolean;
  onSelect: (seq: number) => void;
}) {
  const outcome = OUTCOME[call.outcome];
  return (
    <li
      style={{ top, height: ROW_H }}
      className={`${rowClass(selected)} cursor-pointer pl-10`}
      onClick={() => onSelect(seq)}
      data-testid="tape-call"
      data-seq={seq}
      data-tool-use-id={call.toolUseId}
      aria-current={selected ? "true" : undefined}
    >
      <span className="shrink-0 rounded bg-zinc-100 px-1.5 font-mono text-xs dark:bg-zinc-800">
        {call.tool}
      </span>
      <span
        className="min-w-0 flex-1 truncate font-mono text-xs text-zinc-700 dark:text-zinc-300"
        title={call.input ?? undefined}
      >
        {call.input ?? ""}
      </span>
      {call.gates.map((g, k) => (
        <GateBadge key={k} gate={g} />
      ))}
      <span className={`shrink-0 text-xs ${outcome.tone}`} title={call.error ?? undefined}>
        {outcome.text}
      </span>
      <span className="w-14 shrink-0 text-right text-xs text-zinc-500 tabular-nums">
        {call.durationMs !== null ? formatDuration(call.durationMs) : ""}
      </span>
    </li>
  );
}

/** Another event of an expanded turn (a notification, a subagent, usage), indented under it. */
export function InnerRow({
  top,
  event,
  selected,
  onSelect,
}: {
  top: number;
  event: TapeEvent;
  selected: boolean;
  onSelect: (seq: number) => void;
}) {
  return (
    <li
      style={{ top, height: ROW_H }}
      className={`${rowClass(selected)} cursor-pointer pl-10`}
      onClick={() => onSelect(event.seq)}
      data-testid="tape-event"
      data-seq={event.seq}
      aria-current={selected ? "true" : undefined}
    >
      <span className="shrink-0 rounded-full border border-zinc-200 px-2 text-[11px] text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
        {event.type}
      </span>
      <span className="min-w-0 flex-1 truncate text-xs">
        {describeEvent(event.type, event.body) ?? event.type}
      </span>
    </li>
  );
}
