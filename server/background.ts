// The server's background work, started once the app context exists and
// stopped before the store closes: the outbox dispatcher and the workers that
// deliver what it hands over (one line each).
import type { AppContext } from "./app-context";
import { startNotifications } from "./notify/start-notifications";
import { startWebhooks } from "./webhooks/start-webhooks";
import { startDeadlines } from "./deadlines/start-deadlines";
import { startCheckpoints } from "./history/checkpoint-keeper";

type Stop = () => Promise<void> | void;

/** Test knobs: how often a node tries to become the timekeeper; the webhook worker's lease on a delivery. */
export type BackgroundOptions = { timekeeperRetryMs?: number; webhookLeaseMs?: number };

export function startBackground(app: AppContext, options: BackgroundOptions = {}): () => Promise<void> {
  const stops: Stop[] = [];
  // Consumers register on app.outbox before it starts, so the first rows reach them all.
  stops.push(startNotifications(app));
  stops.push(startWebhooks(app, { leaseMs: options.webhookLeaseMs }));
  stops.push(startCheckpoints(app));
  app.outbox.start();
  stops.push(() => app.outbox.stop());
  stops.push(startDeadlines(app, { retryMs: options.timekeeperRetryMs }));
  return async () => {
    for (const stop of stops.reverse()) await stop();
  };
}
