import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { inboxCards } from "./inbox-context";
import { HASH, Tape } from "../testing/reducer-tape";

const seed = (name: string) =>
  JSON.parse(readFileSync(join(import.meta.dirname, "..", "testing", "seed-examples", name), "utf8"));
const bundle = (bundleId: string, exit_code = 0) => ({
  bundleId,
  commands: [{ command: "npm test", exit_code }],
  artifacts: [],
  env: { commit: "c1" },
  manifestHash: HASH,
});

describe("the inbox card's context: what backs a decision", () => {
  it("a task to approve: the review verdict and comments, its evidence and each proof gate", () => {
    const t = Tape.team();
    t.add("task.added", "impl", { taskId: "42", description: "login endpoint" });
    t.add("workcell.opened", "orch", { manifest: seed("manifest.json") });
    const proof = seed("proof.json");
    proof.status = "failed";
    proof.verification.gates.test.passed = false;
    proof.verification.all_passed = false;
    proof.verification.blocking_failures = ["test"];
    t.add("workcell.proof", "impl", { proof });
    t.add("evidence.bundle", "impl", bundle("ev-ok"), { taskId: "42" });
    t.add("task.updated", "impl", { taskId: "42", status: "in_progress" });
    t.add("task.review_requested", "impl", { taskId: "42", evidenceIds: ["ev-ok"] });
    t.add("review", "rev", { taskId: "42", verdict: "approve", comments: "Looks right" });
    const [card] = inboxCards(t.state);
    expect(card!.context).toMatchObject({
      kind: "task",
      taskId: "42",
      description: "login endpoint",
      review: { verdict: "approve", by: "rev", comments: "Looks right" },
    });
    if (card!.context?.kind !== "task") throw new Error("not a task card");
    expect(card!.context.evidence).toEqual([
      expect.objectContaining({ bundleId: "ev-ok", passed: true, commandCount: 1, failedCommands: 0 }),
    ]);
    const [p] = card!.context.proofs;
    expect(p).toMatchObject({ workcellId: "wc-42-20250115T143022Z", status: "failed" });
    expect(p!.gates.find((g) => g.name === "test")).toEqual({ name: "test", passed: false });
    expect(p!.gates.filter((g) => g.passed).length).toBeGreaterThan(0);
  });

  it("a delivered job: amount, currency, terms, acceptance tests and its evidence", () => {
    const t = Tape.team();
    t.add("evidence.bundle", "impl", bundle("ev-j", 1));
    t.add("job.posted", "ana", {
      jobId: "j1",
      scope: "Rate limiting",
      acceptanceTests: ["5 req/min → 429"],
      settlement: { amount: 500, currency: "USD", terms: "on acceptance" },
    });
    t.add("job.funded", "ana", { jobId: "j1" });
    t.add("job.delivered", "impl", { jobId: "j1", evidenceIds: ["ev-j"] });
    expect(inboxCards(t.state)[0]!.context).toMatchObject({
      kind: "job",
      jobId: "j1",
      settlement: { amount: 500, currency: "USD", terms: "on acceptance" },
      acceptanceTests: ["5 req/min → 429"],
      escrow: "funded",
      evidence: [{ bundleId: "ev-j", passed: false, failedCommands: 1 }],
    });
  });

  it("an escalation: its kind, task, options and evidence", () => {
    const t = Tape.team();
    t.add("task.added", "impl", { taskId: "t1", description: "deploy" });
    t.bundle("ev-e");
    t.add("escalation", "impl", {
      escalationId: "q1",
      kind: "risk_tolerance",
      question: "Friday?",
      options: ["Yes", "No"],
      taskId: "t1",
      evidenceIds: ["ev-e"],
    });
    expect(inboxCards(t.state)[0]!.context).toEqual({
      kind: "escalation",
      escalationKind: "risk_tolerance",
      question: "Friday?",
      askedBy: "impl",
      options: ["Yes", "No"],
      task: { taskId: "t1", description: "deploy" },
      evidence: [expect.objectContaining({ bundleId: "ev-e", passed: true })],
    });
  });

  it("items come oldest first", () => {
    const t = Tape.team();
    t.add("escalation", "impl", { escalationId: "a", kind: "intent", question: "first?" });
    t.add("escalation", "impl", { escalationId: "b", kind: "intent", question: "second?" });
    expect(inboxCards(t.state).map((c) => c.subject.id)).toEqual(["a", "b"]);
  });
});
