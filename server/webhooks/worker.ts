// Sends webhook deliveries: claims due rows with a lease (so two nodes never
// send one row at once, and a crashed node's rows come back after the lease;
// on PostgreSQL the claim skips rows another node is locking right now),
// sends a few at a time, records each attempt, schedules retries, and disables
// an endpoint after a day of only failures, telling its pod's admins; and prunes
// old deliveries every hour.
import type { TapeStore } from "../db/tape-store";
import { pruneDeliveries } from "./deliveries";
import { disableEndpoint } from "./endpoints";
import { webhookHeaders } from "./signature";
import { sendWebhook, type AttemptResult } from "./send";
import { DISABLE_AFTER_MS, retryDelay } from "./schedule";

export type WebhookWorkerOptions = {
  allowPrivate: boolean;
  /** Test only: shrinks the retry schedule and the day before disabling. */
  timeScale: number;
  /** Posts the "endpoint disabled" notice to the pod's admins; idempotent (called again after a crash). */
  onDisabled: (endpoint: { id: string; podId: string; url: string; failingSince: string }) => Promise<void>;
  concurrency?: number;
  /** How often old deliveries are pruned (also once at start). */
  pruneEveryMs?: number;
  leaseMs?: number;
  pollMs?: number;
  timeoutMs?: number;
};

/** The most attempts under way at once of one endpoint, and of one pod (of 32 in all). */
const PER_ENDPOINT = 4;
const PER_POD = 16;
/** Free slots worth a claim of their own while attempts are under way. */
const CLAIM_AT_LEAST = 8;

type Finished = { d: Claimed; r: AttemptResult; started: number };
type Busy = { endpoints: Map<string, number>; pods: Map<string, number> };

/** `claimedUntil`: this node's lease on the row, the mark that it is still ours when the attempt is recorded. */
type Claimed = { id: string; endpointId: string; messageId: string; payload: string; attempts: number; scheduleFrom: number; claimedUntil: string | null; endpoint: { id: string; podId: string; url: string; secret: string; failingSince: string | null } };

export class WebhookWorker {
  private running: Promise<void> | null = null;
  private again = false;
  /** Wakes the running loop while it waits for an attempt to end (new work may fit a free slot). */
  private nudge: (() => void) | null = null;
  private stopped = true;
  private timer: NodeJS.Timeout | null = null;
  private pruneTimer: NodeJS.Timeout | null = null;
  private pruning: Promise<void> | null = null;

  constructor(
    private readonly store: TapeStore,
    private readonly options: WebhookWorkerOptions,
  ) {}

  start() {
    this.stopped = false;
    this.wake();
    this.prune();
    this.pruneTimer = setInterval(this.prune, this.options.pruneEveryMs ?? 3_600_000);
    this.pruneTimer.unref();
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    await Promise.all([this.running, this.pruning]);
  }

  /** Deletes deliveries past retention (deliveries.ts); one pass at a time. */
  private prune = () => {
    if (this.stopped || this.pruning) return;
    this.pruning = pruneDeliveries(this.store)
      .then(() => undefined, (e) => console.error("podwatch: old webhook deliveries could not be pruned; trying again later", e))
      .finally(() => (this.pruning = null));
  };

  /** New work (a batch taken, a test, a redelivery): look now. */
  wake = () => {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      this.nudge?.();
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.running = this.run()
      .catch((e) => console.error("podwatch: webhook deliveries could not be read; retrying", e))
      .finally(() => {
        this.running = null;
        if (this.stopped) return;
        if (this.again) {
          this.again = false;
          this.wake();
        } else void this.scheduleNext();
      });
  };

  /** Sleeps until the next due delivery, at most pollMs (another node's work, a lease that ran out). */
  private async scheduleNext() {
    const poll = this.options.pollMs ?? 2000;
    let wait = poll;
    try {
      // Only rows free to claim: one leased by another node (its attempt under way) is not due until its
      // lease ends, and waiting on it would have every other node poll every few ms; the poll finds it then.
      const nowIso = new Date().toISOString();
      const next = await this.store.prisma.webhookDelivery.findFirst({
        where: { status: "pending", OR: [{ claimedUntil: null }, { claimedUntil: { lt: nowIso } }] },
        orderBy: { nextAttemptAt: "asc" },
        select: { nextAttemptAt: true },
      });
      if (next?.nextAttemptAt) wait = Math.min(poll, Math.max(5, Date.parse(next.nextAttemptAt) - Date.now()));
    } catch {
      /* the store is closing, or busy: poll */
    }
    if (this.stopped || this.running) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(this.wake, wait);
    this.timer.unref();
  }

