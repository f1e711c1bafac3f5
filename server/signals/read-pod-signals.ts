// One pod's signals (GET /api/v1/pods/{podId}/signals): now — the stored projection, no tape
// read —, as of a seq (replayed from the nearest checkpoint, as time travel does), or counting
// only what happened within a time window (signalsBetween's step over the tape, from a checkpoint
// before it). The last two replay part of a tape and run in one of the server's recomputation slots.
import type { AppContext } from "../app-context";
import { invalid } from "../domain/errors";
import type { PodState } from "../domain/state/pod-state";
import { podHistory } from "../history/pod-history";
import type { PodSignals } from "../domain/signals/signal-types";
import type { PodSignalsView } from "../wire/signals";
import { podSignalsView } from "./present-signals";
import { decisionsView } from "./present-decisions";
import { parseWindow, type Window } from "./signals-query";
import { windowOfTape } from "./window-of-tape";

export type PodSignalsQuery = { asOf?: number; from?: string; to?: string };

/** `current`: the pod's state as the route's guard read it. */
export async function readPodSignals(
  app: AppContext,
  podId: string,
  q: PodSignalsQuery,
  current: PodState,
  nowMs = Date.now(),
): Promise<PodSignalsView> {
  const window = parseWindow(q.from, q.to, nowMs);
  if (q.asOf !== undefined && window)
    throw invalid("give either asOf or from/to, not both", [{ path: "asOf", message: "not with from/to" }]);
  if (q.asOf !== undefined && q.asOf > current.seq)
    throw invalid(`asOf ${q.asOf} is past the pod's head (seq ${current.seq})`, [
      { path: "asOf", message: "past the head" },
    ]);
  if (window) return windowed(app, podId, current, window, nowMs);
  if (q.asOf !== undefined && q.asOf < current.seq)
    return app.recomputations.run(() => asOf(app, podId, q.asOf!));
  return view(podId, current, current.signals, null, nowMs);
}

/** The view of `signals` with `state`'s members and budgets (their use at `budgetsAt`). */
function view(
  podId: string,
  state: PodState,
  signals: PodSignals,
  window: Window | null,
  budgetsAt: number,
): PodSignalsView {
  return {
    podId,
    seq: state.seq,
    window: window && { from: window.from, to: window.to },
    ...podSignalsView(signals, state, budgetsAt),
    decisions: decisionsView(state, window),
  };
}

/** The pod as it stood after `seq`: its signals, and its budgets with what they used at that event's receipt. */
async function asOf(app: AppContext, podId: string, seq: number): Promise<PodSignalsView> {
  const state = await podHistory(app.store).stateAt(podId, seq);
  const last = state.seq > 0 ? (await app.store.readEvents(podId, state.seq - 1, 1))[0] : undefined;
  return view(podId, state, state.signals, null, last ? Date.parse(last.receivedAt) : 0);
}

/** Only what happened within the window counts; the budgets are today's (a budget has no window). */
async function windowed(
  app: AppContext,
  podId: string,
  current: PodState,
  window: Window,
  nowMs: number,
): Promise<PodSignalsView> {
  // A recomputation slot for a fold of its own; an ask joining the same window under way takes none.
  const signals = await windowOfTape(app.store, podId, current.seq, window, (work) =>
    app.recomputations.run(work),
  );
  return view(podId, current, signals, window, nowMs);
}
