// What the control room's views read: a pod's state as GET /state answers it, and the inbox
// across pods as GET /inbox answers it. Made of the domain's projection types.
import type {
  Escalation,
  Evidence,
  InboxItem,
  Job,
  Member,
  PodState,
  Run,
  Task,
  Workcell,
} from "../domain/state/pod-state";
import type { CadenceAdherence } from "../domain/state/cadence";
import type { AgentKind, BudgetAction, BudgetMetric } from "./vocabulary";

/** GET /api/v1/pods/{podId}/state (also `?atSeq=`): the pod's projections, the board in plan order, the inbox oldest first. */
export type PodStateView = Pick<
  PodState,
  | "seq"
  | "status"
  | "scope"
  | "activeAgent"
  | "roleHistory"
  | "handoffs"
  | "decisions"
  | "budgets"
  | "lastCheckpoint"
> & {
  members: Member[];
  /** Each task with the gates that hold its approval (failing evidence or proofs). */
  board: (Task & { failingGates: string[] })[];
  inbox: InboxCard[];
  escalations: Escalation[];
  evidence: Evidence[];
  runs: Run[];
  jobs: Job[];
  workcells: Workcell[];
  planBlocks: PodState["planBlocks"][string][];
  /** The cadence watchdog: checkpoints on cadence and agents stale now. */
  cadence: CadenceAdherence;
  /** Gated tools: the pod's and each agent's tool policy, and whether prompt text goes on the tape. */
  toolPolicies: Pick<PodState, "policies" | "recordPrompts">;
  /** Agent sessions, the most recently active first, and tokens and cost per agent and model. */
  sessions: PodState["sessions"][string][];
  usage: (PodState["usage"][string][string] & { agentId: string; model: string; unpriced: number })[];
};

/** An evidence bundle behind an inbox item: did its commands pass. */
export type InboxEvidence = {
  bundleId: string;
  passed: boolean;
  commandCount: number;
  failedCommands: number;
  seq: number;
};
/** A workcell's proof behind a task: each declared gate passed or failed (a gate is failing only once a proof says so). */
export type InboxProof = {
  workcellId: string;
  title: string;
  /** null while no proof was submitted. */
  status: string | null;
  gates: { name: string; passed: boolean | null }[];
  forbiddenPathViolations: string[];
  overDiffBudget: boolean;
};
/** What backs a decision: what the inbox card shows beside its title. */
export type InboxContext =
  | {
      kind: "task";
      taskId: string;
      description: string;
      status: Task["status"];
      review: Task["review"];
      evidence: InboxEvidence[];
      proofs: InboxProof[];
    }
  | {
      kind: "job";
      jobId: string;
      scope: string;
      settlement: Job["settlement"];
      constraints: string[];
      acceptanceTests: string[];
      escrow: Job["escrow"];
      evidence: InboxEvidence[];
    }
  | {
      kind: "escalation";
      escalationKind: Escalation["kind"];
      question: string;
      askedBy: string;
      options: string[];
      task: { taskId: string; description: string } | null;
      evidence: InboxEvidence[];
    }
  | { kind: "plan"; planId: string; blocks: { by: string; role: string; rationale: string }[] }
  // A held tool call: who asks, in which session and folder, and the policy rule that asked.
  | {
      kind: "tool";
      requestId: string;
      agentId: string;
      /** The agent program holding the call: `tool` is in its names. */
      agentKind: AgentKind;
      tool: string;
      sessionId: string | null;
      cwd: string | null;
      ruleId: string | null;
    }
  // A crossed budget: the budget as set, what it used when crossed and now, and whether the pod is paused (its "Resume pod").
  | {
      kind: "budget";
      budgetId: string;
      agentId: string | null;
      metric: BudgetMetric;
      limit: number;
      then: BudgetAction;
      usedAtCrossing: number | null;
      usedNow: number;
      podStatus: PodState["status"];
    };
/** One thing waiting for a human, with what backs it (null when its subject is gone from the state). */
export type InboxCard = InboxItem & { context: InboxContext | null };

/** One thing waiting for a human, in any pod the caller may see, with whether they may act on it. */
/** `muted`: the person chose that this pod sends them nothing, or only decisions and this is not one (hidden from the default view). */
export type InboxEntry = InboxCard & {
  podId: string;
  podName: string;
  canAct: boolean;
  /** Why the pod's rules refuse this caller's answer though they may act (an escalation, for a site admin who is no member). */
  answerRefused?: string;
  blockedBy: string[];
  muted?: boolean;
};
/** GET /api/v1/inbox: oldest first. */
export type InboxResponse = { items: InboxEntry[] };

/** A view's list that a change notice updates item by item: each item's key is one of its fields. */
export type DeltaList =
  "board" | "inbox" | "escalations" | "evidence" | "runs" | "jobs" | "workcells" | "sessions" | "members";
/** A view's list that only grows: a change notice sends what came after the first `from` items. */
export type DeltaTail = "roleHistory" | "handoffs" | "decisions";
/**
 * What changed in a pod's GET /state view from `fromSeq` to `seq`, with new values: applied to the
 * view at any seq from `fromSeq` to `seq` it gives the view at `seq` (components/pod/apply-state-delta.ts).
 */
export type PodStateDelta = {
  fromSeq: number;
  seq: number;
  /** Fields replaced whole. */
  set: Partial<Omit<PodStateView, DeltaList | DeltaTail | "seq">>;
  /** Items put in place by key (a new key at the end), and keys dropped. */
  lists: { [K in DeltaList]?: { put: PodStateView[K]; drop: string[] } };
  tails: { [K in DeltaTail]?: { from: number; items: PodStateView[K] } };
  /** The board's task order, when tasks were added, split or removed. */
  order?: string[];
  /** Something not everyone watching may see changed (an inbox card for admins only): read GET /state again. */
  reread?: true;
};
