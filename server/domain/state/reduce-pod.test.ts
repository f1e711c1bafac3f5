import { describe, expect, it } from "vitest";
import { Tape } from "./test-kit";

describe("pod lifecycle (seed 000 §3.2 scope agreement)", () => {
  it("starts only after scope is agreed, pauses, resumes, closes", () => {
    const t = new Tape();
    t.refuses("scope_not_agreed", "pod.started", "orch");
    t.add("pod.scope_agreed", "orch", { scope: "Build login", successCriteria: ["JWT on success"] });
    expect(t.add("pod.started", "orch").status).toBe("active");
    t.refuses("invalid_pod_transition", "pod.started", "orch");
    t.refuses("invalid_pod_transition", "pod.resumed", "orch");
    expect(t.add("pod.paused", "orch", { reason: "waiting" }).status).toBe("paused");
    t.refuses("invalid_pod_transition", "pod.paused", "orch");
    expect(t.add("pod.resumed", "orch").status).toBe("active");
    expect(t.add("pod.closed", "orch").status).toBe("closed");
  });

  it("a paused pod refuses work but not talk; a closed pod refuses everything", () => {
    const t = Tape.team();
    t.add("pod.scope_agreed", "orch", { scope: "s", successCriteria: ["c"] });
    t.add("pod.started", "orch");
    t.add("pod.paused", "orch");
    t.refuses("pod_paused", "task.added", "impl", { description: "x" });
    t.refuses("pod_paused", "handoff", "impl", { to: "rev", reason: "r" });
    t.add("note", "impl", { kind: "STATUS", text: "waiting" });
    t.add("checkpoint", "impl", { completed: [], next: [], blocked: ["paused"] });
    t.add("pod.closed", "orch");
    t.refuses("pod_closed", "note", "impl", { kind: "STATUS", text: "hello?" });
  });
});

describe("members and roles (seed 000 §3.1, seed 001)", () => {
  it("a member joins once", () => {
    const t = Tape.team();
    t.refuses("member_exists", "member.joined", "orch", { memberId: "impl", kind: "agent", displayName: "again" });
  });

  it("assigns roles to members only, once, and keeps one chair", () => {
    const t = Tape.team();
    t.refuses("unknown_member", "role.assigned", "orch", { memberId: "ghost", role: "reviewer" });
    t.refuses("role_already_held", "role.assigned", "orch", { memberId: "impl", role: "implementer" });
    t.refuses("chair_taken", "role.assigned", "orch", { memberId: "ana", role: "chair" });
    expect(t.add("role.assigned", "orch", { memberId: "impl", role: "verifier" }).members["impl"]!.roles).toEqual(["implementer", "verifier"]);
  });

  it("rotates a role explicitly and records it over time", () => {
    const t = Tape.team();
    t.refuses("role_not_held", "role.rotated", "orch", { role: "reviewer", from: "impl", to: "rev" });
    t.refuses("unknown_member", "role.rotated", "orch", { role: "reviewer", from: "rev", to: "ghost" });
    t.refuses("role_already_held", "role.rotated", "orch", { role: "implementer", from: "impl", to: "impl" });
    const s = t.add("role.rotated", "orch", { role: "reviewer", from: "rev", to: "impl" });
    expect(s.members["rev"]!.roles).toEqual([]);
    expect(s.members["impl"]!.roles).toContain("reviewer");
    expect(s.roleHistory.slice(-2).map((h) => [h.memberId, h.action])).toEqual([["rev", "rotated_out"], ["impl", "rotated_in"]]);
  });

  it("a member speaks only in a role it holds; non-members are not checked", () => {
    const t = Tape.team();
    t.refuses("role_not_held", "note", "impl", { kind: "STATUS", text: "x" }, { role: "chair" });
    t.add("note", "impl", { kind: "STATUS", text: "x" }, { role: "implementer" });
    t.add("note", "visitor", { kind: "STATUS", text: "x" }, { role: "chair" });
  });
});

describe("pod access for people", () => {
  it("humans join as viewers unless said otherwise; access changes are recorded; agents have none", () => {
    const t = Tape.team();
    expect(t.state.members["vic"]!.access).toBe("viewer");
    expect(t.state.members["impl"]!.access).toBeNull();
    t.refuses("access_for_humans", "member.joined", "orch", { memberId: "bot", kind: "agent", displayName: "b", access: "admin" });
    t.refuses("access_for_humans", "access.granted", "orch", { memberId: "impl", access: "approver" });
    t.refuses("unknown_member", "access.granted", "orch", { memberId: "zed", access: "approver" });
    expect(t.add("access.granted", "ana", { memberId: "vic", access: "approver" }).members["vic"]!.access).toBe("approver");
  });
});

describe("handoff (seed 003 §2.2)", () => {
  it("switches the active agent to a member, and only to a member", () => {
    const t = Tape.team();
    t.refuses("unknown_member", "handoff", "impl", { to: "deployer", reason: "ship" });
    const s = t.add("handoff", "impl", { to: "rev", reason: "ready for review" });
    expect(s.activeAgent).toBe("rev");
    expect(s.handoffs).toEqual([expect.objectContaining({ from: "impl", to: "rev", reason: "ready for review" })]);
  });
});

describe("checkpoints, notes and budgets", () => {
  it("tracks the last checkpoint and refuses one about an unknown task", () => {
    const t = Tape.team();
    t.refuses("unknown_task", "checkpoint", "impl", { completed: [], next: [], blocked: [], taskId: "nope" });
    const s = t.add("checkpoint", "impl", { completed: ["a"], next: [], blocked: [] });
    expect(s.lastCheckpoint).toMatchObject({ seq: s.seq, actor: "impl" });
  });

  it("attaches a run's notes to the run (by envelope runId or RUN_ID)", () => {
    const t = Tape.team();
    t.add("run.started", "impl", { runId: "r1", workItemId: "w1", mood: "CURIOUS" });
    t.add("note", "impl", { kind: "OBSERVATION", text: "a" }, { runId: "r1" });
    const s = t.add("note", "impl", { kind: "OBSERVATION", text: "b", RUN_ID: "r1" });
    expect(s.runs["r1"]!.noteSeqs).toHaveLength(2);
  });

  it("records budget_exceeded", () => {
    const s = Tape.team().add("budget.exceeded", "orch", { budget: "max_outbox_prompts", limit: 20, used: 21 });
    expect(s.budgets).toEqual([expect.objectContaining({ budget: "max_outbox_prompts", limit: 20, used: 21, by: "orch" })]);
  });
});
