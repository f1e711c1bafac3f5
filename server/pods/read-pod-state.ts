import type { TapeStore } from "../db/tape-store";
import { invalid } from "../domain/errors";
import { applyEvent } from "../domain/state/apply-event";
import { emptyPodState, type PodState } from "../domain/state/pod-state";
import { toAppliedEvent } from "../domain/state/stored-event";
import { presentPodState, type PodStateView } from "./present-pod-state";

const PAGE = 2000;

/** The pod's projections now (`current`), or as of `atSeq` (time travel: the tape replayed up to that seq). */
export async function readPodState(store: TapeStore, podId: string, current: PodState, atSeq?: number): Promise<PodStateView> {
  if (atSeq === undefined || atSeq >= current.seq) return presentPodState(current);
  if (atSeq < 0) throw invalid("atSeq must be ≥ 0", [{ path: "atSeq", message: "must be ≥ 0" }]);
  let state = emptyPodState();
  while (state.seq < atSeq) {
    const page = await store.readEvents(podId, state.seq, Math.min(PAGE, atSeq - state.seq));
    if (!page.length) break;
    state = page.reduce((s, e) => applyEvent(s, toAppliedEvent(e)), state);
  }
  return presentPodState(state);
}
