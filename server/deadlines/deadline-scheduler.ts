// The server's clock on the tape: passes deadlines and flags stale agents. It runs on
// the timekeeper node only (start-deadlines.ts). On start it reads every pod; after each commit
// (the bus brings every node's) it reads that pod again; it sleeps until the soonest thing is
// due (and re-reads everything every minute, a backstop for a commit the bus lost). What it
// appends carries a deterministic id, so an outcome is stored once however often it is tried —
// after a retry, a restart, or by two nodes at once: timedWork names each outcome, and the
// scheduler seals the name with the installation's secret (system-event-id.ts), so no agent can
// take the id first. Its state is only a cache of the tapes.
import type { AppContext } from "../app-context";
import { AppError } from "../domain/errors";
import type { SystemIdentity } from "../domain/access/admit-append";
import type { CommittedBatch } from "../tape/bus";
import { installationEventIds } from "./system-event-id";
import type { SystemEventIds } from "../shared/system-event-ids";
import { timedWork, type Due } from "./timed-work";

const RESCAN_MS = 60_000;
/** Who appends what time brings: the server itself (deadline.passed, agent.stale, budget.exceeded). */
const SCHEDULER: SystemIdentity = { kind: "system", name: "the deadline scheduler" };

/** `eventIds`: how names become the ids appended (default: the installation's, from the database). */
export type SchedulerOptions = {
  now?: () => number;
  minuteMs?: number;
  eventIds?: () => Promise<SystemEventIds>;
};

export class DeadlineScheduler {
  private readonly nextAt = new Map<string, number>();
  /** Event ids the tape refused outright (not even as a reminder): not tried again by this process. An id names the item's round (timed-work.ts), so a re-opened item is tried afresh. */
  private readonly refused = new Set<string>();
  private readonly dirty = new Set<string>();
  /** Pods seen closed: nothing is ever due in one again (closing is final), so they are not read again. */
  private readonly closed = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = true;
  private lastFullScan = 0;
  private readonly now: () => number;
  private readonly minuteMs: number;
  private readonly eventIds: () => Promise<SystemEventIds>;

  constructor(
    private readonly app: Pick<AppContext, "store" | "bus" | "append">,
    options: SchedulerOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.minuteMs = options.minuteMs ?? 60_000;
    this.eventIds = options.eventIds ?? (() => installationEventIds(app.store));
  }

  start() {
    this.stopped = false;
    this.app.bus.on("committed", this.onCommit);
    this.kick(true);
  }

  async stop() {
    this.stopped = true;
    this.app.bus.off("committed", this.onCommit);
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private readonly onCommit = ({ podId }: CommittedBatch) => {
    this.dirty.add(podId);
    this.kick(false);
  };

  /** Runs one pass now (or right after the one in flight). */
  private kick(full: boolean) {
    if (this.stopped) return;
    if (full) this.lastFullScan = 0;
    // The pass in flight ends by scheduling the next one, at once when pods were marked dirty
    // meanwhile: no callback per commit piles up under a busy tape.
    if (this.running) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.running = this.pass()
      .catch((error) => console.error("podwatch: deadline scheduler pass failed", error))
      .finally(() => {
        this.running = null;
        this.schedule();
      });
  }

  private schedule() {
    if (this.stopped) return;
    const now = this.now();
    const soonest = Math.min(this.lastFullScan + RESCAN_MS, ...this.nextAt.values());
    const wait = this.dirty.size ? 0 : Math.max(0, soonest - now);
    this.timer = setTimeout(() => this.kick(false), Math.min(wait, RESCAN_MS));
    this.timer.unref();
  }

  private async pass() {
    const now = this.now();
    let pods: string[];
    if (now - this.lastFullScan >= RESCAN_MS) {
      pods = (await this.app.store.prisma.pod.findMany({ select: { id: true } })).map(
        (p: { id: string }) => p.id,
      );
      this.lastFullScan = now;
      this.dirty.clear();
    } else {
      pods = [...new Set([...this.dirty, ...[...this.nextAt].filter(([, t]) => t <= now).map(([id]) => id)])];
      this.dirty.clear();
    }
    // Archived pods are still read: archiving only hides a pod from a list, its deadlines still pass.
    for (const podId of pods.filter((id) => !this.closed.has(id))) {
      if (this.stopped) return;
      // One pod that cannot be read or appended to must not stop the scan of the others.
      try {
        await this.runPod(podId);
      } catch (error) {
        console.error(`podwatch: deadline scheduler: pod ${podId} failed`, error);
      }
    }
  }

  private async runPod(podId: string) {
    const state = await this.app.store.readState(podId);
    this.nextAt.delete(podId);
    if (!state) return;
    if (state.status === "closed") return void this.closed.add(podId);
    const { due, nextAt } = timedWork(podId, state, this.now(), this.minuteMs);
    if (nextAt !== null) this.nextAt.set(podId, nextAt);
    if (!due.length) return;
    const seal = await this.eventIds();
    for (const { event, fallback } of due.map((d) => sealed(d, seal))) {
      if (this.refused.has(event.id!)) continue;
      if (await this.tryAppend(podId, event)) continue;
      if (!fallback || !(await this.tryAppend(podId, fallback))) this.refused.add(event.id!);
    }
  }

  /** True when stored (now or before); false when the pod's rules refuse it. */
  private async tryAppend(
    podId: string,
    event: Parameters<AppContext["append"]>[1][number],
  ): Promise<boolean> {
    try {
      await this.app.append(podId, [event], SCHEDULER);
      return true;
    } catch (error) {
      if (error instanceof AppError && (error.status === 409 || error.status === 422)) {
        console.warn(`podwatch: ${event.type} for pod ${podId} refused: ${error.code}: ${error.message}`);
        return false;
      }
      throw error;
    }
  }
}

/** The due events under their sealed ids (timedWork gives each its public name as `id`). */
function sealed({ event, fallback }: Due, seal: SystemEventIds): Due {
  return {
    event: { ...event, id: seal(event.id!) },
    ...(fallback ? { fallback: { ...fallback, id: seal(fallback.id!) } } : {}),
  };
}
