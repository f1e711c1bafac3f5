"use client";
// One stored event by its seq, for the evidence and proof details. The detail
// tables' cell classes and duration format live here too.
import { useQuery } from "@tanstack/react-query";
import { callApi } from "../shared/api-client";
import { readEventsRoute } from "../shared/api-routes";

export function useEventAt(podId: string, seq: number) {
  return useQuery({
    queryKey: ["event", podId, seq],
    staleTime: Infinity, // a stored event never changes
    queryFn: () => callApi(readEventsRoute, { podId, after: seq - 1, limit: 1 }).then((r) => r.events[0]!),
  });
}

export const th = "px-2 py-1 text-left font-medium";
export const td = "px-2 py-1 align-top";
export const ms = (n: number | undefined) =>
  n === undefined ? "—" : n < 1000 ? `${n} ms` : `${(n / 1000).toFixed(1)} s`;
