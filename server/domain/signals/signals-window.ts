// Signals recomputed from the tape: as they stood after any seq, or counting only what happened
// in a time window. The rules and what the fold remembers need the whole tape, so every event is
// replayed from the start; only the counting is limited to the window.
import { applyEvent, applyEventWith, type SignalsStep } from "../state/apply-event";
import { emptyPodState, type AppliedEvent, type PodState } from "../state/pod-state";
import { emptyPodSignals, type PodSignals } from "./signal-types";
import { stepSignals } from "./step-signals";

/** A window's fold so far: the pod as the whole tape made it, and the signals counted in the window. */
export type WindowFold = { state: PodState; counted: PodSignals };

export const emptyWindowFold = (): WindowFold => ({ state: emptyPodState(), counted: emptyPodSignals() });

/**
 * One event into a window's fold: applied to the pod whatever its time, counted when received in
 * [fromMs, toMs) (server receipt time). Callers read a stored tape page by page through it, so
 * no tape is held in memory whole. An event the rules refuse here cannot be on a stored tape:
 * the error is thrown, never skipped.
 */
export function stepWindow(f: WindowFold, e: AppliedEvent, fromMs: number, toMs: number): WindowFold {
  const state = applyEvent(f.state, e);
  const t = Date.parse(e.receivedAt);
  return { state, counted: t >= fromMs && t < toMs ? stepSignals(f.counted, f.state, state, e) : f.counted };
}

/** The window's signals; what the fold remembers (`tracking`) is the whole tape's, not the window's. */
export const windowSignals = (f: WindowFold): PodSignals => ({
  ...f.counted,
  tracking: f.state.signals.tracking,
});

/**
 * A window's fold with the signals followed once, not twice: the pod's state whose `signals` are
 * the window's counts and the whole tape's `tracking`. stepWindow counts each event in the pod's
 * signals and again in the window's, though only the tracking of the first is ever read (the
 * reducers and the families read no other part of a state's signals), so here the window's counts
 * stand in the state's place. Such a state is no pod's: never store or show it as one.
 */
export const windowStart = (s: PodState): PodState => ({
  ...s,
  signals: { ...emptyPodSignals(), tracking: s.signals.tracking },
});

/** An event outside the window: what the fold remembers follows it, no count does. */
const trackOnly: SignalsStep = (sig, before, after, e) => {
  const { tracking } = stepSignals(sig, before, after, e);
  return tracking === sig.tracking ? sig : { ...sig, tracking };
};

/** One event into a windowStart fold: applied to the pod whatever its time, counted when received in [fromMs, toMs). */
export function stepWindowState(s: PodState, e: AppliedEvent, fromMs: number, toMs: number): PodState {
  const t = Date.parse(e.receivedAt);
  return applyEventWith(s, e, t >= fromMs && t < toMs ? stepSignals : trackOnly);
}

/** The signals of the events received in [fromMs, toMs), each counted with the pod as the whole tape had made it. */
export function signalsBetween(events: AppliedEvent[], fromMs: number, toMs: number): PodSignals {
  return windowSignals(events.reduce((f, e) => stepWindow(f, e, fromMs, toMs), emptyWindowFold()));
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
