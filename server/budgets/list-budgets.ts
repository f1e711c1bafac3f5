// The budgets a pod has set, each with what it uses now: the panel's list, the API's
// GET …/budgets. `used` is the meters' figure at `now`, the same the watcher compares.
import { budgetUse, uncountedModels } from "../domain/state/meters";
import type { PodState } from "../domain/state/pod-state";
import type { BudgetView } from "../wire/signals";

export function listBudgets(s: PodState, now: number): BudgetView[] {
  return Object.values(s.budgetLimits)
    .sort((a, b) => a.seq - b.seq)
    .map((b) => ({ ...b, used: budgetUse(s, b, now), uncounted: uncountedModels(s, b) }));
}
