// What a kind of job tells the one runner (job-runner.ts): everything that differs between kinds
// (the table and its claim query, the send, the schedule, how an outcome is stored, what is old).

/** What one attempt came to: `ok` is final; a failure is retried on the schedule (or given up). */
export type Sent<R> = { ok: true; result: R } | { ok: false; error: string; result?: R };

/** An attempt that ended, as the kind records it. `released`: cut short by stop(), not the job's fault. */
export type Finished<J, R> = { job: J; started: number } & (
  | { outcome: "done"; result: R }
  | { outcome: "retry"; at: number; error: string; result?: R }
  | { outcome: "gave-up"; error: string; result?: R }
  | { outcome: "released" }
);

export type JobKind<J, R> = {
  /** For log lines ("webhook deliveries"). */
  name: string;
  /** Attempts under way at once. */
  concurrency: number;
  /** One attempt's hard limit: past it the attempt is a failure and its signal aborts. Shorter than a claim's lease. */
  deadlineMs: number;
  /** The wait before the next attempt after `failures` failures in a row (1: the first attempt failed); null: give up. */
  backoff: (failures: number) => number | null;
  /** Failures in a row before this attempt, as `backoff` counts them. */
  failures: (job: J) => number;
  /** Leases up to `free` due jobs (never one of `underWay`); a job is returned to one claimer only. */
  claim: (free: number, underWay: readonly J[]) => Promise<J[]>;
  /** One attempt; throwing is a failure too. `signal` aborts at the deadline or on stop(). */
  send: (job: J, signal: AbortSignal) => Promise<Sent<R>>;
  /** Stores what attempts came to (those that ended together in one go, where it can); each only while the job is still ours. */
  record: (finished: Finished<J, R>[]) => Promise<void>;
  /** How long until the next job is due (null: none): the runner sleeps until then, at most `pollMs`. */
  nextDueIn?: () => Promise<number | null>;
  /** How often to look for due work nobody announced (another node's, a lease that ran out, a retry). */
  pollMs: number;
  /** Fewest free slots worth a claim of their own while attempts are under way (claims may cost several queries). */
  claimAtLeast?: number;
  /** Deletes finished jobs past retention: at start, then every `everyMs`. */
  prune?: { everyMs: number; run: () => Promise<unknown> };
};
