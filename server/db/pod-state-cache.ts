// Keeps each pod's latest committed state in memory, so an append does not
// parse the stored projection every time. Entries are replaced only after commit.
import type { Head, StoredEvent } from "../domain/plan-append";
import { emptyPodState, PROJECTION_VERSION, type PodState } from "../domain/state/pod-state";
import { applyEvent } from "../domain/state/apply-event";
import { toAppliedEvent } from "../domain/state/stored-event";

export type StateRow = { seq: number; state: string };
const PAGE = 2000;

export class PodStateCache {
  private states = new Map<string, PodState>();

  cached(podId: string, head: Head): PodState | undefined {
    const hit = this.states.get(podId);
    return hit && hit.seq === head.seq ? hit : undefined;
  }

  /** SQLite (synchronous, inside its transaction): the cached state, else the stored row brought up to `head`. */
  loadSync(podId: string, head: Head, stored: () => StateRow | undefined, readAfter: (seq: number, limit: number) => StoredEvent[]): PodState {
    const hit = this.cached(podId, head);
    if (hit) return hit;
    let state = parse(stored());
    while (state.seq < head.seq) {
      const page = readAfter(state.seq, PAGE);
      if (!page.length) break;
      state = page.reduce((s, e) => applyEvent(s, toAppliedEvent(e)), state);
    }
    return state;
  }

  /** PostgreSQL: the same, with async reads. */
  async load(podId: string, head: Head, stored: () => Promise<StateRow | undefined>, readAfter: (seq: number, limit: number) => Promise<StoredEvent[]>): Promise<PodState> {
    const hit = this.cached(podId, head);
    if (hit) return hit;
    let state = parse(await stored());
    while (state.seq < head.seq) {
      const page = await readAfter(state.seq, PAGE);
      if (!page.length) break;
      state = page.reduce((s, e) => applyEvent(s, toAppliedEvent(e)), state);
    }
    return state;
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
