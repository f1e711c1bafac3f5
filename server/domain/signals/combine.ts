// Signals added up (an agent across pods, a pod's agents together) and the rates read from them.
// Every signal is a count, a Share or a Mean kept as its parts, so adding is exact and a rate is
// computed only at the end, from the sums.
import { addUsage, emptyAgentSignals } from "./signal-kit";
import type {
  AgentSignals,
  DaySignals,
  Mean,
  PodSignals,
  RunSignals,
  Share,
  SignalRates,
} from "./signal-types";
import { MAX_RUNS } from "./step-usage-signals";

export { emptyAgentSignals };

const mean = (a: Mean, b: Mean): Mean => ({ sum: a.sum + b.sum, count: a.count + b.count });
const share = (a: Share, b: Share): Share => ({ n: a.n + b.n, of: a.of + b.of });
const ratio = (n: number, of: number) => (of > 0 ? n / of : null);

/**
 * Adds two records of the same shape key by key; `add` merges a key present in both. Keys are
 * names agents choose (a model, a tool): built in a Map and made an object with fromEntries, so
 * "__proto__" is a key like any other, never an assignment that replaces the prototype.
 */
function mergeRecords<T>(
  a: Record<string, T>,
  b: Record<string, T>,
  add: (x: T, y: T) => T,
): Record<string, T> {
  const out = new Map(Object.entries(a));
  for (const [k, v] of Object.entries(b)) {
    const mine = out.get(k);
    out.set(k, mine === undefined ? v : add(mine, v));
  }
  return Object.fromEntries(out);
}

const addDays = (x: DaySignals, y: DaySignals): DaySignals => ({
  ...addUsage(x, y),
  toolCalls: x.toolCalls + y.toolCalls,
  checkpoints: {
    onTime: x.checkpoints.onTime + y.checkpoints.onTime,
    late: x.checkpoints.late + y.checkpoints.late,
  },
  reviews: {
    approve: x.reviews.approve + y.reviews.approve,
    reject: x.reviews.reject + y.reviews.reject,
    changes_requested: x.reviews.changes_requested + y.reviews.changes_requested,
  },
  tasks: { approved: x.tasks.approved + y.tasks.approved, rejected: x.tasks.rejected + y.tasks.rejected },
});

const addRuns = (x: RunSignals, y: RunSignals): RunSignals => ({
  ...addUsage(x, y),
  sessionId: x.sessionId,
  firstAt: Date.parse(y.firstAt) < Date.parse(x.firstAt) ? y.firstAt : x.firstAt,
  lastAt: Date.parse(y.lastAt) > Date.parse(x.lastAt) ? y.lastAt : x.lastAt,
  toolCalls: x.toolCalls + y.toolCalls,
});

/** The latest MAX_RUNS runs (by lastAt, then session id), as the fold keeps them. */
function latestRuns(runs: Record<string, RunSignals>): Record<string, RunSignals> {
  const list = Object.values(runs);
  if (list.length <= MAX_RUNS) return runs;
  list.sort(
    (x, y) =>
      Date.parse(y.lastAt) - Date.parse(x.lastAt) ||
      (x.sessionId < y.sessionId ? 1 : x.sessionId > y.sessionId ? -1 : 0),
  );
  return Object.fromEntries(list.slice(0, MAX_RUNS).map((r) => [r.sessionId, r]));
}

