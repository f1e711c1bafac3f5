import type { AppContext } from "../app-context";
import { DeadlineScheduler } from "./deadline-scheduler";
import { setDeadlineMinimumForTests } from "../domain/state/deadlines";

/** Deadlines and the cadence watchdog, for server/background.ts; returns its stop. */
export function startDeadlines(app: AppContext): () => Promise<void> {
  setDeadlineMinimumForTests(app.config.deadlineMinMs);
  const scheduler = new DeadlineScheduler(app, { minuteMs: app.config.watchdogMinuteMs });
  scheduler.start();
  return () => scheduler.stop();
}
