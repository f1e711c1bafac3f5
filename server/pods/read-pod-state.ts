import type { TapeStore } from "../db/tape-store";
import { invalid } from "../domain/errors";
import type { PodState } from "../domain/state/pod-state";
import { podHistory } from "../history/pod-history";
import type { PodStateView } from "../wire/views";
import { presentPodStateInSlices } from "./present-pod-state";

/** The pod's projections now (`current`), or as of `atSeq` (time travel: replayed from the nearest checkpoint below it). */
export async function readPodState(
  store: TapeStore,
  podId: string,
  current: PodState,
  atSeq?: number,
): Promise<PodStateView> {
  if (atSeq === undefined || atSeq >= current.seq) return presentPodStateInSlices(current);
  if (atSeq < 0) throw invalid("atSeq must be ≥ 0", [{ path: "atSeq", message: "must be ≥ 0" }]);
  return presentPodStateInSlices(await podHistory(store).stateAt(podId, atSeq));
}
