"use client";
// The pod's signals as server state, for a period. All time is keyed under the pod's state, so what
// follows the state follows it too: the pod's change notices (usePodState, which the pod page
// mounts around this tab, reads it again at most every 2 s while events arrive) and any action
// taken here (useAction); a refetch every minute heals a dropped notification. A window is recomputed from the whole tape, so it is not refetched on every event:
// its key moves with the minute (periodWindow rounds `to` up), which refetches it about once a
// minute, the last figures kept on screen meanwhile; a busy server is retried once (fetch-signals).
import { useSyncExternalStore } from "react";
import { useQuery } from "@tanstack/react-query";
import { fetchPodSignals, shouldRetrySignals, signalsRetryDelay } from "./fetch-signals";
import { periodWindow, type Period } from "./signals-period";

const MINUTE_MS = 60_000;

/** Now to the minute (rounded up): read afresh on every render, and re-rendered as the minute turns while `ticking`. */
const thisMinute = () => Math.ceil(Date.now() / MINUTE_MS) * MINUTE_MS;
const everyFewSeconds = (onChange: () => void) => {
  const timer = setInterval(onChange, 5_000);
  return () => clearInterval(timer);
};
const never = () => () => {};
const useMinuteClock = (ticking: boolean) =>
  useSyncExternalStore(ticking ? everyFewSeconds : never, thisMinute, thisMinute);

export function usePodSignals(podId: string, period: Period = "all") {
  const now = useMinuteClock(period !== "all");
  const range = periodWindow(period, now);
  return useQuery({
    queryKey: range ? ["signals-window", podId, period, range.from, range.to] : ["state", podId, "signals"],
    queryFn: () => fetchPodSignals(podId, range),
    refetchInterval: range ? false : MINUTE_MS,
    retry: shouldRetrySignals,
    retryDelay: signalsRetryDelay,
    // The same period a minute on: keep showing the last figures while the new window loads.
    placeholderData: (previous, previousQuery) =>
      range && previousQuery?.queryKey[0] === "signals-window" && previousQuery.queryKey[2] === period
        ? previous
        : undefined,
  });
}
