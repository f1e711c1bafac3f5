"use client";
import type { TapeStatus } from "./use-live-tape";

const STATUS: Record<TapeStatus, { label: string; dot: string }> = {
  connecting: { label: "Connecting…", dot: "bg-zinc-400" },
  "catching-up": { label: "Catching up…", dot: "bg-sky-500 animate-pulse" },
  live: { label: "Live", dot: "bg-emerald-500" },
  offline: { label: "Reconnecting…", dot: "bg-amber-500 animate-pulse" },
  error: { label: "Error", dot: "bg-red-500" },
  ended: { label: "Access ended", dot: "bg-red-500" },
};

export function ConnectionState({ status }: { status: TapeStatus }) {
  return (
    <span
      className="flex items-center gap-1.5 text-sm"
      data-testid="connection-state"
      data-state={status}
      role="status"
    >
      <span aria-hidden className={`h-2 w-2 rounded-full ${STATUS[status].dot}`} />
      {STATUS[status].label}
    </span>
  );
}
