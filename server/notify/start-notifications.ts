// Push and mail for people, wired into the server: the VAPID keys (from the environment, else the
// installation's pair in the database: vapid-keys.ts), the outbox consumer and the job runner that sends.
import { join } from "node:path";
import type { AppContext } from "../app-context";
import { dataDir } from "../data-dir";
import { JobRunner } from "../jobs/job-runner";
import { NotificationConsumer } from "./notification-consumer";
import { notificationJobs } from "./notification-jobs";
import { vapidKeys, vapidSubject } from "./vapid-keys";

/** Registers on the outbox (call before it starts) and starts the sender; returns its stop. */
export function startNotifications(app: AppContext): () => Promise<void> {
  const { config } = app;
  const keys = vapidKeys(join(dataDir(config.databaseUrl), "vapid-keys.json"), {
    ...config.vapid,
    subject: vapidSubject(config.vapid.subject, config.publicUrl),
  });
  // The resolved keys: GET /api/v1/me/push hands the public one to browsers that subscribe.
  config.vapid = keys;
  const sender = new JobRunner(
    notificationJobs({
      store: app.store,
      config,
      vapid: keys,
      pushInsecureLoopback: app.knobs.pushInsecureLoopback,
    }),
  );
  app.outbox.register(new NotificationConsumer(app.store, config, sender.wake));
  sender.start();
  return () => sender.stop();
}
