// Budgets that act (docs/protocol/budgets.md). A human approver,
// the chair or the cost controller sets a budget; the server reports its crossing once per round as
// podwatch (server/deadlines/timed-work.ts finds it), and this reducer checks that report
// against the meters before anything follows: the inbox item, a hold on the agent's tools
// (tool-policy.ts reads budgetHold), or a pause.
import { SYSTEM_ACTOR } from "../events/event-schemas";
import { BUDGET_UNITS, budgetAmount } from "../vocabulary";
import type { Budget, InboxItem, PodState } from "./pod-state";
import { budgetUse } from "./meters";
import {
  at,
  conflictRule,
  holds,
  invalidRule,
  isApprover,
  requireMember,
  type R,
  type Reducers,
  with_,
  without,
} from "./rules";

/** At most this many budgets per pod. */
export const MAX_BUDGETS = 50;
/** The log of budget.exceeded reports (state.budgets) keeps the latest this many; the tape keeps all. */
export const MAX_BUDGET_LOG = 100;
export const budgetItemId = (budgetId: string) => `budget:${budgetId}`;

/** A human approver, or admin automation (no member: only the admin token speaks so). */
const isPerson = (s: PodState, actor: string) => !Object.hasOwn(s.members, actor) || isApprover(s, actor);

/**
 * An agent (the chair, the cost controller) may add a budget or tighten one: the same budget with a
 * lower or equal limit, not yet crossed. Raising, removing, changing what it counts or does, or
 * re-arming a crossed one takes a person — else the agent a budget holds could lift it.
 */
function requireAgentOnlyTightens(s: PodState, e: Parameters<R<"budget.set">>[1]) {
  const b = e.body;
  const was = Object.hasOwn(s.budgetLimits, b.budgetId) ? s.budgetLimits[b.budgetId]! : undefined;
  if (!was) return;
  const tighter =
    b.limit !== null &&
    b.limit <= was.limit &&
    b.metric === was.metric &&
    (b.agentId ?? null) === was.agentId &&
    b.then === was.then;
  if (was.exceeded || !tighter) {
    throw conflictRule(
      "budget_needs_person",
      `only a person (a human approver) may ${was.exceeded ? "re-arm a crossed budget" : "raise, remove or change a budget"}; ${e.actor} may add budgets or lower a limit`,
    );
  }
}

const budgetSet: R<"budget.set"> = (s, e) => {
  if (!isPerson(s, e.actor)) {
    if (!holds(s, e.actor, "chair") && !holds(s, e.actor, "cost_controller")) {
      throw conflictRule(
        "budget_authority",
        `budgets are set by a human approver, the chair or the cost controller; ${e.actor} is none of them`,
      );
    }
    requireAgentOnlyTightens(s, e);
  }
  const b = e.body;
  if (b.agentId !== undefined && requireMember(s, b.agentId).kind !== "agent")
    throw invalidRule("not_an_agent", `${b.agentId} is a person; budgets are per pod or per agent`);
  const inbox = without(s.inbox, budgetItemId(b.budgetId));
  if (b.limit === null) {
    if (!Object.hasOwn(s.budgetLimits, b.budgetId))
      throw invalidRule("unknown_budget", `budget ${b.budgetId} does not exist in this pod`);
    return { ...s, budgetLimits: without(s.budgetLimits, b.budgetId), inbox };
  }
  if (!Object.hasOwn(s.budgetLimits, b.budgetId) && Object.keys(s.budgetLimits).length >= MAX_BUDGETS) {
    throw conflictRule("too_many_budgets", `a pod keeps at most ${MAX_BUDGETS} budgets`);
  }
  const budget: Budget = {
    ...at(e),
    budgetId: b.budgetId,
    agentId: b.agentId ?? null,
    metric: b.metric,
    limit: b.limit,
    then: b.then,
    by: e.actor,
    exceeded: null,
  };
  return { ...s, budgetLimits: with_(s.budgetLimits, b.budgetId, budget), inbox };
};

/**
 * While a crossed pause_pod budget stands, only a person starts or resumes the pod (they may choose
 * to go on without raising it); an agent must wait for one.
 */
