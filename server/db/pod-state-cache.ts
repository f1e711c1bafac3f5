// Keeps each pod's latest committed state in memory, so an append does not
// parse the stored projection every time. Entries are replaced only after commit.
import type { Head } from "../domain/plan-append";
import { emptyPodState, PROJECTION_VERSION, type PodState } from "../domain/state/pod-state";
import { catchUpAsync, catchUpSync, type ReadPage, type ReadPageAsync } from "../domain/state/catch-up";

export type StateRow = { seq: number; state: string };

export class PodStateCache {
  private states = new Map<string, PodState>();

  cached(podId: string, head: Head): PodState | undefined {
    const hit = this.states.get(podId);
    return hit && hit.seq === head.seq ? hit : undefined;
  }

  /** SQLite (synchronous, inside its transaction): the cached state, else the stored row brought up to `head`. */
  loadSync(podId: string, head: Head, stored: () => StateRow | undefined, readAfter: ReadPage): PodState {
    return this.cached(podId, head) ?? catchUpSync(parse(stored()), head.seq, readAfter);
  }

  /** PostgreSQL: the same, with async reads. */
  async load(podId: string, head: Head, stored: () => Promise<StateRow | undefined>, readAfter: ReadPageAsync): Promise<PodState> {
    return this.cached(podId, head) ?? catchUpAsync(parse(await stored()), head.seq, readAfter);
  }

  /** After commit only. */
  remember(podId: string, state: PodState) {
    this.states.set(podId, state);
  }
}

/** The stored state, or an empty one to replay from seq 0 when it was built by other reducers. */
function parse(row: StateRow | undefined): PodState {
  const state = row ? (JSON.parse(row.state) as PodState) : null;
  return state?.v === PROJECTION_VERSION ? state : emptyPodState();
}
