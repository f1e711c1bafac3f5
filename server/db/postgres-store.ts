// PostgreSQL store. Concurrent writers (also across processes) are serialized
// per pod by a row lock on the pod's head; a whole group of requests is
// planned in memory and written with one multi-row INSERT.
import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient as PgPrismaClient } from "./generated/postgres/client";
import type { PrismaClient } from "./generated/sqlite/client";
import type { Head, StoredEvent, StoredRef } from "../domain/plan-append";
import { planGroup, planGroupSteps, type GroupPlan, type PodSnapshot } from "../domain/plan-group";
import type { PodState } from "../domain/state/pod-state";
import { snapshotText } from "./snapshot-text";
import { fromSnapshot, PodStateCache, SNAPSHOT_EVERY, type StateRow } from "./pod-state-cache";
import { searchSql, type EventFilter } from "./event-search";
import { migratePostgres } from "./migrations";
import type { TimeSlices } from "./time-slices";
import { busNodeName, commitNotice, TAPE_CHANNEL } from "./commit-notice";
import { eventColumns, isPlannedPathUnavailable, isStalePlan, writePlanned } from "./postgres-append-planned";
import {
  EVENT_COLUMNS,
  OUTBOX_COLUMNS,
  outboxInbox,
  type OutboxRow,
  type AppendOutcome,
  type AppendRequest,
  type TapeStore,
} from "./tape-store";

/** Rows per INSERT of a large request (a group's go in one). */
const LARGE_INSERT_ROWS = 1000;

/**
 * `node`: the name this process's bus signs with (./commit-notice.ts), so it skips its own commits'
 * notifications. `snapshotEvery`: how many events a pod's stored state may lag its head, at least
 * (a large state's lags more: snapshotLag in ./pod-state-cache.ts).
 */
export type PostgresStoreOptions = { node?: string; poolMax?: number; snapshotEvery?: number };

export async function openPostgresStore(url: string, o: PostgresStoreOptions = {}): Promise<TapeStore> {
  const pool = new pg.Pool({ connectionString: url, max: o.poolMax ?? 10 });
  // An idle connection can be cut by the server (restart, admin command): the pool
  // replaces it; without a listener that would crash the process.
  pool.on("error", (e) =>
    console.error(
      `podwatch: a PostgreSQL connection dropped (${(e as { code?: string }).code ?? e.message}); it will be replaced`,
    ),
  );
  await migratePostgres(pool);
  const prisma = new PgPrismaClient({ adapter: new PrismaPg(pool) }) as unknown as PrismaClient;
  return new PostgresStore(
    pool,
    prisma,
    o.node ?? busNodeName("store"),
    new PodStateCache(o.snapshotEvery ?? SNAPSHOT_EVERY),
  );
}

/** How long a pod whose planned write met another node's events takes the locked path. */
const CONTENDED_MS = 1000;

class PostgresStore implements TapeStore {
  readonly kind = "postgres" as const;
  /** Snapshot writes under way (close waits for them). */
  private snapshots: Promise<void> | null = null;
  /** Each pod's head as this node last locked or committed it: a group is planned on these first. */
  private readonly heads = new Map<string, Head>();
  /**
   * Pods whose planned write found another node's events (until when, ms): their groups go
   * straight to the locked path meanwhile, instead of planning twice and queueing twice for the
   * lock each time two nodes take turns on one pod.
   */
  private readonly contended = new Map<string, number>();
  /** Whether the planned path is known not to work on this database (see isPlannedPathUnavailable). */
  private plannedPathOff = false;
  constructor(
    readonly pool: pg.Pool,
    readonly prisma: PrismaClient,
    private readonly node: string,
    private readonly states: PodStateCache,
  ) {}

  /**
   * One large request in one transaction under its pod's head lock, planned and inserted in slices
   * (the transaction waits on nothing but its own pod's lock; other pods' appends commit meanwhile).
   */
  async appendLarge(request: AppendRequest, slices: TimeSlices): Promise<AppendOutcome> {
    return (await this.appendGroup([request], slices))[0]!;
  }

  async appendGroup(requests: AppendRequest[], slices?: TimeSlices): Promise<AppendOutcome[]> {
    try {
      return await this.transaction(requests, slices);
    } catch {
      // A driver-level failure (e.g. a concurrent replay of the same id): isolate by retrying alone.
      const outcomes = await Promise.all(
        requests.map((r) =>
          this.transaction([r], slices).then(
            (o) => o[0]!,
            (error) => ({ ok: false as const, error }),
          ),
        ),
      );
      await this.announceRecovered(requests, outcomes);
      return outcomes;
    }
  }

