// Webhook deliveries as a kind of job for the one runner (server/jobs/job-runner.ts): the claim
// (a lease on due rows, fair between endpoints and pods; on PostgreSQL it skips rows another
// node is locking right now), the signed POST, the retry schedule (schedule.ts), and the record:
// successes together, failures one by one, and an endpoint with only failures for a day disabled,
// its pod's admins told. Old deliveries are pruned every hour (deliveries.ts).
import type { TapeStore } from "../db/tape-store";
import type { Finished, JobKind } from "../jobs/job-runner";
import { pruneDeliveries } from "./deliveries";
import { disableEndpoint } from "./endpoints";
import { webhookHeaders } from "./signature";
import { sendWebhook, WEBHOOK_TIMEOUT_MS, type AttemptResult } from "./send";
import { DISABLE_AFTER_MS, retryDelay } from "./schedule";

export type WebhookJobOptions = {
  allowPrivate: boolean;
  /** Test only: shrinks the retry schedule and the day before disabling (1 = real time). */
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

/** `claimedUntil`: this node's lease on the row, the mark that it is still ours when the attempt is recorded. */
export type WebhookJob = {
  id: string;
  endpointId: string;
  messageId: string;
  payload: string;
  attempts: number;
  scheduleFrom: number;
  claimedUntil: string | null;
  endpoint: { id: string; podId: string; url: string; secret: string; failingSince: string | null };
};
type Done = Finished<WebhookJob, AttemptResult>;

export function webhookJobs(store: TapeStore, options: WebhookJobOptions): JobKind<WebhookJob, AttemptResult> {
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  return {
    name: "webhook deliveries",
    concurrency: options.concurrency ?? 32,
    // The attempt's own timeout ends it first; this only bounds what the timeout cannot reach.
    deadlineMs: timeoutMs + 5_000,
    backoff: (failures) => retryDelay(failures, options.timeScale),
    // A redelivery starts a full schedule again: it counts failures from its scheduleFrom.
    failures: (d) => d.attempts - d.scheduleFrom,
    claim: (free, underWay) => claimDeliveries(store, free, underWay, options.leaseMs ?? 60_000),
    send: async (d) => {
      const headers = webhookHeaders(d.endpoint.secret, d.messageId, d.payload);
      const r = await sendWebhook(d.endpoint.url, headers, d.payload, { allowPrivate: options.allowPrivate, timeoutMs });
      return r.ok ? { ok: true, result: r } : { ok: false, error: r.error ?? "failed", result: r };
    },
    record: (finished) => recordAttempts(store, finished, options),
    nextDueIn: () => nextDueIn(store),
    pollMs: options.pollMs ?? 2000,
    // A claim is three queries: while attempts are under way, claim when this many slots are free.
    claimAtLeast: 8,
    prune: { everyMs: options.pruneEveryMs ?? 3_600_000, run: () => pruneDeliveries(store) },
  };
}

/** Only rows free to claim: one leased by another node is not due until its lease ends (the poll finds it then). */
async function nextDueIn(store: TapeStore): Promise<number | null> {
  const nowIso = new Date().toISOString();
  const next = await store.prisma.webhookDelivery.findFirst({
    where: { status: "pending", OR: [{ claimedUntil: null }, { claimedUntil: { lt: nowIso } }] },
    orderBy: { nextAttemptAt: "asc" },
    select: { nextAttemptAt: true },
  });
  return next?.nextAttemptAt ? Date.parse(next.nextAttemptAt) - Date.now() : null;
}

/**
 * Oldest due first, but at most PER_ENDPOINT of one endpoint and PER_POD of one pod under way (counting the
 * attempts already in flight): one endpoint's backlog, or a pod of receivers that hang, cannot take every slot.
 */
async function claimDeliveries(store: TapeStore, size: number, underWay: readonly WebhookJob[], leaseMs: number) {
  const now = new Date();
  const nowIso = now.toISOString();
  const candidates = await store.prisma.$queryRaw<{ id: string; endpointId: string; podId: string }[]>`SELECT id, endpoint_id AS "endpointId", pod_id AS "podId" FROM (
      SELECT id, endpoint_id, pod_id, next_attempt_at, ROW_NUMBER() OVER (PARTITION BY pod_id ORDER BY next_attempt_at, id) AS pod_n FROM (
        SELECT id, endpoint_id, pod_id, next_attempt_at, ROW_NUMBER() OVER (PARTITION BY endpoint_id ORDER BY next_attempt_at, id) AS endpoint_n
        FROM webhook_delivery
        WHERE status = 'pending' AND next_attempt_at <= ${nowIso} AND (claimed_until IS NULL OR claimed_until < ${nowIso})
      ) AS by_endpoint WHERE endpoint_n <= ${PER_ENDPOINT}
    ) AS by_pod WHERE pod_n <= ${PER_POD}
    ORDER BY next_attempt_at, id LIMIT ${size + PER_POD}`;
  const endpoints = count(underWay.map((d) => d.endpointId));
  const pods = count(underWay.map((d) => d.endpoint.podId));
  const due = candidates
    .filter((c) => {
      const e = endpoints.get(c.endpointId) ?? 0;
      const p = pods.get(c.podId) ?? 0;
      if (e >= PER_ENDPOINT || p >= PER_POD) return false;
      endpoints.set(c.endpointId, e + 1);
      pods.set(c.podId, p + 1);
      return true;
    })
    .slice(0, size);
  if (!due.length) return [];
  // The lease is well past one attempt's deadline, so a live node's attempt never outlasts it.
  const lease = new Date(now.getTime() + leaseMs + Math.floor(Math.random() * 1000)).toISOString();
  const mine = await takeLease(store, due.map((d) => d.id), nowIso, lease);
  if (!mine.length) return [];
  // takeLease returned exactly the rows this claim leased, for longer than this read takes: no filter on the lease.
  return store.prisma.webhookDelivery.findMany({
    where: { id: { in: mine } },
    select: {
      id: true, endpointId: true, messageId: true, payload: true, attempts: true, scheduleFrom: true, claimedUntil: true,
      endpoint: { select: { id: true, podId: true, url: true, secret: true, failingSince: true } },
    },
  });
}

const count = (keys: string[]) => keys.reduce((m, k) => m.set(k, (m.get(k) ?? 0) + 1), new Map<string, number>());

/**
 * Leases those of `ids` still pending and free, and returns exactly those: only one claim can return a row.
 * On PostgreSQL SKIP LOCKED passes over rows another node's claim holds right now (it would
 * otherwise wait for that claim's commit and then find them taken).
 */
async function takeLease(store: TapeStore, ids: string[], nowIso: string, lease: string): Promise<string[]> {
  const db = store.prisma;
  const rows =
    store.kind === "postgres"
      ? await db.$queryRaw<{ id: string }[]>`UPDATE webhook_delivery SET claimed_until = ${lease} WHERE id IN (
          SELECT id FROM webhook_delivery WHERE id = ANY(${ids}::text[]) AND status = 'pending'
            AND (claimed_until IS NULL OR claimed_until < ${nowIso})
          FOR UPDATE SKIP LOCKED) RETURNING id`
      : await db.$queryRaw<{ id: string }[]>`UPDATE webhook_delivery SET claimed_until = ${lease}
          WHERE id IN (SELECT value FROM json_each(${JSON.stringify(ids)})) AND status = 'pending'
            AND (claimed_until IS NULL OR claimed_until < ${nowIso}) RETURNING id`;
  return rows.map((r) => r.id);
}

/** Successes in one transaction (one commit for all that ended together); failures one by one (retries, disabling). */
async function recordAttempts(store: TapeStore, finished: Done[], options: WebhookJobOptions) {
  const db = store.prisma;
  const delivered = finished.filter((x): x is Extract<Done, { outcome: "done" }> => x.outcome === "done");
  // updateMany: a delivery whose endpoint was deleted meanwhile is simply gone; `update` would throw and
  // roll back the others' record, and their successes would be sent again.
  const success = (x: Extract<Done, { outcome: "done" }>) =>
    db.webhookDelivery.updateMany({ where: { id: x.job.id }, data: { ...lastAttempt(x), status: "delivered", nextAttemptAt: null } });
  if (delivered.length) {
    await db.$transaction(delivered.map(success)).catch(async (e) => {
      // One row the database refuses must not take the others with it: record each alone.
      console.error("podwatch: webhook deliveries could not be recorded together; recording each alone", e);
      for (const x of delivered) await success(x).catch((err) => console.error(`podwatch: webhook delivery ${x.job.id} could not be recorded`, err));
    });
  }
  const recovered = [...new Set(delivered.filter((x) => x.job.endpoint.failingSince).map((x) => x.job.endpointId))];
  if (recovered.length) await db.webhookEndpoint.updateMany({ where: { id: { in: recovered } }, data: { failingSince: null } });
  for (const x of finished) {
    if (x.outcome === "done") continue;
    // Only while the row is still ours: past our lease another node may have taken it (and delivered it).
    const ours = { id: x.job.id, claimedUntil: x.job.claimedUntil };
    const recorded =
      x.outcome === "released"
        ? db.webhookDelivery.updateMany({ where: ours, data: { claimedUntil: null } })
        : recordFailure(store, x, options);
    await recorded.catch((e) => console.error(`podwatch: webhook delivery ${x.job.id} could not be recorded`, e));
  }
}

function lastAttempt(x: Exclude<Done, { outcome: "released" }>) {
  const r: AttemptResult = x.result ?? { ok: false, status: null, latencyMs: Date.now() - x.started, error: "error" in x ? x.error : null, response: null };
  return {
    attempts: x.job.attempts + 1,
    claimedUntil: null,
    lastAttemptAt: new Date(x.started).toISOString(),
    lastStatus: r.status,
    lastLatencyMs: r.latencyMs,
    lastError: r.error,
    lastResponse: r.response,
  };
}

async function recordFailure(store: TapeStore, x: Extract<Done, { outcome: "retry" | "gave-up" }>, options: WebhookJobOptions) {
  const now = Date.now();
  const d = x.job;
  const db = store.prisma;
  const next = x.outcome === "retry" ? { status: "pending", nextAttemptAt: new Date(x.at).toISOString() } : { status: "failed", nextAttemptAt: null };
  // A late failure past our lease must not schedule again a row another node has taken (and delivered).
  const { count } = await db.webhookDelivery.updateMany({ where: { id: d.id, claimedUntil: d.claimedUntil }, data: { ...lastAttempt(x), ...next } });
  if (!count) return; // its endpoint was deleted while the attempt was under way, or the row is no longer ours
  await db.webhookEndpoint.updateMany({ where: { id: d.endpointId, failingSince: null }, data: { failingSince: new Date(now).toISOString() } });
  const endpoint = await db.webhookEndpoint.findUnique({ where: { id: d.endpointId } });
  if (!endpoint?.enabled || !endpoint.failingSince) return;
  if (now - Date.parse(endpoint.failingSince) < DISABLE_AFTER_MS * options.timeScale) return;
  // The notice first: its id is derived from the endpoint and failingSince, so posting it again (a
  // crash before the endpoint was disabled, another node) stores nothing new.
  await options.onDisabled({ id: endpoint.id, podId: endpoint.podId, url: endpoint.url, failingSince: endpoint.failingSince });
  await disableEndpoint(store, endpoint.id, `disabled after only failures since ${endpoint.failingSince}`);
}
