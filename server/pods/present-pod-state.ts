// The read model the API and the control room use: the pod's projections with
// the board in plan order and the inbox oldest first.
import type { PodState } from "../domain/state/pod-state";
import { failingGates } from "../domain/state/reduce-evidence";
import type { PodStateView } from "../wire/views";
import { inboxCards } from "./inbox-context";
import { cadenceAdherence } from "../domain/state/cadence";
import { TimeSlices } from "../db/time-slices";

/** `board`: the tasks as presentTask shows them, in plan order (presentPodStateInSlices builds it a few at a time). */
export function presentPodState(
  s: PodState,
  board: PodStateView["board"] = s.taskOrder.map((id) => presentTask(s, id)),
): PodStateView {
  return {
    seq: s.seq,
    status: s.status,
    scope: s.scope,
    activeAgent: s.activeAgent,
    members: Object.values(s.members),
    roleHistory: s.roleHistory,
    handoffs: s.handoffs,
    board,
    inbox: inboxCards(s),
    escalations: Object.values(s.escalations),
    decisions: s.decisions,
    evidence: Object.values(s.evidence),
    runs: Object.values(s.runs),
    jobs: Object.values(s.jobs),
    workcells: Object.values(s.workcells),
    planBlocks: Object.values(s.planBlocks),
    budgets: s.budgets,
    lastCheckpoint: s.lastCheckpoint,
    cadence: cadenceAdherence(s),
    toolPolicies: { policies: s.policies, recordPrompts: s.recordPrompts },
    sessions: Object.values(s.sessions).sort(bySessionActivity),
    usage: presentUsage(s),
  };
}

export const presentTask = (s: PodState, id: string): PodStateView["board"][number] => ({
  ...s.tasks[id]!,
  failingGates: failingGates(s, id),
});
export const presentUsage = (s: PodState): PodStateView["usage"] =>
  Object.entries(s.usage).flatMap(([agentId, models]) =>
    Object.entries(models).map(([model, u]) => ({ ...u, unpriced: u.unpriced ?? 0, agentId, model })),
  );
/** The most recently active session first. */
export const bySessionActivity = (a: { last: { seq: number } }, b: { last: { seq: number } }) =>
  b.last.seq - a.last.seq;

/**
 * presentPodState with the event loop given back while the board is built: a lived-in pod's
 * 3,000 tasks took 5-25 ms in one step, which is what /healthz waited during a time-travel read.
 */
export async function presentPodStateInSlices(s: PodState): Promise<PodStateView> {
  return presentPodState(s, await new TimeSlices().map(s.taskOrder, (id) => presentTask(s, id)));
}
