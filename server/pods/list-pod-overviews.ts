// The pod list: the pods the caller may see (archived ones, or the others), each with what the
// overview shows from its projections and what the caller may do with it.
import type { TapeStore } from "../db/tape-store";
import type { Identity } from "../domain/access/policy";
import { CADENCE_MINUTES } from "../domain/events/event-schemas";
import { cadenceAdherence } from "../domain/state/cadence";
import type { PodOverview } from "../wire/pods";
import { visiblePods } from "./visible-pods";

export async function listPodOverviews(
  store: TapeStore,
  identity: Identity,
  archived: boolean,
): Promise<PodOverview[]> {
  const visible: PodOverview[] = [];
  for (const { pod: p, state, access } of await visiblePods(store, identity)) {
    if (!!p.archivedAt !== archived) continue;
    visible.push({
      ...p,
      status: state.status,
      activeAgent: state.activeAgent,
      inboxCount: Object.keys(state.inbox).length,
      lastCheckpointAt: state.lastCheckpoint?.at ?? null,
      cadenceMinutes: state.scope?.cadenceMinutes ?? CADENCE_MINUTES.default,
      cadence: cadenceAdherence(state),
      access,
    });
  }
  return visible;
}
