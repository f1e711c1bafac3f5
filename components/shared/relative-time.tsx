"use client";
import { useEffect, useState, useSyncExternalStore } from "react";

function describe(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 5) return "just now";
  if (s < 60) return `${s}s ago`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m}m ago`;
  const h = Math.round(m / 60);
  if (h < 48) return `${h}h ago`;
  return `${Math.round(h / 24)}d ago`;
}

const noSubscription = () => () => {};

/** "12s ago", with the absolute time on hover; re-renders every 5 s. */
export function RelativeTime({ iso }: { iso: string }) {
  // The server's clock is not the reader's: the server (and hydration) render the absolute time.
  const onClient = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 5000);
    return () => clearInterval(t);
  }, []);
  const date = new Date(iso);
  return (
    <time dateTime={iso} title={date.toLocaleString()} className="tabular-nums">
      {onClient ? describe(now - date.getTime()) : date.toLocaleTimeString()}
    </time>
  );
}
