// Keeps each pod's latest committed state in memory, and decides when it is stored again.
// The state is a pure function of the tape, so the stored row (pod_state) is a snapshot: it may
// lag the head, and whoever loads it replays the tail after its seq. An append therefore writes
// its events and the head, not the pod's whole projection; the snapshot is rewritten once the pod
// is snapshotLag events past it (`every`, more for a large state: its rewrite, spread over the
// events since, stays about SNAPSHOT_CHARS_PER_EVENT each), after the commit (see ARCHITECTURE.md,
// "The pod's state"). A cached state behind the head (another node appended) catches up from its
// own seq. Entries are replaced only by committed states, never by older ones.
import type { Head } from "../domain/plan-append";
import { AppError } from "../domain/errors";
import { emptyPodState, PROJECTION_VERSION, type PodState } from "../domain/state/pod-state";
import { catchUpAsync, catchUpSync, type ReadPage, type ReadPageAsync } from "../domain/state/catch-up";

export type StateRow = { seq: number; state: string };

/** Events a stored snapshot may lag its pod's head before it is written again (PODWATCH_SNAPSHOT_EVERY). */
export const SNAPSHOT_EVERY = 1000;
/** What rewriting a snapshot may cost each event since the last one, in characters of its text. */
export const SNAPSHOT_CHARS_PER_EVENT = 512;
/**
 * However large the state, its snapshot lags by at most this many times `every`: the tail a load
 * after a crash replays (a shutdown stores every lagging state), in one step on SQLite.
 */
export const SNAPSHOT_MAX_STRETCH = 4;

/** Events a snapshot of `chars` characters may lag before it is rewritten (null: not known yet). */
export function snapshotLag(every: number, chars: number | null): number {
  const bySize = Math.ceil((chars ?? 0) / SNAPSHOT_CHARS_PER_EVENT);
  return Math.min(every * SNAPSHOT_MAX_STRETCH, Math.max(every, bySize));
}

/**
 * `stored`: the seq of the pod's snapshot as this node last saw or wrote it; null when there is
 * none of this version. `chars`: its text's length, when this node read or wrote it.
 */
type Entry = { state: PodState; stored: number | null; chars: number | null };

export class PodStateCache {
  private entries = new Map<string, Entry>();
  /** Pods whose snapshot may be due (checked at takeDue): only those a commit touched. */
  private touched = new Set<string>();

  constructor(readonly every = SNAPSHOT_EVERY) {}

  /**
   * The cached state when it is at the head or no further behind it than its snapshot may lag (a
   * longer tail: the snapshot may be nearer). `orNewer`: a state past the head also serves (a read that saw the head just
   * before a commit of this node: else it would parse the stored snapshot and fold its whole tail).
   */
  private near(podId: string, head: Head, orNewer = false): Entry | undefined {
    const hit = this.entries.get(podId);
    if (!hit) return undefined;
    if (hit.state.seq > head.seq) return orNewer ? hit : undefined;
    return head.seq - hit.state.seq <= snapshotLag(this.every, hit.chars) ? hit : undefined;
  }

  /** The cached state when it is at exactly `head` (PostgreSQL plans a group on it without reading); else null. */
  at(podId: string, head: Head): PodState | null {
    const hit = this.entries.get(podId);
    return hit && hit.state.seq === head.seq ? hit.state : null;
  }

  /** SQLite (synchronous, inside its transaction): the cached state, else the stored snapshot, brought up to `head`. */
  loadSync(podId: string, head: Head, stored: () => StateRow | undefined, readAfter: ReadPage): PodState {
    const hit = this.near(podId, head);
    if (hit)
      return hit.state.seq === head.seq
        ? hit.state
        : this.keep(podId, catchUpSync(hit.state, head.seq, readAfter), hit.stored);
    const row = stored();
    return this.keep(podId, fromSnapshotSync(podId, row, head, readAfter), snapshotSeq(row), row);
  }

  /**
   * PostgreSQL: the same, with async reads. `orNewer`: a committed state past `head` will do (a
   * read outside the heads' locks); a commit plans on exactly its locked head.
   */
  async load(
    podId: string,
    head: Head,
    stored: () => Promise<StateRow | undefined>,
    readAfter: ReadPageAsync,
    orNewer = false,
  ): Promise<PodState> {
    const hit = this.near(podId, head, orNewer);
    if (hit)
      return hit.state.seq >= head.seq
        ? hit.state
        : this.keep(podId, await catchUpAsync(hit.state, head.seq, readAfter), hit.stored);
    const row = await stored();
    return this.keep(podId, await fromSnapshot(podId, row, head, readAfter), snapshotSeq(row), row);
  }

