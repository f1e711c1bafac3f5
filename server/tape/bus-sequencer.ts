// Puts every pod's committed events out in seq order, with no gap and no
// duplicate, whichever node committed them. Local batches arrive with their
// events; other nodes' commits arrive as a seq range only, read back from the
// store. A batch that leaves a gap (another node committed in between) waits
// while the missing seqs are read; what arrives meanwhile queues behind it.
import type { TapeEvent } from "../wire/events";
import { tapeEventBytes } from "./wire-bytes";

/**
 * Reads committed events of a pod with seq > `after`, oldest first, at most `limit` and about a
 * frame's weight (server/tape/wire-bytes.ts): fewer when they are big, at least one if there is one.
 * Each read goes out as it is (one frame's worth), so a node far behind never builds one huge frame.
 */
export type ReadAfter = (podId: string, after: number, limit: number) => Promise<TapeEvent[]>;
export type Deliver = (podId: string, events: TapeEvent[]) => void;

export type SequencerLimits = {
  /** Pods whose last delivered seq is remembered (least recently used go first; a forgotten pod starts afresh). */
  maxPods: number;
  /** Events queued behind a pod's read; past it (or past maxQueuedBytes) the queue is dropped and read back from the store instead. */
  maxQueued: number;
  maxQueuedBytes: number;
  /** The most events one read asks for; the first read of a catch-up asks for fewer (events may weigh a megabyte). */
  pageSize: number;
  firstRead: number;
  /** Pods read back at once: after an outage every pod is behind, and reads must not take the whole pool from appends. */
  concurrentReads: number;
  /** A failed read is tried again after this long, doubling up to 5 s. */
  retryMs: number;
};

const DEFAULTS: SequencerLimits = {
  maxPods: 100_000,
  maxQueued: 5_000,
  maxQueuedBytes: 32 * 1024 * 1024,
  pageSize: 1_000,
  firstRead: 64,
  concurrentReads: 3,
  retryMs: 100,
};

/** A pod being read back: up to `readTo` from the store, then its queued local batches; `done` settles when it is through. */
type Catching = {
  readTo: number;
  queue: TapeEvent[][];
  queued: number;
  queuedBytes: number;
  done?: Promise<void>;
};

export class BusSequencer {
  private readonly delivered = new Map<string, number>();
  private readonly catching = new Map<string, Catching>();
  private reading = 0;
  private readonly waitingToRead: Array<() => void> = [];
  readonly limits: SequencerLimits;
  private closed = false;

  constructor(
    private readonly read: ReadAfter,
    private readonly deliver: Deliver,
    limits: Partial<SequencerLimits> = {},
  ) {
    this.limits = { ...DEFAULTS, ...limits };
  }

  /** Events just committed by this node: delivered synchronously unless another node's commit came first and is not read yet. */
  local(podId: string, events: TapeEvent[]) {
    if (!events.length) return;
    const busy = this.catching.get(podId);
    if (busy) return this.enqueue(busy, events);
    const done = this.delivered.get(podId);
    const fresh = done === undefined ? events : events.filter((e) => e.seq > done);
    if (!fresh.length) return;
    if (done === undefined || fresh[0]!.seq === done + 1) return this.emit(podId, fresh);
    this.startCatching(podId, {
      readTo: fresh[0]!.seq - 1,
      queue: [fresh],
      queued: fresh.length,
      queuedBytes: bytesOf(fresh),
    });
  }

  /** Another node committed `from..to` of the pod: read what this node has not delivered. Settles once it went out (or the sequencer closed). */
  remote(podId: string, from: number, to: number): Promise<void> {
    const busy = this.catching.get(podId);
    if (busy) return ((busy.readTo = Math.max(busy.readTo, to)), busy.done!);
    const done = this.delivered.get(podId);
    if (done !== undefined && to <= done) return Promise.resolve();
    if (done === undefined) this.remember(podId, from - 1);
    return this.startCatching(podId, { readTo: to, queue: [], queued: 0, queuedBytes: 0 });
  }

  /** The pods whose last delivered seq is known, and that seq (to compare with the store's heads after an outage). */
  known(): Map<string, number> {
    return new Map(this.delivered);
  }

  /** Marks a pod delivered up to `seq` without emitting (a node starting up has no listener that missed anything). */
  seed(podId: string, seq: number) {
    if (!this.catching.has(podId) && (this.delivered.get(podId) ?? -1) < seq) this.remember(podId, seq);
  }

  /** Reads still running for these pods (tests, logs). */
  catchingUp(): number {
    return this.catching.size;
  }

  close() {
    this.closed = true;
    for (const next of this.waitingToRead.splice(0)) next(); // each sees `closed` and stops
  }

