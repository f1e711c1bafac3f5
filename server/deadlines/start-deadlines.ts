import type { AppContext } from "../app-context";
import { DeadlineScheduler } from "./deadline-scheduler";

/** Deadlines and the cadence watchdog, for server/background.ts; returns its stop. */
export function startDeadlines(app: AppContext): () => Promise<void> {
  const scheduler = new DeadlineScheduler(app, { minuteMs: app.config.watchdogMinuteMs });
  scheduler.start();
  return () => scheduler.stop();
}
