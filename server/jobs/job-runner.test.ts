// The runner's policy, on a kind of job kept in memory (the claim, send and record a table would
// do, without one; job-runner.integration.test.ts runs it over real tables): retries on the
// schedule, giving up, the deadline, slots, stop, prune and wake-ups.
import { afterEach, describe, expect, it } from "vitest";
import { JobRunner } from "./job-runner";
import type { Finished, JobKind, Sent } from "./job-kind";
import { eventually } from "../testing/eventually";

type Job = { id: string; failures: number; dueAt: number; leased: boolean; done: boolean };

/** Jobs in a Map; `send` decides each attempt. Records every outcome the runner hands over, in order. */
function memoryKind(
  send: (job: Job, signal: AbortSignal) => Promise<Sent<string>>,
  over: Partial<JobKind<Job, string>> = {},
) {
  const jobs = new Map<string, Job>();
  const log: Finished<Job, string>[] = [];
  const backoffAsked: number[] = [];
  let pruned = 0;
  const kind: JobKind<Job, string> = {
    name: "test jobs",
    concurrency: 4,
    deadlineMs: 5_000,
    backoff: (n) => (backoffAsked.push(n), n < 3 ? 1 : null),
    failures: (job) => job.failures,
    claim: async (free) => {
      const due = [...jobs.values()]
        .filter((j) => !j.done && !j.leased && j.dueAt <= Date.now())
        .slice(0, free);
      for (const j of due) j.leased = true;
      return due.map((j) => ({ ...j }));
    },
    send,
    record: async (finished) => {
      for (const x of finished) {
        log.push(x);
        const j = jobs.get(x.job.id)!;
        j.leased = false;
        if (x.outcome === "done" || x.outcome === "gave-up") j.done = true;
        if (x.outcome === "retry") Object.assign(j, { failures: j.failures + 1, dueAt: x.at });
      }
    },
    pollMs: 20,
    prune: { everyMs: 60_000, run: async () => void pruned++ },
    ...over,
  };
  const add = (id: string) => jobs.set(id, { id, failures: 0, dueAt: 0, leased: false, done: false });
  return { kind, jobs, log, backoffAsked, add, pruned: () => pruned };
}

const failed: Sent<string> = { ok: false, error: "stopped" };

const outcomes = (log: Finished<Job, string>[], id: string) =>
  log.filter((x) => x.job.id === id).map((x) => x.outcome);

