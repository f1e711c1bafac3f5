// Applies one event to a pod's state, or throws the rule it breaks (409/422).
// Pure: the same tape always yields the same state (see replay.test.ts).
import type { EventType } from "../events/event-schemas";
import { copyPodState, type AppliedEvent, type PodState } from "./pod-state";
import { conflictRule, type Reducers } from "./rules";
import { podReducers } from "./reduce-pod";
import { taskReducers } from "./reduce-tasks";
import { evidenceReducers } from "./reduce-evidence";
import { decisionReducers } from "./reduce-decisions";
import { runReducers } from "./reduce-runs";
import { jobReducers } from "./reduce-jobs";
import { systemReducers } from "./reduce-system";
import { trackWatch } from "./cadence";
import { sessionReducers } from "./reduce-sessions";
import { toolGateReducers } from "./reduce-tool-gates";
import { budgetReducers } from "./reduce-budgets";
import { steeringReducers } from "./reduce-steering";
import { trackMeters } from "./meters";
import { trackTurn } from "./session-turns";
import { stepSignals } from "../signals/step-signals";
import { retainedChange } from "./retained-entries";

/** Every event type's reducer: an event type added to the schemas without one does not compile (see reducers.test-d.ts). */
const REDUCERS: Reducers = {
  ...podReducers,
  ...taskReducers,
  ...evidenceReducers,
  ...decisionReducers,
  ...runReducers,
  ...jobReducers,
  ...systemReducers,
  ...sessionReducers,
  ...toolGateReducers,
  ...budgetReducers,
  ...steeringReducers,
};
/** What the dispatch calls: the map is checked type by type above, and an event only ever reaches its own type's reducer. */
type AnyReducer = (s: PodState, e: AppliedEvent) => PodState;

/** Work that stops while a pod is paused; talking (notes, checkpoints, escalations) and deciding go on. */
const PAUSABLE = new Set<EventType>([
  "task.added",
  "task.updated",
  "task.review_requested",
  "plan.imported",
  "run.started",
  "handoff",
  "workcell.opened",
  "job.funded",
  "job.delivered",
]);

/** How the signals follow one event (stepSignals' shape): the pod's signals before it, the states around it. */
export type SignalsStep = (
  sig: PodState["signals"],
  before: PodState,
  after: PodState,
  e: AppliedEvent,
) => PodState["signals"];

export function applyEvent(s: PodState, e: AppliedEvent): PodState {
  return applyEventWith(s, e, stepSignals);
}

/** applyEvent with the signals followed by `step` (a window's fold counts only its window: signals-window.ts). */
export function applyEventWith(s: PodState, e: AppliedEvent, step: SignalsStep): PodState {
  if (s.status === "closed")
    throw conflictRule("pod_closed", "the pod is closed; its tape takes no more events");
  if (s.status === "paused" && PAUSABLE.has(e.type))
    throw conflictRule("pod_paused", `the pod is paused; ${e.type} waits until pod.resumed`);
  // "Who said what": a member speaks only in a role it holds (docs/protocol/roles.md: roles are explicit).
  const member = Object.hasOwn(s.members, e.actor) ? s.members[e.actor] : undefined;
  if (member && e.role && !member.roles.includes(e.role)) {
    throw conflictRule("role_not_held", `${e.actor} does not hold the role ${e.role}`);
  }
  // One copy of the state per event, not one per step, field by field (copyPodState says why): a
  // copy is most of what a small event (a note) costs to fold. `own` is seen by nobody else until
  // it is returned.
  const own = copyPodState((REDUCERS[e.type] as AnyReducer)(s, e));
  own.seq = e.seq;
  // The cadence watchdog's clock: who is expected to checkpoint may change with this event.
  const metered = trackMeters(s, trackTurn(trackWatch(s, own, e), e), e);
  // Reducers never touch signals, so metered.signals is still the previous value.
  const signals = step(metered.signals, s, metered, e);
  const retained = s.retained + retainedChange(s, metered, e);
  // Each step returns its input or a copy of it (withFields), so `metered` is this call's own too:
  // were it the previous state, the lines below would change a state others hold.
  if (metered === s)
    throw new Error("a fold step returned the previous state; it must return its input or a copy");
  metered.signals = signals;
  metered.retained = retained;
  return metered;
}

export function replay(events: AppliedEvent[], from: PodState): PodState {
  return events.reduce(applyEvent, from);
}
