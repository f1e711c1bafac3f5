"use client";
// An inbox item's deadline: the time left and what happens then, ticking every second; once
// a reminder deadline has passed, "overdue".
import { useClientNow } from "../shared/use-client-now";
import type { InboxCard } from "@/server/wire/views";

function left(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, "0")}s`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h ${String(m % 60).padStart(2, "0")}m`;
  return `${Math.floor(h / 24)}d ${h % 24}h`;
}

/** What passing the deadline does, in words. */
export function dueOutcome(due: NonNullable<InboxCard["due"]>): string {
  if (due.then === "remind") return "reminder";
  if (due.then === "reject") return "rejected";
  return `answers “${due.answer}”`;
}

export function DueBadge({ due }: { due: NonNullable<InboxCard["due"]> }) {
  const { now, onClient } = useClientNow(1000);
  const at = Date.parse(due.at);
  const overdue = due.passed || at <= now;
  const what = dueOutcome(due);
  const label = due.passed
    ? "deadline passed: overdue"
    : overdue
      ? `deadline reached: ${what} now`
      : `${what} in ${left(at - now)}`;
  return (
    <span
      data-testid="inbox-due"
      title={`Deadline ${new Date(at).toLocaleString()}: ${what}`}
      className={`rounded px-1.5 py-0.5 text-[11px] font-medium tabular-nums ${overdue ? "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-300" : "bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-300"}`}
    >
      {onClient
        ? label
        : `deadline ${new Date(at).toISOString().slice(0, 16).replace("T", " ")} UTC: ${what}`}
    </span>
  );
}
