// The pod_checkpoint table: checkpoints of the fold, stored deflated (a lived-in state's text is
// ~1.8 MB and compresses ~20×), a segment already stored for the same object not made again
// (checkpoint-bytes.ts). Compression runs on libuv's thread pool and the text is written
// and read in slices (state-codec.ts), so no step holds the event loop for a whole state; a
// checkpoint read again comes from memory (decoded-checkpoints.ts; only those read: the keeper's
// background writes would fill it with states nobody asked for). Writes are idempotent (the
// state after a seq is a pure function of the tape and the fold), so two readers or two nodes
// passing the same seq both insert and one of them is kept.
import type { TapeStore } from "../db/tape-store";
import type { PodState } from "../domain/state/pod-state";
import { DecodedCheckpoints } from "./decoded-checkpoints";
import { deflatePieces, inflatePieces, keptSegment, type SegmentBytes } from "./checkpoint-bytes";
import type { EntryTexts } from "../db/json-walk";
import { CODEC_VERSION, encodePieces } from "./state-codec";
import { decodeInSlices } from "./state-decoder";

/** The entries' texts, and the segments' bytes, of states already stored, by object (a state's objects never change). */
const STATE_TEXTS: EntryTexts = new WeakMap();
const STATE_SEGMENTS: SegmentBytes = new WeakMap();

/** A state to replay from: the pod after `state.seq`, and the latest receivedAt up to it ("" before any event). */
export type Checkpoint = { state: PodState; maxAt: string };

type Found = { seq: number | bigint; maxAt: string };

export class CheckpointStore {
  /** The rows' key: the fold's code and the text's format (a row of either other is never read). */
  private readonly fold: string;

  constructor(
    private readonly store: TapeStore,
    fold: string,
    private readonly decoded = new DecodedCheckpoints(),
  ) {
    this.fold = `${fold}/${CODEC_VERSION}`;
  }

  /** The latest checkpoint at or below `seq`, or null. */
  async atOrBelow(podId: string, seq: number): Promise<Checkpoint | null> {
    const rows = await this.store.prisma.$queryRaw<Found[]>`SELECT seq, max_at AS "maxAt" FROM pod_checkpoint
      WHERE pod_id = ${podId} AND fold = ${this.fold} AND seq <= ${seq} ORDER BY seq DESC LIMIT 1`;
    return rows[0] ? this.load(podId, rows[0]) : null;
  }

  /** The latest checkpoint at or below `seq` whose every event was received before `beforeIso`, or null. */
  async receivedBefore(podId: string, seq: number, beforeIso: string): Promise<Checkpoint | null> {
    const rows = await this.store.prisma.$queryRaw<Found[]>`SELECT seq, max_at AS "maxAt" FROM pod_checkpoint
      WHERE pod_id = ${podId} AND fold = ${this.fold} AND seq <= ${seq} AND max_at < ${beforeIso} ORDER BY seq DESC LIMIT 1`;
    return rows[0] ? this.load(podId, rows[0]) : null;
  }

  /** The seqs in (afterSeq, toSeq] that already have a checkpoint: a replay passing them need not store its state again. */
  async seqsBetween(podId: string, afterSeq: number, toSeq: number): Promise<Set<number>> {
    const rows = await this.store.prisma.$queryRaw<{ seq: number | bigint }[]>`SELECT seq FROM pod_checkpoint
      WHERE pod_id = ${podId} AND fold = ${this.fold} AND seq > ${afterSeq} AND seq <= ${toSeq}`;
    return new Set(rows.map((r) => Number(r.seq)));
  }

  /**
   * Stores `state` (the pod after its seq; never changed afterwards, as no reducer changes the state
   * it is given). `keep`: also held decoded, for the state a read asked for, where the pod's next
   * read starts (the keeper's next checkpoint always does): else it would read and rebuild it.
   */
  async put(podId: string, state: PodState, maxAt: string, keep = false): Promise<void> {
    const pieces = await encodePieces(state, { texts: STATE_TEXTS, kept: keptSegment(STATE_SEGMENTS) });
    const { bytes, chars } = await deflatePieces(pieces, STATE_SEGMENTS);
    await this.store.prisma.$executeRaw`INSERT INTO pod_checkpoint (pod_id, fold, seq, max_at, state)
      VALUES (${podId}, ${this.fold}, ${state.seq}, ${maxAt}, ${bytes}) ON CONFLICT DO NOTHING`;
    if (keep) this.decoded.put(podId, { state, maxAt }, chars);
  }

  /** Checkpoints other code made for this pod: never read again by this fold, so their bytes go. */
  async dropOtherFolds(podId: string): Promise<void> {
    await this.store.prisma
      .$executeRaw`DELETE FROM pod_checkpoint WHERE pod_id = ${podId} AND fold <> ${this.fold}`;
  }

  /** Checkpoints stored for the pod (tests, the bench). */
  async count(podId: string): Promise<number> {
    const rows = await this.store.prisma.$queryRaw<
      { n: number | bigint }[]
    >`SELECT COUNT(*) AS n FROM pod_checkpoint WHERE pod_id = ${podId} AND fold = ${this.fold}`;
    return Number(rows[0]?.n ?? 0);
  }

  private async load(podId: string, found: Found): Promise<Checkpoint> {
    const seq = Number(found.seq);
    const held = this.decoded.get(podId, seq);
    if (held) return held;
    const rows = await this.store.prisma.$queryRaw<{ state: Uint8Array }[]>`SELECT state FROM pod_checkpoint
      WHERE pod_id = ${podId} AND fold = ${this.fold} AND seq = ${seq}`;
    if (!rows[0]) throw new Error(`pod_checkpoint at seq ${seq} is gone`);
    const text = await inflatePieces(rows[0].state);
    const state = (await decodeInSlices(text)) as PodState;
    if (state.seq !== seq) throw new Error(`pod_checkpoint at seq ${seq} holds a state at seq ${state.seq}`);
    const checkpoint = { state, maxAt: found.maxAt };
    this.decoded.put(podId, checkpoint, text.length);
    return checkpoint;
  }
}
