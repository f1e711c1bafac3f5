// Deadlines, the cadence watchdog and budget checks run on one node at a time: the timekeeper,
// the node holding the timekeeper lease (server/cluster/leader-lease.ts). Another node takes over within a few
// seconds of the timekeeper's death or shutdown, and its scheduler's first pass reads every pod.
// A deposed timekeeper may still finish an append it had begun (its scheduler is stopped at once,
// but a request in flight completes): harmless, because every outcome is appended under an id
// sealed from what it is about (server/shared/system-event-ids.ts), so the new timekeeper's append of the same
// outcome is the same event and the tape stores it once.
import type { AppContext } from "../app-context";
import { DeadlineScheduler } from "./deadline-scheduler";
import { setDeadlineMinimumForTests } from "../domain/state/deadlines";
import { LeaderLease } from "../cluster/leader-lease";
import { advisoryLocks } from "../db/advisory-locks";

/** The timekeeper's advisory lock key (tests look its holder up in pg_locks). */
export const TIMEKEEPER_LOCK = advisoryLocks.timekeeper;

/** Each running server's lease (tests run several servers in one process). */
const leases = new WeakMap<AppContext, LeaderLease>();

/** For server/background.ts; `retryMs`: how often a node that is not the timekeeper tries to become it. Returns its stop. */
export function startDeadlines(app: AppContext, options: { retryMs?: number } = {}): () => Promise<void> {
  setDeadlineMinimumForTests(app.knobs.deadlineMinMs);
  const lease = new LeaderLease({
    databaseUrl: app.config.databaseUrl,
    lockKey: TIMEKEEPER_LOCK,
    role: "timekeeper",
    nodeId: app.config.nodeId,
    retryMs: options.retryMs,
    lead: () => {
      const scheduler = new DeadlineScheduler(app, { minuteMs: app.knobs.watchdogMinuteMs });
      scheduler.start();
      return () => scheduler.stop();
    },
  });
  leases.set(app, lease);
  lease.start();
  return async () => {
    await lease.stop();
    leases.delete(app);
  };
}

/** Whether this server runs the deadline scheduler now. */
export const isTimekeeper = (app: AppContext): boolean => leases.get(app)?.leading ?? false;