export function requireNoBudgetPause(s: PodState, actor: string, what: string) {
  if (isPerson(s, actor)) return;
  const pausing = Object.values(s.budgetLimits).find((b) => b.then === "pause_pod" && b.exceeded);
  if (pausing)
    throw conflictRule(
      "budget_paused",
      `budget ${pausing.budgetId} was crossed and pauses the pod: only a person may ${what} (or raise the budget)`,
    );
}

const budgetExceeded: R<"budget.exceeded"> = (s, e) => {
  const b = e.body;
  const logged = {
    ...s,
    budgets: [...s.budgets, { ...at(e), budget: b.budget, limit: b.limit, used: b.used, by: e.actor }].slice(
      -MAX_BUDGET_LOG,
    ),
  };
  // An agent's own report (a dispatcher's, say) is kept as said; only the server's acts, and only
  // the server's names a set budget's metric, agent, action and round (a copy would read as its).
  if (e.actor !== SYSTEM_ACTOR) {
    if (b.metric !== undefined || b.agentId !== undefined || b.then !== undefined || b.round !== undefined) {
      throw invalidRule(
        "system_fields",
        "metric, agentId, then and round are the server's own budget reports'; an agent reports {budget, limit, used}",
      );
    }
    return logged;
  }
  const budget = Object.hasOwn(s.budgetLimits, e.body.budget) ? s.budgetLimits[e.body.budget]! : undefined;
  if (!budget) throw invalidRule("unknown_budget", `budget ${e.body.budget} does not exist in this pod`);
  if (budget.exceeded)
    throw conflictRule(
      "budget_already_exceeded",
      `budget ${budget.budgetId} was reported crossed at seq ${budget.exceeded.seq}; set it again to re-arm it`,
    );
  if (
    b.round !== budget.seq ||
    b.limit !== budget.limit ||
    b.metric !== budget.metric ||
    (b.agentId ?? null) !== budget.agentId ||
    b.then !== budget.then
  ) {
    throw invalidRule(
      "budget_mismatch",
      `the report does not match budget ${budget.budgetId} as set at seq ${budget.seq} (its round)`,
    );
  }
  const used = budgetUse(s, budget, Date.parse(e.receivedAt));
  // Not "used >= limit": a figure that is not a number must never keep a budget from acting.
  if (used < budget.limit)
    throw conflictRule("budget_not_crossed", `budget ${budget.budgetId} is at ${used} of ${budget.limit}`);
  const item: InboxItem = {
    ...at(e),
    id: budgetItemId(budget.budgetId),
    kind: "budget",
    title: budgetTitle(budget, b.used),
    subject: { kind: "budget", id: budget.budgetId },
    ...(budget.agentId ? { text: `Agent ${budget.agentId}` } : {}),
  };
  const out: PodState = {
    ...logged,
    budgetLimits: with_(s.budgetLimits, budget.budgetId, { ...budget, exceeded: { ...at(e), used: b.used } }),
    inbox: with_(s.inbox, item.id, item),
  };
  return budget.then === "pause_pod" && out.status === "active" ? { ...out, status: "paused" } : out;
};

const THEN_WORDS = {
  notify: "",
  hold_tools: "; gated tools now ask a person",
  pause_pod: "; the pod is paused",
} as const;
function budgetTitle(b: Budget, used: number) {
  return `Budget ${b.budgetId}${b.agentId ? ` of ${b.agentId}` : ""} crossed: ${budgetAmount(used)} of ${budgetAmount(b.limit)} ${BUDGET_UNITS[b.metric]}${THEN_WORDS[b.then]}`;
}

/** The crossed hold_tools budget that holds this agent's tools now, if any: its calls that would be allowed ask a person instead. */
export function budgetHold(s: PodState, agentId: string): Budget | null {
  return (
    Object.values(s.budgetLimits).find(
      (b) => b.then === "hold_tools" && b.exceeded && (b.agentId === null || b.agentId === agentId),
    ) ?? null
  );
}

/** Budgets not yet reported crossed in their round. */
export const armedBudgets = (s: PodState) => Object.values(s.budgetLimits).filter((b) => !b.exceeded);

export const budgetReducers = {
  "budget.set": budgetSet,
  "budget.exceeded": budgetExceeded,
} satisfies Partial<Reducers>;
