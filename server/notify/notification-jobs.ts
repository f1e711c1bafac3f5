// What the notification consumer queued, as a kind of job for the one runner
// (server/jobs/job-runner.ts): the claim (due rows with a lease, shared fairly between people and
// devices: claim-notifications.ts), the send (send-notification.ts), a doubling backoff up to
// MAX_ATTEMPTS, and the record of each outcome. Sent and given-up rows are pruned after KEEP_MS.
import type { Config } from "../config";
import type { TapeStore } from "../db/tape-store";
import type { Finished, JobKind } from "../jobs/job-kind";
import { claimNotifications } from "./claim-notifications";
import {
  sendNotification,
  type NotificationOutcome,
  type NotificationRow,
  type SendContext,
} from "./send-notification";

const MAX_ATTEMPTS = 6;
/** How many deliveries are under way at once on a node (one person takes at most PUSH_SLOTS_PER_PERSON). */
export const SEND_CONCURRENCY = 16;
/** A delivery's time beyond its request's deadline (reading the pod and the person's settings). */
const DELIVERY_MARGIN_MS = 5_000;
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
    // Past it the attempt counts as failed; within the lease (the config allows at most 25 s a push).
    deadlineMs: c.config.pushDeadlineMs + DELIVERY_MARGIN_MS,
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
