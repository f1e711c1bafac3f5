"use client";
// Filtered tape: pages newest-first from the server's search, more as you scroll;
// when the live head moves, the newest page is read again.
import { useEffect } from "react";
import { useInfiniteQuery } from "@tanstack/react-query";
import type { EventSearchPage } from "@/server/wire/events";
import type { TapeFilter } from "./tape-filter-store";
import { getJson } from "../shared/api-client";

export function useTapeSearch(podId: string, filter: TapeFilter, enabled: boolean, head: number) {
  const query = useInfiniteQuery({
    queryKey: ["tape-search", podId, filter],
    enabled,
    initialPageParam: 2_147_483_647,
    queryFn: async ({ pageParam }) => {
      const params = new URLSearchParams({ before: String(pageParam), limit: "200" });
      for (const [k, v] of Object.entries(filter)) if (v.trim()) params.set(k, v.trim());
      return getJson<EventSearchPage>(`/api/v1/pods/${encodeURIComponent(podId)}/events?${params}`);
    },
    getNextPageParam: (last) => (last.events.length === 200 && last.nextBefore ? last.nextBefore : undefined),
  });
  const { refetch } = query;
  useEffect(() => {
    if (enabled && head) void refetch();
  }, [head, enabled, refetch]);
  return query;
}
