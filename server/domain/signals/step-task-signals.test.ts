// The task loop's signals on hand-made tapes: implementer outcomes, review rounds, overturns.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Tape } from "../../testing/reducer-tape";
import type { AgentSignals } from "./signal-types";

const T0 = "2026-11-22T10:00:00.000Z";
const min = (m: number) => new Date(Date.parse(T0) + m * 60_000).toISOString();

/** The team plus a second agent reviewer, with task `a` in progress by impl. */
function working(taskId = "a") {
  const t = Tape.team();
  t.add("member.joined", "admin", { memberId: "rev2", kind: "agent", displayName: "rev2" });
  t.add("task.added", "impl", { taskId, description: taskId });
  t.add("task.updated", "impl", { taskId, status: "in_progress" });
  return t;
}
const seed = (name: string) =>
  JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "testing", "seed-examples", name), "utf8"));
const sig = (t: Tape, id: string): AgentSignals => t.state.signals.agents[id]!;
const decide = (t: Tape, verdict: "approve" | "reject", by = "ana", taskId = "a") =>
  t.add("decision", by, { subject: { kind: "task", id: taskId }, verdict, rationale: "r" });

describe("implementer signals", () => {
  it("counts approvals with the rounds they took, rejections and changes requested", () => {
    const t = working();
    t.add("task.review_requested", "impl", { taskId: "a" });
    t.add("review", "rev", { taskId: "a", verdict: "changes_requested" });
    t.add("task.updated", "impl", { taskId: "a", status: "in_progress" });
    t.add("task.review_requested", "impl", { taskId: "a" });
    t.add("review", "rev", { taskId: "a", verdict: "approve" });
    decide(t, "approve", "chair-1");
    t.add("task.added", "impl", { taskId: "b", description: "b" });
    t.add("task.updated", "impl", { taskId: "b", status: "in_progress" });
    t.add("task.review_requested", "impl", { taskId: "b" });
    decide(t, "reject", "ana", "b");
    const i = sig(t, "impl").implementer;
    expect(i).toMatchObject({
      tasksApproved: 1,
      tasksRejected: 1,
      changesRequested: 1,
      roundsToApproval: { sum: 2, count: 1 },
      reversals: 0,
    });
    const day = sig(t, "impl").days["2026-11-22"]!;
    expect(day.tasks).toEqual({ approved: 1, rejected: 1 });
    // The decider (a chair agent) gets no entry for deciding.
    expect(t.state.signals.agents["chair-1"]).toBeUndefined();
  });

  it("counts a deadline's default decision like a person's", () => {
    const t = working();
    t.now = T0;
    t.add("task.review_requested", "chair-1", {
      taskId: "a",
      deadline: { inMinutes: 5, then: "answer", answer: "approve" },
    });
    t.add("review", "rev", { taskId: "a", verdict: "approve" });
    t.now = min(6);
    t.add("deadline.passed", "podwatch", {
      itemId: "decision:task:a",
      subject: { kind: "task", id: "a" },
      outcome: "approved",
    });
    expect(sig(t, "impl").implementer).toMatchObject({
      tasksApproved: 1,
      roundsToApproval: { sum: 1, count: 1 },
    });
  });

  it("a reversal: the round's approving review undone by the decision", () => {
    const t = working();
    t.add("task.review_requested", "impl", { taskId: "a" });
    t.add("review", "rev", { taskId: "a", verdict: "approve" });
    t.add("review", "rev2", { taskId: "a", verdict: "approve" });
    decide(t, "reject");
    expect(sig(t, "impl").implementer).toMatchObject({ tasksRejected: 1, reversals: 1 });
    expect(sig(t, "rev").reviewer.overturned).toBe(1);
    expect(sig(t, "rev2").reviewer.overturned).toBe(1);
  });

  it("evidence bundles pass or fail; proofs with a failing gate", () => {
    const t = working();
    t.bundle("e1", 0);
    t.bundle("e2", 1);
    t.add("evidence.bundle", "ana", {
      bundleId: "e3",
      commands: [],
      artifacts: [],
      env: { commit: "c" },
      manifestHash: "b".repeat(64),
    });
    expect(sig(t, "impl").implementer.evidencePassed).toEqual({ n: 1, of: 2 });
    expect(t.state.signals.agents["ana"]).toBeUndefined(); // people are not rated
  });

  it("workcell proofs by it, those with a failing gate apart", () => {
    const t = working();
    for (const id of ["wc-1", "wc-2"])
      t.add("workcell.opened", "orch", { manifest: { ...seed("manifest.json"), workcell_id: id } });
    t.add("workcell.proof", "impl", { proof: { ...seed("proof.json"), workcell_id: "wc-1" } });
    const failing = seed("proof.json");
    Object.assign(failing, { workcell_id: "wc-2", status: "failed" });
    failing.verification.gates.test.passed = false;
    failing.verification.all_passed = false;
    failing.verification.blocking_failures = ["test"];
    t.add("workcell.proof", "impl", { proof: failing });
    expect(sig(t, "impl").implementer.proofsFailing).toEqual({ n: 1, of: 2 });
    expect(t.state.signals.agents["orch"]).toBeUndefined();
  });
});

