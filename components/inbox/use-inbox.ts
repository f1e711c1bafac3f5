"use client";
// The cross-pod inbox as server state: refetched when any watched pod's tape
// moves (socket), and every 15 s as a backstop.
import { useEffect } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { InboxResponse } from "@/server/wire/views";
import { watchPods } from "../shared/socket-client";
import { getJson } from "../shared/api-client";

export function useInbox() {
  const qc = useQueryClient();
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poke = () => {
      if (timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        void qc.invalidateQueries({ queryKey: ["inbox"] });
      }, 300);
    };
    const unwatch = watchPods({ joined: poke, count: poke });
    return () => {
      clearTimeout(timer);
      unwatch();
    };
  }, [qc]);
  return useQuery({
    queryKey: ["inbox"],
    queryFn: () => getJson<InboxResponse>("/api/v1/inbox").then((r) => r.items),
    refetchInterval: 15_000,
  });
}