  private enqueue(busy: Catching, events: TapeEvent[]) {
    const bytes = bytesOf(events);
    if (
      busy.queued + events.length > this.limits.maxQueued ||
      busy.queuedBytes + bytes > this.limits.maxQueuedBytes
    ) {
      // Too far behind to hold in memory: everything queued is committed, so read it back instead.
      busy.readTo = Math.max(busy.readTo, events.at(-1)!.seq);
      busy.queue = [];
      busy.queued = 0;
      busy.queuedBytes = 0;
      return;
    }
    busy.queue.push(events);
    busy.queued += events.length;
    busy.queuedBytes += bytes;
  }

  private startCatching(podId: string, c: Catching): Promise<void> {
    this.catching.set(podId, c);
    c.done = this.catchUp(podId, c).catch((e) =>
      console.error(`podwatch: the bus stopped reading pod ${podId} back`, e),
    );
    return c.done;
  }

  private async catchUp(podId: string, c: Catching) {
    let wait = this.limits.retryMs;
    while (!this.closed) {
      let reached: boolean;
      await this.takeReadSlot();
      if (this.closed) return this.releaseReadSlot();
      try {
        reached = await this.readUpTo(podId, c);
      } catch (e) {
        this.releaseReadSlot();
        console.error(
          `podwatch: the bus could not read pod ${podId}'s events back (${e instanceof Error ? e.message : e}); trying again`,
        );
        await new Promise((r) => setTimeout(r, wait));
        wait = Math.min(wait * 2, 5_000);
        continue;
      }
      this.releaseReadSlot();
      if (c.readTo > (this.delivered.get(podId) ?? 0) && reached) continue; // more was asked for while it read
      // A read that found less than asked (a forgotten pod's stale range) must not spin: the queue goes out as it is.
      if (this.drainQueue(podId, c, !reached)) continue;
      this.catching.delete(podId);
      return;
    }
  }

  /**
   * Reads (delivered, readTo] page by page and emits each page as it is. False if the store had
   * less than that. Pages start small and double while they come back whole; a page cut short by
   * its weight sets the next one's size, so big events are not read only to be left out.
   */
  private async readUpTo(podId: string, c: Catching): Promise<boolean> {
    let done = this.delivered.get(podId) ?? 0;
    let limit = Math.min(this.limits.firstRead, this.limits.pageSize);
    while (done < c.readTo && !this.closed) {
      const target = c.readTo;
      const asked = Math.min(limit, target - done);
      const page = await this.read(podId, done, asked);
      const fresh = page.filter((e) => e.seq > done && e.seq <= target);
      if (!fresh.length) return false;
      this.emit(podId, fresh);
      done = fresh.at(-1)!.seq;
      limit = page.length < asked ? page.length : Math.min(this.limits.pageSize, limit * 2);
    }
    return true;
  }

  private takeReadSlot(): Promise<void> {
    if (this.reading < this.limits.concurrentReads) return (this.reading++, Promise.resolve());
    return new Promise((resolve) => this.waitingToRead.push(resolve)); // the slot passes on from releaseReadSlot
  }

  private releaseReadSlot() {
    const next = this.waitingToRead.shift();
    if (next) next();
    else this.reading--;
  }

  /** Emits queued local batches in order. True if one of them starts past a gap (read again), unless `acceptGap`. */
  private drainQueue(podId: string, c: Catching, acceptGap: boolean): boolean {
    while (c.queue.length) {
      const done = this.delivered.get(podId) ?? 0;
      const fresh = c.queue[0]!.filter((e) => e.seq > done);
      if (fresh.length && fresh[0]!.seq !== done + 1 && !acceptGap) {
        c.readTo = Math.max(c.readTo, fresh[0]!.seq - 1);
        return true;
      }
      c.queued -= c.queue.shift()!.length;
      if (fresh.length) this.emit(podId, fresh);
    }
    return false;
  }

  private emit(podId: string, events: TapeEvent[]) {
    this.remember(podId, events.at(-1)!.seq);
    this.deliver(podId, events);
  }

  private remember(podId: string, seq: number) {
    this.delivered.delete(podId); // re-inserted last: the map's order is least recently used first
    this.delivered.set(podId, seq);
    if (this.delivered.size <= this.limits.maxPods) return;
    // A pod being read back keeps its place: forgotten, its read would start again from seq 0 and send its whole tape.
    for (const old of this.delivered.keys()) {
      if (this.catching.has(old)) continue;
      this.delivered.delete(old);
      return;
    }
  }
}

function bytesOf(events: TapeEvent[]): number {
  let total = 0;
  for (const e of events) total += tapeEventBytes(e);
  return total;
}
