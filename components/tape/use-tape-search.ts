"use client";
// Filtered tape: pages newest-first from the server's search, more as you scroll;
// when the live head moves, the newest page is read again.
import { useEffect } from "react";
import { useInfiniteQuery } from "@tanstack/react-query";
import type { TapeFilter } from "./tape-filter-store";
import { callApi } from "../shared/api-client";
import { readEventsRoute } from "../shared/api-routes";

export function useTapeSearch(podId: string, filter: TapeFilter, enabled: boolean, head: number) {
  const query = useInfiniteQuery({
    queryKey: ["tape-search", podId, filter],
    enabled,
    initialPageParam: 2_147_483_647,
    queryFn: async ({ pageParam }) => {
      const given = Object.entries(filter).flatMap(([k, v]) => (v.trim() ? [[k, v.trim()]] : []));
      return callApi(readEventsRoute, { podId, before: pageParam, limit: 200, ...Object.fromEntries(given) });
    },
    getNextPageParam: (last) => ("nextBefore" in last && last.nextBefore ? last.nextBefore : undefined),
  });
  const { refetch } = query;
  useEffect(() => {
    if (enabled && head) void refetch();
  }, [head, enabled, refetch]);
  return query;
}
