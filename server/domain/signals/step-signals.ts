// The signals fold: one event's effect on the pod's raw signals, run after every event
// (apply-event.ts) with the state before and after it, so it follows each reducer's outcome
// without any reducer knowing of signals. Pure: a replay of the tape to any seq rebuilds them.
//
// Who gets an entry: the pod's members of kind "agent" at the time of the event. People are not
// rated, and a non-member speaking (admin automation, the server as podwatch) is no agent; what
// such an actor does still counts for the agent it concerns (a decision on an agent's task).
// Times are the server's receipt times (receivedAt), never the agent's own ts.
import type { AppliedEvent, PodState } from "../state/pod-state";
import type { PodSignals } from "./signal-types";
import { stepTaskSignals } from "./step-task-signals";
import { stepTeamSignals } from "./step-team-signals";
import { stepUsageSignals } from "./step-usage-signals";

/**
 * `sig` is the signals to add this event to; what the fold remembers between events
 * (`tracking`) is read from `before.signals`, which is the whole tape's. In the append path the
 * two are the same value; signalsBetween (signals-window.ts) passes a window's own counts as
 * `sig`, so a review in the window is timed from a request made before it.
 */
export function stepSignals(sig: PodSignals, before: PodState, after: PodState, e: AppliedEvent): PodSignals {
  let out: PodSignals =
    sig.tracking === before.signals.tracking ? sig : { ...sig, tracking: before.signals.tracking };
  out = stepTaskSignals(out, before, after, e);
  out = stepTeamSignals(out, before, after, e);
  out = stepUsageSignals(out, before, after, e);
  return out;
}