describe("the job runner", () => {
  const runners: JobRunner<Job, string>[] = [];
  const run = (kind: JobKind<Job, string>) => {
    const r = new JobRunner(kind);
    runners.push(r);
    r.start();
    return r;
  };
  afterEach(async () => {
    for (const r of runners.splice(0)) await r.stop();
  });

  it("retries a failure on the schedule, counting failures in a row, and gives up when the schedule ends", async () => {
    const m = memoryKind(async () => ({ ok: false, error: "HTTP 500", result: "500" }));
    m.add("a");
    run(m.kind);
    await eventually(
      async () => outcomes(m.log, "a"),
      (o) => o.includes("gave-up"),
      "giving up",
    );
    expect(outcomes(m.log, "a")).toEqual(["retry", "retry", "gave-up"]);
    expect(m.backoffAsked).toEqual([1, 2, 3]);
    expect(m.log.map((x) => ("error" in x ? [x.error, x.result] : null))).toEqual([
      ["HTTP 500", "500"],
      ["HTTP 500", "500"],
      ["HTTP 500", "500"],
    ]);
  });

  it("a thrown error is a failure like any other; a success after it is done, with its result", async () => {
    let calls = 0;
    const m = memoryKind(async () => {
      if (++calls === 1) throw new Error("connection refused");
      return { ok: true, result: "204" };
    });
    m.add("a");
    run(m.kind);
    await eventually(
      async () => outcomes(m.log, "a"),
      (o) => o.includes("done"),
      "the success",
    );
    expect(m.log).toEqual([
      expect.objectContaining({ outcome: "retry", error: "connection refused" }),
      expect.objectContaining({ outcome: "done", result: "204" }),
    ]);
  });

  it("an attempt past its deadline is a failure, and its signal is aborted", async () => {
    let aborted = false;
    const m = memoryKind(
      (job, signal) =>
        new Promise((resolve) => {
          if (job.failures > 0) return resolve({ ok: true, result: "late but fine" });
          signal.addEventListener("abort", () => (aborted = true));
        }),
      { deadlineMs: 50 },
    );
    m.add("a");
    run(m.kind);
    await eventually(
      async () => outcomes(m.log, "a"),
      (o) => o.includes("done"),
      "the retry's success",
    );
    expect(m.log[0]).toEqual(expect.objectContaining({ outcome: "retry", error: "not done within 0.05 s" }));
    expect(aborted).toBe(true);
  });

  it("keeps at most `concurrency` attempts under way; one that hangs holds only its own slot", async () => {
    let underWay = 0;
    let most = 0;
    const m = memoryKind(async (job, signal) => {
      underWay++;
      most = Math.max(most, underWay);
      try {
        if (job.id === "hangs")
          await new Promise((_, reject) =>
            signal.addEventListener("abort", () => reject(new Error("stopped"))),
          );
        await new Promise((r) => setImmediate(r));
        return { ok: true, result: job.id };
      } finally {
        underWay--;
      }
    });
    m.add("hangs");
    for (let i = 0; i < 20; i++) m.add(`quick-${i}`);
    run(m.kind);
    await eventually(
      async () => m.log.length,
      (n) => n === 20,
      "every quick job",
    );
    expect(most).toBeLessThanOrEqual(4);
    expect(m.log.every((x) => x.outcome === "done" && x.job.id !== "hangs")).toBe(true);
  });

  it("runs more than ten attempts at once without Node warning of a listener leak", async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on("warning", onWarning);
    try {
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      let underWay = 0;
      const m = memoryKind(
        async (job) => {
          underWay++;
          await gate;
          return { ok: true, result: job.id };
        },
        { concurrency: 16 },
      );
      for (let i = 0; i < 16; i++) m.add(`slow-${i}`);
      run(m.kind);
      await eventually(
        async () => underWay,
        (n) => n === 16,
        "sixteen attempts under way",
      );
      release();
      await eventually(
        async () => m.log.length,
        (n) => n === 16,
        "every attempt recorded",
      );
      await new Promise((r) => setImmediate(r)); // warnings are emitted on the next tick
      expect(warnings).not.toContain("MaxListenersExceededWarning");
    } finally {
      process.off("warning", onWarning);
    }
  });

  it("stop() aborts what is under way and releases it: not a failure, nothing counted", async () => {
    let started = false;
    const m = memoryKind(async (_job, signal) => {
      started = true;
      return new Promise((_, reject) => signal.addEventListener("abort", () => reject(new Error("stopped"))));
    });
    m.add("a");
    const r = run(m.kind);
    await eventually(
      async () => started,
      (s) => s,
      "the attempt",
    );
    await r.stop();
    expect(outcomes(m.log, "a")).toEqual(["released"]);
    expect(m.backoffAsked).toEqual([]);
    expect(m.jobs.get("a")).toEqual(expect.objectContaining({ failures: 0, leased: false, done: false }));
  });

  it("a claim that fails while an attempt is under way claims nothing; the attempt is still recorded", async () => {
    let claims = 0;
    let claimFailed!: () => void;
    const failedOnce = new Promise<void>((r) => (claimFailed = r));
    const m = memoryKind(async (job) => (await failedOnce, { ok: true, result: job.id }));
    const claim = m.kind.claim;
    m.kind.claim = async (free, underWay) => {
      if (++claims === 2) {
        setImmediate(claimFailed);
        throw new Error("the database is away");
      }
      return claim(free, underWay);
    };
    m.add("a");
    const r = run(m.kind);
    await eventually(
      async () => claims,
      (n) => n === 1,
      "the first claim",
    );
    r.wake(); // new work is announced while "a" is under way: the second claim fails
    await eventually(
      async () => outcomes(m.log, "a"),
      (o) => o.includes("done"),
      "the attempt recorded",
    );
    expect(outcomes(m.log, "a")).toEqual(["done"]);
  });

  it("prunes at start; claims work added while it runs when woken, and work that falls due on its own by polling", async () => {
    const m = memoryKind(async (job) => ({ ok: true, result: job.id }));
    const r = run(m.kind);
    await eventually(
      async () => m.pruned(),
      (n) => n === 1,
      "the first prune",
    );
    m.add("woken");
    r.wake();
    await eventually(
      async () => outcomes(m.log, "woken"),
      (o) => o.includes("done"),
      "the woken job",
    );
    m.add("polled"); // nobody wakes the runner: the poll finds it
    await eventually(
      async () => outcomes(m.log, "polled"),
      (o) => o.includes("done"),
      "the polled job",
    );
  });

  it("work announced while a claim is under way is claimed next, not after an attempt or the poll", async () => {
    let claims = 0;
    let r: JobRunner<Job, string> | null = null;
    // One attempt hangs (past the test) and the poll is a minute away: only the wake can bring "late" in.
    const m = memoryKind(
      async (job, signal) =>
        job.id === "hangs"
          ? new Promise<Sent<string>>((resolve) => signal.addEventListener("abort", () => resolve(failed)))
          : { ok: true, result: job.id },
      { pollMs: 60_000, deadlineMs: 60_000 },
    );
    const claim = m.kind.claim;
    m.kind.claim = async (free, underWay) => {
      const got = await claim(free, underWay);
      // The second claim has read what was due when "late" is added and announced, before it returns.
      if (++claims === 2) {
        m.add("late");
        r!.wake();
      }
      return got;
    };
    m.add("hangs");
    r = run(m.kind);
    await eventually(
      async () => claims,
      (n) => n === 1,
      "the first claim",
    );
    r.wake();
    await eventually(
      async () => outcomes(m.log, "late"),
      (o) => o.includes("done"),
      "the job announced during a claim",
      5_000,
    );
  });
});
