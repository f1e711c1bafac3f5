// A stored tape's signals over a time window, folded page by page (signalsBetween's step), so a
// long tape is never held in memory whole: the pod's windows and the export's.
import type { TapeStore } from "../db/tape-store";
import { toAppliedEvent } from "../domain/state/stored-event";
import { emptyWindowFold, stepWindow, windowSignals } from "../domain/signals/signals-window";
import type { PodSignals } from "../domain/signals/signal-types";
import type { Window } from "./signals-query";
import { tapePages } from "./tape-pages";

export async function windowOfTape(store: TapeStore, podId: string, toSeq: number, window: Window): Promise<PodSignals> {
  let fold = emptyWindowFold();
  for await (const page of tapePages(store, podId, toSeq)) {
    for (const row of page) fold = stepWindow(fold, toAppliedEvent(row), window.fromMs, window.toMs);
  }
  return windowSignals(fold);
}
