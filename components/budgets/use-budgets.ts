"use client";
// A pod's budgets with what each uses now. Keyed under the pod's state, so whatever refreshes
// the state (the live tape, an action) refreshes these too.
import { useQuery } from "@tanstack/react-query";
import { callApi } from "../shared/api-client";
import { listBudgetsRoute } from "../shared/api-routes";

export function useBudgets(podId: string) {
  return useQuery({
    queryKey: ["state", podId, "budgets"],
    queryFn: () => callApi(listBudgetsRoute, { podId }).then((r) => r.budgets),
    refetchInterval: 30_000,
  });
}
