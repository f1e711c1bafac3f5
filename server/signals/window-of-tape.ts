// A stored tape's signals over a time window (signalsBetween's step), folded from the latest
// checkpoint whose events were all received before the window (nothing before it is counted, so
// the fold from there equals the fold from seq 1) up to the head, page by page: the pod's windows
// and the export's. receivedAt is each node's clock, not ordered by seq, so the fold goes on past
// the window's end to the head: a late row may still fall inside it.
import type { TapeStore } from "../db/tape-store";
import { toAppliedEvent } from "../domain/state/stored-event";
import { stepWindow, windowSignals, type WindowFold } from "../domain/signals/signals-window";
import { emptyPodSignals, type PodSignals } from "../domain/signals/signal-types";
import { podHistory } from "../history/pod-history";
import type { Window } from "./signals-query";

export async function windowOfTape(store: TapeStore, podId: string, toSeq: number, window: Window): Promise<PodSignals> {
  const fold = await podHistory(store).foldFrom<WindowFold>(
    podId,
    window.fromMs,
    toSeq,
    { step: (f, row) => stepWindow(f, toAppliedEvent(row), window.fromMs, window.toMs), state: (f) => f.state },
    (state) => ({ state, counted: emptyPodSignals() }),
  );
  return windowSignals(fold);
}
