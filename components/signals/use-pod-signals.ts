"use client";
// The pod's signals as server state. Keyed under the pod's state, so what refreshes the state
// refreshes these too: the live tape (usePodState, which the pod page mounts around this tab) and
// any action taken here (useAction). A refetch every minute heals a dropped notification.
import { useQuery } from "@tanstack/react-query";
import type { PodSignalsView } from "@/server/wire/signals";
import { getJson } from "../shared/api-client";

export function usePodSignals(podId: string) {
  return useQuery({
    queryKey: ["state", podId, "signals"],
    queryFn: () => getJson<PodSignalsView>(`/api/v1/pods/${encodeURIComponent(podId)}/signals`),
    refetchInterval: 60_000,
  });
}
