// Budgets that act (issue 16; seed 001's CostController and budget_exceeded). A human approver,
// the chair or the cost controller sets a budget; the server reports its crossing once per round as
// podwatch (server/deadlines/timed-work.ts finds it), and this reducer checks that report
// against the meters before anything follows: the inbox item, a hold on the agent's tools
// (tool-policy.ts reads budgetHold), or a pause.
import { SYSTEM_ACTOR } from "../events/event-schemas";
import type { Budget, InboxItem, PodState } from "./pod-state";
import { budgetUse } from "./meters";
import { at, conflictRule, holds, invalidRule, isApprover, requireMember, type R, type Reducers, with_, without } from "./rules";

/** At most this many budgets per pod. */
export const MAX_BUDGETS = 50;
export const budgetItemId = (budgetId: string) => `budget:${budgetId}`;

const budgetSet: R<"budget.set"> = (s, e) => {
  const member = Object.hasOwn(s.members, e.actor);
  if (member && !isApprover(s, e.actor) && !holds(s, e.actor, "chair") && !holds(s, e.actor, "cost_controller")) {
    throw conflictRule("budget_authority", `budgets are set by a human approver, the chair or the cost controller; ${e.actor} is none of them`);
  }
  const b = e.body;
  if (b.agentId !== undefined && requireMember(s, b.agentId).kind !== "agent") throw invalidRule("not_an_agent", `${b.agentId} is a person; budgets are per pod or per agent`);
  const inbox = without(s.inbox, budgetItemId(b.budgetId));
  if (b.limit === null) {
    if (!Object.hasOwn(s.budgetLimits, b.budgetId)) throw invalidRule("unknown_budget", `budget ${b.budgetId} does not exist in this pod`);
    return { ...s, budgetLimits: without(s.budgetLimits, b.budgetId), inbox };
  }
  if (!Object.hasOwn(s.budgetLimits, b.budgetId) && Object.keys(s.budgetLimits).length >= MAX_BUDGETS) {
    throw conflictRule("too_many_budgets", `a pod keeps at most ${MAX_BUDGETS} budgets`);
  }
  const budget: Budget = { ...at(e), budgetId: b.budgetId, agentId: b.agentId ?? null, metric: b.metric, limit: b.limit, then: b.then, by: e.actor, exceeded: null };
  return { ...s, budgetLimits: with_(s.budgetLimits, b.budgetId, budget), inbox };
};

const budgetExceeded: R<"budget.exceeded"> = (s, e) => {
  const logged = { ...s, budgets: [...s.budgets, { ...at(e), budget: e.body.budget, limit: e.body.limit, used: e.body.used, by: e.actor }] };
  // An agent's own report (seed 001's dispatcher) is kept as said; only the server's acts.
  if (e.actor !== SYSTEM_ACTOR) return logged;
  const budget = Object.hasOwn(s.budgetLimits, e.body.budget) ? s.budgetLimits[e.body.budget]! : undefined;
  if (!budget) throw invalidRule("unknown_budget", `budget ${e.body.budget} does not exist in this pod`);
  if (budget.exceeded) throw conflictRule("budget_already_exceeded", `budget ${budget.budgetId} was reported crossed at seq ${budget.exceeded.seq}; set it again to re-arm it`);
  const b = e.body;
  if (b.limit !== budget.limit || b.metric !== budget.metric || (b.agentId ?? null) !== budget.agentId || b.then !== budget.then) {
    throw invalidRule("budget_mismatch", `the report does not match budget ${budget.budgetId} as set at seq ${budget.seq}`);
  }
  const used = budgetUse(s, budget, Date.parse(e.receivedAt));
  if (used < budget.limit) throw conflictRule("budget_not_crossed", `budget ${budget.budgetId} is at ${used} of ${budget.limit}`);
  const item: InboxItem = { ...at(e), id: budgetItemId(budget.budgetId), kind: "budget", title: budgetTitle(budget, b.used), subject: { kind: "budget", id: budget.budgetId }, ...(budget.agentId ? { text: `Agent ${budget.agentId}` } : {}) };
  const out: PodState = {
    ...logged,
    budgetLimits: with_(s.budgetLimits, budget.budgetId, { ...budget, exceeded: { ...at(e), used: b.used } }),
    inbox: with_(s.inbox, item.id, item),
  };
  return budget.then === "pause_pod" && out.status === "active" ? { ...out, status: "paused" } : out;
};

const METRIC_WORDS = { tokens: "tokens", cost_usd: "USD", wall_minutes: "minutes", tool_calls: "tool calls" } as const;
const THEN_WORDS = { notify: "", hold_tools: "; gated tools now ask a person", pause_pod: "; the pod is paused" } as const;
const round = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));
function budgetTitle(b: Budget, used: number) {
  return `Budget ${b.budgetId}${b.agentId ? ` of ${b.agentId}` : ""} crossed: ${round(used)} of ${round(b.limit)} ${METRIC_WORDS[b.metric]}${THEN_WORDS[b.then]}`;
}

/** The crossed hold_tools budget that holds this agent's tools now, if any: its calls that would be allowed ask a person instead. */
export function budgetHold(s: PodState, agentId: string): Budget | null {
  return Object.values(s.budgetLimits).find((b) => b.then === "hold_tools" && b.exceeded && (b.agentId === null || b.agentId === agentId)) ?? null;
}

/** Budgets not yet reported crossed in their round. */
export const armedBudgets = (s: PodState) => Object.values(s.budgetLimits).filter((b) => !b.exceeded);

export const budgetReducers = { "budget.set": budgetSet, "budget.exceeded": budgetExceeded } satisfies Partial<Reducers>;
