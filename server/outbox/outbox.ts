// The dispatcher of the durable outbox. Every append transaction wrote one row
// per pod (server/db/*-store.ts): the seqs it committed and how the inbox
// changed. Here each row is handed to every registered consumer (webhooks,
// push, mail), which turns it into durable work of its own, and only then
// deleted. A crash between the two hands the row over again, so consumers are
// idempotent; in the normal case each row is taken exactly once.
import type { OutboxRow, TapeStore } from "../db/tape-store";
import type { InboxItem } from "../domain/state/pod-state";
import type { TapeBus } from "../tape/bus";

export type OutboxBatch = {
  id: number;
  podId: string;
  fromSeq: number;
  toSeq: number;
  opened: InboxItem[];
  closed: string[];
  createdAt: string;
};

/**
 * One run of the dispatcher: the rows it claimed were all committed before it began, so what a
 * consumer reads once for a run (a pod's webhook endpoints, say) is at least as new as any of
 * them needs — a cache no staler than reading per row.
 */
export type OutboxRun = { memo<T>(key: string, load: () => Promise<T>): Promise<T> };

export interface OutboxConsumer {
  readonly name: string;
  /**
   * Turns the batch into durable work in the consumer's own tables (unique keys, so a batch
   * taken again adds nothing). Throwing leaves the row for a later attempt. Keep it quick: the
   * slow sending belongs to the consumer's own worker.
   */
  take(batch: OutboxBatch, run: OutboxRun): Promise<void>;
}

/** `minGapMs`: commits wake the dispatcher at most once per this gap (default 20 ms). */
export type OutboxOptions = { pollMs?: number; leaseMs?: number; batchSize?: number; minGapMs?: number };

/**
 * Under a busy tape every commit wakes the dispatcher; a run per commit costs a claim, each
 * consumer's reads and a delete per group of a few requests (measured: the biggest cost outside
 * the appends themselves under single-event load). A short gap lets one run take the rows of many
 * commits. It delays webhooks and notifications by at most the gap.
 */
const MIN_GAP_MS = 20;

function newRun(): OutboxRun {
  const memos = new Map<string, Promise<unknown>>();
  return {
    memo<T>(key: string, load: () => Promise<T>) {
      let p = memos.get(key) as Promise<T> | undefined;
      if (!p) memos.set(key, (p = load()));
      return p;
    },
  };
}

export class OutboxDispatcher {
  private readonly consumers: OutboxConsumer[] = [];
  private running: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private soonTimer: NodeJS.Timeout | null = null;
  private lastStart = 0;
  private stopped = true;
  private readonly wake = () => this.soon();

  constructor(
    private readonly store: TapeStore,
    private readonly bus: TapeBus,
    private readonly options: OutboxOptions = {},
  ) {}

  register(consumer: OutboxConsumer) {
    this.consumers.push(consumer);
  }

  /** Wakes on every commit, and polls for rows left by a crash or a failed consumer. */
  start() {
    this.stopped = false;
    this.bus.on("committed", this.wake);
    this.timer = setInterval(this.wake, this.options.pollMs ?? 2000);
    this.timer.unref();
    this.kick();
  }

  async stop() {
    this.stopped = true;
    this.bus.off("committed", this.wake);
    if (this.timer) clearInterval(this.timer);
    if (this.soonTimer) clearTimeout(this.soonTimer);
    await this.running;
  }

  /** Resolves once everything committed so far has been handed over (tests, shutdown). */
  async drain() {
    // A run begun before now claimed before the latest commits; its follow-up may wait for the
    // gap (soon()). So after it, one run that begins now, which claims everything committed so far.
    await this.running;
    await (this.running ?? this.kick());
  }

  /** A run once the gap since the last one has passed (now, if it has). */
  private soon() {
    if (this.running) return void (this.again = true);
    if (this.soonTimer || this.stopped) return;
    const wait = this.lastStart + (this.options.minGapMs ?? MIN_GAP_MS) - Date.now();
    if (wait <= 0) return void this.kick();
    this.soonTimer = setTimeout(() => void this.kick(), wait);
  }

  private kick(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    if (this.soonTimer) clearTimeout(this.soonTimer);
    this.soonTimer = null;
    this.lastStart = Date.now();
    this.running = this.run().finally(() => {
      this.running = null;
      if (this.again && !this.stopped) {
        this.again = false;
        this.soon();
      }
    });
    return this.running;
  }

  private async run() {
    const size = this.options.batchSize ?? 100;
    const run = newRun();
    for (;;) {
      this.again = false;
      const now = Date.now();
      let rows: OutboxRow[];
      try {
        rows = await this.store.claimOutbox(
          size,
          new Date(now).toISOString(),
          new Date(now + (this.options.leaseMs ?? 60_000)).toISOString(),
        );
      } catch (error) {
        if (!this.stopped) console.error("podwatch: the outbox could not be read; retrying", error);
        return;
      }
      const taken: number[] = [];
      for (const row of rows) if (await this.hand(row, run)) taken.push(Number(row.id));
      // One delete for the whole run: on SQLite each statement outside the append is its own commit (and fsync).
      await this.store.deleteOutbox(taken);
      if (rows.length < size || this.stopped) return;
    }
  }

  /** True when every consumer took the row. */
  private async hand(row: OutboxRow, run: OutboxRun): Promise<boolean> {
    const batch = toBatch(row);
    let ok = true;
    for (const consumer of this.consumers) {
      try {
        await consumer.take(batch, run);
      } catch (error) {
        ok = false;
        console.error(
          `podwatch: outbox consumer ${consumer.name} failed on pod ${row.podId} seqs ${row.fromSeq}–${row.toSeq}; it will be retried`,
          error,
        );
      }
    }
    // A failed row stays claimed until its lease ends, then it is handed over again (to all: they are idempotent).
    return ok;
  }
}

function toBatch(row: OutboxRow): OutboxBatch {
  const inbox = JSON.parse(row.inbox) as { opened: InboxItem[]; closed: string[] };
  return {
    id: Number(row.id),
    podId: row.podId,
    fromSeq: Number(row.fromSeq),
    toSeq: Number(row.toSeq),
    opened: inbox.opened,
    closed: inbox.closed,
    createdAt: row.createdAt,
  };
}
