// The claim of due webhook deliveries for the job runner (webhook-jobs.ts): pods in turn and each
// endpoint capped (fair-share.ts), each row leased by one claim only (on PostgreSQL SKIP LOCKED
// passes over rows another node is claiming right now).
import type { TapeStore } from "../db/tape-store";
import { Prisma } from "../db/generated/sqlite/client";
import { fairShare, PER_ENDPOINT, PER_POD, type Candidate } from "./fair-share";

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

/** Up to `size` due deliveries, leased by this claim: fair between pods and endpoints (fair-share.ts). */
export async function claimDeliveries(
  store: TapeStore,
  size: number,
  underWay: readonly WebhookJob[],
  leaseMs: number,
) {
  const now = new Date();
  const nowIso = now.toISOString();
  // Each attempt under way may turn away one candidate for its pod's cap, one for its endpoint's and one
  // for the reserve: past that many, a longer list holds nothing this claim could take.
  const candidates = await dueCandidates(store, nowIso, size + 3 * underWay.length);
  const due = fairShare(
    candidates,
    underWay.map((d) => ({ endpointId: d.endpointId, podId: d.endpoint.podId })),
    size,
  );
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

/** The caps as literals: PostgreSQL would type a bare parameter in a LIMIT of a LATERAL join as text. */
const n = (value: number) => Prisma.raw(String(Math.trunc(value)));

/**
 * The first PER_ENDPOINT due, free deliveries of each endpoint, at most PER_POD of a pod, in turns: each
 * pod's oldest before any pod's second, a pod's endpoints in turn too. Its cost follows the endpoints with
 * pending deliveries, not the backlog: a skip scan over (status, endpoint_id, next_attempt_at) finds each
 * endpoint with one seek and reads at most PER_ENDPOINT of its rows (bench/webhook-claim.ts).
 */
async function dueCandidates(store: TapeStore, nowIso: string, limit: number): Promise<Candidate[]> {
  const free = Prisma.sql`x.status = 'pending' AND x.endpoint_id = ends.endpoint_id AND x.next_attempt_at <= ${nowIso}
    AND (x.claimed_until IS NULL OR x.claimed_until < ${nowIso})`;
  // SQLite has no LATERAL; PostgreSQL would run a correlated IN as a filter over the whole table.
  const heads =
    store.kind === "postgres"
      ? Prisma.sql`SELECT d.* FROM ends CROSS JOIN LATERAL (
          SELECT x.id, x.endpoint_id, x.pod_id, x.next_attempt_at FROM webhook_delivery x
          WHERE ${free} ORDER BY x.next_attempt_at LIMIT ${n(PER_ENDPOINT)}) AS d`
      : Prisma.sql`SELECT d.id, d.endpoint_id, d.pod_id, d.next_attempt_at
          FROM ends JOIN webhook_delivery d ON d.id IN (
            SELECT x.id FROM webhook_delivery x WHERE ${free} ORDER BY x.next_attempt_at LIMIT ${n(PER_ENDPOINT)})`;
  const rows = await store.prisma.$queryRaw<
    { id: string; endpointId: string; podId: string; podTurn: number }[]
  >`
    WITH RECURSIVE ends(endpoint_id) AS (
      SELECT (SELECT endpoint_id FROM webhook_delivery WHERE status = 'pending' ORDER BY endpoint_id LIMIT 1)
      UNION ALL
      SELECT (SELECT x.endpoint_id FROM webhook_delivery x
        WHERE x.status = 'pending' AND x.endpoint_id > ends.endpoint_id ORDER BY x.endpoint_id LIMIT 1)
      FROM ends WHERE ends.endpoint_id IS NOT NULL
    ), heads AS (${heads}
    ), by_endpoint AS (
      SELECT h.*, ROW_NUMBER() OVER (PARTITION BY h.endpoint_id ORDER BY h.next_attempt_at, h.id) AS endpoint_n
      FROM heads h
    ), by_pod AS (
      SELECT b.*, ROW_NUMBER() OVER (PARTITION BY b.pod_id ORDER BY b.endpoint_n, b.next_attempt_at, b.id) AS pod_n
      FROM by_endpoint b
    )
    SELECT id, endpoint_id AS "endpointId", pod_id AS "podId", CAST(pod_n AS INTEGER) AS "podTurn"
    FROM by_pod WHERE pod_n <= ${n(PER_POD)} ORDER BY pod_n, next_attempt_at, id LIMIT ${limit}`;
  return rows.map((r) => ({ ...r, podTurn: Number(r.podTurn) }));
}

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
      : // `+status`: look the rows up by id; on `status` SQLite would walk every pending row (0.5 s for 100,000).
        await db.$queryRaw<{ id: string }[]>`UPDATE webhook_delivery SET claimed_until = ${lease}
          WHERE id IN (SELECT value FROM json_each(${JSON.stringify(ids)})) AND +status = 'pending'
            AND (claimed_until IS NULL OR claimed_until < ${nowIso}) RETURNING id`;
  return rows.map((r) => r.id);
}
