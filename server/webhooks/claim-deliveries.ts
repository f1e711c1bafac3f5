// The claim of due webhook deliveries for the job runner (webhook-jobs.ts): oldest first, fair
// between endpoints and pods, each row leased by one claim only (on PostgreSQL SKIP LOCKED passes
// over rows another node is claiming right now).
import type { TapeStore } from "../db/tape-store";

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

/** Only rows free to claim: one leased by another node is not due until its lease ends (the poll finds it then). */
export async function nextDeliveryDueIn(store: TapeStore): Promise<number | null> {
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
export async function claimDeliveries(
  store: TapeStore,
  size: number,
  underWay: readonly WebhookJob[],
  leaseMs: number,
) {
  const now = new Date();
  const nowIso = now.toISOString();
  const candidates = await store.prisma.$queryRaw<
    { id: string; endpointId: string; podId: string }[]
  >`SELECT id, endpoint_id AS "endpointId", pod_id AS "podId" FROM (
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
  const mine = await takeLease(
    store,
    due.map((d) => d.id),
    nowIso,
    lease,
  );
  if (!mine.length) return [];
  // takeLease returned exactly the rows this claim leased, for longer than this read takes: no filter on the lease.
  return store.prisma.webhookDelivery.findMany({
    where: { id: { in: mine } },
    select: {
      id: true,
      endpointId: true,
      messageId: true,
      payload: true,
      attempts: true,
      scheduleFrom: true,
      claimedUntil: true,
      endpoint: { select: { id: true, podId: true, url: true, secret: true, failingSince: true } },
    },
  });
}

const count = (keys: string[]) =>
  keys.reduce((m, k) => m.set(k, (m.get(k) ?? 0) + 1), new Map<string, number>());

/**
 * Leases those of `ids` still pending and free, and returns exactly those: only one claim can return a row.
 * On PostgreSQL SKIP LOCKED passes over rows another node's claim holds right now (it would
 * otherwise wait for that claim's commit and then find them taken).
 */
async function takeLease(store: TapeStore, ids: string[], nowIso: string, lease: string): Promise<string[]> {
  const db = store.prisma;
  const rows =
    store.kind === "postgres"
      ? await db.$queryRaw<
          { id: string }[]
        >`UPDATE webhook_delivery SET claimed_until = ${lease} WHERE id IN (
          SELECT id FROM webhook_delivery WHERE id = ANY(${ids}::text[]) AND status = 'pending'
            AND (claimed_until IS NULL OR claimed_until < ${nowIso})
          FOR UPDATE SKIP LOCKED) RETURNING id`
      : await db.$queryRaw<{ id: string }[]>`UPDATE webhook_delivery SET claimed_until = ${lease}
          WHERE id IN (SELECT value FROM json_each(${JSON.stringify(ids)})) AND status = 'pending'
            AND (claimed_until IS NULL OR claimed_until < ${nowIso}) RETURNING id`;
  return rows.map((r) => r.id);
}