  /**
   * Keeps up to `concurrency` attempts under way, each on its own: a slot is claimed again as soon as
   * its attempt ends (or new work arrives), so a receiver that hangs holds its slots for its timeout,
   * never a round of other pods' deliveries. At most PER_ENDPOINT / PER_POD of them at once.
   */
  private async run() {
    const size = this.options.concurrency ?? 32;
    const inFlight = new Set<Promise<void>>();
    const busy: Busy = { endpoints: new Map(), pods: new Map() };
    const done: Finished[] = [];
    for (;;) {
      const woken = this.again;
      this.again = false;
      const free = size - inFlight.size;
      // Claims come in batches (a claim is three queries), unless new work just arrived or nothing is under way.
      if (!this.stopped && free > 0 && (free >= CLAIM_AT_LEAST || woken || !inFlight.size)) {
        for (const d of await this.claim(size - inFlight.size, busy)) {
          track(busy, d, 1);
          const started = Date.now();
          const attempt: Promise<void> = this.send(d)
            .then((r) => void done.push({ d, r, started }))
            .finally(() => {
              inFlight.delete(attempt);
              track(busy, d, -1);
            });
          inFlight.add(attempt);
        }
      }
      if (!inFlight.size && !done.length) return;
      if (!done.length) {
        await new Promise<void>((resolve) => {
          this.nudge = resolve;
          void Promise.race(inFlight).then(resolve);
        });
        this.nudge = null;
        // Attempts that end together (a fast receiver answers a burst at once) are recorded in one commit.
        await new Promise((r) => setTimeout(r, 2));
      }
      await this.record(done.splice(0));
    }
  }

  /** Successes in one transaction (one commit for all that ended together); failures one by one (retries, disabling). */
  private async record(results: Finished[]) {
    if (!results.length) return;
    const delivered = results.filter((x) => x.r.ok);
    // updateMany: a delivery whose endpoint was deleted meanwhile is simply gone; `update` would throw and
    // roll back the others' record, and their successes would be sent again.
    const success = ({ d, r, started }: Finished) => this.store.prisma.webhookDelivery.updateMany({ where: { id: d.id }, data: { ...this.lastAttempt(d, r, started), status: "delivered", nextAttemptAt: null } });
    if (delivered.length) {
      await this.store.prisma.$transaction(delivered.map(success)).catch(async (e) => {
        // One row the database refuses must not take the others with it: record each alone.
        console.error("podwatch: webhook deliveries could not be recorded together; recording each alone", e);
        for (const x of delivered) await success(x).catch((err) => console.error(`podwatch: webhook delivery ${x.d.id} could not be recorded`, err));
      });
    }
    const recovered = [...new Set(delivered.filter((x) => x.d.endpoint.failingSince).map((x) => x.d.endpointId))];
    if (recovered.length) await this.store.prisma.webhookEndpoint.updateMany({ where: { id: { in: recovered } }, data: { failingSince: null } });
    for (const { d, r, started } of results) if (!r.ok) await this.recordFailure(d, r, started).catch((e) => console.error(`podwatch: webhook delivery ${d.id} could not be recorded`, e));
  }

  private async claim(size: number, busy: Busy): Promise<Claimed[]> {
    const now = new Date();
    const nowIso = now.toISOString();
    // Oldest due first, but at most PER_ENDPOINT of one endpoint and PER_POD of one pod under way (counting the
    // attempts already in flight): one endpoint's backlog, or a pod of receivers that hang, cannot take every slot.
    const candidates = await this.store.prisma.$queryRaw<{ id: string; endpointId: string; podId: string }[]>`SELECT id, endpoint_id AS "endpointId", pod_id AS "podId" FROM (
        SELECT id, endpoint_id, pod_id, next_attempt_at, ROW_NUMBER() OVER (PARTITION BY pod_id ORDER BY next_attempt_at, id) AS pod_n FROM (
          SELECT id, endpoint_id, pod_id, next_attempt_at, ROW_NUMBER() OVER (PARTITION BY endpoint_id ORDER BY next_attempt_at, id) AS endpoint_n
          FROM webhook_delivery
          WHERE status = 'pending' AND next_attempt_at <= ${nowIso} AND (claimed_until IS NULL OR claimed_until < ${nowIso})
        ) AS by_endpoint WHERE endpoint_n <= ${PER_ENDPOINT}
      ) AS by_pod WHERE pod_n <= ${PER_POD}
      ORDER BY next_attempt_at, id LIMIT ${size + PER_POD}`;
    const taken: Busy = { endpoints: new Map(busy.endpoints), pods: new Map(busy.pods) };
    const due = candidates.filter((c) => {
      const e = taken.endpoints.get(c.endpointId) ?? 0;
      const p = taken.pods.get(c.podId) ?? 0;
      if (e >= PER_ENDPOINT || p >= PER_POD) return false;
      taken.endpoints.set(c.endpointId, e + 1);
      taken.pods.set(c.podId, p + 1);
      return true;
    }).slice(0, size);
    if (!due.length) return [];
    // The lease is well past one attempt's timeout (10 s), so a live node's attempt never outlasts it.
    const lease = new Date(now.getTime() + (this.options.leaseMs ?? 60_000) + Math.floor(Math.random() * 1000)).toISOString();
    const mine = await this.takeLease(due.map((d) => d.id), nowIso, lease);
    if (!mine.length) return [];
    // takeLease returned exactly the rows this claim leased, for longer than this read takes: no filter on the lease.
    return this.store.prisma.webhookDelivery.findMany({
      where: { id: { in: mine } },
      select: { id: true, endpointId: true, messageId: true, payload: true, attempts: true, scheduleFrom: true, claimedUntil: true, endpoint: { select: { id: true, podId: true, url: true, secret: true, failingSince: true } } },
    });
  }

