import type { TapeStore } from "../db/tape-store";
import { invalid } from "../domain/errors";
import { catchUpAsync } from "../domain/state/catch-up";
import { emptyPodState, type PodState } from "../domain/state/pod-state";
import type { PodStateView } from "../wire/views";
import { presentPodState } from "./present-pod-state";

/** The pod's projections now (`current`), or as of `atSeq` (time travel: the tape replayed up to that seq). */
export async function readPodState(store: TapeStore, podId: string, current: PodState, atSeq?: number): Promise<PodStateView> {
  if (atSeq === undefined || atSeq >= current.seq) return presentPodState(current);
  if (atSeq < 0) throw invalid("atSeq must be ≥ 0", [{ path: "atSeq", message: "must be ≥ 0" }]);
  return presentPodState(await catchUpAsync(emptyPodState(), atSeq, (after, limit) => store.readEvents(podId, after, limit)));
}
