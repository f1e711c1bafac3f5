// The small pieces every family of the signals fold shares: empty records, who counts, the UTC
// day of an event, and copy-on-write updates of one agent's signals.
import type { PodState } from "../state/pod-state";
import type { AgentSignals, DaySignals, PodSignals, UsageTotals } from "./signal-types";
import { withKey } from "../state/shared-record";

export const emptyUsageTotals = (): UsageTotals => ({
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  costUsd: 0,
});

export const emptyDay = (): DaySignals => ({
  ...emptyUsageTotals(),
  toolCalls: 0,
  checkpoints: { onTime: 0, late: 0 },
  reviews: { approve: 0, reject: 0, changes_requested: 0 },
  tasks: { approved: 0, rejected: 0 },
});

export function emptyAgentSignals(agentId: string): AgentSignals {
  return {
    agentId,
    implementer: {
      tasksApproved: 0,
      tasksRejected: 0,
      changesRequested: 0,
      roundsToApproval: { sum: 0, count: 0 },
      evidencePassed: { n: 0, of: 0 },
      proofsFailing: { n: 0, of: 0 },
      reversals: 0,
    },
    reviewer: {
      reviews: 0,
      verdicts: { approve: 0, reject: 0, changes_requested: 0 },
      overturned: 0,
      timeToReviewMs: { sum: 0, count: 0 },
    },
    cadence: { onTime: 0, late: 0, staleEpisodes: 0 },
    escalations: { raised: 0, answered: 0, expired: 0, timeToAnswerMs: { sum: 0, count: 0 } },
    handoffs: { given: 0, received: 0 },
    contracting: { delivered: 0, accepted: 0, rejected: 0, released: 0, refunded: 0, disputes: 0 },
    usage: { byModel: {}, tools: {}, sessions: 0 },
    runs: {},
    days: {},
  };
}

/** Signals are kept for the pod's agent members only: people are not rated, and a non-member (admin automation, the server) is no agent. */
export function isAgentMember(s: PodState, id: string | null | undefined): id is string {
  return !!id && Object.hasOwn(s.members, id) && s.members[id]!.kind === "agent";
}

export const own = <T>(record: Record<string, T>, key: string): T | undefined =>
  Object.hasOwn(record, key) ? record[key] : undefined;

/** The UTC day ("YYYY-MM-DD") of a server receipt time. */
export function dayOf(iso: string): string {
  // receivedAt is written by the server as toISOString(); anything else is normalised first.
  return iso.length === 24 && iso.endsWith("Z") ? iso.slice(0, 10) : new Date(iso).toISOString().slice(0, 10);
}

export const msBetween = (fromIso: string, toIso: string) =>
  Math.max(0, Date.parse(toIso) - Date.parse(fromIso));

/** One agent's signals changed by `change` (the agent's entry is created on first use). */
export function updateAgent(
  sig: PodSignals,
  agentId: string,
  change: (a: AgentSignals) => AgentSignals,
): PodSignals {
  const current = own(sig.agents, agentId) ?? emptyAgentSignals(agentId);
  return { ...sig, agents: withKey(sig.agents, agentId, change(current)) };
}

/** One UTC day of an agent changed by `change`. */
export function updateDay(a: AgentSignals, day: string, change: (d: DaySignals) => DaySignals): AgentSignals {
  return { ...a, days: withKey(a.days, day, change(own(a.days, day) ?? emptyDay())) };
}

export const addUsage = (a: UsageTotals, b: UsageTotals): UsageTotals => ({
  inputTokens: a.inputTokens + b.inputTokens,
  outputTokens: a.outputTokens + b.outputTokens,
  cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
  cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
  costUsd: a.costUsd + b.costUsd,
});
