// Checkpoints already decoded, kept in memory up to a bound in bytes (of their stored text), the
// least recently used leaving first. Reads of a pod's past come in runs (a slider settling near
// one seq, the same week asked again, the keeper's newest checkpoint read by the next window):
// each finds its checkpoint without reading, inflating and rebuilding it. The states are shared,
// as the pod-state cache shares the head's: the reducers never change the state they are given.
import type { Checkpoint } from "./checkpoint-store";

/** What the decoded checkpoints of one store may hold, in bytes of their text (a lived-in pod's is ~1.8 MB). */
export const DECODED_CHECKPOINT_BYTES = 16 * 1024 * 1024;

export class DecodedCheckpoints {
  private readonly held = new Map<string, { checkpoint: Checkpoint; bytes: number }>();
  private bytes = 0;

  constructor(private readonly maxBytes = DECODED_CHECKPOINT_BYTES) {}

  get(podId: string, seq: number): Checkpoint | undefined {
    const key = `${podId}\0${seq}`;
    const hit = this.held.get(key);
    if (!hit) return undefined;
    // Most recently used last: a Map keeps insertion order.
    this.held.delete(key);
    this.held.set(key, hit);
    return hit.checkpoint;
  }

  put(podId: string, checkpoint: Checkpoint, bytes: number) {
    const key = `${podId}\0${checkpoint.state.seq}`;
    if (bytes > this.maxBytes) return;
    const had = this.held.get(key);
    if (had) this.bytes -= had.bytes;
    this.held.delete(key);
    this.held.set(key, { checkpoint, bytes });
    this.bytes += bytes;
    for (const [k, v] of this.held) {
      if (this.bytes <= this.maxBytes) break;
      this.held.delete(k);
      this.bytes -= v.bytes;
    }
  }

  /** Bytes held (tests). */
  size() {
    return this.bytes;
  }
}
