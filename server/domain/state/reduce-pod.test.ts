import { describe, expect, it } from "vitest";
import { ZEventInput } from "../events/event-schemas";
import { Tape } from "../../testing/reducer-tape";

describe("pod lifecycle (scope agreement)", () => {
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

describe("members and roles", () => {
  it("a member joins once", () => {
    const t = Tape.team();
    t.refuses("member_exists", "member.joined", "admin", {
      memberId: "impl",
      kind: "agent",
      displayName: "again",
    });
  });

  it("assigns roles to members only, once, and keeps one chair", () => {
    const t = Tape.team();
    t.refuses("unknown_member", "role.assigned", "admin", { memberId: "ghost", role: "reviewer" });
    t.refuses("role_already_held", "role.assigned", "admin", { memberId: "impl", role: "implementer" });
    t.refuses("chair_taken", "role.assigned", "admin", { memberId: "ana", role: "chair" });
    expect(
      t.add("role.assigned", "admin", { memberId: "impl", role: "verifier" }).members["impl"]!.roles,
    ).toEqual(["implementer", "verifier"]);
  });

  it("rotates a role explicitly and records it over time", () => {
    const t = Tape.team();
    t.refuses("role_not_held", "role.rotated", "admin", { role: "reviewer", from: "impl", to: "rev" });
    t.refuses("unknown_member", "role.rotated", "admin", { role: "reviewer", from: "rev", to: "ghost" });
    t.refuses("role_already_held", "role.rotated", "admin", {
      role: "implementer",
      from: "impl",
      to: "impl",
    });
    const s = t.add("role.rotated", "admin", { role: "reviewer", from: "rev", to: "impl" });
    expect(s.members["rev"]!.roles).toEqual([]);
    expect(s.members["impl"]!.roles).toContain("reviewer");
    expect(s.roleHistory.slice(-2).map((h) => [h.memberId, h.action])).toEqual([
      ["rev", "rotated_out"],
      ["impl", "rotated_in"],
    ]);
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
    t.refuses("access_for_humans", "member.joined", "admin", {
      memberId: "bot",
      kind: "agent",
      displayName: "b",
      access: "admin",
    });
    t.refuses("access_for_humans", "access.granted", "admin", { memberId: "impl", access: "approver" });
    t.refuses("unknown_member", "access.granted", "admin", { memberId: "zed", access: "approver" });
    t.refuses("admin_only", "access.granted", "ana", { memberId: "vic", access: "admin" }); // an approver is no admin
    expect(
      t.add("access.granted", "admin", { memberId: "vic", access: "admin" }).members["vic"]!.access,
    ).toBe("admin");
    expect(t.add("access.granted", "vic", { memberId: "ana", access: "viewer" }).members["ana"]!.access).toBe(
      "viewer",
    );
  });

  it("access.revoked removes a person (and their roles); they may join again later", () => {
    const t = Tape.team();
    t.refuses("access_for_humans", "access.revoked", "admin", { memberId: "impl" });
    t.refuses("unknown_member", "access.revoked", "admin", { memberId: "zed" });
    t.refuses("admin_only", "access.revoked", "ana", { memberId: "vic" }); // an approver is no admin
    t.add("role.assigned", "admin", { memberId: "vic", role: "verifier" });
    const s = t.add("access.revoked", "admin", { memberId: "vic" });
    expect(Object.hasOwn(s.members, "vic")).toBe(false);
    t.refuses("unknown_member", "access.revoked", "admin", { memberId: "vic" });
    t.refuses("unknown_member", "access.granted", "admin", { memberId: "vic", access: "approver" });
    const back = t.add("member.joined", "admin", {
      memberId: "vic",
      kind: "human",
      displayName: "Vic again",
      access: "approver",
    });
    expect(back.members["vic"]).toMatchObject({ access: "approver", roles: [], displayName: "Vic again" });
  });

  it("keeps the pod's last admin: neither removed nor demoted until another person is admin", () => {
    const t = Tape.team();
    t.add("access.granted", "admin", { memberId: "ana", access: "admin" });
    t.refuses("last_admin", "access.revoked", "ana", { memberId: "ana" });
    t.refuses("last_admin", "access.granted", "admin", { memberId: "ana", access: "viewer" });
    t.add("access.granted", "ana", { memberId: "vic", access: "admin" });
    expect(
      t.add("access.granted", "vic", { memberId: "ana", access: "approver" }).members["ana"]!.access,
    ).toBe("approver");
    t.refuses("last_admin", "access.revoked", "vic", { memberId: "vic" });
    expect(Object.hasOwn(t.add("access.revoked", "vic", { memberId: "ana" }).members, "ana")).toBe(false);
  });

  it("agents cannot manage membership, take roles or steer the pod", () => {
    const t = Tape.team();
    t.refuses("admin_only", "member.joined", "impl", {
      memberId: "eve@x",
      kind: "human",
      displayName: "Eve",
      access: "admin",
    });
    t.refuses("admin_only", "access.granted", "impl", { memberId: "vic", access: "admin" });
    t.refuses("steward_only", "role.rotated", "impl", { role: "chair", from: "chair-1", to: "impl" });
    t.refuses("steward_only", "role.assigned", "impl", { memberId: "impl", role: "reviewer" });
    t.refuses("steward_only", "pod.closed", "impl");
    t.refuses("steward_only", "pod.scope_agreed", "rev", { scope: "mine", successCriteria: ["x"] });
    // A member may hand its own role on; the chair and the orchestrator steer.
    expect(
      t.add("role.rotated", "rev", { role: "reviewer", from: "rev", to: "orch" }).members["orch"]!.roles,
    ).toContain("reviewer");
    expect(
      t.add("role.assigned", "chair-1", { memberId: "rev", role: "verifier" }).members["rev"]!.roles,
    ).toEqual(["verifier"]);
  });

  it("refuses built-in object names as ids", () => {
    const t = Tape.team();
    expect(() => t.add("handoff", "impl", { to: "constructor", reason: "x" })).toThrow(/reserved/);
    expect(() => t.add("note", "toString", { kind: "STATUS", text: "x" })).toThrow(/reserved/);
  });
});

describe("handoff", () => {
  it("switches the active agent to a member, and only to a member", () => {
    const t = Tape.team();
    t.refuses("unknown_member", "handoff", "impl", { to: "deployer", reason: "ship" });
    const s = t.add("handoff", "impl", { to: "rev", reason: "ready for review" });
    expect(s.activeAgent).toBe("rev");
    expect(s.handoffs).toEqual([
      expect.objectContaining({ from: "impl", to: "rev", reason: "ready for review" }),
    ]);
  });
});

describe("checkpoints, notes and budgets", () => {
  it("tracks the last checkpoint and refuses one about an unknown task", () => {
    const t = Tape.team();
    t.refuses("unknown_task", "checkpoint", "impl", {
      completed: ["a"],
      next: [],
      blocked: [],
      taskId: "nope",
    });
    const s = t.add("checkpoint", "impl", { completed: ["a"], next: [], blocked: [] });
    expect(s.lastCheckpoint).toMatchObject({ seq: s.seq, actor: "impl" });
  });

  it("a checkpoint says something: at least one line, and no blank lines (the same rule for the API, the CLI and MCP)", () => {
    const issues = (body: object) =>
      ZEventInput.safeParse({ type: "checkpoint", actor: "impl", body }).error?.issues.map(
        (i) => `${i.path.join(".")}: ${i.message}`,
      );
    expect(issues({ completed: [], next: [], blocked: [] })).toEqual([
      expect.stringMatching(/^body: a checkpoint needs at least one line/),
    ]);
    expect(issues({ completed: [], next: [], blocked: [], taskId: "t1" })).toEqual([
      expect.stringMatching(/^body: a checkpoint needs at least one line/),
    ]);
    expect(issues({ completed: ["done", " \t "], next: [], blocked: [] })).toEqual([
      "body.completed.1: a line must not be blank",
    ]);
    expect(issues({ completed: [], next: [], blocked: ["waiting for the API key"] })).toBeUndefined();
  });

  it("attaches a run's notes to the run (by envelope runId or RUN_ID)", () => {
    const t = Tape.team();
    t.add("run.started", "impl", { runId: "r1", workItemId: "w1", mood: "CURIOUS" });
    t.add("note", "impl", { kind: "OBSERVATION", text: "a" }, { runId: "r1" });
    const s = t.add("note", "impl", { kind: "OBSERVATION", text: "b", RUN_ID: "r1" });
    expect(s.runs["r1"]!.noteSeqs).toHaveLength(2);
  });

  it("records budget_exceeded", () => {
    const s = Tape.team().add("budget.exceeded", "orch", {
      budget: "max_outbox_prompts",
      limit: 20,
      used: 21,
    });
    expect(s.budgets).toEqual([
      expect.objectContaining({ budget: "max_outbox_prompts", limit: 20, used: 21, by: "orch" }),
    ]);
  });
});
