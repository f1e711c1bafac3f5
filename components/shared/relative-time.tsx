"use client";
import { describeTime } from "./time-ago";
import { useClientNow } from "./use-client-now";

/** "12s ago" (or "in 7d" for a time to come), with the absolute time on hover; re-renders every 5 s. */
export function RelativeTime({ iso }: { iso: string }) {
  // The server (and hydration) render the absolute time.
  const { now, onClient } = useClientNow(5000);
  const date = new Date(iso);
  return (
    <time dateTime={iso} title={date.toLocaleString()} className="tabular-nums">
      {onClient ? describeTime(now - date.getTime()) : date.toLocaleTimeString()}
    </time>
  );
}
