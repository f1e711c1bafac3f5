"use client";
import { useCallback, useMemo } from "react";
import { useSearchParams } from "next/navigation";
import { readBoardQuery, writeBoardQuery, type BoardQuery } from "./board-query";

/**
 * The board's part of the address, and a setter that rewrites it in place. The history API, not
 * the router: Next keeps useSearchParams in step with it, and the page is not asked of the server
 * again for a keystroke in the search box.
 */
export function useBoardQuery(): [BoardQuery, (patch: Partial<BoardQuery>) => void] {
  const params = useSearchParams();
  const query = useMemo(() => readBoardQuery(new URLSearchParams(params.toString())), [params]);
  const update = useCallback((patch: Partial<BoardQuery>) => {
    const now = readBoardQuery(new URLSearchParams(window.location.search));
    const search = writeBoardQuery(window.location.search, { ...now, ...patch });
    window.history.replaceState(null, "", `${window.location.pathname}${search ? `?${search}` : ""}`);
  }, []);
  return [query, update];
}
