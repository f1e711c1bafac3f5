// What is due in a pod, and the ids the scheduler appends it with: a
// decision item keeps its id across review rounds, so its deadline's event id names the round.
import { describe, expect, it } from "vitest";
import { Tape } from "../testing/reducer-tape";
import { timedWork } from "./timed-work";

const T0 = "2026-11-22T10:00:00.000Z";
const AT = "2026-11-22T10:30:00.000Z";
const LATER = Date.parse("2026-11-22T10:31:00.000Z");

describe("timedWork", () => {
  it("gives a decision item re-opened with the same deadline a new event id, not the stored one of the round before", () => {
    const t = Tape.team();
    t.add("task.added", "impl", { taskId: "a", description: "a" });
    t.add("task.updated", "impl", { taskId: "a", status: "in_progress" });
    t.now = T0;
    t.add("task.review_requested", "impl", { taskId: "a", deadline: { at: AT, then: "remind" } });
    t.add("review", "rev", { taskId: "a", verdict: "approve" });
    t.now = "2026-11-22T10:31:00.000Z";
    const first = timedWork("p", t.state, LATER, 60_000).due;
    expect(first).toHaveLength(1);
    t.add("deadline.passed", "podwatch", first[0]!.event.body, { id: first[0]!.event.id });
    expect(timedWork("p", t.state, LATER, 60_000).due).toEqual([]); // reminded once
    // A second approving review re-opens the decision item, with the task's same deadline.
    t.add("review", "rev", { taskId: "a", verdict: "approve" });
    const second = timedWork("p", t.state, LATER, 60_000).due;
    expect(second).toHaveLength(1);
    expect(second[0]!.event.id).not.toBe(first[0]!.event.id);
    expect(
      t.add("deadline.passed", "podwatch", second[0]!.event.body, { id: second[0]!.event.id }).inbox[
        "decision:task:a"
      ]!.due!.passed,
    ).toBe(true);
  });

  it("gives the same item the same id however often it is computed (exactly once across retries and nodes)", () => {
    const t = Tape.team();
    t.now = T0;
    t.add("escalation", "impl", {
      escalationId: "e1",
      kind: "intent",
      question: "?",
      deadline: { at: AT, then: "remind" },
    });
    const a = timedWork("p", t.state, LATER, 60_000).due[0]!;
    const b = timedWork("p", t.state, LATER + 5_000, 60_000).due[0]!;
    expect(a.event.id).toBe(b.event.id);
    expect(timedWork("q", t.state, LATER, 60_000).due[0]!.event.id).not.toBe(a.event.id);
  });
});