  /**
   * The failure may have come after COMMIT (the connection dropped before its answer): then the
   * retry finds the events stored and adds nothing, and this node's bus, which skips its own
   * notices, would never put them out here. So their seqs are announced again, marked for this
   * node too; a bus that already delivered them ignores the notice.
   */
  private async announceRecovered(requests: AppendRequest[], outcomes: AppendOutcome[]) {
    const notices: string[] = [];
    outcomes.forEach((o, i) => {
      if (!o.ok || o.added.length || !o.acks.length) return;
      const seqs = o.acks.map((a) => a.seq);
      notices.push(commitNotice(this.node, requests[i]!.podId, Math.min(...seqs), Math.max(...seqs), true));
    });
    if (!notices.length) return;
    await this.pool
      .query(`SELECT pg_notify($1, n) FROM unnest($2::text[]) AS n`, [TAPE_CHANNEL, notices])
      .catch((e: Error) => {
        console.error(
          `podwatch: could not announce events found stored after a failed commit (${e.message}); spectators here see them when they resubscribe`,
        );
      });
  }

  private async transaction(requests: AppendRequest[], slices?: TimeSlices): Promise<AppendOutcome[]> {
    if (!slices) {
      const outcomes = await this.appendPlanned(requests);
      if (outcomes) return outcomes;
    }
    return this.lockedTransaction(requests, slices);
  }

  /**
   * The group planned on the heads this node knows and written in one round trip, or null when a
   * pod's head or state is not known here, when nothing would be written, or when what the plan
   * started from changed (nothing was written then): the caller plans it again under the lock.
   */
  private async appendPlanned(requests: AppendRequest[]): Promise<AppendOutcome[] | null> {
    if (this.plannedPathOff) return null;
    const podIds = [...new Set(requests.map((r) => r.podId))].sort();
    const now = Date.now();
    if (podIds.some((id) => (this.contended.get(id) ?? 0) > now)) return null;
    const planned = new Map<string, Head>();
    const pods = new Map<string, PodSnapshot>();
    for (const podId of podIds) {
      const head = this.heads.get(podId);
      const state = head && this.states.at(podId, head);
      if (!head || !state) return null;
      planned.set(podId, head);
      pods.set(podId, { head, state });
    }
    const plan = planGroup(requests, pods, new Map(), new Date().toISOString());
    if (!plan.rows.length) return null;
    const snapshotted = plan.touched.filter((podId) => this.states.lacksSnapshot(podId));
    const ids = requests.flatMap((r) => r.events.map((e) => e.id));
    try {
      await writePlanned(this.pool, this.node, plan, planned, ids, snapshotted);
    } catch (e) {
      if (isStalePlan(e)) {
        for (const id of podIds) this.contended.set(id, Date.now() + CONTENDED_MS);
        this.forgetContended(now);
        return null;
      }
      if (isPlannedPathUnavailable(e)) {
        console.error(`podwatch: appends take the locked path from now on: ${(e as Error).message}`);
        this.plannedPathOff = true;
        return null;
      }
      throw e;
    }
    this.committed(plan.touched, plan, snapshotted);
    return plan.outcomes;
  }

  /** Drops the pods whose time on the locked path is over (the map holds only pods in contention). */
  private forgetContended(now: number) {
    for (const [id, until] of this.contended) if (until <= now) this.contended.delete(id);
  }

  /** After COMMIT: the new states and heads are this node's to plan on. */
  private committed(pods: Iterable<string>, plan: GroupPlan, snapshotted: string[]) {
    for (const id of plan.touched) this.states.remember(id, plan.states.get(id)!, snapshotted.includes(id));
    for (const id of pods) {
      const head = plan.heads.get(id); // none for a pod that does not exist
      if (head && head.seq >= (this.heads.get(id)?.seq ?? 0)) this.heads.set(id, head);
    }
    this.writeSnapshots();
  }

