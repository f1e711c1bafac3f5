// Why a call is held when no rule asked: a crossed hold_tools budget turns the
// agent's allowed calls into asks, and the person deciding must see which budget and by how much.
import type { PodState } from "../domain/state/pod-state";
import type { ToolVerdict } from "../domain/state/tool-policy";
import { BUDGET_UNITS, budgetAmount } from "../wire/vocabulary";

/** The line the held call's context opens with (none unless a budget holds it). */
export function budgetHoldLine(s: PodState, verdict: ToolVerdict): string[] {
  if (verdict.scope !== "budget" || !verdict.budgetId || !Object.hasOwn(s.budgetLimits, verdict.budgetId))
    return [];
  const b = s.budgetLimits[verdict.budgetId]!;
  const used = b.exceeded?.used ?? b.limit;
  const whose = b.agentId ? ` of ${b.agentId}` : " of the pod";
  return [
    `Budget ${b.budgetId}${whose} crossed: ${budgetAmount(used)} of ${budgetAmount(b.limit)} ${BUDGET_UNITS[b.metric]}: podwatch asks before each tool call`,
  ];
}