describe("reviewer signals", () => {
  it("verdict mix, time from the latest request (server time), reviews per day", () => {
    const t = working();
    t.now = T0;
    t.add("task.review_requested", "impl", { taskId: "a" });
    t.now = min(3);
    t.add("review", "rev", { taskId: "a", verdict: "changes_requested" });
    t.add("task.updated", "impl", { taskId: "a", status: "in_progress" });
    t.now = min(10);
    t.add("task.review_requested", "impl", { taskId: "a" }, { ts: "2020-01-01T00:00:00.000Z" });
    t.now = min(11);
    t.add("review", "rev", { taskId: "a", verdict: "approve" });
    const r = sig(t, "rev").reviewer;
    expect(r).toMatchObject({
      reviews: 2,
      verdicts: { approve: 1, reject: 0, changes_requested: 1 },
      overturned: 0,
      timeToReviewMs: { sum: 4 * 60_000, count: 2 },
    });
    expect(sig(t, "rev").days["2026-11-22"]!.reviews).toEqual({
      approve: 1,
      reject: 0,
      changes_requested: 1,
    });
  });

  it("an approval overturned by another reviewer's reject in the same round; not by its own, not across rounds", () => {
    const t = working();
    t.add("task.review_requested", "impl", { taskId: "a" });
    t.add("review", "rev", { taskId: "a", verdict: "approve" });
    t.add("review", "rev", { taskId: "a", verdict: "changes_requested" }); // its own change of mind
    expect(sig(t, "rev").reviewer.overturned).toBe(0);
    t.add("task.updated", "impl", { taskId: "a", status: "in_progress" });
    t.add("task.review_requested", "impl", { taskId: "a" });
    t.add("review", "rev", { taskId: "a", verdict: "approve" });
    t.add("review", "rev2", { taskId: "a", verdict: "reject" });
    expect(sig(t, "rev").reviewer.overturned).toBe(1);
    expect(sig(t, "rev2").reviewer.overturned).toBe(0);
    // A new round: the earlier round's approval is judged no more.
    t.add("task.updated", "impl", { taskId: "a", status: "in_progress" });
    t.add("task.review_requested", "impl", { taskId: "a" });
    t.add("review", "rev2", { taskId: "a", verdict: "approve" });
    decide(t, "approve");
    expect(sig(t, "rev").reviewer.overturned).toBe(1);
    expect(sig(t, "rev2").reviewer.overturned).toBe(0);
    expect(sig(t, "impl").implementer).toMatchObject({
      tasksApproved: 1,
      reversals: 0,
      roundsToApproval: { sum: 5, count: 1 },
    }); // reviewRounds counts every review of the task
    expect(t.state.signals.tracking.roundApprovals).toEqual({});
    expect(t.state.signals.tracking.reviewRequestedAt).toEqual({});
  });

  it("a cancelled task forgets its round", () => {
    const t = working();
    t.add("task.review_requested", "impl", { taskId: "a" });
    t.add("review", "rev", { taskId: "a", verdict: "approve" });
    t.add("task.updated", "impl", { taskId: "a", status: "cancelled" });
    expect(t.state.signals.tracking).toEqual({ reviewRequestedAt: {}, roundApprovals: {}, deliverers: {} });
    expect(sig(t, "rev").reviewer.overturned).toBe(0);
  });
});
