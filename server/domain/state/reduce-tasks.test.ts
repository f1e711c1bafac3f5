import { describe, expect, it } from "vitest";
import { TASK_STATES, type TaskState } from "../events/seed-formats";
import { AGENT_TRANSITIONS } from "./task-machine";
import { Tape } from "../../testing/reducer-tape";

describe("plan import", () => {
  it("maps plan.json's completed to done and keeps metadata", () => {
    const t = Tape.team();
    const s = t.add("plan.imported", "chair-1", {
      plan: {
        tasks: [
          { task_id: "a", description: "A", status: "completed", metadata: { completed_at: "x" } },
          { task_id: "b", description: "B", status: "pending", metadata: {}, depends_on: ["a"] },
        ],
      },
    });
    expect(s.taskOrder).toEqual(["a", "b"]);
    expect(s.tasks["a"]).toMatchObject({ status: "done", metadata: { completed_at: "x" } });
    expect(s.tasks["b"]!.dependsOn).toEqual(["a"]);
  });

  it("done work in an import is a decision: only deciders (or admin automation) import it; started work is the importer's", () => {
    const t = Tape.team();
    const plan = (status: string, id: string) => ({
      plan: { tasks: [{ task_id: id, description: id, status }] },
    });
    t.refuses("decision_authority", "plan.imported", "impl", plan("completed", "d1"));
    t.add("plan.imported", "chair-1", plan("completed", "d1"));
    t.add("plan.imported", "admin", plan("done", "d2"));
    const s = t.add("plan.imported", "impl", plan("in_review", "r1"));
    expect(s.tasks["r1"]).toMatchObject({ implementer: "impl", implementers: ["impl"] });
    t.refuses("reviewer_is_implementer", "review", "impl", { taskId: "r1", verdict: "approve" });
  });

  it("refuses existing or repeated ids, unknown dependencies and cycles", () => {
    const t = Tape.team();
    t.add("task.added", "impl", { taskId: "a", description: "A" });
    const plan = (tasks: object[]) => ({ plan: { tasks } });
    t.refuses("task_exists", "plan.imported", "chair-1", plan([{ task_id: "a", description: "again" }]));
    t.refuses(
      "duplicate_task_id",
      "plan.imported",
      "chair-1",
      plan([
        { task_id: "x", description: "1" },
        { task_id: "x", description: "2" },
      ]),
    );
    t.refuses(
      "unknown_dependency",
      "plan.imported",
      "chair-1",
      plan([{ task_id: "y", description: "y", depends_on: ["zz"] }]),
    );
    t.refuses(
      "dependency_cycle",
      "plan.imported",
      "chair-1",
      plan([
        { task_id: "p", description: "p", depends_on: ["q"] },
        { task_id: "q", description: "q", depends_on: ["p"] },
      ]),
    );
  });
});

describe("plan_add_task / plan_update_task", () => {
  it("numbers added tasks task_001, task_002… and checks their dependencies", () => {
    const t = Tape.team();
    expect(t.add("task.added", "impl", { description: "first" }).taskOrder).toEqual(["task_001"]);
    t.refuses("unknown_dependency", "task.added", "impl", { description: "x", dependsOn: ["nope"] });
    expect(
      t.add("task.added", "impl", { description: "second", dependsOn: ["task_001"] }).tasks["task_002"]!
        .status,
    ).toBe("pending");
  });

  it("allows exactly the agent transitions of the task machine", () => {
    const reach: Record<TaskState, (t: Tape) => void> = {
      pending: () => {},
      in_progress: (t) => t.add("task.updated", "impl", { taskId: "x", status: "in_progress" }),
      blocked: (t) =>
        t.add("task.updated", "impl", { taskId: "x", status: "blocked", blockedReason: "waiting" }),
      cancelled: (t) => t.add("task.updated", "impl", { taskId: "x", status: "cancelled" }),
      in_review: (t) => (reach.in_progress(t), t.add("task.review_requested", "impl", { taskId: "x" })),
      changes_requested: (t) => (
        reach.in_review(t),
        t.add("review", "rev", { taskId: "x", verdict: "changes_requested" })
      ),
      done: (t) => (
        reach.in_review(t),
        t.add("decision", "ana", { subject: { kind: "task", id: "x" }, verdict: "approve", rationale: "ok" })
      ),
      rejected: (t) => (
        reach.in_review(t),
        t.add("decision", "ana", { subject: { kind: "task", id: "x" }, verdict: "reject", rationale: "no" })
      ),
    };
    for (const from of TASK_STATES) {
      for (const to of TASK_STATES) {
        if (from === to) continue;
        const t = Tape.team();
        t.add("task.added", "impl", { taskId: "x", description: "x" });
        reach[from](t);
        expect(t.state.tasks["x"]!.status).toBe(from);
        const body = { taskId: "x", status: to, ...(to === "blocked" ? { blockedReason: "why" } : {}) };
        if (AGENT_TRANSITIONS[from].includes(to))
          expect(t.add("task.updated", "impl", body).tasks["x"]!.status).toBe(to);
        else t.refuses("invalid_transition", "task.updated", "impl", body);
      }
    }
  });

  it("starts a task only when its dependencies are done, recording the implementer", () => {
    const t = Tape.team();
    t.add("task.added", "impl", { taskId: "a", description: "a" });
    t.add("task.added", "impl", { taskId: "b", description: "b", dependsOn: ["a"] });
    t.refuses("dependency_not_done", "task.updated", "impl", { taskId: "b", status: "in_progress" });
    expect(
      t.add("task.updated", "orch", { taskId: "a", status: "in_progress", assignee: "impl" }).tasks["a"]!
        .implementer,
    ).toBe("impl");
  });

  it("needs a reason to block, and refuses unknown tasks", () => {
    const t = Tape.team();
    t.add("task.added", "impl", { taskId: "a", description: "a" });
    t.refuses("blocked_reason_required", "task.updated", "impl", { taskId: "a", status: "blocked" });
    expect(
      t.add("task.updated", "impl", { taskId: "a", status: "blocked", blockedReason: "no keys" }).tasks["a"]!
        .blockedReason,
    ).toBe("no keys");
    t.refuses("unknown_task", "task.updated", "impl", { taskId: "zz", status: "in_progress" });
  });
});