  /**
   * Leases those of `ids` still pending and free, and returns exactly those: only one claim can return a row.
   * On PostgreSQL SKIP LOCKED passes over rows another node's claim holds right now (it would
   * otherwise wait for that claim's commit and then find them taken).
   */
  private async takeLease(ids: string[], nowIso: string, lease: string): Promise<string[]> {
    const db = this.store.prisma;
    const rows =
      this.store.kind === "postgres"
        ? await db.$queryRaw<{ id: string }[]>`UPDATE webhook_delivery SET claimed_until = ${lease} WHERE id IN (
            SELECT id FROM webhook_delivery WHERE id = ANY(${ids}::text[]) AND status = 'pending' AND (claimed_until IS NULL OR claimed_until < ${nowIso})
            FOR UPDATE SKIP LOCKED) RETURNING id`
        : await db.$queryRaw<{ id: string }[]>`UPDATE webhook_delivery SET claimed_until = ${lease}
            WHERE id IN (SELECT value FROM json_each(${JSON.stringify(ids)})) AND status = 'pending' AND (claimed_until IS NULL OR claimed_until < ${nowIso}) RETURNING id`;
    return rows.map((r) => r.id);
  }

  private send(d: Claimed): Promise<AttemptResult> {
    return sendWebhook(d.endpoint.url, webhookHeaders(d.endpoint.secret, d.messageId, d.payload), d.payload, { allowPrivate: this.options.allowPrivate, timeoutMs: this.options.timeoutMs });
  }

  private lastAttempt(d: Claimed, r: AttemptResult, started: number) {
    return { attempts: d.attempts + 1, claimedUntil: null, lastAttemptAt: new Date(started).toISOString(), lastStatus: r.status, lastLatencyMs: r.latencyMs, lastError: r.error, lastResponse: r.response };
  }

  private async recordFailure(d: Claimed, r: AttemptResult, started: number) {
    const now = Date.now();
    const nowIso = new Date(now).toISOString();
    const last = this.lastAttempt(d, r, started);
    const db = this.store.prisma;
    const delay = retryDelay(last.attempts - d.scheduleFrom, this.options.timeScale);
    // Only while the row is still ours: past our lease another node may have taken it (and delivered it);
    // a late failure must not schedule it again.
    const { count } = await db.webhookDelivery.updateMany({
      where: { id: d.id, claimedUntil: d.claimedUntil },
      data: { ...last, status: delay === null ? "failed" : "pending", nextAttemptAt: delay === null ? null : new Date(now + delay).toISOString() },
    });
    if (!count) return; // its endpoint was deleted while the attempt was under way, or the row is no longer ours
    await db.webhookEndpoint.updateMany({ where: { id: d.endpointId, failingSince: null }, data: { failingSince: nowIso } });
    const endpoint = await db.webhookEndpoint.findUnique({ where: { id: d.endpointId } });
    if (!endpoint?.enabled || !endpoint.failingSince) return;
    if (now - Date.parse(endpoint.failingSince) < DISABLE_AFTER_MS * this.options.timeScale) return;
    // The notice first: its id is derived from the endpoint and failingSince, so posting it again (a
    // crash before the endpoint was disabled, another node) stores nothing new.
    await this.options.onDisabled({ id: endpoint.id, podId: endpoint.podId, url: endpoint.url, failingSince: endpoint.failingSince });
    await disableEndpoint(this.store, endpoint.id, `disabled after only failures since ${endpoint.failingSince}`);
  }
}

function track(busy: Busy, d: Claimed, by: 1 | -1) {
  busy.endpoints.set(d.endpointId, (busy.endpoints.get(d.endpointId) ?? 0) + by);
  busy.pods.set(d.endpoint.podId, (busy.pods.get(d.endpoint.podId) ?? 0) + by);
}
