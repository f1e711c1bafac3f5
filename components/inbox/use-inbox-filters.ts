"use client";
// The inbox's grouping, filters and search live in the URL's query (?by=agent&pod=…&q=…), so a
// reload, the back button or a shared link shows the same view. Written with history.replaceState,
// which Next.js keeps useSearchParams in step with, so typing in the search costs no server round trip.
import { useCallback, useMemo } from "react";
import { useSearchParams } from "next/navigation";
import { GROUPINGS, MAX_QUERY, type Grouping, type InboxFilters } from "./inbox-view";

/** The filters a query string says, anything unknown or too long left out. */
export function filtersFromQuery(p: URLSearchParams): InboxFilters {
  const by = p.get("by");
  const word = (name: string) => {
    const v = p.get(name);
    return v && v.length <= MAX_QUERY ? v : undefined;
  };
  return {
    by: GROUPINGS.includes(by as Grouping) ? (by as Grouping) : "pod",
    pod: word("pod"),
    agent: word("agent"),
    kind: word("kind"),
    q: word("q"),
    muted: p.get("muted") === "1",
  };
}

/** The query string of the filters: defaults left out, so the plain inbox is plain /inbox. */
export function queryOfFilters(f: InboxFilters): string {
  const p = new URLSearchParams();
  if (f.by !== "pod") p.set("by", f.by);
  for (const name of ["pod", "agent", "kind", "q"] as const) if (f[name]) p.set(name, f[name]!);
  if (f.muted) p.set("muted", "1");
  const s = p.toString();
  return s ? `?${s}` : "";
}

export function useInboxFilters() {
  const params = useSearchParams();
  const query = params.toString();
  const filters = useMemo(() => filtersFromQuery(new URLSearchParams(query)), [query]);
  const setFilters = useCallback((change: Partial<InboxFilters>) => {
    const next = { ...filtersFromQuery(new URLSearchParams(window.location.search)), ...change };
    window.history.replaceState(null, "", `${window.location.pathname}${queryOfFilters(next)}`);
  }, []);
  return { filters, setFilters };
}
