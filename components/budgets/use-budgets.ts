"use client";
// A pod's budgets with what each uses now. Keyed under the pod's state, so whatever refreshes
// the state (the live tape, an action) refreshes these too.
import { useQuery } from "@tanstack/react-query";
import type { BudgetsResponse } from "@/server/wire/budgets";
import { getJson } from "../shared/api-client";

export function useBudgets(podId: string) {
  return useQuery({
    queryKey: ["state", podId, "budgets"],
    queryFn: () =>
      getJson<BudgetsResponse>(`/api/v1/pods/${encodeURIComponent(podId)}/budgets`).then((r) => r.budgets),
    refetchInterval: 30_000,
  });
}
