// Webhooks in the running server: the outbox consumer (durable rows) and the
// job runner that sends them (webhook-jobs.ts); it wakes when the consumer, a test or a
// redelivery adds work. Returns the stop for server/background.ts.
import { createHash } from "node:crypto";
import type { AppContext } from "../app-context";
import { SYSTEM_ACTOR } from "../wire/vocabulary";
import { WebhookConsumer } from "./consumer";
import { JobRunner } from "../jobs/job-runner";
import { webhookJobs } from "./webhook-jobs";

/** Each running server's runner (tests run several servers in one process). */
const workers = new WeakMap<AppContext, { wake: () => void }>();

/** A UUID derived from a stable key: the tape stores an event with this id once. */
export function derivedUuid(key: string): string {
  const h = createHash("sha256").update(key).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** An endpoint as the tape names it: its id and host only. A webhook URL's path and query are often its
 * secret (a Slack incoming webhook, ?token=), and the tape is read by viewers, share links, agents and
 * other webhooks, for good. */
export function endpointName(endpoint: { id: string; url: string }): string {
  let host = "?";
  try {
    host = new URL(endpoint.url).host;
  } catch {
    /* a stored URL is always parseable; keep the id alone otherwise */
  }
  return `webhook ${endpoint.id.slice(0, 8)} (${host}/…)`;
}

/** `leaseMs`: how long a claimed delivery stays this node's (tests shorten it). */
export function startWebhooks(app: AppContext, options: { leaseMs?: number } = {}): () => Promise<void> {
  const worker = new JobRunner(
    webhookJobs(app.store, {
      leaseMs: options.leaseMs,
      allowPrivate: app.config.webhookAllowPrivate,
      timeScale: app.knobs.webhookTimeScale,
      onDisabled: async (endpoint) => {
        const key = `webhook-disabled:${endpoint.id}:${endpoint.failingSince}`;
        await app.append(
          endpoint.podId,
          [
            {
              id: derivedUuid(key),
              type: "notice.posted",
              actor: SYSTEM_ACTOR,
              body: {
                noticeId: `webhook-disabled-${derivedUuid(key).slice(0, 8)}`,
                title: `A webhook was disabled: ${endpointName(endpoint)}`,
                text: `Every delivery to ${endpointName(endpoint)} failed since ${endpoint.failingSince}, so podwatch stopped sending to it. Fix the receiver, send a test from the pod's Webhooks section, then enable it again.`,
                audience: "admins",
              },
            },
          ],
          { kind: "system", name: "the webhook worker" },
        );
      },
    }),
  );
  app.outbox.register(new WebhookConsumer(app.store, app.config.publicUrl, worker.wake));
  workers.set(app, worker);
  worker.start();
  return async () => {
    await worker.stop();
    workers.delete(app);
  };
}

/** Tells the server's worker that a test or a redelivery waits (no-op before it starts). */
export const wakeWebhookWorker = (app: AppContext) => workers.get(app)?.wake();
