// Setting, changing or removing one budget, as the caller, through the one write
// path: the API's PUT/DELETE …/budgets/{budgetId} and the control room's action build the same
// budget.set. Who may is the domain's rule (a human approver, the chair, the cost controller, or
// the admin token); the doors only decide who the caller is.
import type { AppContext } from "../app-context";
import { AppError } from "../domain/errors";
import { speakerOf, type AppendIdentity } from "../domain/access/admit-append";
import type { PodState } from "../domain/state/pod-state";
import type { BudgetAction, BudgetMetric } from "../wire/vocabulary";
import type { BudgetSetResponse } from "../wire/budgets";
import type { TEvent } from "../wire/events";
import { listBudgets } from "./list-budgets";

/** A removal names only the budget; setting one says it all. */
export type BudgetChange =
  | { budgetId: string; limit: null }
  | { budgetId: string; agentId?: string; metric: BudgetMetric; limit: number; then: BudgetAction };

/**
 * budget.set for this change. A removal (`limit: null`) repeats the budget's own metric, agent
 * and `then`, so the tape says what was removed and a caller need only name it.
 */
export function budgetSetEvent(s: PodState, change: BudgetChange, actor: string): TEvent {
  const { budgetId, limit } = change;
  if (limit === null) {
    const b = Object.hasOwn(s.budgetLimits, budgetId) ? s.budgetLimits[budgetId]! : null;
    if (!b) throw new AppError(404, "not_found", `budget ${budgetId} does not exist in this pod`);
    return {
      type: "budget.set",
      actor,
      body: {
        budgetId,
        ...(b.agentId ? { agentId: b.agentId } : {}),
        metric: b.metric,
        limit: null,
        then: b.then,
      },
    };
  }
  return {
    type: "budget.set",
    actor,
    body: {
      budgetId,
      ...(change.agentId ? { agentId: change.agentId } : {}),
      metric: change.metric,
      limit,
      then: change.then,
    },
  };
}

/** `before`: the pod's state when the caller has read it already (a route's guard); the append checks the rules against the latest anyway. */
export async function setBudget(
  app: Pick<AppContext, "store" | "append">,
  podId: string,
  change: BudgetChange,
  as: AppendIdentity,
  before?: PodState,
): Promise<BudgetSetResponse> {
  before ??= (await app.store.readState(podId)) ?? undefined;
  if (!before) throw new AppError(404, "not_found", "pod not found");
  const [event] = await app.append(podId, [budgetSetEvent(before, change, speakerOf(as))], as);
  const after = change.limit === null ? null : await app.store.readState(podId);
  const budget = after
    ? (listBudgets(after, Date.now()).find((b) => b.budgetId === change.budgetId) ?? null)
    : null;
  return { event: event!, budget };
}
