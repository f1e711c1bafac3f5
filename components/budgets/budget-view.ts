// How a budget reads to a person, pure so it is tested without a browser: its
// amounts with their unit, how full it is, who it counts and what crossing it does; and the
// form's draft checked before anything is sent (the server checks again).
import { BUDGET_UNITS, budgetAmount, type BudgetAction, type BudgetMetric } from "@/server/wire/vocabulary";

export const METRIC_LABELS: Record<BudgetMetric, string> = {
  tokens: "Tokens (in + out)",
  cost_usd: "Cost (USD)",
  wall_minutes: "Wall time (minutes)",
  tool_calls: "Tool calls",
};
export const THEN_LABELS: Record<BudgetAction, string> = {
  notify: "Notify (inbox item)",
  hold_tools: "Hold tools (each call asks a person)",
  pause_pod: "Pause the pod",
};

export const amountOf = (n: number, metric: BudgetMetric) =>
  `${metric === "cost_usd" ? Number(n).toFixed(2) : budgetAmount(n)} ${BUDGET_UNITS[metric]}`;
export const whoseBudget = (agentId: string | null) => (agentId ? `agent ${agentId}` : "whole pod");
/** How full, 0–100 for the bar (past the limit it stays full; the numbers say by how much). */
export const percentUsed = (used: number, limit: number) =>
  limit > 0 ? Math.min(100, Math.max(0, Math.round((used / limit) * 100))) : 0;

export type BudgetDraft = {
  budgetId: string;
  agentId: string;
  metric: BudgetMetric;
  limit: string;
  then: BudgetAction;
};
type DraftProblems = Partial<Record<"budgetId" | "limit", string>>;

/** The server's id rule (ZId in server/domain/events/seed-formats.ts), restated for the browser, which
 * imports no server code: 1–200 characters, none that cut, hide or reorder text, and not a built-in
 * property name of JS objects. budget-view.test.ts holds the two to the same answers. */
const NAME_MAX = 200;
const UNPRINTABLE = /[\p{Cc}\p{Cs}\p{Zl}\p{Zp}\u202A-\u202E\u2066-\u2069]/u;
const RESERVED = new Set(Object.getOwnPropertyNames(Object.prototype));

/** What is wrong with a new budget's name (undefined: nothing). */
function nameProblem(name: string, taken: string[]): string | undefined {
  if (!name) return "Give the budget a name, e.g. impl-cost";
  if (name.length > NAME_MAX) return `At most ${NAME_MAX} characters`;
  if (UNPRINTABLE.test(name)) return "No control characters, line breaks or direction overrides";
  if (RESERVED.has(name)) return `"${name}" is a reserved name; choose another`;
  if (taken.includes(name)) return "A budget of this name exists; edit it instead";
  return undefined;
}

/** What is wrong with the draft, field by field (empty: it may be sent). The name is checked only
 * for a new budget: an edit keeps the stored name, whatever rule it was made under (the API's). */
export function draftProblems(d: BudgetDraft, taken: string[], editing: boolean): DraftProblems {
  const out: DraftProblems = {};
  const name = editing ? undefined : nameProblem(d.budgetId.trim(), taken);
  if (name) out.budgetId = name;
  const n = Number(d.limit);
  if (!d.limit.trim()) out.limit = "Set a limit";
  else if (!Number.isFinite(n) || n <= 0) out.limit = "The limit is a number above 0";
  else if (n > 1e12) out.limit = "The limit is at most 1,000,000,000,000";
  else if ((d.metric === "tokens" || d.metric === "tool_calls") && !Number.isInteger(n))
    out.limit = `${BUDGET_UNITS[d.metric]} are counted whole`;
  return out;
}

/** A limit above what is used now, for the inbox card's "raise": half as much again, rounded up to a readable step. */
export function suggestedLimit(used: number, limit: number, metric: BudgetMetric): number {
  const target = Math.max(used, limit) * 1.5;
  const step =
    metric === "cost_usd" || metric === "wall_minutes"
      ? 1
      : 10 ** Math.max(0, Math.floor(Math.log10(Math.max(1, target))) - 1);
  return Math.ceil(target / step) * step;
}
