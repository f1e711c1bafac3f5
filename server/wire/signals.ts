// What the signals routes answer: an agent's raw signals with their rates, per pod,
// across pods, as of a seq or over a time window; and the budgets with what they use now.
// The zod schemas are the OpenAPI document's (never parsed on the request path); the counts are
// the domain's types (server/domain/signals/signal-types.ts), which the schemas are checked against.
import { z } from "zod";
import type { ChainedEvent } from "../domain/hash-chain";
import type { AgentSignals, CostPoint, SignalRates } from "../domain/signals/signal-types";
import { ZBudgetView } from "./budgets";
import { ZStoredEventHead } from "./events";
import { agree, type SameType } from "./same-type";

export type { SignalRates };
export type { BudgetView } from "./budgets";

const count = z.number().int().nonnegative();
const ZShare = z.object({ n: count, of: count });
const ZMean = z.object({ sum: z.number(), count });
const ZVerdicts = z.object({ approve: count, reject: count, changes_requested: count });
const ZUsageTotals = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  cacheReadTokens: z.number(),
  cacheWriteTokens: z.number(),
  costUsd: z.number(),
});

/** One agent's raw counts (AgentSignals): runs keyed by session id, days by "YYYY-MM-DD" (UTC). */
export const ZAgentSignals = z.object({
  agentId: z.string(),
  implementer: z.object({
    tasksApproved: count,
    tasksRejected: count,
    changesRequested: count,
    roundsToApproval: ZMean,
    evidencePassed: ZShare,
    proofsFailing: ZShare,
    reversals: count,
  }),
  reviewer: z.object({ reviews: count, verdicts: ZVerdicts, overturned: count, timeToReviewMs: ZMean }),
  cadence: z.object({ onTime: count, late: count, staleEpisodes: count }),
  escalations: z.object({ raised: count, answered: count, expired: count, timeToAnswerMs: ZMean }),
  handoffs: z.object({ given: count, received: count }),
  contracting: z.object({
    delivered: count,
    accepted: count,
    rejected: count,
    released: count,
    refunded: count,
    disputes: count,
  }),
  usage: z.object({
    byModel: z.record(z.string(), ZUsageTotals),
    tools: z.record(z.string(), z.object({ calls: count, failed: count })),
    sessions: count,
  }),
  runs: z.record(
    z.string(),
    ZUsageTotals.extend({ sessionId: z.string(), firstAt: z.string(), lastAt: z.string(), toolCalls: count }),
  ),
  days: z.record(
    z.string(),
    ZUsageTotals.extend({
      toolCalls: count,
      checkpoints: z.object({ onTime: count, late: count }),
      reviews: ZVerdicts,
      tasks: z.object({ approved: count, rejected: count }),
    }),
  ),
});
agree<SameType<z.output<typeof ZAgentSignals>, AgentSignals>>();

const rate = z.number().nullable();
/** Rates derived from the counts (null when there is nothing to divide by). */
export const ZSignalRates = z.object({
  approvalRate: rate,
  meanRoundsToApproval: rate,
  evidencePassRate: rate,
  proofFailRate: rate,
  reversalRate: rate,
  rigorRate: rate,
  overturnRate: rate,
  meanTimeToReviewMs: rate,
  cadenceAdherence: rate,
  escalationAnswerRate: rate,
  meanTimeToAnswerMs: rate,
  jobAcceptanceRate: rate,
  totalTokens: z.number(),
  costUsd: z.number(),
  toolCalls: count,
});
agree<SameType<z.output<typeof ZSignalRates>, SignalRates>>();

export const ZAgentSignalsView = ZAgentSignals.extend({
  rates: ZSignalRates,
  displayName: z.string().nullable(),
  roles: z.array(z.string()),
});
export type AgentSignalsView = z.output<typeof ZAgentSignalsView>;

const ZWindow = z.object({ from: z.string(), to: z.string() }).nullable();
const ZCostPoint = z.object({ seq: z.number().int(), at: z.string(), costUsd: z.number() });
agree<SameType<z.output<typeof ZCostPoint>, CostPoint>>();

/** The decisions in the view's period: by whom, and the latest (newest first). `complete`: false when the pod's kept decisions (its newest 200) may miss some of the period. */
export const ZDecisionsView = z.object({
  count,
  complete: z.boolean(),
  deciders: z.array(
    z.object({ by: z.string(), displayName: z.string().nullable(), roles: z.array(z.string()), count }),
  ),
  latest: z.array(
    z.object({
      seq: z.number().int(),
      at: z.string(),
      subject: z.object({ kind: z.string(), id: z.string() }),
      verdict: z.string(),
      by: z.string(),
      displayName: z.string().nullable(),
      tieBreaker: z.string().nullable(),
      rationale: z.string(),
    }),
  ),
});
export type DecisionsView = z.output<typeof ZDecisionsView>;

/**
 * GET /api/v1/pods/{podId}/signals[?asOf=seq][&from=&to=]: each agent's signals (with `asOf`, as
 * they stood after that seq; with from/to, counting only what happened in that window), the
 * pod's totals (every agent added up, agentId "*"), the decisions taken, its cumulative cost and its budgets.
 */
export const ZPodSignalsView = z.object({
  podId: z.string(),
  /** The seq the figures stand at. */
  seq: z.number().int(),
  window: ZWindow,
  agents: z.array(ZAgentSignalsView),
  pod: ZAgentSignalsView,
  decisions: ZDecisionsView,
  cost: z.array(ZCostPoint),
  budgets: z.array(ZBudgetView),
});
export type PodSignalsView = z.output<typeof ZPodSignalsView>;

/** GET /api/v1/signals?pod=&agent=&from=&to= (JSON; `format=csv` for CSV): one row per pod and agent, and each agent across the pods asked for. */
export const ZSignalsExport = z.object({
  from: z.string().nullable(),
  to: z.string().nullable(),
  rows: z.array(ZAgentSignalsView.extend({ podId: z.string(), podName: z.string() })),
  /** Each agent id added up across the rows' pods (an agent is known by its member id). */
  agents: z.array(ZAgentSignalsView),
});
export type SignalsExport = z.output<typeof ZSignalsExport>;

/** One stored event exactly as the hash chain covers it (body and meta as their stored JSON text), with its hash. */
export const ZRecordEvent = ZStoredEventHead.extend({ body: z.string(), meta: z.string().nullable() });
export type RecordEvent = z.output<typeof ZRecordEvent>;
agree<SameType<RecordEvent, ChainedEvent & { hash: string }>>();

/** What GET /api/v1/signals/record signs: an agent's signals and every event they are derived from, against the pod's chain head. */
export const ZAgentRecordPayload = z.object({
  podId: z.string(),
  agentId: z.string(),
  generatedAt: z.string(),
  head: z.object({ seq: z.number().int(), hash: z.string() }),
  window: ZWindow,
  signals: ZAgentSignals.extend({ rates: ZSignalRates }),
  events: z.array(ZRecordEvent),
});
export type AgentRecordPayload = z.output<typeof ZAgentRecordPayload>;

/** GET /api/v1/signals/record: `signature` is Ed25519 (base64) over the UTF-8 of canonicalJson(payload); scripts/verify-record.mjs checks it. */
export const ZSignedAgentRecord = z.object({
  payload: ZAgentRecordPayload,
  signature: z.string(),
  keyId: z.string(),
  algorithm: z.literal("Ed25519"),
});
export type SignedAgentRecord = z.output<typeof ZSignedAgentRecord>;

/** GET /api/v1/signals/key: the installation's public key for signed records. */
export type SigningKeyView = { keyId: string; algorithm: "Ed25519"; publicKeyPem: string };
