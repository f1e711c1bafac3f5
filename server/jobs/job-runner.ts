// The one loop for delivery-style background work (webhook deliveries, push and mail): claim due
// jobs with a lease, send each under a hard deadline, retry a failure on a backoff schedule or give
// up, record the outcomes, prune what is old. What differs between kinds of job (the table and its
// claim query, the send, the schedule, how an outcome is stored) is the JobKind; the policy is here.
//
// Up to `concurrency` attempts are under way at once, each on its own: a slot is claimed again as
// soon as its attempt ends (or new work arrives, or the poll comes round), so a receiver that hangs
// holds its slot for its deadline, never a round of other jobs. stop() aborts what is under way;
// those jobs are released (their leases given back, nothing counted) for a later start or another node.
import { setMaxListeners } from "node:events";
import type { Finished, JobKind, Sent } from "./job-kind";

export class JobRunner<J, R> {
  private running: Promise<void> | null = null;
  private again = false;
  /** Wakes the running loop while it waits for an attempt to end (new work may fit a free slot). */
  private nudge: (() => void) | null = null;
  private stopped = true;
  private timer: NodeJS.Timeout | null = null;
  private pruneTimer: NodeJS.Timeout | null = null;
  private pruning: Promise<void> | null = null;
  private abort = new AbortController();

  constructor(private readonly kind: JobKind<J, R>) {}

  start() {
    this.stopped = false;
    this.abort = new AbortController();
    // Each attempt under way listens for stop(): up to `concurrency` listeners is the design, not a leak.
    setMaxListeners(this.kind.concurrency + 1, this.abort.signal);
    this.wake();
    if (!this.kind.prune) return;
    this.prune();
    this.pruneTimer = setInterval(this.prune, this.kind.prune.everyMs);
    this.pruneTimer.unref();
  }

  /** Stops claiming, aborts the attempts under way and waits (at most about one deadline) for them to be recorded. */
  async stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    this.abort.abort();
    let limit: NodeJS.Timeout | undefined;
    const late = new Promise<void>((r) => (limit = setTimeout(r, this.kind.deadlineMs + 1000)));
    await Promise.race([Promise.allSettled([this.running, this.pruning]), late]);
    clearTimeout(limit);
  }

  /** New work (a row added, a redelivery, a slot freed): look now, or once more after the current look. */
  wake = () => {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      this.nudge?.();
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.running = this.run()
      .catch((e) => console.error(`podwatch: ${this.kind.name} could not be read; retrying`, e))
      .finally(() => {
        this.running = null;
        if (this.stopped) return;
        if (this.again) {
          this.again = false;
          this.wake();
        } else void this.sleep();
      });
  };

  private prune = () => {
    if (this.stopped || this.pruning || !this.kind.prune) return;
    this.pruning = this.kind.prune
      .run()
      .then(
        () => undefined,
        (e) => console.error(`podwatch: old ${this.kind.name} could not be pruned; trying again later`, e),
      )
      .finally(() => (this.pruning = null));
  };

  /** Nothing under way: sleeps until the next due job, at most pollMs. */
  private async sleep() {
    let wait = this.kind.pollMs;
    try {
      const due = (await this.kind.nextDueIn?.()) ?? null;
      if (due !== null) wait = Math.min(wait, Math.max(5, due));
    } catch {
      /* the store is closing, or busy: poll */
    }
    if (this.stopped || this.running) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(this.wake, wait);
    this.timer.unref();
  }

  private async run() {
    const { concurrency, pollMs } = this.kind;
    const claimAtLeast = Math.min(this.kind.claimAtLeast ?? 1, concurrency);
    const underWay = new Map<Promise<void>, J>();
    const done: Finished<J, R>[] = [];
    for (;;) {
      const woken = this.again;
      this.again = false;
      const free = concurrency - underWay.size;
      if (!this.stopped && free > 0 && (free >= claimAtLeast || woken || !underWay.size)) {
        for (const job of await this.claim(free, [...underWay.values()])) {
          const attempt: Promise<void> = this.attempt(job)
            .then((f) => void done.push(f))
            .finally(() => underWay.delete(attempt));
          underWay.set(attempt, job);
        }
      }
      if (!underWay.size && !done.length) return;
      if (!done.length) {
        let poll: NodeJS.Timeout | undefined;
        await new Promise<void>((resolve) => {
          this.nudge = resolve;
          // A wake that came during the claim or the record above found no nudge: look again now.
          if (this.again) resolve();
          // Work may fall due while every attempt under way is slow (a retry, another node's lease ran out).
          poll = setTimeout(() => ((this.again = true), resolve()), pollMs);
          void Promise.race(underWay.keys()).then(resolve);
        });
        clearTimeout(poll);
        this.nudge = null;
        // Attempts that end together (a fast receiver answers a burst at once) are recorded in one go.
        await new Promise((r) => setTimeout(r, 2));
      }
      await this.record(done.splice(0));
    }
  }

  /** A claim that fails (the database busy or away) claims nothing: the attempts under way are still recorded. */
  private claim(free: number, underWay: J[]): Promise<J[]> {
    return this.kind.claim(free, underWay).catch((e: unknown) => {
      console.error(`podwatch: ${this.kind.name} could not be claimed; trying again`, e);
      return [];
    });
  }

  /** One attempt under the deadline, and what it came to by the schedule. */
  private async attempt(job: J): Promise<Finished<J, R>> {
    const started = Date.now();
    const cut = new AbortController();
    const onStop = () => cut.abort();
    this.abort.signal.addEventListener("abort", onStop);
    if (this.abort.signal.aborted) cut.abort();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<Sent<R>>((resolve) => {
      timer = setTimeout(() => {
        resolve({ ok: false, error: `not done within ${this.kind.deadlineMs / 1000} s` });
        cut.abort();
      }, this.kind.deadlineMs);
    });
    const sent = await Promise.race([
      this.kind.send(job, cut.signal).catch((e: unknown) => failed<R>(e)),
      late,
    ]);
    clearTimeout(timer);
    this.abort.signal.removeEventListener("abort", onStop);
    if (sent.ok) return { job, started, outcome: "done", result: sent.result };
    if (this.stopped) return { job, started, outcome: "released" };
    const delay = this.kind.backoff(this.kind.failures(job) + 1);
    const { error, result } = sent;
    return delay === null
      ? { job, started, outcome: "gave-up", error, result }
      : { job, started, outcome: "retry", at: Date.now() + delay, error, result };
  }

  private async record(finished: Finished<J, R>[]) {
    if (!finished.length) return;
    await this.kind
      .record(finished)
      .catch((e) =>
        console.error(`podwatch: ${this.kind.name} could not be recorded; tried again after their leases`, e),
      );
  }
}

const failed = <R>(e: unknown): Sent<R> => ({ ok: false, error: e instanceof Error ? e.message : String(e) });
