"use client";
// The reader's clock. The server's clock is not the reader's, so the server (and hydration)
// render without it: each caller says what to show then.
import { useEffect, useState, useSyncExternalStore } from "react";

const noSubscription = () => () => {};

/** Whether this render is in the browser (false on the server and during hydration). */
export function useOnClient(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

/**
 * The time in ms, ticking every `everyMs`. Until `onClient`, the server renders (or hydration
 * matches) the page: show nothing there that depends on whose clock it is.
 */
export function useClientNow(everyMs: number): { now: number; onClient: boolean } {
  const onClient = useOnClient();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(t);
  }, [everyMs]);
  return { now, onClient };
}
