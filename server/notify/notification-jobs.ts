// What the notification consumer queued, as a kind of job for the one runner
// (server/jobs/job-runner.ts): the claim (due rows with a lease), the send (send-notification.ts),
// a doubling backoff up to MAX_ATTEMPTS, and the record of each outcome. Sent and given-up rows
// are pruned after KEEP_MS.
import type { Config } from "../config";
import type { TapeStore } from "../db/tape-store";
import type { Finished, JobKind } from "../jobs/job-kind";
import { PUSH_DEADLINE_MS } from "./post-push";
import {
  sendNotification,
  type NotificationOutcome,
  type NotificationRow,
  type SendContext,
} from "./send-notification";

const MAX_ATTEMPTS = 6;
/** How many deliveries are under way at once (one slow host takes one slot). */
export const SEND_CONCURRENCY = 8;
/** A row's lease: well past one delivery's deadline, so no other sender takes a row still being sent. */
const LEASE_MS = 60_000;
/** One delivery's hard limit (reading the pod, the request, mail): past it the attempt counts as failed. */
const DELIVERY_DEADLINE_MS = PUSH_DEADLINE_MS + 5_000;
/** Sent and given-up rows are kept this long (their keys stop a batch taken again from sending twice), then removed. */
const KEEP_MS = 7 * 24 * 3_600_000;

type Done = Finished<NotificationRow, NotificationOutcome>;

export function notificationJobs(
  c: SendContext & { config: Pick<Config, "notifyRetryMs"> },
): JobKind<NotificationRow, NotificationOutcome> {
  const { store } = c;
  const retryMs = c.config.notifyRetryMs;
  return {
    name: "notifications",
    concurrency: SEND_CONCURRENCY,
    deadlineMs: DELIVERY_DEADLINE_MS,
    backoff: (failures) => (failures >= MAX_ATTEMPTS ? null : retryMs * 2 ** (failures - 1)),
    failures: (row) => row.attempts,
    claim: (free) => claimNotifications(store, free),
    send: async (row, signal) => ({ ok: true, result: await sendNotification(c, row, signal) }),
    record: async (finished) => {
      for (const x of finished) {
        await recordOne(store, x).catch((e) =>
          console.error(
            `podwatch: notification ${x.job.id} not recorded; it is tried again after its lease`,
            e,
          ),
        );
      }
    },
    pollMs: Math.min(5_000, retryMs),
    prune: {
      everyMs: 60_000,
      run: () =>
        store.prisma.notificationDelivery.deleteMany({
          where: { outcome: { not: null }, doneAt: { lt: new Date(Date.now() - KEEP_MS).toISOString() } },
        }),
    },
  };
}

/** Oldest due rows first; each is taken only if its lease is free, so two senders never take one row. */
async function claimNotifications(store: TapeStore, limit: number): Promise<NotificationRow[]> {
  const now = new Date().toISOString();
  const until = new Date(Date.now() + LEASE_MS).toISOString();
  // PostgreSQL (several nodes): one statement; SKIP LOCKED passes over rows another node is claiming right now.
  if (store.kind === "postgres") {
    const rows = await store.prisma.$queryRaw<
      NotificationRow[]
    >`UPDATE notification_delivery SET claimed_until = ${until} WHERE id IN (
        SELECT id FROM notification_delivery WHERE outcome IS NULL AND not_before <= ${now} AND (claimed_until IS NULL OR claimed_until < ${now})
        ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
      RETURNING id, key, channel, target, user_id AS "userId", pod_id AS "podId", item_id AS "itemId", kind, payload, attempts`;
    return rows.sort((x, y) => x.id - y.id); // RETURNING does not promise an order
  }
  // SQLite (one node, one writer): row by row, each lease taken only if still free.
  const free = { outcome: null, OR: [{ claimedUntil: null }, { claimedUntil: { lt: now } }] };
  const due = await store.prisma.notificationDelivery.findMany({
    where: { ...free, notBefore: { lte: now } },
    orderBy: { id: "asc" },
    take: limit,
  });
  const claimed: NotificationRow[] = [];
  for (const d of due) {
    const { count } = await store.prisma.notificationDelivery.updateMany({
      where: { id: d.id, ...free },
      data: { claimedUntil: until },
    });
    if (count) claimed.push(d);
  }
  return claimed;
}

async function recordOne(store: TapeStore, x: Done) {
  const rows = store.prisma.notificationDelivery;
  const doneAt = new Date().toISOString();
  const row = x.job;
  if (x.outcome === "released")
    return void (await rows.updateMany({
      where: { id: row.id, outcome: null },
      data: { claimedUntil: null },
    }));
  if (x.outcome !== "done") {
    const attempts = row.attempts + 1;
    console.error(
      `podwatch: ${row.channel} notification ${row.id} failed (attempt ${attempts} of ${MAX_ATTEMPTS}): ${x.error}`,
    );
    const data =
      x.outcome === "retry"
        ? { attempts, notBefore: new Date(x.at).toISOString() }
        : { attempts, outcome: "failed", doneAt };
    return void (await rows.update({ where: { id: row.id }, data: { ...data, claimedUntil: null } }));
  }
  const o = x.result;
  const data =
    "outcome" in o
      ? { outcome: o.outcome, doneAt, attempts: row.attempts + (o.outcome === "sent" ? 1 : 0) }
      : { notBefore: o.notBefore.toISOString() };
  await rows.update({ where: { id: row.id }, data: { ...data, claimedUntil: null } });
}
