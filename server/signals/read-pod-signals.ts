// One pod's signals (GET /api/v1/pods/{podId}/signals): now — the stored projection, no tape
// read —, as of a seq (the tape replayed up to it, as time travel does), or counting only what
// happened within a time window (signalsBetween over the tape). The last two replay a whole tape
// and run in one of the server's recomputation slots.
import type { AppContext } from "../app-context";
import { invalid, notFound } from "../domain/errors";
import { replay } from "../domain/state/apply-event";
import { emptyPodState, type AppliedEvent, type PodState } from "../domain/state/pod-state";
import { toAppliedEvent } from "../domain/state/stored-event";
import { signalsBetween } from "../domain/signals/signals-window";
import type { PodSignalsView } from "../wire/signals";
import { agentViews, budgetViews, podTotalsView } from "./present-signals";
import { recompute } from "./recompute-slots";
import { parseWindow, type Window } from "./signals-query";
import { tapePages } from "./tape-pages";

export type PodSignalsQuery = { asOf?: number; from?: string; to?: string };

export async function readPodSignals(app: AppContext, podId: string, q: PodSignalsQuery, current?: PodState | null, nowMs = Date.now()): Promise<PodSignalsView> {
  const state = current ?? (await app.store.readState(podId));
  if (!state) throw notFound("pod");
  const window = parseWindow(q.from, q.to, nowMs);
  if (q.asOf !== undefined && window) throw invalid("give either asOf or from/to, not both", [{ path: "asOf", message: "not with from/to" }]);
  if (q.asOf !== undefined && q.asOf > state.seq) throw invalid(`asOf ${q.asOf} is past the pod's head (seq ${state.seq})`, [{ path: "asOf", message: "past the head" }]);
  if (window) return recompute(app.store, () => windowed(app, podId, state, window, nowMs));
  if (q.asOf !== undefined && q.asOf < state.seq) return recompute(app.store, () => asOf(app, podId, q.asOf!));
  return {
    podId, seq: state.seq, window: null,
    agents: agentViews(state.signals, state.members), pod: podTotalsView(state.signals), cost: state.signals.cost, budgets: budgetViews(state, nowMs),
  };
}

/** The pod as it stood after `seq`: its signals, and its budgets with what they used at that event's receipt. */
async function asOf(app: AppContext, podId: string, seq: number): Promise<PodSignalsView> {
  let state = emptyPodState();
  let lastAt = 0;
  for await (const page of tapePages(app.store, podId, seq)) {
    state = replay(page.map(toAppliedEvent), state);
    lastAt = Date.parse(page.at(-1)!.receivedAt);
  }
  return {
    podId, seq: state.seq, window: null,
    agents: agentViews(state.signals, state.members), pod: podTotalsView(state.signals), cost: state.signals.cost, budgets: budgetViews(state, lastAt),
  };
}

/** Only what happened within the window counts; the budgets are today's (a budget has no window). */
async function windowed(app: AppContext, podId: string, current: PodState, window: Window, nowMs: number): Promise<PodSignalsView> {
  const events = await readTape(app, podId, current.seq);
  const signals = signalsBetween(events, window.fromMs, window.toMs);
  return {
    podId, seq: current.seq, window: { from: window.from, to: window.to },
    agents: agentViews(signals, current.members), pod: podTotalsView(signals), cost: signals.cost, budgets: budgetViews(current, nowMs),
  };
}

/** The tape up to `toSeq`, as the rules saw it. */
export async function readTape(app: AppContext, podId: string, toSeq: number): Promise<AppliedEvent[]> {
  const events: AppliedEvent[] = [];
  for await (const page of tapePages(app.store, podId, toSeq)) for (const e of page) events.push(toAppliedEvent(e));
  return events;
}
