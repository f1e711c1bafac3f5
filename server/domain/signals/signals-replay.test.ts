// Property: the signals the append path stores equal the signals
// recomputed from the tape, at any seq — after the JSON round trip the store puts them through.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { acceptHistory, historyStep, historySteps, TEAM_SETUP } from "../../testing/pod-history";
import { applyEvent } from "../state/apply-event";
import { emptyPodState, type AppliedEvent } from "../state/pod-state";
import { ZEventInput } from "../events/event-schemas";
import { signalsAsOf } from "./signals-window";
import { podTotals } from "./combine";

function team() {
  let s = emptyPodState();
  const events: AppliedEvent[] = [];
  for (const input of TEAM_SETUP) {
    const e = {
      ...ZEventInput.parse(input),
      seq: s.seq + 1,
      receivedAt: "2026-11-22T09:59:00.000Z",
    } as AppliedEvent;
    s = applyEvent(s, e);
    events.push(e);
  }
  return { s, events };
}

describe("signals from the stored projection equal signals recomputed from the tape", () => {
  it("at every seq of random pod histories", () => {
    fc.assert(
      fc.property(historySteps(150), (steps) => {
        const setup = team();
        const { events } = acceptHistory(setup.s, steps);
        const tape = [...setup.events, ...events];
        // The append path: one event at a time, the state stored as JSON and read back before the next.
        let stored = emptyPodState();
        for (const e of tape) {
          stored = JSON.parse(JSON.stringify(applyEvent(stored, e)));
          expect(stored.signals).toEqual(signalsAsOf(tape, e.seq));
        }
      }),
      { numRuns: 60 },
    );
  });

  it("the histories reach every family of signals", () => {
    const setup = team();
    const { state, events } = acceptHistory(setup.s, fc.sample(historyStep(30), { numRuns: 3000, seed: 11 }));
    const total = podTotals(state.signals);
    const types = new Set(events.map((e) => e.type));
    for (const t of [
      "review",
      "decision",
      "deadline.passed",
      "agent.stale",
      "job.settled",
      "usage.reported",
      "tool.call",
      "escalation.answered",
      "handoff",
    ])
      expect(types).toContain(t);
    expect(total.implementer.tasksApproved + total.implementer.tasksRejected).toBeGreaterThan(0);
    expect(total.reviewer.reviews).toBeGreaterThan(0);
    expect(total.cadence.onTime + total.cadence.late).toBeGreaterThan(0);
    expect(total.escalations.answered + total.escalations.expired).toBeGreaterThan(0);
    expect(total.contracting.delivered).toBeGreaterThan(0);
    expect(Object.keys(total.usage.byModel).length).toBeGreaterThan(0);
    expect(state.signals.cost.length).toBeGreaterThan(0);
  });
});
