// The bus across nodes on one PostgreSQL. Every node's listeners (sockets,
// long-polls, the outbox, the deadline scheduler) hear every pod's commits, in
// seq order with no gap and no duplicate, wherever they were made: the store
// NOTIFYs each commit's seq range (server/db/commit-notice.ts), and this node reads back
// from the store what it did not commit itself (./bus-sequencer.ts). The other
// bus events (a pod created, a credential revoked) are broadcast whole.
import type pg from "pg";
import type { TapeStore } from "../db/tape-store";
import type { TapeEvent } from "../wire/events";
import type { BusEvent, BusEvents, BusHealth, BusListener, CommittedBatch, TapeBus } from "./bus";
import { BusConnection } from "./bus-connection";
import { parseCommitNotice, TAPE_CHANNEL } from "../db/commit-notice";
import { BROADCAST_CHANNEL, broadcastPayload, parseBroadcast, type BroadcastEvent } from "./bus-messages";
import { BusSequencer, type SequencerLimits } from "./bus-sequencer";
import { InProcessBus } from "./in-process-bus";
import { toTapeEvent } from "./to-tape-event";
import { countFitting, storedEventBytes } from "./wire-bytes";

/** How long before an outage a pod may have been created and still be caught up in full (clocks of nodes differ a little). */
const CLOCK_SLACK_MS = 60_000;
/**
 * How long a reconnected bus stays unready while it reads back what it missed. Past it the node
 * says ready with reads still going (they go out in order, only later): a pod written to faster
 * than one node reads it back would otherwise keep the node out of rotation for good.
 */
const CATCH_UP_READY_MS = 30_000;

export type PostgresBusOptions = {
  url: string;
  store: TapeStore;
  /** This process's name on the bus (server/db/commit-notice.ts busNodeName); the store signs its notifications with it too. */
  node: string;
  limits?: Partial<SequencerLimits>;
};

export class PostgresBus implements TapeBus {
  readonly kind = "postgres" as const;
  private readonly local = new InProcessBus();
  private readonly sequencer: BusSequencer;
  private readonly connection: BusConnection;

  /** Resolves once it listens (or, if PostgreSQL refuses for now, once it keeps trying in the background: /readyz says so). */
  static async open(o: PostgresBusOptions): Promise<PostgresBus> {
    const bus = new PostgresBus(o);
    await bus.connection.start();
    if (!bus.health().ok) await bus.seedFromStore();
    return bus;
  }

  /**
   * The first LISTEN failed: the pods' heads now, read through the store, are where this node
   * starts, and the LISTEN that succeeds later catches up from them as after any outage. Seeded
   * only then, they would be the heads at that later time, and a socket that subscribed in
   * between would miss what other nodes committed meanwhile.
   */
  private async seedFromStore() {
    try {
      const { rows } = (await this.o.store.pool?.query<{ id: string; seq: number }>(
        `SELECT id, head_seq AS seq FROM pod ORDER BY created_at DESC LIMIT $1`,
        [this.sequencer.limits.maxPods],
      )) ?? { rows: [] };
      for (const r of rows.reverse()) this.sequencer.seed(r.id, r.seq);
    } catch (e) {
      console.error(
        `podwatch: the bus could not read the pods' heads either (${e instanceof Error ? e.message : e}); pods it has not heard of are caught up only from their next commit`,
      );
    }
  }

  private constructor(private readonly o: PostgresBusOptions) {
    this.sequencer = new BusSequencer(
      (podId, after, limit) => this.readBack(podId, after, limit),
      (podId, events) => this.deliver(podId, events),
      o.limits,
    );
    this.connection = new BusConnection({
      url: o.url,
      node: o.node,
      channels: [TAPE_CHANNEL, BROADCAST_CHANNEL],
      onNotification: (channel, payload) => this.heard(channel, payload),
      onListening: (client, lostAt) => this.catchUp(client, lostAt),
    });
  }

  emit<K extends BusEvent>(event: K, payload: BusEvents[K]) {
    if (event === "committed") {
      const { podId, events } = payload as CommittedBatch;
      return this.sequencer.local(podId, events);
    }
    this.heardOf(event, payload);
    const e = event as BroadcastEvent;
    if (
      !this.connection.notify(
        BROADCAST_CHANNEL,
        broadcastPayload(this.o.node, e, payload as BusEvents[typeof e]),
      )
    ) {
      console.error(
        `podwatch: the bus is not connected, so other nodes do not hear this ${event} at once (their periodic checks catch up)`,
      );
    }
  }

