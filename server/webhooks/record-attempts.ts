// What webhook delivery attempts came to, stored for the job runner (webhook-jobs.ts): successes
// together, failures one by one (the retry or the give-up, then the endpoint's day of failures,
// which disables it and tells its pod's admins), a released row given back; each only while the
// row is still this node's.
import type { TapeStore } from "../db/tape-store";
import type { Finished } from "../jobs/job-kind";
import type { WebhookJob } from "./claim-deliveries";
import { disableEndpoint } from "./endpoints";
import type { AttemptResult } from "./send";
import { DISABLE_AFTER_MS } from "./schedule";

type Done = Finished<WebhookJob, AttemptResult>;
export type FailurePolicy = {
  /** Test only: shrinks the retry schedule and the day before disabling (1 = real time). */
  timeScale: number;
  /** Posts the "endpoint disabled" notice to the pod's admins; idempotent (called again after a crash). */
  onDisabled: (endpoint: { id: string; podId: string; url: string; failingSince: string }) => Promise<void>;
};

/** Successes in one transaction (one commit for all that ended together); failures one by one (retries, disabling). */
export async function recordAttempts(store: TapeStore, finished: Done[], options: FailurePolicy) {
  const db = store.prisma;
  const delivered = finished.filter((x): x is Extract<Done, { outcome: "done" }> => x.outcome === "done");
  // updateMany: a delivery whose endpoint was deleted meanwhile is simply gone; `update` would throw and
  // roll back the others' record, and their successes would be sent again.
  const success = (x: Extract<Done, { outcome: "done" }>) =>
    db.webhookDelivery.updateMany({
      where: { id: x.job.id },
      data: { ...lastAttempt(x), status: "delivered", nextAttemptAt: null },
    });
  if (delivered.length) {
    await db.$transaction(delivered.map(success)).catch(async (e) => {
      // One row the database refuses must not take the others with it: record each alone.
      console.error("podwatch: webhook deliveries could not be recorded together; recording each alone", e);
      for (const x of delivered)
        await success(x).catch((err) =>
          console.error(`podwatch: webhook delivery ${x.job.id} could not be recorded`, err),
        );
    });
  }
  const recovered = [
    ...new Set(delivered.filter((x) => x.job.endpoint.failingSince).map((x) => x.job.endpointId)),
  ];
  if (recovered.length)
    await db.webhookEndpoint.updateMany({ where: { id: { in: recovered } }, data: { failingSince: null } });
  for (const x of finished) {
    if (x.outcome === "done") continue;
    // Only while the row is still ours: past our lease another node may have taken it (and delivered it).
    const ours = { id: x.job.id, claimedUntil: x.job.claimedUntil };
    const recorded =
      x.outcome === "released"
        ? db.webhookDelivery.updateMany({ where: ours, data: { claimedUntil: null } })
        : recordFailure(store, x, options);
    await recorded.catch((e) =>
      console.error(`podwatch: webhook delivery ${x.job.id} could not be recorded`, e),
    );
  }
}

function lastAttempt(x: Exclude<Done, { outcome: "released" }>) {
  const r: AttemptResult = x.result ?? {
    ok: false,
    status: null,
    latencyMs: Date.now() - x.started,
    error: "error" in x ? x.error : null,
    response: null,
  };
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

async function recordFailure(
  store: TapeStore,
  x: Extract<Done, { outcome: "retry" | "gave-up" }>,
  options: FailurePolicy,
) {
  const now = Date.now();
  const d = x.job;
  const db = store.prisma;
  const next =
    x.outcome === "retry"
      ? { status: "pending", nextAttemptAt: new Date(x.at).toISOString() }
      : { status: "failed", nextAttemptAt: null };
  // A late failure past our lease must not schedule again a row another node has taken (and delivered).
  const { count } = await db.webhookDelivery.updateMany({
    where: { id: d.id, claimedUntil: d.claimedUntil },
    data: { ...lastAttempt(x), ...next },
  });
  if (!count) return; // its endpoint was deleted while the attempt was under way, or the row is no longer ours
  await db.webhookEndpoint.updateMany({
    where: { id: d.endpointId, failingSince: null },
    data: { failingSince: new Date(now).toISOString() },
  });
  const endpoint = await db.webhookEndpoint.findUnique({ where: { id: d.endpointId } });
  if (!endpoint?.enabled || !endpoint.failingSince) return;
  if (now - Date.parse(endpoint.failingSince) < DISABLE_AFTER_MS * options.timeScale) return;
  // The notice first: its id is derived from the endpoint and failingSince, so posting it again (a
  // crash before the endpoint was disabled, another node) stores nothing new.
  await options.onDisabled({
    id: endpoint.id,
    podId: endpoint.podId,
    url: endpoint.url,
    failingSince: endpoint.failingSince,
  });
  await disableEndpoint(store, endpoint.id, `disabled after only failures since ${endpoint.failingSince}`);
}
