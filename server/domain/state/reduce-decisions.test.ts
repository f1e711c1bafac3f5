import { describe, expect, it } from "vitest";
import { Tape } from "../../testing/reducer-tape";
import { escalationAnswerRefusal } from "./reduce-decisions";

const inReview = (bundle?: { id: string; exit: number }) => {
  const t = Tape.team();
  t.add("task.added", "impl", { taskId: "a", description: "a" });
  t.add("task.updated", "impl", { taskId: "a", status: "in_progress" });
  if (bundle) t.bundle(bundle.id, bundle.exit);
  t.add("task.review_requested", "impl", { taskId: "a", evidenceIds: bundle ? [bundle.id] : [] });
  t.add("review", "rev", { taskId: "a", verdict: "approve" });
  return t;
};
const decide = (verdict: string, kind = "task", id = "a") => ({
  subject: { kind, id },
  verdict,
  rationale: "because",
});

describe("decisions (unique decision authority)", () => {
  it("only the chair or a human decides", () => {
    const t = inReview();
    t.refuses("decision_authority", "decision", "rev", decide("approve"));
    t.refuses("decision_authority", "decision", "stranger", decide("approve"));
    t.refuses("decision_authority", "decision", "vic", decide("approve")); // a human viewer watches, not decides
    expect(t.add("decision", "chair-1", decide("approve"), { role: "chair" }).tasks["a"]!.status).toBe(
      "done",
    );
  });

  it("takes the verdicts that fit the subject, on work in review, with known evidence", () => {
    const t = inReview();
    t.refuses("verdict_not_applicable", "decision", "ana", decide("accept"));
    t.refuses("unknown_evidence", "decision", "ana", { ...decide("approve"), evidenceIds: ["nope"] });
    t.refuses("unknown_task", "decision", "ana", decide("approve", "task", "zz"));
    const s = t.add("decision", "ana", { ...decide("reject"), tieBreaker: "safety" });
    expect(s.tasks["a"]!.status).toBe("rejected");
    expect(s.decisions.at(-1)).toMatchObject({ verdict: "reject", by: "ana", tieBreaker: "safety" });
    expect(s.inbox).toEqual({});
    t.refuses("not_in_review", "decision", "ana", decide("approve"));
  });

  it("refuses approval while linked evidence or a linked proof fails", () => {
    const failing = inReview({ id: "e1", exit: 1 });
    failing.refuses("failing_gate", "decision", "ana", decide("approve"));
    expect(failing.add("decision", "ana", decide("reject")).tasks["a"]!.status).toBe("rejected");
  });

  it("records milestone and run decisions; a run must exist", () => {
    const t = Tape.team();
    expect(t.add("decision", "ana", decide("accept", "milestone", "m1")).decisions).toHaveLength(1);
    t.refuses("unknown_run", "decision", "ana", decide("approve", "run", "r9"));
  });

  it("blocks and unblocks a plan by decision", () => {
    const t = Tape.team();
    expect(Object.keys(t.add("decision", "chair-1", decide("block", "plan", "plan")).inbox)).toEqual([
      "plan:plan",
    ]);
    expect(t.add("decision", "chair-1", decide("approve", "plan", "plan")).inbox).toEqual({});
  });
});

describe("plan gates (contract guardian, cost controller)", () => {
  it("are emitted in those roles only; a BLOCK waits in the inbox until every blocker approves", () => {
    const t = Tape.team();
    t.add("member.joined", "admin", { memberId: "cg", kind: "agent", displayName: "cg" });
    t.add("member.joined", "admin", { memberId: "cc", kind: "agent", displayName: "cc" });
    t.add("role.assigned", "admin", { memberId: "cg", role: "contract_guardian" });
    t.add("role.assigned", "admin", { memberId: "cc", role: "cost_controller" });
    t.refuses("role_required", "plan.review", "impl", { verdict: "BLOCK" });
    t.add(
      "plan.review",
      "cg",
      { verdict: "BLOCK", rationale: "breaks the API contract" },
      { role: "contract_guardian" },
    );
    t.add("plan.review", "cc", { verdict: "BLOCK", rationale: "over budget" }, { role: "cost_controller" });
    expect(Object.keys(t.state.inbox)).toEqual(["plan:plan"]);
    expect(
      Object.keys(t.add("plan.review", "cg", { verdict: "APPROVE" }, { role: "contract_guardian" }).inbox),
    ).toEqual(["plan:plan"]);
    expect(t.add("plan.review", "cc", { verdict: "APPROVE" }, { role: "cost_controller" }).inbox).toEqual({});
  });
});

describe("escalations (to a human)", () => {
  it("opens an inbox item with its options; a human answers it, once", () => {
    const t = Tape.team();
    t.refuses("unknown_task", "escalation", "impl", { kind: "intent", question: "?", taskId: "zz" });
    let s = t.add("escalation", "impl", {
      escalationId: "e1",
      kind: "risk_tolerance",
      question: "Ship on Friday?",
      options: ["yes", "no"],
    });
    expect(s.inbox["escalation:e1"]).toMatchObject({
      kind: "escalation",
      title: "Ship on Friday?",
      options: ["yes", "no"],
    });
    t.refuses("escalation_exists", "escalation", "impl", {
      escalationId: "e1",
      kind: "intent",
      question: "again?",
    });
    t.refuses("humans_only", "escalation.answered", "chair-1", { escalationId: "e1", answer: "yes" });
    t.refuses("humans_only", "escalation.answered", "vic", { escalationId: "e1", answer: "yes" });
    // What the reads ask before offering Answer: the same rule, its reason for whoever it refuses.
    const refusal = "escalations are answered by a human approver of this pod";
    expect(
      ["chair-1", "vic", "site-admin@example.com", "ana"].map((m) => escalationAnswerRefusal(s, m)),
    ).toEqual([refusal, refusal, refusal, null]);
    t.refuses("unknown_escalation", "escalation.answered", "ana", { escalationId: "e9", answer: "yes" });
    s = t.add("escalation.answered", "ana", { escalationId: "e1", answer: "no, Monday" });
    expect(s.escalations["e1"]!.answer).toMatchObject({ answer: "no, Monday", by: "ana" });
    expect(s.inbox).toEqual({});
    t.refuses("already_answered", "escalation.answered", "ana", { escalationId: "e1", answer: "yes" });
  });

  it("numbers an escalation by its seq when it has no id", () => {
    const s = Tape.team().add("escalation", "impl", { kind: "external_input", question: "API key?" });
    expect(Object.keys(s.escalations)).toEqual([`esc_${s.seq}`]);
  });
});
