// A stored tape's signals over a time window (signalsBetween's step), folded from the latest
// checkpoint whose events were all received before the window (nothing before it is counted, so
// the fold from there equals the fold from seq 1) up to the head, page by page: the pod's windows
// and the export's. receivedAt is each node's clock, not ordered by seq, so the fold goes on past
// the window's end to the head: a late row may still fall inside it.
//
// Concurrent asks for the same pod, head and start share one fold. Their ends may differ (`to`
// defaults to each request's now), which changes nothing when every event folded was received
// before both ends: then both windows count the same events. Otherwise the later ask folds again.
import type { TapeStore } from "../db/tape-store";
import { toAppliedEvent } from "../domain/state/stored-event";
import { stepWindowState, windowStart } from "../domain/signals/signals-window";
import type { PodSignals } from "../domain/signals/signal-types";
import type { PodState } from "../domain/state/pod-state";
import { podHistory } from "../history/pod-history";
import type { Window } from "./signals-query";

type Folded = { signals: PodSignals; toMs: number; lastAtMs: number };
type Run = <T>(work: () => Promise<T>) => Promise<T>;

const underWay = new WeakMap<TapeStore, Map<string, Promise<Folded>>>();

/** The window's signals; `run` runs a fold of its own (a recomputation slot): an ask that joins one under way takes none. */
export async function windowOfTape(
  store: TapeStore,
  podId: string,
  toSeq: number,
  window: Window,
  run: Run = (work) => work(),
): Promise<PodSignals> {
  let shared = underWay.get(store);
  if (!shared) underWay.set(store, (shared = new Map()));
  const key = `${podId}\0${toSeq}\0${window.fromMs}`;
  const joined = shared.get(key);
  if (joined) {
    const r = await joined.catch(() => null);
    if (r && r.lastAtMs < Math.min(r.toMs, window.toMs)) return r.signals;
  }
  const mine = run(() => fold(store, podId, toSeq, window));
  if (!shared.has(key)) {
    shared.set(key, mine);
    const forget = () => void (shared.get(key) === mine && shared.delete(key));
    mine.then(forget, forget);
  }
  return (await mine).signals;
}

async function fold(store: TapeStore, podId: string, toSeq: number, window: Window): Promise<Folded> {
  let lastAtMs = -Infinity;
  // No `state`: the fold's state holds the window's counts in its signals (windowStart), no checkpoint.
  const f = await podHistory(store).foldFrom<PodState>(
    podId,
    window.fromMs,
    toSeq,
    {
      step: (s, row) => {
        const e = toAppliedEvent(row);
        lastAtMs = Math.max(lastAtMs, Date.parse(e.receivedAt));
        return stepWindowState(s, e, window.fromMs, window.toMs);
      },
    },
    windowStart,
  );
  return { signals: f.signals, toMs: window.toMs, lastAtMs };
}
