import { describe, expect, it } from "vitest";
import { Tape } from "../../server/testing/reducer-tape";
import { demoMemberRequests, episodeSteps, setupSteps, type DemoStep } from "./demo-script";

/** Applies the steps to the tape as the server would (each is parsed by the real schemas; any broken rule throws). */
function play(steps: DemoStep[], t = new Tape()) {
  for (const { via: _via, optional: _optional, type, actor, body, ...extra } of steps)
    t.add(type, actor, body, extra);
  return t;
}

describe("the demo simulator", () => {
  it("plays the whole protocol, episode after episode, without breaking a rule", () => {
    // What POST /members appends for each demo member.
    const members: DemoStep[] = demoMemberRequests().flatMap((m) => [
      {
        via: "events" as const,
        type: "member.joined",
        actor: "admin",
        body: { memberId: m.memberId, kind: m.kind, displayName: m.displayName },
      },
      ...m.roles.map((role) => ({
        via: "events" as const,
        type: "role.assigned",
        actor: "admin",
        body: { memberId: m.memberId, role },
      })),
    ]);
    const tape = play([...members, ...setupSteps()]);
    for (let k = 1; k <= 3; k++) play([...episodeSteps(k, k === 3 ? 9 : 0)], tape);
    const s = tape.state;
    const types = new Set<string>();
    for (const step of [...setupSteps(), ...episodeSteps(1)]) types.add(step.type);
    for (const t of [
      "pod.scope_agreed",
      "plan.review",
      "plan.imported",
      "review",
      "decision",
      "evidence.bundle",
      "workcell.opened",
      "workcell.proof",
      "run.committed",
      "run.discarded",
      "handoff",
      "budget.exceeded",
      "escalation",
      "job.delivered",
    ]) {
      expect(types, t).toContain(t);
    }
    // What a newcomer should find waiting for a human: decisions, escalations, jobs.
    const kinds = Object.values(s.inbox)
      .map((i) => i.kind)
      .sort();
    // Each new episode withdraws the last one's undecided task, so one decision waits at a time.
    expect(kinds).toEqual(["decision", "escalation", "escalation", "job_acceptance", "job_acceptance"]);
    expect(
      Object.values(s.runs)
        .map((r) => r.status)
        .sort(),
    ).toEqual(["committed", "committed", "committed", "discarded", "discarded", "discarded"]);
    expect(Object.values(s.tasks).filter((t) => t.status === "done")).toHaveLength(6);
    expect(Object.values(s.tasks).filter((t) => t.status === "cancelled")).toHaveLength(2);
    // The implementer's sessions: tool calls and cost against the pod's budget (the server, not the tape, reports it crossed).
    expect(s.meters.agents["implementer-1"]).toMatchObject({ toolCalls: 12, failedToolCalls: 3 });
    expect(s.usage["implementer-1"]!["claude-sonnet-4-5"]!.costUsd).toBeCloseTo(1.86);
    expect(s.budgetLimits["demo-cost"]).toMatchObject({ metric: "cost_usd", limit: 2.5, exceeded: null });
  });
});
