import { describe, expect, it } from "vitest";
import { POD_BOUNDS } from "../domain/pod-bounds";
import { emptyPodState, type Decision, type Member, type PodState } from "../domain/state/pod-state";
import { decisionsView, LATEST_DECISIONS } from "./present-decisions";

const decision = (seq: number, by: string, at = `2026-03-0${1 + (seq % 2)}T10:00:00.000Z`): Decision => ({
  seq,
  at,
  subject: { kind: "task", id: `t${seq}` },
  verdict: seq % 3 ? "approve" : "reject",
  by,
  tieBreaker: null,
  rationale: `because ${seq}`,
  evidenceIds: [],
});

function podWith(decisions: Decision[]): PodState {
  const s = emptyPodState();
  const chair: Member = {
    memberId: "chair-1",
    kind: "agent",
    displayName: "The chair",
    roles: ["chair"],
    access: null,
    joinedSeq: 1,
  };
  return { ...s, decisions, members: { "chair-1": chair } };
}

const window = (from: string, to: string) => ({ fromMs: Date.parse(from), toMs: Date.parse(to), from, to });

describe("the decisions of a pod's signals", () => {
  it("counts them by who took them, most first, and shows the newest first with the decider's name", () => {
    const v = decisionsView(
      podWith([decision(1, "chair-1"), decision(2, "ana@x"), decision(3, "chair-1")]),
      null,
    );
    expect(v.count).toBe(3);
    expect(v.complete).toBe(true);
    expect(v.deciders).toEqual([
      { by: "chair-1", displayName: "The chair", roles: ["chair"], count: 2 },
      { by: "ana@x", displayName: null, roles: [], count: 1 },
    ]);
    expect(v.latest.map((d) => [d.seq, d.by, d.displayName, d.verdict])).toEqual([
      [3, "chair-1", "The chair", "reject"],
      [2, "ana@x", null, "approve"],
      [1, "chair-1", "The chair", "approve"],
    ]);
  });

  it("shows at most the newest few in full", () => {
    const v = decisionsView(podWith(Array.from({ length: 9 }, (_, i) => decision(i + 1, "chair-1"))), null);
    expect(v.latest.map((d) => d.seq)).toEqual([9, 8, 7, 6, 5].slice(0, LATEST_DECISIONS));
    expect(v.count).toBe(9);
  });

  it("over a window, counts only those received in it", () => {
    const v = decisionsView(
      podWith([decision(1, "chair-1"), decision(2, "chair-1"), decision(3, "chair-1")]),
      window("2026-03-02T00:00:00.000Z", "2026-03-03T00:00:00.000Z"),
    );
    // Odd seqs were received on March 2nd, even ones on the 1st.
    expect(v.count).toBe(2);
    expect(v.latest.map((d) => d.seq)).toEqual([3, 1]);
    expect(v.deciders).toEqual([{ by: "chair-1", displayName: "The chair", roles: ["chair"], count: 2 }]);
  });

  it("says when the pod's kept decisions may miss some of the period", () => {
    const full = Array.from({ length: POD_BOUNDS.decisions }, (_, i) =>
      decision(i + 10, "chair-1", new Date(Date.UTC(2026, 2, 1) + i * 60_000).toISOString()),
    );
    expect(decisionsView(podWith(full), null).complete).toBe(false);
    const lateWindow = window("2026-03-01T01:00:00.000Z", "2026-03-02T00:00:00.000Z");
    expect(decisionsView(podWith(full), lateWindow).complete).toBe(true);
    expect(decisionsView(podWith(full), lateWindow).count).toBe(POD_BOUNDS.decisions - 60);
    const earlyWindow = window("2026-02-28T00:00:00.000Z", "2026-03-02T00:00:00.000Z");
    expect(decisionsView(podWith(full), earlyWindow).complete).toBe(false);
  });
});
