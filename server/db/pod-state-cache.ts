// Keeps each pod's latest committed state in memory, so an append does not
// parse the stored projection every time. Entries are replaced only after commit.
import type { Head } from "../domain/plan-append";
import { AppError } from "../domain/errors";
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
    const hit = this.cached(podId, head);
    if (hit) return hit;
    const { state, outdated } = parse(stored());
    if (!outdated) return catchUpSync(state, head.seq, readAfter);
    try {
      return catchUpSync(emptyPodState(), head.seq, readAfter);
    } catch (e) {
      return catchUpSync(keepOutdated(podId, outdated, e), head.seq, readAfter);
    }
  }

  /** PostgreSQL: the same, with async reads. */
  async load(podId: string, head: Head, stored: () => Promise<StateRow | undefined>, readAfter: ReadPageAsync): Promise<PodState> {
    const hit = this.cached(podId, head);
    if (hit) return hit;
    const { state, outdated } = parse(await stored());
    if (!outdated) return catchUpAsync(state, head.seq, readAfter);
    try {
      return await catchUpAsync(emptyPodState(), head.seq, readAfter);
    } catch (e) {
      return catchUpAsync(keepOutdated(podId, outdated, e), head.seq, readAfter);
    }
  }

  /** After commit only. */
  remember(podId: string, state: PodState) {
    this.states.set(podId, state);
  }
}

/** The stored state, or (when other reducers built it) an empty one to replay from seq 0, with the outdated one kept aside. */
function parse(row: StateRow | undefined): { state: PodState; outdated: PodState | null } {
  const state = row ? (JSON.parse(row.state) as PodState) : null;
  if (!state || state.v === PROJECTION_VERSION) return { state: state ?? emptyPodState(), outdated: null };
  return { state: emptyPodState(), outdated: state };
}

/**
 * A tape accepted under older rules may break a rule added since (e.g. evidence for an unknown
 * task), so replaying it from seq 0 can fail. The pod must stay readable: keep the state the
 * older reducers built, as this version's, and say so, rather than refuse every read and append.
 */
function keepOutdated(podId: string, outdated: PodState, error: unknown): PodState {
  if (!(error instanceof AppError)) throw error;
  console.warn(`podwatch: pod ${podId}: rebuilding its state under the current rules failed (${error.code}: ${error.message}); keeping the state it had`);
  // Fields added since are missing from it: an empty pod's values fill them (a v2 state had no
  // cadence record, and every read of the pod would otherwise throw).
  return { ...emptyPodState(), ...outdated, v: PROJECTION_VERSION };
}
