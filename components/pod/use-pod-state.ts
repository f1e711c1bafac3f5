"use client";
// The pod's projections (board, inbox, …) as server state: fetched with
// react-query, refetched when the tape moves (and every 30 s as a backstop).
import { useEffect } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { PodStateView } from "@/server/wire/views";
import { getSocket } from "../shared/socket-client";
import { getJson } from "../shared/api-client";

const fetchState = (podId: string) => getJson<PodStateView>(`/api/v1/pods/${encodeURIComponent(podId)}/state`);

export function usePodState(podId: string) {
  const qc = useQueryClient();
  useEffect(() => {
    const socket = getSocket();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onFrame = (f: { podId: string }) => {
      if (f.podId !== podId || timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        void qc.invalidateQueries({ queryKey: ["state", podId] });
      }, 150);
    };
    socket.on("tape:events", onFrame);
    return () => {
      clearTimeout(timer);
      socket.off("tape:events", onFrame);
    };
  }, [podId, qc]);
  return useQuery({ queryKey: ["state", podId], queryFn: () => fetchState(podId), refetchInterval: 30_000 });
}