  private async lockedTransaction(requests: AppendRequest[], slices?: TimeSlices): Promise<AppendOutcome[]> {
    const client = await this.pool.connect();
    // A connection lost mid-transaction also emits 'error' on the client, which the pool listens
    // to only while it is idle: unheard, it would end the process. The failing query reports it.
    const quiet = () => {};
    client.on("error", quiet);
    let broken: Error | undefined;
    try {
      await client.query("BEGIN");
      const podIds = [...new Set(requests.map((r) => r.podId))].sort();
      const heads = await this.lockHeads(client, podIds);
      const pods = new Map<string, PodSnapshot>();
      for (const [podId, head] of heads)
        pods.set(podId, { head, state: await this.loadState(client, podId, head) });
      const existing = await this.findExisting(
        client,
        requests.flatMap((r) => r.events.map((e) => e.id)),
      );
      const now = new Date().toISOString();
      const plan = slices
        ? await slices.run(planGroupSteps(requests, pods, existing, now))
        : planGroup(requests, pods, existing, now);
      const touched = plan.touched;
      const snapshotted = touched.filter((podId) => this.states.lacksSnapshot(podId));
      if (plan.rows.length) {
        // Sliced: building a statement's parameters for 20,000 rows at once would hold the loop.
        const per = slices ? LARGE_INSERT_ROWS : plan.rows.length;
        for (let i = 0; i < plan.rows.length; i += per) {
          await this.insert(client, plan.rows.slice(i, i + per));
          await slices?.pause();
        }
        await client.query(
          `UPDATE pod SET head_seq = h.seq, head_hash = h.hash FROM unnest($1::text[], $2::int[], $3::text[]) AS h(id, seq, hash) WHERE pod.id = h.id`,
          [
            touched,
            touched.map((id) => plan.heads.get(id)!.seq),
            touched.map((id) => plan.heads.get(id)!.hash),
          ],
        );
        // The state only when the pod has no snapshot of this version yet (its first events, an
        // upgrade): otherwise it is stored every so many events, after commit, without the head's lock.
        if (snapshotted.length) {
          await client.query(
            `INSERT INTO pod_state (pod_id, seq, state) SELECT * FROM unnest($1::text[], $2::int[], $3::text[])
             ON CONFLICT (pod_id) DO UPDATE SET seq = excluded.seq, state = excluded.state`,
            [
              snapshotted,
              snapshotted.map((id) => plan.heads.get(id)!.seq),
              snapshotted.map((id) => JSON.stringify(plan.states.get(id))),
            ],
          );
        }
        const o = plan.outbox;
        // With the outbox rows, in the same statement (no extra round trip while the heads are locked):
        // every node's bus hears the new seqs at commit, in commit order (never the events: they read them by seq).
        await client.query(
          `WITH outbox_rows AS (
             INSERT INTO outbox (pod_id, from_seq, to_seq, inbox, created_at) SELECT p, f, t, i, $5 FROM unnest($1::text[], $2::int[], $3::int[], $4::text[]) AS x(p, f, t, i)
           )
           SELECT pg_notify($6, n) FROM unnest($7::text[]) AS n`,
          [
            o.map((x) => x.podId),
            o.map((x) => x.fromSeq),
            o.map((x) => x.toSeq),
            o.map(outboxInbox),
            plan.receivedAt,
            TAPE_CHANNEL,
            o.map((x) => commitNotice(this.node, x.podId, x.fromSeq, x.toSeq)),
          ],
        );
      }
      await client.query("COMMIT");
      this.committed(podIds, plan, snapshotted);
      return plan.outcomes;
    } catch (e) {
      // A connection that cannot even roll back is gone: the pool must not hand it out again.
      await client.query("ROLLBACK").catch((lost: Error) => (broken = lost));
      throw e;
    } finally {
      client.off("error", quiet);
      client.release(broken);
    }
  }

  /** `orNewer`: a read outside the lock, which a state committed since will answer (PodStateCache.load). */
  private loadState(client: pg.PoolClient, podId: string, head: Head, orNewer = false): Promise<PodState> {
    return this.states.load(
      podId,
      head,
      async () =>
        (await client.query<StateRow>(`SELECT seq, state FROM pod_state WHERE pod_id = $1`, [podId])).rows[0],
      (after, limit) => this.tail(client, podId, after, limit),
      orNewer,
    );
  }

  /**
   * Snapshots of pods that lag theirs by their snapshotLag (./pod-state-cache.ts), written after
   * the commit that made them due, on a connection of their own (the heads' locks are not held
   * meanwhile). Any node may write one; a later snapshot is never replaced by an earlier one. A
   * write that fails is retried later.
   */
  private writeSnapshots(due = this.states.takeDue()) {
    if (!due.length) return;
    const write = async ({ podId, state, before }: (typeof due)[number]) => {
      try {
        const text = await snapshotText(state);
        await this.pool.query(
          `INSERT INTO pod_state (pod_id, seq, state) VALUES ($1, $2, $3)
           ON CONFLICT (pod_id) DO UPDATE SET seq = excluded.seq, state = excluded.state WHERE pod_state.seq < excluded.seq`,
          [podId, state.seq, text],
        );
        this.states.wroteSnapshot(podId, state.seq, text.length);
      } catch (e) {
        this.states.snapshotFailed(podId, before);
        console.error(
          `podwatch: pod ${podId}: storing its state snapshot failed (${(e as Error).message}); it is tried again later`,
        );
      }
    };
    const previous = this.snapshots;
    const run = (async () => {
      await new Promise((resolve) => setImmediate(resolve)); // after the appends' answers
      await previous;
      for (const d of due) await write(d);
    })();
    this.snapshots = run;
    void run.then(() => {
      if (this.snapshots === run) this.snapshots = null;
    });
  }

