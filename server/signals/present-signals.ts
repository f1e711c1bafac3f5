// Turns the fold's PodSignals into the wire's views: each agent with its rates, display name and
// roles (from the pod's members), the pod's totals, and the budgets with what they use.
import type { PodState } from "../domain/state/pod-state";
import type { AgentSignals, PodSignals } from "../domain/signals/signal-types";
import { podTotals, signalRates } from "../domain/signals/combine";
import { listBudgets } from "../budgets/list-budgets";
import type { AgentSignalsView, PodSignalsView } from "../wire/signals";

export function agentView(a: AgentSignals, members: PodState["members"] | null): AgentSignalsView {
  const m = members && Object.hasOwn(members, a.agentId) ? members[a.agentId]! : null;
  return { ...a, rates: signalRates(a), displayName: m?.displayName ?? null, roles: m ? [...m.roles] : [] };
}

/** The pod's agents in a stable order (by agent id). */
export const agentsInOrder = (signals: PodSignals): AgentSignals[] =>
  Object.values(signals.agents).sort((a, b) => (a.agentId < b.agentId ? -1 : a.agentId > b.agentId ? 1 : 0));

/** Every agent's view, in a stable order (by agent id). */
export const agentViews = (signals: PodSignals, members: PodState["members"]): AgentSignalsView[] =>
  agentsInOrder(signals).map((a) => agentView(a, members));

/** A pod's figures: `signals` (now's, as of a seq, or a window's) with `state`'s members, and its budgets' use at `budgetsAt`. */
export function podSignalsView(
  signals: PodSignals,
  state: PodState,
  budgetsAt: number,
): Pick<PodSignalsView, "agents" | "pod" | "cost" | "budgets"> {
  return {
    agents: agentViews(signals, state.members),
    pod: agentView(podTotals(signals), null),
    cost: signals.cost,
    budgets: listBudgets(state, budgetsAt),
  };
}
