// Signals recomputed from the tape: as they stood after any seq, or counting only what happened
// in a time window. The rules and what the fold remembers need the whole tape, so every event is
// replayed from the start; only the counting is limited to the window.
import { applyEvent } from "../state/apply-event";
import { emptyPodState, type AppliedEvent } from "../state/pod-state";
import { emptyPodSignals, type PodSignals } from "./signal-types";
import { stepSignals } from "./step-signals";

/**
 * The signals of the events received in [fromMs, toMs) (server receipt time), each counted with
 * the pod as the whole tape had made it. An event the rules refuse here cannot be on a stored
 * tape: the error is thrown, never skipped.
 */
export function signalsBetween(events: AppliedEvent[], fromMs: number, toMs: number): PodSignals {
  let state = emptyPodState();
  let window = emptyPodSignals();
  for (const e of events) {
    const next = applyEvent(state, e);
    const t = Date.parse(e.receivedAt);
    if (t >= fromMs && t < toMs) window = stepSignals(window, state, next, e);
    state = next;
  }
  // What the fold remembers is the whole tape's, not the window's.
  return { ...window, tracking: state.signals.tracking };
}

/** The pod's signals as they stood after `seq` (the events are the tape in seq order). */
export function signalsAsOf(events: AppliedEvent[], seq: number): PodSignals {
  let state = emptyPodState();
  for (const e of events) {
    if (e.seq > seq) break;
    state = applyEvent(state, e);
  }
  return state.signals;
}