  on<K extends BusEvent>(event: K, listener: BusListener<K>) {
    this.local.on(event, listener);
  }

  off<K extends BusEvent>(event: K, listener: BusListener<K>) {
    this.local.off(event, listener);
  }

  listenerCount(event: BusEvent) {
    return this.local.listenerCount(event);
  }

  health(): BusHealth {
    return this.connection.health();
  }

  async close() {
    this.sequencer.close();
    await this.connection.close();
  }

  /** At most a frame's weight of events (at least one): a lagging node reading ~1 MB events must not build a gigabyte. */
  private async readBack(podId: string, after: number, limit: number): Promise<TapeEvent[]> {
    const rows = await this.o.store.readEvents(podId, after, limit);
    return rows.slice(0, countFitting(rows, storedEventBytes)).map((e) => toTapeEvent(e));
  }

  /** Never throws: a failing listener must not stall the pod's sequence (the events are committed; clients catch up). */
  private deliver(podId: string, events: TapeEvent[]) {
    try {
      this.local.emit("committed", { podId, events });
    } catch (error) {
      console.error(
        "podwatch: a live listener failed; the events are committed and clients will catch up",
        error,
      );
    }
  }

  private heard(channel: string, payload: string | undefined) {
    if (channel === TAPE_CHANNEL) {
      const notice = parseCommitNotice(payload);
      // Its own commits it has put out already, unless the notice is a recovered one (server/db/commit-notice.ts).
      if (notice && (notice.n !== this.o.node || notice.r))
        void this.sequencer.remote(notice.p, notice.f, notice.t);
    } else if (channel === BROADCAST_CHANNEL) {
      const message = parseBroadcast(payload);
      if (message && message.n !== this.o.node) this.heardOf(message.e, message.d);
    }
  }

  private heardOf<K extends BusEvent>(event: K, payload: BusEvents[K]) {
    // A new pod starts known at seq 0, so an outage before its first event cannot hide that event.
    if (event === "pod-created") this.sequencer.seed((payload as BusEvents["pod-created"]).podId, 0);
    this.local.emit(event, payload);
  }

  /**
   * After each LISTEN. The first time, the heads of the pods are where this node starts (nothing
   * here listened before). After an outage (or a first attempt that failed, see seedFromStore): the pods it knew, and those created since, are read
   * up to their heads, so what was committed meanwhile goes out in order after all.
   */
  private async catchUp(client: pg.Client, lostAt: Date | null) {
    const max = this.sequencer.limits.maxPods;
    if (!lostAt) {
      const { rows } = await client.query<{ id: string; seq: number }>(
        `SELECT id, head_seq AS seq FROM pod ORDER BY created_at DESC LIMIT $1`,
        [max],
      );
      for (const r of rows.reverse()) this.sequencer.seed(r.id, r.seq);
      return;
    }
    const known = this.sequencer.known();
    const since = new Date(lostAt.getTime() - CLOCK_SLACK_MS).toISOString();
    const { rows } = await client.query<{ id: string; seq: number }>(
      `SELECT id, head_seq AS seq FROM pod WHERE id = ANY($1::text[]) OR created_at >= $2`,
      [[...known.keys()], since],
    );
    let events = 0;
    const reads: Promise<void>[] = [];
    for (const { id, seq } of rows) {
      const done = known.get(id) ?? 0;
      if (seq <= done) continue;
      events += seq - done;
      reads.push(this.sequencer.remote(id, done + 1, seq)); // a few at a time (SequencerLimits.concurrentReads)
    }
    if (!reads.length) return;
    console.error(
      `podwatch: while the bus was not listening, ${events} events on ${reads.length} pods were committed by other nodes or went unheard; they are being read back and sent in order`,
    );
    // Not ready (so not in a proxy's rotation) until they went out, within reason.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(reads), new Promise((r) => (timer = setTimeout(r, CATCH_UP_READY_MS)))]);
    clearTimeout(timer);
  }
}
