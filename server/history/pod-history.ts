// History without whole-tape replays: the pod as it stood after any seq, and folds over the tape
// from a point before a time window, each started from the nearest stored checkpoint of the fold
// (pod_checkpoint) instead of seq 1. A replay stores one at every multiple of CHECKPOINT_EVERY
// and also wherever CHECKPOINT_COST_MS of folding has passed since the last one (events on a
// large state cost far more than on a small one: a task event on a 3,000-task plan copies it),
// though never closer than CHECKPOINT_MIN_GAP events (only replays of the state measure that:
// other folds cost more per event); so a read costs at most about one interval of events or of
// folding, plus what it asks for. Checkpoints are written lazily by the reads
// themselves (and by checkpoint-keeper.ts as the tape grows), the first time a replay passes them. Reads of one pod take
// turns (the second finds what the first stored) and concurrent asks for the same seq share one
// computation. One per store, per process.
import { performance } from "node:perf_hooks";
import type { TapeStore } from "../db/tape-store";
import type { StoredEvent } from "../domain/plan-append";
import { applyEvent } from "../domain/state/apply-event";
import { emptyPodState, type PodState } from "../domain/state/pod-state";
import { toAppliedEvent } from "../domain/state/stored-event";
import { CheckpointStore, type Checkpoint } from "./checkpoint-store";
import { foldVersion } from "./fold-version";
import { forEachEvent, type SliceOptions } from "./tape-slices";

export const CHECKPOINT_EVERY = 1000;
export const CHECKPOINT_COST_MS = 60;
export const CHECKPOINT_MIN_GAP = 50;

/**
 * A fold over the tape; `state`: the pod's state its accumulator carries (checkpoints are taken of
 * it). A fold without one carries no state fit to store (a window's counts in its place), so it
 * stores no checkpoint.
 */
export type TapeFold<F> = { step: (acc: F, row: StoredEvent) => F; state?: (acc: F) => PodState };

const STATE_FOLD: TapeFold<PodState> = {
  step: (s, row) => applyEvent(s, toAppliedEvent(row)),
  state: (s) => s,
};
const start = (): Checkpoint => ({ state: emptyPodState(), maxAt: "" });

export class PodHistory {
  private readonly checkpoints: CheckpointStore | null;
  private readonly shared = new Map<string, Promise<PodState>>();
  private readonly lanes = new Map<string, Promise<unknown>>();
  private readonly tidied = new Set<string>();
  /** Checkpoints being written, per pod. */
  private readonly writing = new Map<string, Set<Promise<void>>>();

  /** `fold`: the fold's version (null: no checkpoints, every replay starts at seq 1); `costMs`: folding between two checkpoints. */
  constructor(
    private readonly store: TapeStore,
    fold: string | null = foldVersion(),
    readonly every = CHECKPOINT_EVERY,
    private readonly slices: SliceOptions = {},
    private readonly costMs = CHECKPOINT_COST_MS,
  ) {
    this.checkpoints = fold === null ? null : new CheckpointStore(store, fold);
  }

  /** The pod after `seq` (or as far as its tape goes). Shared by concurrent callers: read it, never change it. */
  stateAt(podId: string, seq: number): Promise<PodState> {
    const key = `${podId}\0${seq}`;
    let answer = this.shared.get(key);
    if (!answer) {
      answer = this.inTurn(podId, async () =>
        this.replay(podId, await this.baseAt(podId, seq), seq, STATE_FOLD, (s) => s, true),
      );
      this.shared.set(key, answer);
      const forget = () => void this.shared.delete(key);
      answer.then(forget, forget);
    }
    return answer;
  }

  /**
   * Folds the tape up to `toSeq` from the latest checkpoint whose events were all received before
   * `beforeMs` (null: from seq 1), the accumulator made from that checkpoint's state by `init`.
   */
  foldFrom<F>(
    podId: string,
    beforeMs: number | null,
    toSeq: number,
    fold: TapeFold<F>,
    init: (state: PodState) => F,
  ): Promise<F> {
    return this.inTurn(podId, async () => {
      const base =
        beforeMs === null || !this.checkpoints
          ? start()
          : ((await this.checkpoints.receivedBefore(podId, toSeq, new Date(beforeMs).toISOString())) ??
            start());
      // Not by cost: this fold's steps cost more than the state's (a window counts each event
      // again), so its clock would put checkpoints where the state's replays found none due, on
      // every such read (each encoded, deflated and inserted beside the answer).
      return this.replay(podId, base, toSeq, fold, init, false);
    });
  }

