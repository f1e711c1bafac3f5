// Signals over a time window and as of a seq, against the fold itself; and their sums.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { acceptHistory, historyStep, TEAM_SETUP } from "../../testing/pod-history";
import { emptyPodState, type AppliedEvent } from "../state/pod-state";
import { Tape } from "../../testing/reducer-tape";
import { mergeAgentSignals, podTotals, signalRates } from "./combine";
import { emptyAgentSignals } from "./signal-kit";
import type { AgentSignals } from "./signal-types";
import { signalsAsOf, signalsBetween } from "./signals-window";

function history(seed: number, steps = 1500): AppliedEvent[] {
  const setup = acceptHistory(emptyPodState(), TEAM_SETUP as never, false);
  return [
    ...setup.events,
    ...acceptHistory(setup.state, fc.sample(historyStep(20), { numRuns: steps, seed }), true).events.map(
      (e, i) => ({ ...e, seq: setup.events.length + i + 1 }),
    ),
  ];
}
/** What adds up across windows: everything but the runs and the sessions (a session spanning two windows is seen in each). */
const additive = ({ runs: _runs, usage: { sessions: _sessions, ...usage }, ...rest }: AgentSignals) => ({
  ...rest,
  usage,
});

describe("signalsBetween", () => {
  const tape = history(5);
  const first = Date.parse(tape[0]!.receivedAt);
  const last = Date.parse(tape.at(-1)!.receivedAt);

  it("over the whole tape is the fold's result", () => {
    expect(signalsBetween(tape, first, last + 1)).toEqual(signalsAsOf(tape, tape.at(-1)!.seq));
  });

  it("two adjacent windows add up to the window around them", () => {
    const cut = first + Math.floor((last - first) / 3);
    const a = signalsBetween(tape, first, cut);
    const b = signalsBetween(tape, cut, last + 1);
    const whole = signalsBetween(tape, first, last + 1);
    expect(additive(mergeAgentSignals(podTotals(a), podTotals(b)))).toEqual(additive(podTotals(whole)));
    expect(podTotals(whole).reviewer.reviews).toBeGreaterThan(0);
  });

  it("times a review in the window from a request made before it", () => {
    const t = Tape.team();
    t.add("task.added", "impl", { taskId: "a", description: "a" });
    t.add("task.updated", "impl", { taskId: "a", status: "in_progress" });
    t.now = "2026-11-22T10:00:00.000Z";
    t.add("task.review_requested", "impl", { taskId: "a" });
    t.now = "2026-11-23T10:00:00.000Z";
    t.add("review", "rev", { taskId: "a", verdict: "approve" });
    const w = signalsBetween(
      t.events,
      Date.parse("2026-11-23T00:00:00.000Z"),
      Date.parse("2026-11-24T00:00:00.000Z"),
    );
    expect(w.agents["rev"]!.reviewer).toMatchObject({
      reviews: 1,
      timeToReviewMs: { sum: 24 * 3600_000, count: 1 },
    });
    expect(w.agents["impl"]).toBeUndefined(); // nothing of it in the window
  });

  it("throws when the rules refuse an event: a stored tape never holds one", () => {
    const bad = [
      ...tape.slice(0, 5),
      {
        ...tape[5]!,
        type: "review",
        body: { taskId: "nope", verdict: "approve", comments: "", evidenceIds: [] },
      } as AppliedEvent,
    ];
    expect(() => signalsBetween(bad, first, last)).toThrow(/nope/);
    expect(() => signalsAsOf(bad, 6)).toThrow(/nope/);
  });
});

describe("signalsAsOf", () => {
  it("is the state's signals after that seq", () => {
    const tape = history(9, 400);
    const mid = tape[Math.floor(tape.length / 2)]!.seq;
    expect(signalsAsOf(tape, mid)).toEqual(signalsAsOf(tape.slice(0, mid), Infinity));
  });
});

describe("merging and rates", () => {
  it("merging with an empty record changes nothing but the id; the pod total is every agent added up", () => {
    const sig = signalsAsOf(history(3), Infinity);
    const impl = sig.agents["impl"]!;
    expect(mergeAgentSignals(impl, emptyAgentSignals("x"))).toEqual(impl);
    expect(mergeAgentSignals(emptyAgentSignals("impl"), impl)).toEqual(impl);
    const total = podTotals(sig);
    expect(total.agentId).toBe("*");
    const sum = (f: (a: AgentSignals) => number) => Object.values(sig.agents).reduce((n, a) => n + f(a), 0);
    expect(total.reviewer.reviews).toBe(sum((a) => a.reviewer.reviews));
    expect(total.cadence.onTime).toBe(sum((a) => a.cadence.onTime));
    expect(total.usage.tools["Bash"]?.calls ?? 0).toBe(sum((a) => a.usage.tools["Bash"]?.calls ?? 0));
  });

  it("rates come from the parts; none without a denominator", () => {
    const a = emptyAgentSignals("a");
    expect(Object.entries(signalRates(a)).filter(([, v]) => v !== null)).toEqual([
      ["totalTokens", 0],
      ["costUsd", 0],
      ["toolCalls", 0],
    ]);
    a.implementer = {
      ...a.implementer,
      tasksApproved: 3,
      tasksRejected: 1,
      roundsToApproval: { sum: 6, count: 3 },
      reversals: 1,
      evidencePassed: { n: 1, of: 4 },
    };
    a.reviewer = {
      ...a.reviewer,
      reviews: 4,
      verdicts: { approve: 2, reject: 1, changes_requested: 1 },
      overturned: 1,
      timeToReviewMs: { sum: 1000, count: 4 },
    };
    a.cadence = { onTime: 3, late: 1, staleEpisodes: 1 };
    a.escalations = { raised: 3, answered: 1, expired: 1, timeToAnswerMs: { sum: 60, count: 1 } };
    a.contracting = { delivered: 2, accepted: 1, rejected: 1, released: 1, refunded: 1, disputes: 1 };
    a.usage = {
      byModel: {
        m: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 100, cacheWriteTokens: 0, costUsd: 0.5 },
      },
      tools: { Bash: { calls: 7, failed: 2 } },
      sessions: 1,
    };
    expect(signalRates(a)).toEqual({
      approvalRate: 0.75,
      meanRoundsToApproval: 2,
      evidencePassRate: 0.25,
      proofFailRate: null,
      reversalRate: 1 / 3,
      rigorRate: 0.5,
      overturnRate: 0.25,
      meanTimeToReviewMs: 250,
      cadenceAdherence: 0.75,
      escalationAnswerRate: 0.5,
      meanTimeToAnswerMs: 60,
      jobAcceptanceRate: 0.5,
      totalTokens: 15,
      costUsd: 0.5,
      toolCalls: 7,
    });
  });
});
