// The raw material of reputation (what the protocol outputs, not a score):
// counts kept per agent, derived from the tape event by event (step-signals.ts) and stored in
// the pod's state, so a replay to any seq rebuilds them exactly. No score is computed here: a
// rate is a Share or a Mean, kept as its parts, so pods and periods add up exactly.

/** `n` of `of` (a rate is n / of; none when `of` is 0). */
export type Share = { n: number; of: number };
/** A mean kept as its sum and count. */
export type Mean = { sum: number; count: number };

/** As an implementer: how the work it implemented fared. */
export type ImplementerSignals = {
  /** Its tasks decided approved (done) / rejected, by a person, the chair or a deadline's default. */
  tasksApproved: number;
  tasksRejected: number;
  /** Reviews of its tasks that asked for changes. */
  changesRequested: number;
  /** Review rounds each of its tasks took until approval. */
  roundsToApproval: Mean;
  /** Its evidence bundles that passed, of all it submitted. */
  evidencePassed: Share;
  /** Its workcell proofs with at least one failing gate, of all its proofs. */
  proofsFailing: Share;
  /** A reviewer's approval of its task undone: the decision then rejected the task. */
  reversals: number;
};

/** As a reviewer: how it reviewed. */
export type ReviewerSignals = {
  reviews: number;
  verdicts: { approve: number; reject: number; changes_requested: number };
  /** Its reviews that a later review by another reviewer or the decision on the same round contradicted. */
  overturned: number;
  /** From the review request to its review (server receipt times). */
  timeToReviewMs: Mean;
};

/** Checkpoint cadence (the watchdog's counts): adherence is onTime / (onTime + late). */
export type CadenceSignals = { onTime: number; late: number; staleEpisodes: number };

/** Escalations it raised, and how they ended: answered by a person, or by the deadline's default (expired). */
export type EscalationSignals = { raised: number; answered: number; expired: number; timeToAnswerMs: Mean };

export type HandoffSignals = { given: number; received: number };

/** As a contractor (it delivered the job): outcomes and escrow. A dispute: a delivery the principal rejected. */
export type ContractSignals = {
  delivered: number;
  accepted: number;
  rejected: number;
  released: number;
  refunded: number;
  disputes: number;
};

export type UsageTotals = {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  costUsd: number;
};
export type ToolCount = { calls: number; failed: number };
/** One run (an agent session): its usage. The latest MAX_RUNS per agent are kept. */
export type RunSignals = UsageTotals & {
  sessionId: string;
  firstAt: string;
  lastAt: string;
  toolCalls: number;
};
/** One UTC day of an agent's work, for trends. */
export type DaySignals = UsageTotals & {
  toolCalls: number;
  checkpoints: { onTime: number; late: number };
  reviews: { approve: number; reject: number; changes_requested: number };
  tasks: { approved: number; rejected: number };
};

export type AgentSignals = {
  agentId: string;
  implementer: ImplementerSignals;
  reviewer: ReviewerSignals;
  cadence: CadenceSignals;
  escalations: EscalationSignals;
  handoffs: HandoffSignals;
  contracting: ContractSignals;
  usage: { byModel: Record<string, UsageTotals>; tools: Record<string, ToolCount>; sessions: number };
  runs: Record<string, RunSignals>;
  /** Keyed "YYYY-MM-DD" (UTC). */
  days: Record<string, DaySignals>;
};

/** A point of the pod's cumulative cost: the burn-down against a cost budget. */
export type CostPoint = { seq: number; at: string; costUsd: number };

/**
 * What the fold must remember between events that the pod's state does not keep; not a signal
 * itself. Entries leave when their subject is decided, so it stays as small as the open work.
 */
export type SignalsTracking = {
  /** Each task's latest task.review_requested (server receipt time): the start of a review's time. */
  reviewRequestedAt: Record<string, string>;
  /** Approving reviews in each task's current round, per reviewer (a round's other verdicts end it). */
  roundApprovals: Record<string, Record<string, number>>;
  /** Who delivered each job (the job.delivered actor), until it is settled. */
  deliverers: Record<string, string>;
};

export type PodSignals = {
  agents: Record<string, AgentSignals>;
  /** Cumulative cost after each usage report, thinned to at most MAX_COST_POINTS (deterministically, so a replay keeps the same points). */
  cost: CostPoint[];
  tracking: SignalsTracking;
};

export const emptySignalsTracking = (): SignalsTracking => ({
  reviewRequestedAt: {},
  roundApprovals: {},
  deliverers: {},
});
export const emptyPodSignals = (): PodSignals => ({ agents: {}, cost: [], tracking: emptySignalsTracking() });

/** Rates derived from an agent's counts (signalRates in ./combine.ts; the wire hands them out with the signals); null when there is nothing to divide by. */
export type SignalRates = {
  /** Approved of decided tasks it implemented. */
  approvalRate: number | null;
  meanRoundsToApproval: number | null;
  evidencePassRate: number | null;
  proofFailRate: number | null;
  /** Reversals per approved task. */
  reversalRate: number | null;
  /** Its reviews that found something (reject or changes requested), of all its reviews. */
  rigorRate: number | null;
  /** Its reviews overturned, of all its reviews. */
  overturnRate: number | null;
  meanTimeToReviewMs: number | null;
  /** Checkpoints on cadence, of all its checkpoints while watched. */
  cadenceAdherence: number | null;
  /** Escalations answered by a person, of those that ended. */
  escalationAnswerRate: number | null;
  meanTimeToAnswerMs: number | null;
  /** Accepted of decided jobs it delivered. */
  jobAcceptanceRate: number | null;
  totalTokens: number;
  costUsd: number;
  toolCalls: number;
};
