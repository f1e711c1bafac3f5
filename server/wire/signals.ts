// What the signals routes answer: an agent's raw signals with their rates, per pod,
// across pods, as of a seq or over a time window; and the budgets with what they use now.
import type { Budget } from "../domain/state/pod-state";
import type { ChainedEvent } from "../domain/hash-chain";
import type { AgentSignals, CostPoint, SignalRates } from "../domain/signals/signal-types";

export type { SignalRates };

export type AgentSignalsView = AgentSignals & {
  rates: SignalRates;
  displayName: string | null;
  roles: string[];
};

/** A budget with what it uses now (BudgetView.used is the meters' figure at the time of the answer). */
export type BudgetView = Budget & { used: number };

/**
 * GET /api/v1/pods/{podId}/signals[?asOf=seq][&from=&to=]: each agent's signals (with `asOf`, as
 * they stood after that seq; with from/to, counting only what happened in that window), the
 * pod's totals (every agent added up, agentId "*"), its cumulative cost and its budgets.
 */
export type PodSignalsView = {
  podId: string;
  /** The seq the figures stand at. */
  seq: number;
  window: { from: string; to: string } | null;
  agents: AgentSignalsView[];
  pod: AgentSignalsView;
  cost: CostPoint[];
  budgets: BudgetView[];
};

/** GET /api/v1/signals?pod=&agent=&from=&to= (JSON; `format=csv` for CSV): one row per pod and agent, and each agent across the pods asked for. */
export type SignalsExport = {
  from: string | null;
  to: string | null;
  rows: (AgentSignalsView & { podId: string; podName: string })[];
  /** Each agent id added up across the rows' pods (an agent is known by its member id). */
  agents: AgentSignalsView[];
};

/** One stored event exactly as the hash chain covers it (body and meta as their stored JSON text), with its hash. */
export type RecordEvent = ChainedEvent & { hash: string };

/** What GET /api/v1/signals/record signs: an agent's signals and every event they are derived from, against the pod's chain head. */
export type AgentRecordPayload = {
  podId: string;
  agentId: string;
  generatedAt: string;
  head: { seq: number; hash: string };
  window: { from: string; to: string } | null;
  signals: AgentSignals & { rates: SignalRates };
  events: RecordEvent[];
};

/** GET /api/v1/signals/record: `signature` is Ed25519 (base64) over the UTF-8 of canonicalJson(payload); scripts/verify-record.mjs checks it. */
export type SignedAgentRecord = {
  payload: AgentRecordPayload;
  signature: string;
  keyId: string;
  algorithm: "Ed25519";
};

/** GET /api/v1/signals/key: the installation's public key for signed records. */
export type SigningKeyView = { keyId: string; algorithm: "Ed25519"; publicKeyPem: string };