  /** Whether the pod has no snapshot of this version: the commit that finds so writes one in its transaction. */
  lacksSnapshot(podId: string): boolean {
    return (this.entries.get(podId)?.stored ?? null) === null;
  }

  /** After commit only. `wroteSnapshot`: the transaction stored this very state. */
  remember(podId: string, state: PodState, wroteSnapshot = false) {
    const stored = wroteSnapshot ? state.seq : (this.entries.get(podId)?.stored ?? null);
    this.keep(podId, state, stored);
    if (!wroteSnapshot) this.touched.add(podId);
  }

  /** After a snapshot's write: its text's length, which sets when the next one is due. */
  wroteSnapshot(podId: string, seq: number, chars: number) {
    const entry = this.entries.get(podId);
    if (entry && entry.stored === seq) entry.chars = chars;
  }

  /** Pods whose snapshot lags by its snapshotLag or more, with the state to store; each is marked as stored at once. */
  takeDue(): { podId: string; state: PodState; before: number | null }[] {
    const due: { podId: string; state: PodState; before: number | null }[] = [];
    for (const podId of this.touched) {
      const entry = this.entries.get(podId);
      if (!entry || entry.stored === null) continue;
      if (entry.state.seq - entry.stored < snapshotLag(this.every, entry.chars)) continue;
      due.push({ podId, state: entry.state, before: entry.stored });
      entry.stored = entry.state.seq;
    }
    this.touched.clear();
    return due;
  }

  /** At shutdown: every pod whose snapshot is behind its cached state, so that a restart loads without a tail. */
  takeLagging(): { podId: string; state: PodState; before: number | null }[] {
    const lagging = [...this.entries].filter(([, e]) => e.stored === null || e.state.seq > e.stored);
    for (const [, e] of lagging) e.stored = e.state.seq;
    return lagging.map(([podId, e]) => ({ podId, state: e.state, before: null }));
  }

  /** A snapshot write that failed: the pod is due again at the next commit. */
  snapshotFailed(podId: string, before: number | null) {
    const entry = this.entries.get(podId);
    if (entry && before !== null && (entry.stored === null || entry.stored > before)) entry.stored = before;
    this.touched.add(podId);
  }

  /** `row`: the snapshot just read, whose length is then known. */
  private keep(podId: string, state: PodState, stored: number | null, row?: StateRow): PodState {
    const current = this.entries.get(podId);
    // An older load finishing late (PostgreSQL: reads run concurrently) never replaces a newer state.
    if (!current || current.state.seq <= state.seq) {
      const known =
        current && current.stored !== null && stored !== null ? Math.max(current.stored, stored) : stored;
      // A length goes with the snapshot it was read or written with.
      const read = row && stored !== null && known === stored ? row.state.length : null;
      const chars = read ?? (current && known === current.stored ? current.chars : null);
      this.entries.set(podId, { state, stored: known, chars });
    }
    return state;
  }
}

/**
 * The snapshot's seq when it is of this version (another version's is rebuilt, so it counts as
 * none). Read from the text's start, without parsing it twice: a state is written with `v` first.
 */
function snapshotSeq(row: StateRow | undefined): number | null {
  return row && row.state.startsWith(`{"v":${PROJECTION_VERSION},`) ? row.seq : null;
}

/** Without the cache: the stored snapshot brought up to `head` (also the replay-equals-stored check's reading). */
export function fromSnapshotSync(
  podId: string,
  row: StateRow | undefined,
  head: Head,
  readAfter: ReadPage,
): PodState {
  const { state, outdated } = parse(row);
  if (!outdated) return catchUpSync(state, head.seq, readAfter);
  try {
    return catchUpSync(emptyPodState(), head.seq, readAfter);
  } catch (e) {
    return catchUpSync(keepOutdated(podId, outdated, e), head.seq, readAfter);
  }
}

export async function fromSnapshot(
  podId: string,
  row: StateRow | undefined,
  head: Head,
  readAfter: ReadPageAsync,
): Promise<PodState> {
  const { state, outdated } = parse(row);
  if (!outdated) return catchUpAsync(state, head.seq, readAfter);
  try {
    return await catchUpAsync(emptyPodState(), head.seq, readAfter);
  } catch (e) {
    return catchUpAsync(keepOutdated(podId, outdated, e), head.seq, readAfter);
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
  console.warn(
    `podwatch: pod ${podId}: rebuilding its state under the current rules failed (${error.code}: ${error.message}); keeping the state it had`,
  );
  // Fields added since are missing from it: an empty pod's values fill them (a v2 state had no
  // cadence record, and every read of the pod would otherwise throw).
  return { ...emptyPodState(), ...outdated, v: PROJECTION_VERSION };
}
