// The pod_checkpoint table: checkpoints of the fold, stored deflated (a lived-in state's JSON is
// ~1.5 MB and compresses ~20×). Compression runs on libuv's thread pool, off the event loop.
// Writes are idempotent (the state after a seq is a pure function of the tape and the fold), so
// two readers or two nodes passing the same seq both insert and one of them is kept.
import { promisify } from "node:util";
import { deflate, inflate } from "node:zlib";
import type { TapeStore } from "../db/tape-store";
import type { PodState } from "../domain/state/pod-state";

const deflateAsync = promisify(deflate);
const inflateAsync = promisify(inflate);

/** A state to replay from: the pod after `state.seq`, and the latest receivedAt up to it ("" before any event). */
export type Checkpoint = { state: PodState; maxAt: string };

type Row = { seq: number | bigint; maxAt: string; state: Uint8Array };

export class CheckpointStore {
  constructor(private readonly store: TapeStore, private readonly fold: string) {}

  /** The latest checkpoint at or below `seq`, or null. */
  async atOrBelow(podId: string, seq: number): Promise<Checkpoint | null> {
    const rows = await this.store.prisma.$queryRaw<Row[]>`SELECT seq, max_at AS "maxAt", state FROM pod_checkpoint
      WHERE pod_id = ${podId} AND fold = ${this.fold} AND seq <= ${seq} ORDER BY seq DESC LIMIT 1`;
    return rows[0] ? this.decode(rows[0]) : null;
  }

  /** The latest checkpoint at or below `seq` whose every event was received before `beforeIso`, or null. */
  async receivedBefore(podId: string, seq: number, beforeIso: string): Promise<Checkpoint | null> {
    const rows = await this.store.prisma.$queryRaw<Row[]>`SELECT seq, max_at AS "maxAt", state FROM pod_checkpoint
      WHERE pod_id = ${podId} AND fold = ${this.fold} AND seq <= ${seq} AND max_at < ${beforeIso} ORDER BY seq DESC LIMIT 1`;
    return rows[0] ? this.decode(rows[0]) : null;
  }

  /** The seqs in (afterSeq, toSeq] that already have a checkpoint: a replay passing them need not serialise its state again. */
  async seqsBetween(podId: string, afterSeq: number, toSeq: number): Promise<Set<number>> {
    const rows = await this.store.prisma.$queryRaw<{ seq: number | bigint }[]>`SELECT seq FROM pod_checkpoint
      WHERE pod_id = ${podId} AND fold = ${this.fold} AND seq > ${afterSeq} AND seq <= ${toSeq}`;
    return new Set(rows.map((r) => Number(r.seq)));
  }

  /** Stores the state serialised by the caller (`json`, taken when it stood at `seq`). */
  async put(podId: string, seq: number, maxAt: string, json: string): Promise<void> {
    const state = new Uint8Array(await deflateAsync(Buffer.from(json, "utf8")));
    await this.store.prisma.$executeRaw`INSERT INTO pod_checkpoint (pod_id, fold, seq, max_at, state)
      VALUES (${podId}, ${this.fold}, ${seq}, ${maxAt}, ${state}) ON CONFLICT DO NOTHING`;
  }

  /** Checkpoints other code made for this pod: never read again by this fold, so their bytes go. */
  async dropOtherFolds(podId: string): Promise<void> {
    await this.store.prisma.$executeRaw`DELETE FROM pod_checkpoint WHERE pod_id = ${podId} AND fold <> ${this.fold}`;
  }

  /** Checkpoints stored for the pod (tests, the bench). */
  async count(podId: string): Promise<number> {
    const rows = await this.store.prisma.$queryRaw<{ n: number | bigint }[]>`SELECT COUNT(*) AS n FROM pod_checkpoint WHERE pod_id = ${podId} AND fold = ${this.fold}`;
    return Number(rows[0]?.n ?? 0);
  }

  private async decode(row: Row): Promise<Checkpoint> {
    const json = (await inflateAsync(row.state)).toString("utf8");
    const state = JSON.parse(json) as PodState;
    if (state.seq !== Number(row.seq)) throw new Error(`pod_checkpoint at seq ${row.seq} holds a state at seq ${state.seq}`);
    return { state, maxAt: row.maxAt };
  }
}