/** `a` and `b` added up (exact sums; days, tools, models and runs merged key by key). The result keeps a's agentId. */
export function mergeAgentSignals(a: AgentSignals, b: AgentSignals): AgentSignals {
  const i = a.implementer,
    j = b.implementer,
    r = a.reviewer,
    q = b.reviewer;
  return {
    agentId: a.agentId,
    implementer: {
      tasksApproved: i.tasksApproved + j.tasksApproved,
      tasksRejected: i.tasksRejected + j.tasksRejected,
      changesRequested: i.changesRequested + j.changesRequested,
      roundsToApproval: mean(i.roundsToApproval, j.roundsToApproval),
      evidencePassed: share(i.evidencePassed, j.evidencePassed),
      proofsFailing: share(i.proofsFailing, j.proofsFailing),
      reversals: i.reversals + j.reversals,
    },
    reviewer: {
      reviews: r.reviews + q.reviews,
      verdicts: {
        approve: r.verdicts.approve + q.verdicts.approve,
        reject: r.verdicts.reject + q.verdicts.reject,
        changes_requested: r.verdicts.changes_requested + q.verdicts.changes_requested,
      },
      overturned: r.overturned + q.overturned,
      timeToReviewMs: mean(r.timeToReviewMs, q.timeToReviewMs),
    },
    cadence: {
      onTime: a.cadence.onTime + b.cadence.onTime,
      late: a.cadence.late + b.cadence.late,
      staleEpisodes: a.cadence.staleEpisodes + b.cadence.staleEpisodes,
    },
    escalations: {
      raised: a.escalations.raised + b.escalations.raised,
      answered: a.escalations.answered + b.escalations.answered,
      expired: a.escalations.expired + b.escalations.expired,
      timeToAnswerMs: mean(a.escalations.timeToAnswerMs, b.escalations.timeToAnswerMs),
    },
    handoffs: {
      given: a.handoffs.given + b.handoffs.given,
      received: a.handoffs.received + b.handoffs.received,
    },
    contracting: {
      delivered: a.contracting.delivered + b.contracting.delivered,
      accepted: a.contracting.accepted + b.contracting.accepted,
      rejected: a.contracting.rejected + b.contracting.rejected,
      released: a.contracting.released + b.contracting.released,
      refunded: a.contracting.refunded + b.contracting.refunded,
      disputes: a.contracting.disputes + b.contracting.disputes,
    },
    usage: {
      byModel: mergeRecords(a.usage.byModel, b.usage.byModel, addUsage),
      tools: mergeRecords(a.usage.tools, b.usage.tools, (x, y) => ({
        calls: x.calls + y.calls,
        failed: x.failed + y.failed,
      })),
      sessions: a.usage.sessions + b.usage.sessions,
    },
    runs: latestRuns(mergeRecords(a.runs, b.runs, addRuns)),
    days: mergeRecords(a.days, b.days, addDays),
  };
}

/** Every agent of the pod added up, as agent "*" (in agent id order, so the sums are always added alike). */
export function podTotals(sig: PodSignals): AgentSignals {
  const ids = Object.keys(sig.agents).sort();
  return ids.reduce((total, id) => mergeAgentSignals(total, sig.agents[id]!), emptyAgentSignals("*"));
}

/** The rates of SignalRates, each from its parts (null when there is nothing to divide by). */
export function signalRates(a: AgentSignals): SignalRates {
  const i = a.implementer,
    r = a.reviewer,
    x = a.escalations,
    c = a.contracting;
  const models = Object.values(a.usage.byModel);
  return {
    approvalRate: ratio(i.tasksApproved, i.tasksApproved + i.tasksRejected),
    meanRoundsToApproval: ratio(i.roundsToApproval.sum, i.roundsToApproval.count),
    evidencePassRate: ratio(i.evidencePassed.n, i.evidencePassed.of),
    proofFailRate: ratio(i.proofsFailing.n, i.proofsFailing.of),
    reversalRate: ratio(i.reversals, i.tasksApproved),
    rigorRate: ratio(r.verdicts.reject + r.verdicts.changes_requested, r.reviews),
    overturnRate: ratio(r.overturned, r.reviews),
    meanTimeToReviewMs: ratio(r.timeToReviewMs.sum, r.timeToReviewMs.count),
    cadenceAdherence: ratio(a.cadence.onTime, a.cadence.onTime + a.cadence.late),
    escalationAnswerRate: ratio(x.answered, x.answered + x.expired),
    meanTimeToAnswerMs: ratio(x.timeToAnswerMs.sum, x.timeToAnswerMs.count),
    jobAcceptanceRate: ratio(c.accepted, c.accepted + c.rejected),
    totalTokens: models.reduce((n, u) => n + u.inputTokens + u.outputTokens, 0),
    costUsd: models.reduce((n, u) => n + u.costUsd, 0),
    toolCalls: Object.values(a.usage.tools).reduce((n, t) => n + t.calls, 0),
  };
}
