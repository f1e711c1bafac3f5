// A pod's snapshot (pod_state.state): the state's JSON, made in slices so that writing a lived-in
// pod's (~1.9 MB, 7-18 ms in one JSON.stringify) never holds the event loop, and with the text of
// each large entry of the state kept for its object: the next snapshot writes an untouched
// 3,000-task plan without making its text again (a pod's states never change once made). A text
// is held as long as its object is: about one state's text per large pod in memory.
import { stringifyKeepingTexts, type RootTexts } from "./json-in-slices";
import type { PodState } from "../domain/state/pod-state";

const SNAPSHOT_ROOT_TEXTS: RootTexts = new WeakMap();

/** JSON.stringify(state)'s text, in slices. */
export const snapshotText = (state: PodState): Promise<string> =>
  stringifyKeepingTexts(state, SNAPSHOT_ROOT_TEXTS);
