// How a budget reads to a person (issue 16), pure so it is tested without a browser: its
// amounts with their unit, how full it is, who it counts and what crossing it does; and the
// form's draft checked before anything is sent (the server checks again).
import { BUDGET_UNITS, budgetAmount, type BudgetAction, type BudgetMetric } from "@/server/wire/vocabulary";

export const METRIC_LABELS: Record<BudgetMetric, string> = { tokens: "Tokens (in + out)", cost_usd: "Cost (USD)", wall_minutes: "Wall time (minutes)", tool_calls: "Tool calls" };
export const THEN_LABELS: Record<BudgetAction, string> = { notify: "Notify (inbox item)", hold_tools: "Hold tools (each call asks a person)", pause_pod: "Pause the pod" };

export const amountOf = (n: number, metric: BudgetMetric) => `${metric === "cost_usd" ? Number(n).toFixed(2) : budgetAmount(n)} ${BUDGET_UNITS[metric]}`;
export const whoseBudget = (agentId: string | null) => (agentId ? `agent ${agentId}` : "whole pod");
/** How full, 0–100 for the bar (past the limit it stays full; the numbers say by how much). */
export const percentUsed = (used: number, limit: number) => (limit > 0 ? Math.min(100, Math.max(0, Math.round((used / limit) * 100))) : 0);

export type BudgetDraft = { budgetId: string; agentId: string; metric: BudgetMetric; limit: string; then: BudgetAction };
export type DraftProblems = Partial<Record<"budgetId" | "limit", string>>;

const ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** What is wrong with the draft, field by field (empty: it may be sent). */
export function draftProblems(d: BudgetDraft, taken: string[], editing: boolean): DraftProblems {
  const out: DraftProblems = {};
  if (!d.budgetId.trim()) out.budgetId = "Give the budget a name, e.g. impl-cost";
  else if (!ID.test(d.budgetId.trim())) out.budgetId = "Letters, digits, dot, dash and underscore; up to 100 characters";
  else if (!editing && taken.includes(d.budgetId.trim())) out.budgetId = "A budget of this name exists; edit it instead";
  const n = Number(d.limit);
  if (!d.limit.trim()) out.limit = "Set a limit";
  else if (!Number.isFinite(n) || n <= 0) out.limit = "The limit is a number above 0";
  else if (n > 1e12) out.limit = "The limit is at most 1,000,000,000,000";
  else if ((d.metric === "tokens" || d.metric === "tool_calls") && !Number.isInteger(n)) out.limit = `${BUDGET_UNITS[d.metric]} are counted whole`;
  return out;
}

/** A limit above what is used now, for the inbox card's "raise": half as much again, rounded up to a readable step. */
export function suggestedLimit(used: number, limit: number, metric: BudgetMetric): number {
  const target = Math.max(used, limit) * 1.5;
  const step = metric === "cost_usd" || metric === "wall_minutes" ? 1 : 10 ** Math.max(0, Math.floor(Math.log10(Math.max(1, target))) - 1);
  return Math.ceil(target / step) * step;
}
