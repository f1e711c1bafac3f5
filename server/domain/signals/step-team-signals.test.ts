// Cadence, escalations, handoffs and contracting signals on hand-made tapes.
import { describe, expect, it } from "vitest";
import { Tape } from "../../testing/reducer-tape";
import type { AgentSignals } from "./signal-types";

const T0 = "2026-11-22T10:00:00.000Z";
const min = (m: number) => new Date(Date.parse(T0) + m * 60_000).toISOString();
const sig = (t: Tape, id: string): AgentSignals => t.state.signals.agents[id]!;

describe("cadence signals", () => {
  it("follow the watchdog's counts: on time, late, staleness episodes, per day", () => {
    const t = Tape.team();
    t.add("pod.scope_agreed", "chair-1", { scope: "s", successCriteria: ["c"], cadenceMinutes: 10 });
    t.add("task.added", "impl", { taskId: "a", description: "a" });
    t.now = min(0);
    t.add("pod.started", "chair-1");
    t.add("task.updated", "impl", { taskId: "a", status: "in_progress" });
    t.now = min(9);
    t.add("checkpoint", "impl", { completed: ["x"], next: [], blocked: [] });
    t.now = min(25);
    t.add("agent.stale", "podwatch", { agentId: "impl", since: min(9), cadenceMinutes: 10 });
    t.now = min(26);
    t.add("checkpoint", "impl", { completed: ["y"], next: [], blocked: [] });
    t.add("checkpoint", "rev", { completed: ["not watched"], next: [], blocked: [] });
    expect(sig(t, "impl").cadence).toEqual({ onTime: 1, late: 1, staleEpisodes: 1 });
    expect(sig(t, "impl").cadence).toEqual({
      onTime: t.state.cadence["impl"]!.onTime,
      late: t.state.cadence["impl"]!.late,
      staleEpisodes: t.state.cadence["impl"]!.staleEpisodes,
    });
    expect(sig(t, "impl").days["2026-11-22"]!.checkpoints).toEqual({ onTime: 1, late: 1 });
    expect(t.state.signals.agents["rev"]).toBeUndefined();
  });
});

describe("escalation signals", () => {
  it("raised, answered by a person (timed from the raise), expired by the deadline; a reminder ends nothing", () => {
    const t = Tape.team();
    t.now = min(0);
    t.add("escalation", "impl", { escalationId: "x1", kind: "intent", question: "q1?" });
    t.add("escalation", "impl", {
      escalationId: "x2",
      kind: "intent",
      question: "q2?",
      options: ["Yes", "No"],
      deadline: { inMinutes: 5, then: "answer", answer: "Yes" },
    });
    t.add("escalation", "impl", {
      escalationId: "x3",
      kind: "intent",
      question: "q3?",
      deadline: { inMinutes: 5, then: "remind" },
    });
    t.add("escalation", "ana", { escalationId: "x4", kind: "intent", question: "a person's?" });
    t.now = min(2);
    t.add("escalation.answered", "ana", { escalationId: "x1", answer: "go" });
    t.now = min(6);
    t.add("deadline.passed", "podwatch", {
      itemId: "escalation:x2",
      subject: { kind: "escalation", id: "x2" },
      outcome: "answered",
      answer: "Yes",
    });
    t.add("deadline.passed", "podwatch", {
      itemId: "escalation:x3",
      subject: { kind: "escalation", id: "x3" },
      outcome: "reminded",
    });
    t.now = min(8);
    t.add("escalation.answered", "ana", { escalationId: "x3", answer: "fine" });
    expect(sig(t, "impl").escalations).toEqual({
      raised: 3,
      answered: 2,
      expired: 1,
      timeToAnswerMs: { sum: 2 * 60_000 + 8 * 60_000, count: 2 },
    });
    expect(t.state.signals.agents["ana"]).toBeUndefined();
  });
});

describe("handoff signals", () => {
  it("given by the actor, received by the destination (agents only)", () => {
    const t = Tape.team();
    t.add("handoff", "impl", { to: "rev", reason: "look" });
    t.add("handoff", "rev", { to: "ana", reason: "a person" });
    t.add("handoff", "admin", { to: "impl", reason: "automation" });
    expect(sig(t, "impl").handoffs).toEqual({ given: 1, received: 1 });
    expect(sig(t, "rev").handoffs).toEqual({ given: 1, received: 1 });
  });
});

describe("contracting signals", () => {
  const job = (jobId: string) => ({
    jobId,
    scope: "s",
    acceptanceTests: ["t"],
    settlement: { amount: 5, currency: "EUR", terms: "t" },
  });
  function delivered(jobIds: string[], deadline?: object) {
    const t = Tape.team();
    t.now = min(0);
    for (const id of jobIds) {
      t.add("job.posted", "ana", job(id));
      t.add("job.funded", "ana", { jobId: id });
      t.add("job.delivered", "impl", { jobId: id, ...(deadline ? { deadline } : {}) });
    }
    return t;
  }

  it("delivered, accepted and released, rejected (a dispute) and refunded, by decision", () => {
    const t = delivered(["j1", "j2"]);
    t.add("decision", "ana", { subject: { kind: "job", id: "j1" }, verdict: "accept", rationale: "ok" });
    t.add("job.settled", "ana", { jobId: "j1", outcome: "released" });
    t.add("decision", "ana", { subject: { kind: "job", id: "j2" }, verdict: "reject", rationale: "no" });
    expect(t.state.signals.tracking.deliverers).toEqual({ j2: "impl" });
    t.add("job.settled", "ana", { jobId: "j2", outcome: "refunded" });
    expect(sig(t, "impl").contracting).toEqual({
      delivered: 2,
      accepted: 1,
      rejected: 1,
      released: 1,
      refunded: 1,
      disputes: 1,
    });
    expect(t.state.signals.tracking.deliverers).toEqual({});
  });

  it("a delivery's deadline decides and settles in one event", () => {
    const t = delivered(["j1"], { inMinutes: 5, then: "reject" });
    t.now = min(6);
    t.add("deadline.passed", "podwatch", {
      itemId: "job:j1",
      subject: { kind: "job", id: "j1" },
      outcome: "rejected",
    });
    expect(sig(t, "impl").contracting).toEqual({
      delivered: 1,
      accepted: 0,
      rejected: 1,
      released: 0,
      refunded: 1,
      disputes: 1,
    });
    expect(t.state.signals.tracking.deliverers).toEqual({});
  });
});
