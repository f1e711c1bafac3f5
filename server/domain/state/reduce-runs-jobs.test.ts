import { describe, expect, it } from "vitest";
import { Tape } from "../../testing/reducer-tape";

describe("runs are transactions", () => {
  const started = () => {
    const t = Tape.team();
    t.add("run.started", "impl", { runId: "r1", workItemId: "w1", mood: "CURIOUS" });
    return t;
  };

  it("a run id starts once", () => {
    started().refuses("run_exists", "run.started", "impl", { runId: "r1", workItemId: "w", mood: "M" });
  });

  it("commits only after self and director verification, by the director", () => {
    const t = started();
    t.refuses("run_not_verified", "run.committed", "ana", { runId: "r1", commit: "abc" });
    t.add("run.verified", "impl", { runId: "r1", by: "self", passed: true });
    t.refuses("decision_authority", "run.verified", "impl", { runId: "r1", by: "director", passed: true });
    t.add("run.verified", "chair-1", { runId: "r1", by: "director", passed: true });
    t.refuses("decision_authority", "run.committed", "impl", { runId: "r1", commit: "abc" });
    expect(t.add("run.committed", "chair-1", { runId: "r1", commit: "abc" }).runs["r1"]).toMatchObject({
      status: "committed",
      commit: "abc",
    });
  });

  it("a failed verification cannot commit; a run ends once", () => {
    const t = started();
    t.add("run.verified", "impl", { runId: "r1", by: "self", passed: false });
    t.add("run.verified", "ana", { runId: "r1", by: "director", passed: true });
    t.refuses("run_not_verified", "run.committed", "ana", { runId: "r1", commit: "abc" });
    t.add(
      "note",
      "impl",
      { kind: "HYPERTHESIS", text: "t", blindSpot: "flaky net", bound: "1 retry" },
      { runId: "r1" },
    );
    const s = t.add("run.discarded", "impl", { runId: "r1", reason: "tests failed" });
    expect(s.runs["r1"]).toMatchObject({
      status: "discarded",
      discardReason: "tests failed",
      noteSeqs: [s.seq - 1],
    });
    t.refuses("run_ended", "run.discarded", "impl", { runId: "r1", reason: "again" });
    t.refuses("run_ended", "run.verified", "impl", { runId: "r1", by: "self", passed: true });
    t.refuses("unknown_run", "run.discarded", "impl", { runId: "r2", reason: "x" });
  });
});

describe("contracting: escrow moves once", () => {
  const job = {
    jobId: "j1",
    scope: "Add rate limiting",
    acceptanceTests: ["5 req/min → 429"],
    settlement: { amount: 500, currency: "USD", terms: "on acceptance" },
  };
  const delivered = () => {
    const t = Tape.team();
    t.add("job.posted", "ana", job);
    t.refuses("job_not_funded", "job.delivered", "impl", { jobId: "j1" });
    t.add("job.funded", "ana", { jobId: "j1" });
    t.bundle("d1");
    t.add("job.delivered", "impl", { jobId: "j1", evidenceIds: ["d1"] });
    return t;
  };

  it("posts once and funds once", () => {
    const t = delivered();
    t.refuses("job_exists", "job.posted", "ana", job);
    t.refuses("escrow_state", "job.funded", "ana", { jobId: "j1" });
    t.refuses("unknown_job", "job.funded", "ana", { jobId: "j9" });
    expect(t.state.jobs["j1"]).toMatchObject({ status: "delivered", escrow: "funded", evidenceIds: ["d1"] });
    expect(t.state.inbox["job:j1"]).toMatchObject({ kind: "job_acceptance" });
  });

  it("accept → released", () => {
    const t = delivered();
    t.refuses("job_not_decided", "job.settled", "ana", { jobId: "j1", outcome: "released" });
    t.add("decision", "ana", {
      subject: { kind: "job", id: "j1" },
      verdict: "accept",
      rationale: "tests pass",
    });
    t.refuses("job_not_decided", "job.settled", "ana", { jobId: "j1", outcome: "refunded" });
    expect(t.add("job.settled", "ana", { jobId: "j1", outcome: "released" }).jobs["j1"]).toMatchObject({
      status: "settled",
      escrow: "released",
    });
    t.refuses("escrow_state", "job.settled", "ana", { jobId: "j1", outcome: "released" });
    expect(t.state.inbox).toEqual({});
  });

  it("reject → refunded; a job is decided only once delivered", () => {
    const t = delivered();
    t.add("decision", "ana", {
      subject: { kind: "job", id: "j1" },
      verdict: "reject",
      rationale: "429 missing",
    });
    t.refuses("job_not_delivered", "decision", "ana", {
      subject: { kind: "job", id: "j1" },
      verdict: "accept",
      rationale: "changed my mind",
    });
    expect(t.add("job.settled", "ana", { jobId: "j1", outcome: "refunded" }).jobs["j1"]!.escrow).toBe(
      "refunded",
    );
  });
});
