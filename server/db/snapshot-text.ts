// A pod's snapshot (pod_state.state): the state's JSON, made in slices so that writing a lived-in
// pod's (~1.9 MB, 7-18 ms in one JSON.stringify) never holds the event loop, with the entries'
// texts the checkpoints and earlier snapshots made (./pod-state-texts.ts): the next snapshot of an
// untouched 3,000-task plan joins its tasks' texts instead of making them again.
import { stringifyKeepingTexts } from "./json-in-slices";
import { POD_STATE_TEXTS } from "./pod-state-texts";
import type { PodState } from "../domain/state/pod-state";

/** JSON.stringify(state)'s text, in slices. */
export const snapshotText = (state: PodState): Promise<string> =>
  stringifyKeepingTexts(state, POD_STATE_TEXTS);