describe("the review loop", () => {
  const inProgress = () => {
    const t = Tape.team();
    t.add("task.added", "impl", { taskId: "a", description: "a" });
    t.add("task.updated", "impl", { taskId: "a", status: "in_progress" });
    return t;
  };

  it("requests review from in_progress with known evidence only", () => {
    const t = inProgress();
    t.refuses("unknown_evidence", "task.review_requested", "impl", { taskId: "a", evidenceIds: ["nope"] });
    t.bundle("e1");
    const s = t.add("task.review_requested", "impl", { taskId: "a", evidenceIds: ["e1"] });
    expect(s.tasks["a"]).toMatchObject({ status: "in_review", evidenceIds: ["e1"] });
    expect(s.evidence["e1"]!.links.tasks).toEqual(["a"]);
    t.refuses("invalid_transition", "task.review_requested", "impl", { taskId: "a" });
  });

  it("a reviewer is never the implementer; reviews only work in review", () => {
    const t = inProgress();
    t.refuses("not_in_review", "review", "rev", { taskId: "a", verdict: "approve" });
    t.add("task.review_requested", "impl", { taskId: "a" });
    t.refuses("reviewer_is_implementer", "review", "impl", { taskId: "a", verdict: "approve" });
  });

  it("changes requested sends the task back; approval puts it in the inbox for a decision", () => {
    const t = inProgress();
    t.add("task.review_requested", "impl", { taskId: "a" });
    let s = t.add("review", "rev", { taskId: "a", verdict: "changes_requested", comments: "edge case" });
    expect(s.tasks["a"]).toMatchObject({ status: "changes_requested", reviewer: "rev", reviewRounds: 1 });
    t.add("task.review_requested", "impl", { taskId: "a" });
    s = t.add("review", "rev", { taskId: "a", verdict: "approve" });
    expect(s.tasks["a"]).toMatchObject({
      status: "in_review",
      reviewRounds: 2,
      review: expect.objectContaining({ verdict: "approve" }),
    });
    expect(Object.keys(s.inbox)).toEqual(["decision:task:a"]);
    s = t.add("task.updated", "impl", { taskId: "a", status: "cancelled" });
    expect(s.inbox).toEqual({});
  });

  it("reassigning the work does not make its implementer a reviewer, and is frozen in review", () => {
    const t = inProgress();
    t.add("task.updated", "impl", { taskId: "a", assignee: "orch" });
    t.add("task.review_requested", "impl", { taskId: "a" });
    t.refuses("assignee_frozen", "task.updated", "impl", { taskId: "a", assignee: "rev" });
    t.refuses("reviewer_is_implementer", "review", "impl", { taskId: "a", verdict: "approve" });
    t.refuses("reviewer_is_implementer", "review", "orch", { taskId: "a", verdict: "approve" });
    expect(t.add("review", "rev", { taskId: "a", verdict: "approve" }).tasks["a"]!.review!.by).toBe("rev");
  });

  it("a reviewer's reject also sends the work back: only a decision rejects it", () => {
    const t = inProgress();
    t.add("task.review_requested", "impl", { taskId: "a" });
    expect(t.add("review", "rev", { taskId: "a", verdict: "reject" }).tasks["a"]!.status).toBe(
      "changes_requested",
    );
  });
});
