// The pods a caller may see, each with its state and the caller's access:
// the one place the overview, the inbox and the socket's pod list ask it.
import type { TapeStore } from "../db/tape-store";
import { podAccess, type Identity, type PodAccess } from "../domain/access/policy";
import type { PodState } from "../domain/state/pod-state";
import type { PodSummary } from "../wire/pods";
import { listPods } from "./read-pods";

export type VisiblePod = { pod: PodSummary; state: PodState; access: Exclude<PodAccess, "none"> };

/** `only`: just these pods (the others' states are not read). */
export async function visiblePods(
  store: TapeStore,
  identity: Identity,
  only?: Set<string>,
): Promise<VisiblePod[]> {
  const visible: VisiblePod[] = [];
  for (const pod of await listPods(store)) {
    if (only && !only.has(pod.id)) continue;
    const state = await store.readState(pod.id);
    const access = state ? podAccess(identity, pod.id, state) : "none";
    if (state && access !== "none") visible.push({ pod, state, access });
  }
  return visible;
}
