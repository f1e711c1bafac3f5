// Webhook deliveries as a kind of job for the one runner (server/jobs/job-runner.ts): the claim
// (a lease on due rows, fair between endpoints and pods; on PostgreSQL it skips rows another
// node is locking right now), the signed POST, the retry schedule (schedule.ts), and the record:
// successes together, failures one by one, and an endpoint with only failures for a day disabled,
// its pod's admins told. Old deliveries are pruned every hour (deliveries.ts).
import type { TapeStore } from "../db/tape-store";
import type { JobKind } from "../jobs/job-kind";
import { claimDeliveries, nextDeliveryDueIn, type WebhookJob } from "./claim-deliveries";
import { pruneDeliveries } from "./deliveries";
import { recordAttempts, type FailurePolicy } from "./record-attempts";
import { webhookHeaders } from "./signature";
import { sendWebhook, WEBHOOK_TIMEOUT_MS, type AttemptResult } from "./send";
import { retryDelay } from "./schedule";
import { WEBHOOK_SLOTS } from "./fair-share";

export type WebhookJobOptions = FailurePolicy & {
  allowPrivate: boolean;
  concurrency?: number;
  /** How often old deliveries are pruned (also once at start). */
  pruneEveryMs?: number;
  leaseMs?: number;
  pollMs?: number;
  timeoutMs?: number;
};

export function webhookJobs(
  store: TapeStore,
  options: WebhookJobOptions,
): JobKind<WebhookJob, AttemptResult> {
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  return {
    name: "webhook deliveries",
    concurrency: options.concurrency ?? WEBHOOK_SLOTS,
    // The attempt's own timeout ends it first; this only bounds what the timeout cannot reach.
    deadlineMs: timeoutMs + 5_000,
    backoff: (failures) => retryDelay(failures, options.timeScale),
    // A redelivery starts a full schedule again: it counts failures from its scheduleFrom.
    failures: (d) => d.attempts - d.scheduleFrom,
    claim: (free, underWay) => claimDeliveries(store, free, underWay, options.leaseMs ?? 60_000),
    send: async (d) => {
      const headers = webhookHeaders(d.endpoint.secret, d.messageId, d.payload);
      const r = await sendWebhook(d.endpoint.url, headers, d.payload, {
        allowPrivate: options.allowPrivate,
        timeoutMs,
      });
      return r.ok ? { ok: true, result: r } : { ok: false, error: r.error ?? "failed", result: r };
    },
    record: (finished) => recordAttempts(store, finished, options),
    nextDueIn: () => nextDeliveryDueIn(store),
    pollMs: options.pollMs ?? 2000,
    // A claim is three queries: while attempts are under way, claim when this many slots are free.
    claimAtLeast: 8,
    prune: { everyMs: options.pruneEveryMs ?? 3_600_000, run: () => pruneDeliveries(store) },
  };
}
