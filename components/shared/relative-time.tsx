"use client";
import { useEffect, useState, useSyncExternalStore } from "react";
import { describeTime } from "./time-ago";

const noSubscription = () => () => {};

/** "12s ago" (or "in 7d" for a time to come), with the absolute time on hover; re-renders every 5 s. */
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
      {onClient ? describeTime(now - date.getTime()) : date.toLocaleTimeString()}
    </time>
  );
}
