// One pod's signals (GET /api/v1/pods/{podId}/signals): now — the stored projection, no tape
// read —, as of a seq (the tape replayed up to it, as time travel does), or counting only what
// happened within a time window (signalsBetween's step over the tape, page by page). The last two
// replay a whole tape and run in one of the server's recomputation slots.
import type { AppContext } from "../app-context";
import { invalid } from "../domain/errors";
import { replay } from "../domain/state/apply-event";
import { emptyPodState, type PodState } from "../domain/state/pod-state";
import { toAppliedEvent } from "../domain/state/stored-event";
import type { PodSignals } from "../domain/signals/signal-types";
import type { PodSignalsView } from "../wire/signals";
import { podSignalsView } from "./present-signals";
import { parseWindow, type Window } from "./signals-query";
import { tapePages } from "./tape-pages";
import { windowOfTape } from "./window-of-tape";

export type PodSignalsQuery = { asOf?: number; from?: string; to?: string };

/** `current`: the pod's state as the route's guard read it. */
export async function readPodSignals(app: AppContext, podId: string, q: PodSignalsQuery, current: PodState, nowMs = Date.now()): Promise<PodSignalsView> {
  const window = parseWindow(q.from, q.to, nowMs);
  if (q.asOf !== undefined && window) throw invalid("give either asOf or from/to, not both", [{ path: "asOf", message: "not with from/to" }]);
  if (q.asOf !== undefined && q.asOf > current.seq) throw invalid(`asOf ${q.asOf} is past the pod's head (seq ${current.seq})`, [{ path: "asOf", message: "past the head" }]);
  if (window) return app.recomputations.run(() => windowed(app, podId, current, window, nowMs));
  if (q.asOf !== undefined && q.asOf < current.seq) return app.recomputations.run(() => asOf(app, podId, q.asOf!));
  return view(podId, current, current.signals, null, nowMs);
}

/** The view of `signals` with `state`'s members and budgets (their use at `budgetsAt`). */
function view(podId: string, state: PodState, signals: PodSignals, window: Window | null, budgetsAt: number): PodSignalsView {
  return { podId, seq: state.seq, window: window && { from: window.from, to: window.to }, ...podSignalsView(signals, state, budgetsAt) };
}

/** The pod as it stood after `seq`: its signals, and its budgets with what they used at that event's receipt. */
async function asOf(app: AppContext, podId: string, seq: number): Promise<PodSignalsView> {
  let state = emptyPodState();
  let lastAt = 0;
  for await (const page of tapePages(app.store, podId, seq)) {
    state = replay(page.map(toAppliedEvent), state);
    lastAt = Date.parse(page.at(-1)!.receivedAt);
  }
  return view(podId, state, state.signals, null, lastAt);
}

/** Only what happened within the window counts; the budgets are today's (a budget has no window). */
async function windowed(app: AppContext, podId: string, current: PodState, window: Window, nowMs: number): Promise<PodSignalsView> {
  return view(podId, current, await windowOfTape(app.store, podId, current.seq, window), window, nowMs);
}
