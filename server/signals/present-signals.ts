// Turns the fold's PodSignals into the wire's views: each agent with its rates, display name and
// roles (from the pod's members), the pod's totals, and the budgets with what they use.
import type { PodState } from "../domain/state/pod-state";
import type { AgentSignals, PodSignals } from "../domain/signals/signal-types";
import { podTotals, signalRates } from "../domain/signals/combine";
import { budgetUse } from "../domain/state/meters";
import type { AgentSignalsView, BudgetView } from "../wire/signals";

export function agentView(a: AgentSignals, members: PodState["members"] | null): AgentSignalsView {
  const m = members && Object.hasOwn(members, a.agentId) ? members[a.agentId]! : null;
  return { ...a, rates: signalRates(a), displayName: m?.displayName ?? null, roles: m ? [...m.roles] : [] };
}

/** Every agent's view, in a stable order (by agent id). */
export function agentViews(signals: PodSignals, members: PodState["members"]): AgentSignalsView[] {
  return Object.values(signals.agents)
    .sort((a, b) => (a.agentId < b.agentId ? -1 : a.agentId > b.agentId ? 1 : 0))
    .map((a) => agentView(a, members));
}

export const podTotalsView = (signals: PodSignals): AgentSignalsView => agentView(podTotals(signals), null);

export function budgetViews(state: PodState, nowMs: number): BudgetView[] {
  return Object.values(state.budgetLimits).map((b) => ({ ...b, used: budgetUse(state, b, nowMs) }));
}
