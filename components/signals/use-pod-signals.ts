"use client";
// The pod's signals as server state: refetched shortly after the tape moves (one fetch per burst
// of frames) and every minute as a backstop, like the pod's state (use-pod-state.ts).
import { useEffect } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { PodSignalsView } from "@/server/wire/signals";
import { getSocket } from "../shared/socket-client";
import { getJson } from "../shared/api-client";

/** Signals are heavier than the board: wait a little longer for a burst of events to end. */
const DEBOUNCE_MS = 400;

export function usePodSignals(podId: string) {
  const qc = useQueryClient();
  useEffect(() => {
    const socket = getSocket();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onFrame = (f: { podId: string }) => {
      if (f.podId !== podId || timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        void qc.invalidateQueries({ queryKey: ["signals", podId] });
      }, DEBOUNCE_MS);
    };
    socket.on("tape:events", onFrame);
    return () => {
      clearTimeout(timer);
      socket.off("tape:events", onFrame);
    };
  }, [podId, qc]);
  return useQuery({
    queryKey: ["signals", podId],
    queryFn: () => getJson<PodSignalsView>(`/api/v1/pods/${encodeURIComponent(podId)}/signals`),
    refetchInterval: 60_000,
  });
}
