// The embedded store: one better-sqlite3 connection in WAL mode, shared with
// Prisma's client so that every write in this process goes through a single
// connection and a synchronous transaction never interleaves with another.
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { sqlitePath } from "./sqlite-path";
import type Database from "better-sqlite3";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import type { SqlDriverAdapter, SqlDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { PrismaClient } from "./generated/sqlite/client";
import type { Head, StoredEvent, StoredRef } from "../domain/plan-append";
import type { PodState } from "../domain/state/pod-state";
import { planGroup, planGroupSteps, type GroupPlan, type PodSnapshot } from "../domain/plan-group";
import { snapshotText } from "./snapshot-text";
import { fromSnapshotSync, PodStateCache, SNAPSHOT_EVERY, type StateRow } from "./pod-state-cache";
import { searchSql, type EventFilter } from "./event-search";
import { migrateSqlite } from "./migrations";
import { WalFlusher } from "./wal-flusher";
import { AUTOCHECKPOINT_BACKSTOP, WalCheckpointer } from "./wal-checkpointer";
import type { TimeSlices } from "./time-slices";
import {
  OUTBOX_COLUMNS,
  outboxInbox,
  type OutboxRow,
  type AppendOutcome,
  type AppendRequest,
  type TapeStore,
} from "./tape-store";

/**
 * Bytes on disk: a chain hash is stored as its 32 bytes (a BLOB), not 64 hex characters — 64 bytes
 * less per event, about a tenth of a small event's row. Read back as the same lowercase hex; rows
 * written before (hex text) read unchanged, so no migration rewrites the tape.
 */
const packHash = (hex: string): Buffer | string =>
  /^[0-9a-f]{64}$/.test(hex) ? Buffer.from(hex, "hex") : hex;
const hexOf = (column: string) =>
  `CASE WHEN typeof(${column}) = 'blob' THEN lower(hex(${column})) ELSE ${column} END`;
const EVENT_COLUMNS = `id, pod_id AS "podId", seq, type, actor, role, ts, received_at AS "receivedAt", body, meta, ${hexOf("prev_hash")} AS "prevHash", ${hexOf("hash")} AS hash`;
const REF_COLUMNS = `id, pod_id AS podId, seq, ${hexOf("hash")} AS hash, type, actor`;

/** The serving connection's settings. */
export function configureServing(db: Database.Database, sync: "full" | "normal") {
  db.pragma("journal_mode = WAL");
  // FULL (default): each commit is on disk before it is acknowledged, so an acknowledged event
  // survives even a power cut (appends get there through WalFlusher, everything else through
  // SQLite's own fsync). NORMAL survives process crashes.
  db.pragma(`synchronous = ${sync === "normal" ? "NORMAL" : "FULL"}`);
  db.pragma("foreign_keys = ON");
  // Random UUID keys touch pages all over the id index: keep more of it in memory.
  db.pragma("cache_size = -65536");
  // Checkpoints run in a worker (./wal-checkpointer.ts); this connection's own only as a backstop.
  db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_BACKSTOP}`);
}

/** `snapshotEvery`: how many events a pod's stored state may lag its head, at least (snapshotLag, ./pod-state-cache.ts). */
export async function openSqliteStore(
  url: string,
  sync: "full" | "normal" = "full",
  snapshotEvery = SNAPSHOT_EVERY,
): Promise<TapeStore> {
  const path = sqlitePath(url);
  mkdirSync(dirname(path), { recursive: true });
  const adapter = (await new PrismaBetterSqlite3({
    url: `file:${path}`,
    timeout: 10_000,
  }).connect()) as SqlDriverAdapter & {
    client: Database.Database;
  };
  const db = adapter.client;
  configureServing(db, sync);
  migrateSqlite(db);
  const factory: SqlDriverAdapterFactory = {
    provider: "sqlite",
    adapterName: adapter.adapterName,
    connect: async () => adapter,
  };
  const prisma = new PrismaClient({ adapter: factory });
  const wal = { flusher: new WalFlusher(`${path}-wal`), checkpointer: new WalCheckpointer(path) };
  return new SqliteStore(db, prisma, sync, wal, new PodStateCache(snapshotEvery));
}

class SqliteStore implements TapeStore {
  readonly kind = "sqlite" as const;
  private readonly stmts;
  /** Snapshot writes under way, one after another (close waits for them). */
  private snapshots: Promise<void> | null = null;
  private closing = false;

  constructor(
    private readonly db: Database.Database,
    readonly prisma: PrismaClient,
    private readonly sync: "full" | "normal",
    private readonly wal: { flusher: WalFlusher; checkpointer: WalCheckpointer },
    private readonly states: PodStateCache,
  ) {
    const prep = (sql: string) => db.prepare(sql).safeIntegers(false);
    this.stmts = {
      head: prep(`SELECT head_seq AS seq, head_hash AS hash FROM pod WHERE id = ?`),
      setHead: prep(`UPDATE pod SET head_seq = ?, head_hash = ? WHERE id = ?`),
      insert: prep(
        `INSERT INTO event (id, pod_id, seq, type, actor, role, ts, received_at, body, meta, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      state: prep(`SELECT seq, state FROM pod_state WHERE pod_id = ?`),
      setState: prep(
        `INSERT INTO pod_state (pod_id, seq, state) VALUES (?, ?, ?) ON CONFLICT (pod_id) DO UPDATE SET seq = excluded.seq, state = excluded.state`,
      ),
      // A later snapshot only: one taken before a newer one was stored must not replace it.
      snapshot: prep(
        `INSERT INTO pod_state (pod_id, seq, state) VALUES (?, ?, ?) ON CONFLICT (pod_id) DO UPDATE SET seq = excluded.seq, state = excluded.state WHERE pod_state.seq < excluded.seq`,
      ),
      outbox: prep(`INSERT INTO outbox (pod_id, from_seq, to_seq, inbox, created_at) VALUES (?, ?, ?, ?, ?)`),
      claimOutbox: prep(
        `UPDATE outbox SET claimed_until = ? WHERE id IN (SELECT id FROM outbox WHERE claimed_until IS NULL OR claimed_until < ? ORDER BY id LIMIT ?) RETURNING ${OUTBOX_COLUMNS}`,
      ),
      deleteOutbox: prep(`DELETE FROM outbox WHERE id IN (SELECT value FROM json_each(?))`),
      findOne: prep(`SELECT ${REF_COLUMNS} FROM event WHERE id = ?`),
      // One prepared statement for any number of ids: they arrive as a JSON array.
      findMany: prep(`SELECT ${REF_COLUMNS} FROM event WHERE id IN (SELECT value FROM json_each(?))`),
      // Up to the head: rows past it are a large append not yet published (appendLarge).
      read: prep(
        `SELECT ${EVENT_COLUMNS} FROM event WHERE pod_id = ? AND seq > ? AND seq <= (SELECT head_seq FROM pod WHERE id = ?) ORDER BY seq LIMIT ?`,
      ),
      unpublished: prep(
        `DELETE FROM event WHERE pod_id = ? AND seq > (SELECT head_seq FROM pod WHERE id = ?)`,
      ),
      allUnpublished: prep(
        `DELETE FROM event WHERE rowid IN (SELECT e.rowid FROM pod p JOIN event e ON e.pod_id = p.id AND e.seq > p.head_seq)`,
      ),
    };
    // What a large append killed before it published left past its pod's head.
    this.relaxed(() => this.stmts.allUnpublished.run());
  }

  private readAfter(podId: string, after: number, limit: number): StoredEvent[] {
    return this.stmts.read.all(podId, after, podId, limit) as StoredEvent[];
  }

  async appendGroup(requests: AppendRequest[]): Promise<AppendOutcome[]> {
    const outcomes = this.commitGroup(requests);
    // Nothing is acknowledged (or published: the caller does both after this) before it is on
    // disk. With FULL the commit skipped its fsync (see relaxed): the WAL is flushed here, off the
    // event loop. Duplicates answered from the tape wait too: what they found may be that recent.
    if (this.sync === "full") await this.wal.flusher.flush();
    return outcomes;
  }

  private commitGroup(requests: AppendRequest[]): AppendOutcome[] {
    const run = (rs: AppendRequest[]) => {
      const done = this.relaxed(() => this.db.transaction(() => this.write(rs)).immediate());
      done.commit(); // cache the new states only once they are committed
      this.writeDueSnapshots();
      return done.outcomes;
    };
    try {
      return run(requests);
    } catch {
      // Something failed below the domain checks: isolate it by retrying each request alone.
      return requests.map((r) => {
        try {
          return run([r])[0]!;
        } catch (error) {
          return { ok: false as const, error };
        }
      });
    }
  }

  /** Runs inside the transaction: one head and state per pod, one lookup for all ids, then the writes. */
  private write(requests: AppendRequest[]): { outcomes: AppendOutcome[]; commit: () => void } {
    const pods = new Map<string, PodSnapshot>();
    for (const podId of new Set(requests.map((r) => r.podId))) {
      const head = this.stmts.head.get(podId) as Head | undefined;
      if (!head) continue;
      const state = this.loadState(podId, head);
      pods.set(podId, { head, state });
    }
    const ids = requests.flatMap((r) => r.events.map((e) => e.id));
    const plan = planGroup(requests, pods, this.findExisting(ids), new Date().toISOString());
    for (const e of plan.rows) this.insertRow(e);
    const commit = this.publish(plan);
    return { outcomes: plan.outcomes, commit };
  }

  private insertRow(e: StoredEvent) {
    this.stmts.insert.run(
      e.id,
      e.podId,
      e.seq,
      e.type,
      e.actor,
      e.role,
      e.ts,
      e.receivedAt,
      e.body,
      e.meta,
      packHash(e.prevHash),
      packHash(e.hash),
    );
  }

  /**
   * Inside the transaction, after the rows: the heads and the outbox; the state only when the pod
   * has no snapshot of this version yet (its first events, or an upgrade): otherwise it is stored
   * every so many events, after commit. Returns what to cache once committed.
   */
  private publish(plan: GroupPlan): () => void {
    const snapshotted = plan.touched.filter((podId) => this.states.lacksSnapshot(podId));
    for (const podId of plan.touched) {
      const head = plan.heads.get(podId)!;
      this.stmts.setHead.run(head.seq, head.hash, podId);
    }
    for (const podId of snapshotted)
      this.stmts.setState.run(podId, plan.heads.get(podId)!.seq, JSON.stringify(plan.states.get(podId)));
    for (const o of plan.outbox)
      this.stmts.outbox.run(o.podId, o.fromSeq, o.toSeq, outboxInbox(o), plan.receivedAt);
    return () =>
      plan.touched.forEach((id) => this.states.remember(id, plan.states.get(id)!, snapshotted.includes(id)));
  }

  /**
   * One large request, alone, while ../tape/append-events.ts holds its pod's turn (no other append
   * to the pod runs meanwhile; SQLite has one writing process). Planned in slices against the
   * head; its rows then go in by short transactions past the head, where no reader looks (they
   * read up to the head), and the last transaction publishes them by moving the head over them,
   * with the outbox row: all or nothing. What a failure leaves past the head is deleted here, what
   * a crash leaves when the store opens. Between the slices other pods' appends commit as usual.
   */
  async appendLarge(request: AppendRequest, slices: TimeSlices): Promise<AppendOutcome> {
    const { podId } = request;
    const head = this.stmts.head.get(podId) as Head | undefined;
    const pods = new Map<string, PodSnapshot>();
    if (head) {
      this.relaxed(() => this.stmts.unpublished.run(podId, podId));
      pods.set(podId, { head, state: this.loadState(podId, head) });
    }
    const ids = request.events.map((e) => e.id);
    const existing = new Map<string, StoredRef>();
    for (let i = 0; i < ids.length; i += 1000) {
      for (const [id, ref] of this.findExisting(ids.slice(i, i + 1000))) existing.set(id, ref);
      await slices.pause();
    }
    const plan = await slices.run(planGroupSteps([request], pods, existing, new Date().toISOString()));
    const outcome = plan.outcomes[0]!;
    if (!outcome.ok || !plan.rows.length) return this.flushed(outcome);
    let commit: (() => void) | null = null;
    try {
      // The transaction that inserts the last rows publishes them all (a request that fits in one
      // slice is one transaction, as a small one is).
      for (let i = 0; !commit;) {
        [i, commit] = this.relaxed(() =>
          this.db
            .transaction((): [number, (() => void) | null] => {
              const next = this.insertSlice(plan.rows, i, slices);
              if (next < plan.rows.length) return [next, null];
              const now = this.stmts.head.get(podId) as Head;
              if (now.seq !== head!.seq || now.hash !== head!.hash)
                throw new Error("the pod's head moved under a large append");
              return [next, this.publish(plan)];
            })
            .immediate(),
        );
        if (!commit) await slices.next();
      }
    } catch {
      // Not expected (an id taken by another pod meanwhile, a full disk): the rows written past the
      // head go, and the request is committed in one transaction as a small one is, or refused.
      this.relaxed(() => this.stmts.unpublished.run(podId, podId));
      return (await this.appendGroup([request]))[0]!;
    }
    commit();
    this.writeDueSnapshots();
    return this.flushed(outcome);
  }

  /** Rows from `from` on, until the slice is due (at least 64): the index of the next row. */
  private insertSlice(rows: StoredEvent[], from: number, slices: TimeSlices): number {
    let i = from;
    while (i < rows.length && (i - from < 64 || !slices.due())) this.insertRow(rows[i++]!);
    return i;
  }

  private async flushed(outcome: AppendOutcome): Promise<AppendOutcome> {
    if (this.sync === "full") await this.wal.flusher.flush();
    return outcome;
  }

  private findExisting(ids: string[]): Map<string, StoredRef> {
    const rows = (
      ids.length === 1 ? this.stmts.findOne.all(ids[0]) : this.stmts.findMany.all(JSON.stringify(ids))
    ) as StoredRef[];
    return new Map(rows.map((r) => [r.id, r]));
  }

  async readHead(podId: string): Promise<Head | null> {
    return (this.stmts.head.get(podId) as Head | undefined) ?? null;
  }

  async readEvents(podId: string, afterSeq: number, limit: number): Promise<StoredEvent[]> {
    return this.readAfter(podId, afterSeq, limit);
  }

  async searchEvents(
    podId: string,
    filter: EventFilter,
    before: number,
    limit: number,
  ): Promise<StoredEvent[]> {
    const { sql, params } = searchSql("sqlite", EVENT_COLUMNS, podId, filter, before, limit);
    return this.db
      .prepare(sql)
      .safeIntegers(false)
      .all(...params) as StoredEvent[];
  }

  async readState(podId: string): Promise<PodState | null> {
    const head = this.stmts.head.get(podId) as Head | undefined;
    if (!head) return null;
    return this.loadState(podId, head);
  }

  private loadState(podId: string, head: Head): PodState {
    return this.states.loadSync(
      podId,
      head,
      () => this.stmts.state.get(podId) as StateRow | undefined,
      (after, limit) => this.readAfter(podId, after, limit),
    );
  }

  /** The stored snapshot brought up to the head by its tail, without the cache: what a restart would load. */
  async readStoredState(podId: string): Promise<StateRow | null> {
    const read = () => {
      const head = this.stmts.head.get(podId) as Head | undefined;
      const row = this.stmts.state.get(podId) as StateRow | undefined;
      if (!head || !row) return null;
      const state = fromSnapshotSync(podId, row, head, (after, limit) => this.readAfter(podId, after, limit));
      return { seq: state.seq, state: JSON.stringify(state) };
    };
    return this.db.transaction(read).deferred();
  }

  /**
   * Snapshots of pods that lag theirs by their snapshotLag (./pod-state-cache.ts), written after
   * the appends that made them due have been answered (a lagging snapshot loses nothing: the tail
   * is on the tape). Without an fsync of their own: one a power cut undoes only means a longer
   * tail at load.
   */
  private writeDueSnapshots() {
    if (!this.closing) void this.writeSnapshots(this.states.takeDue());
  }

  /** After the writes already chained, one after another; resolves when these are written. */
  private writeSnapshots(due: ReturnType<PodStateCache["takeDue"]>): Promise<void> | null {
    if (!due.length) return this.snapshots;
    const previous = this.snapshots;
    const run = (async () => {
      await new Promise((resolve) => setImmediate(resolve)); // after the appends' answers
      await previous;
      for (const d of due) await this.writeSnapshot(d);
    })();
    this.snapshots = run;
    void run.then(() => {
      if (this.snapshots === run) this.snapshots = null;
    });
    return run;
  }

  private async writeSnapshot({ podId, state, before }: ReturnType<PodStateCache["takeDue"]>[number]) {
    try {
      const text = await snapshotText(state);
      // The statement keeps a later snapshot: one stored meanwhile by a newer state stays.
      this.relaxed(() => this.stmts.snapshot.run(podId, state.seq, text));
      this.states.wroteSnapshot(podId, state.seq, text.length);
    } catch (e) {
      this.states.snapshotFailed(podId, before);
      console.error(
        `podwatch: pod ${podId}: storing its state snapshot failed (${(e as Error).message}); it is tried again later`,
      );
    }
  }

  async claimOutbox(limit: number, now: string, until: string): Promise<OutboxRow[]> {
    // RETURNING does not promise an order.
    return this.relaxed(() => this.stmts.claimOutbox.all(until, now, limit) as OutboxRow[]).sort(
      (a, b) => a.id - b.id,
    );
  }

  async deleteOutbox(ids: number[]) {
    if (ids.length) this.relaxed(() => this.stmts.deleteOutbox.run(JSON.stringify(ids)));
  }

  /**
   * A statement committed without its own fsync. Appends use it and then flush the WAL off the
   * event loop before acknowledging (appendGroup). Outbox bookkeeping (a lease, a handed-over
   * row's delete) need not reach the disk before we go on: one a power cut undoes only hands a row
   * over again, and consumers are idempotent (measured: with their own fsync, claim + delete took
   * more of the server's time under single-event load than the appends' commits).
   */
  private relaxed<T>(statement: () => T): T {
    try {
      if (this.sync === "normal") return statement();
      this.db.pragma("synchronous = NORMAL");
      try {
        return statement();
      } finally {
        this.db.pragma("synchronous = FULL");
      }
    } finally {
      this.wal.checkpointer.wrote(); // the WAL grew: a checkpoint follows, off the event loop
    }
  }

  async ping() {
    this.db.prepare("SELECT 1 FROM pod LIMIT 1").get();
  }

  async close() {
    // Not needed (the tape has every event), but a restart then loads each pod without a tail.
    // No snapshot is written after this one (a commit meanwhile is only a tail at the next load).
    this.closing = true;
    if (this.db.open) await this.writeSnapshots(this.states.takeLagging());
    // The worker's connection first: the last connection to close checkpoints and removes the WAL.
    await this.wal.checkpointer.close();
    await this.wal.flusher.close();
    await this.prisma.$disconnect();
    if (this.db.open) this.db.close();
  }
}
