// Hand-made signals for the unit tests of the Signals tab's tables and charts (the routes answer
// the same shape), built on the domain's own empty records so they keep its shape as it grows.
import type { AgentSignals, DaySignals } from "@/server/domain/signals/signal-types";
import { emptyAgentSignals, emptyDay } from "@/server/domain/signals/signal-kit";
import type { AgentSignalsView, PodSignalsView, SignalRates } from "@/server/wire/signals";

/** A day of an agent's signals: the domain's empty day with the given counts. */
const sampleDay = (d: Partial<DaySignals> = {}): DaySignals => ({ ...emptyDay(), ...d });

const noRates: SignalRates = {
  approvalRate: null,
  meanRoundsToApproval: null,
  evidencePassRate: null,
  proofFailRate: null,
  reversalRate: null,
  rigorRate: null,
  overturnRate: null,
  meanTimeToReviewMs: null,
  cadenceAdherence: null,
  escalationAnswerRate: null,
  meanTimeToAnswerMs: null,
  jobAcceptanceRate: null,
  totalTokens: 0,
  costUsd: 0,
  toolCalls: 0,
};

export function sampleAgent(
  agentId: string,
  over: Partial<AgentSignals> = {},
  rates: Partial<SignalRates> = {},
  displayName: string | null = null,
): AgentSignalsView {
  const signals: AgentSignals = { ...emptyAgentSignals(agentId), ...over };
  return { ...signals, rates: { ...noRates, ...rates }, displayName, roles: [] };
}

/** A pod with an implementer (two approved of three decided, checkpoints on two days) and a reviewer, a cost budget of $5. */
export function samplePodSignals(): PodSignalsView {
  const impl = sampleAgent(
    "impl",
    {
      implementer: {
        tasksApproved: 2,
        tasksRejected: 1,
        changesRequested: 1,
        roundsToApproval: { sum: 3, count: 2 },
        evidencePassed: { n: 3, of: 4 },
        proofsFailing: { n: 0, of: 1 },
        reversals: 0,
      },
      cadence: { onTime: 3, late: 1, staleEpisodes: 1 },
      days: {
        "2026-03-01": sampleDay({ costUsd: 1.5, inputTokens: 10_000, checkpoints: { onTime: 2, late: 0 } }),
        "2026-03-03": sampleDay({ costUsd: 2.7, inputTokens: 20_000, checkpoints: { onTime: 1, late: 1 } }),
      },
    },
    {
      approvalRate: 2 / 3,
      meanRoundsToApproval: 1.5,
      evidencePassRate: 0.75,
      cadenceAdherence: 0.75,
      totalTokens: 30_000,
      costUsd: 4.2,
      toolCalls: 12,
    },
    "Implementer",
  );
  const rev = sampleAgent(
    "rev",
    {
      reviewer: {
        reviews: 4,
        verdicts: { approve: 2, reject: 1, changes_requested: 1 },
        overturned: 0,
        timeToReviewMs: { sum: 240_000, count: 4 },
      },
      days: {
        "2026-03-01": sampleDay({ reviews: { approve: 1, reject: 0, changes_requested: 1 } }),
        "2026-03-03": sampleDay({ reviews: { approve: 1, reject: 1, changes_requested: 0 } }),
      },
    },
    { rigorRate: 0.5, overturnRate: 0, meanTimeToReviewMs: 60_000 },
  );
  const pod = sampleAgent(
    "*",
    {
      days: {
        "2026-03-01": sampleDay({ costUsd: 1.5, reviews: { approve: 1, reject: 0, changes_requested: 1 } }),
        "2026-03-03": sampleDay({ costUsd: 2.7, reviews: { approve: 1, reject: 1, changes_requested: 0 } }),
      },
    },
    { costUsd: 4.2, totalTokens: 30_000 },
  );
  return {
    podId: "pod-1",
    seq: 40,
    window: null,
    agents: [impl, rev],
    pod,
    decisions: { count: 0, complete: true, deciders: [], latest: [] },
    cost: [
      { seq: 10, at: "2026-03-01T10:00:00.000Z", costUsd: 1.5 },
      { seq: 30, at: "2026-03-03T09:00:00.000Z", costUsd: 4.2 },
    ],
    budgets: [
      {
        budgetId: "b-cost",
        agentId: null,
        metric: "cost_usd",
        limit: 5,
        then: "notify",
        by: "alice@example.com",
        seq: 5,
        at: "2026-03-01T09:00:00.000Z",
        exceeded: null,
        used: 4.2,
        uncounted: [],
      },
      {
        budgetId: "b-tools",
        agentId: "impl",
        metric: "tool_calls",
        limit: 100,
        then: "hold_tools",
        by: "alice@example.com",
        seq: 6,
        at: "2026-03-01T09:00:00.000Z",
        exceeded: null,
        used: 12,
        uncounted: [],
      },
    ],
  };
}