  /** Checkpoints stored for the pod under this fold (once those being written are). */
  async stored(podId: string): Promise<number> {
    await this.written(podId);
    return this.checkpoints ? this.checkpoints.count(podId) : 0;
  }

  /** Resolves once every checkpoint being written is (before the store closes). */
  async idle(): Promise<void> {
    await Promise.all([...this.writing.values()].flatMap((w) => [...w]));
  }

  /** The pod's checkpoints being written, settled. */
  private async written(podId: string): Promise<void> {
    await Promise.all(this.writing.get(podId) ?? []);
  }

  private async baseAt(podId: string, seq: number): Promise<Checkpoint> {
    if (!this.checkpoints) return start();
    if (!this.tidied.has(podId)) {
      this.tidied.add(podId);
      await this.checkpoints.dropOtherFolds(podId).catch(() => this.tidied.delete(podId));
    }
    return (await this.checkpoints.atOrBelow(podId, seq)) ?? start();
  }

  private async replay<F>(
    podId: string,
    base: Checkpoint,
    toSeq: number,
    fold: TapeFold<F>,
    init: (s: PodState) => F,
    byCost: boolean,
  ): Promise<F> {
    let acc = init(base.state);
    let maxAt = base.maxAt;
    const stateOf = fold.state;
    const cps = stateOf ? this.checkpoints : null;
    const have =
      cps && toSeq - base.state.seq >= this.every
        ? await cps.seqsBetween(podId, base.state.seq, toSeq)
        : new Set<number>();
    let last = base.state.seq;
    let cost = 0;
    await forEachEvent(
      this.store,
      podId,
      base.state.seq,
      toSeq,
      (row) => {
        const t = performance.now();
        acc = fold.step(acc, row);
        cost += performance.now() - t;
        if (row.receivedAt > maxAt) maxAt = row.receivedAt;
        const due =
          row.seq % this.every === 0 ||
          (byCost && cost >= this.costMs && row.seq - last >= CHECKPOINT_MIN_GAP);
        if (!cps || !stateOf || !(due || have.has(row.seq))) return;
        [last, cost] = [row.seq, 0];
        if (have.has(row.seq)) return;
        // Written in slices beside the fold: no reducer changes the state it is given, so this seq's state stays as it is.
        this.write(
          podId,
          cps
            .put(podId, stateOf(acc), maxAt, row.seq === toSeq)
            .catch((e) => console.warn(`podwatch: checkpoint ${podId}@${row.seq} not stored: ${e}`)),
        );
      },
      this.slices,
    );
    // Not awaited: the answer does not wait for a cache to be written. The pod's next read does (inTurn).
    return acc;
  }

  private write(podId: string, put: Promise<void>) {
    let pending = this.writing.get(podId);
    if (!pending) this.writing.set(podId, (pending = new Set()));
    pending.add(put);
    void put.finally(() => {
      pending.delete(put);
      if (!pending.size && this.writing.get(podId) === pending) this.writing.delete(podId);
    });
  }

  /** Runs the pod's history reads one at a time, each after the checkpoints the one before it stores are written. */
  private inTurn<T>(podId: string, work: () => Promise<T>): Promise<T> {
    const before = this.lanes.get(podId) ?? Promise.resolve();
    const run = before.then(work, work);
    const done = run.then(
      () => this.written(podId),
      () => this.written(podId),
    );
    this.lanes.set(podId, done);
    void done.then(() => this.lanes.get(podId) === done && this.lanes.delete(podId));
    return run;
  }
}

const histories = new WeakMap<TapeStore, PodHistory>();

/** The store's history reader (one per store in a process, so its sharing spans every caller). */
export function podHistory(store: TapeStore): PodHistory {
  let h = histories.get(store);
  if (!h) histories.set(store, (h = new PodHistory(store)));
  return h;
}
