// The server's background work, started once the app context exists and
// stopped before the store closes: the outbox dispatcher and the workers that
// deliver what it hands over (one line each).
import type { AppContext } from "./app-context";
import { startNotifications } from "./notify/start-notifications";
import { startWebhooks } from "./webhooks/start-webhooks";
import { startDeadlines } from "./deadlines/start-deadlines";

type Stop = () => Promise<void> | void;

export function startBackground(app: AppContext): () => Promise<void> {
  const stops: Stop[] = [];
  // Consumers register on app.outbox before it starts, so the first rows reach them all.
  stops.push(startNotifications(app));
  stops.push(startWebhooks(app));
  app.outbox.start();
  stops.push(() => app.outbox.stop());
  stops.push(startDeadlines(app));
  return async () => {
    for (const stop of stops.reverse()) await stop();
  };
}