  async readState(podId: string): Promise<PodState | null> {
    const client = await this.pool.connect();
    try {
      const { rows } = await client.query<Head>(
        `SELECT head_seq AS seq, head_hash AS hash FROM pod WHERE id = $1`,
        [podId],
      );
      return rows[0] ? await this.loadState(client, podId, rows[0], true) : null;
    } finally {
      client.release();
    }
  }

  async searchEvents(
    podId: string,
    filter: EventFilter,
    before: number,
    limit: number,
  ): Promise<StoredEvent[]> {
    const { sql, params } = searchSql("postgres", EVENT_COLUMNS, podId, filter, before, limit);
    return (await this.pool.query<StoredEvent>(sql, params)).rows;
  }

  /** The stored snapshot brought up to the head by its tail, without the cache: what a restart would load. */
  async readStoredState(podId: string): Promise<StateRow | null> {
    const client = await this.pool.connect();
    try {
      // One snapshot of the database for the head, the row and the tail.
      await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
      const head = (
        await client.query<Head>(`SELECT head_seq AS seq, head_hash AS hash FROM pod WHERE id = $1`, [podId])
      ).rows[0];
      const row = (
        await client.query<StateRow>(`SELECT seq, state FROM pod_state WHERE pod_id = $1`, [podId])
      ).rows[0];
      const state =
        head && row
          ? await fromSnapshot(podId, row, head, (after, limit) => this.tail(client, podId, after, limit))
          : null;
      await client.query("COMMIT");
      return state && { seq: state.seq, state: JSON.stringify(state) };
    } catch (e) {
      await client.query("ROLLBACK").catch(() => {});
      throw e;
    } finally {
      client.release();
    }
  }

  private async tail(
    client: pg.PoolClient,
    podId: string,
    after: number,
    limit: number,
  ): Promise<StoredEvent[]> {
    const sql = `SELECT ${EVENT_COLUMNS} FROM event WHERE pod_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`;
    return (await client.query<StoredEvent>(sql, [podId, after, limit])).rows;
  }

  private async lockHeads(client: pg.PoolClient, podIds: string[]): Promise<Map<string, Head>> {
    const { rows } = await client.query<{ id: string; seq: number; hash: string }>(
      `SELECT id, head_seq AS seq, head_hash AS hash FROM pod WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE`,
      [podIds],
    );
    return new Map(rows.map((r) => [r.id, { seq: r.seq, hash: r.hash }]));
  }

  private async findExisting(client: pg.PoolClient, ids: string[]): Promise<Map<string, StoredRef>> {
    const { rows } = await client.query<StoredRef>(
      `SELECT id, pod_id AS "podId", seq, hash, type, actor FROM event WHERE id = ANY($1::text[])`,
      [ids],
    );
    return new Map(rows.map((r) => [r.id, r]));
  }

  private async insert(client: pg.PoolClient, rows: StoredEvent[]) {
    await client.query(
      `INSERT INTO event (id, pod_id, seq, type, actor, role, ts, received_at, body, meta, prev_hash, hash)
       SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[])`,
      eventColumns(rows),
    );
  }

  async readHead(podId: string): Promise<Head | null> {
    const { rows } = await this.pool.query<Head>(
      `SELECT head_seq AS seq, head_hash AS hash FROM pod WHERE id = $1`,
      [podId],
    );
    return rows[0] ?? null;
  }

  async readEvents(podId: string, afterSeq: number, limit: number): Promise<StoredEvent[]> {
    const { rows } = await this.pool.query<StoredEvent>(
      `SELECT ${EVENT_COLUMNS} FROM event WHERE pod_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
      [podId, afterSeq, limit],
    );
    return rows;
  }

  async claimOutbox(limit: number, now: string, until: string): Promise<OutboxRow[]> {
    // SKIP LOCKED: a dispatcher on another node passes over rows being claimed right now.
    const { rows } = await this.pool.query<OutboxRow>(
      `UPDATE outbox SET claimed_until = $1 WHERE id IN (
         SELECT id FROM outbox WHERE claimed_until IS NULL OR claimed_until < $2 ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED
       ) RETURNING ${OUTBOX_COLUMNS}`,
      [until, now, limit],
    );
    return rows.sort((a, b) => a.id - b.id);
  }

  async deleteOutbox(ids: number[]) {
    if (ids.length) await this.pool.query(`DELETE FROM outbox WHERE id = ANY($1::int[])`, [ids]);
  }

  async ping() {
    await this.pool.query("SELECT 1 FROM pod LIMIT 1");
  }

  async close() {
    // Not needed (the tape has every event), but a restart then loads each pod without a tail.
    this.writeSnapshots(this.states.takeLagging());
    await this.snapshots;
    await this.prisma.$disconnect().catch(() => {});
    await this.pool.end().catch(() => {});
  }
}
