// The projections of one pod's tape, as one JSON-pure value. Reducers build
// it event by event; the store keeps the latest in the same transaction as
// the append, and replaying the tape rebuilds it exactly.
import type { Access, Role, TEvent } from "../events/event-schemas";
import type { TaskState } from "../events/seed-formats";
import type {
  AgentKind,
  BudgetAction,
  BudgetMetric,
  DeadlineThen,
  SteerAct,
  ToolAnswerScope,
} from "../vocabulary";
import type { ToolRule } from "../events/agent-events";
import { emptyPodSignals, type PodSignals } from "../signals/signal-types";

export type AppliedEvent = TEvent & { seq: number; receivedAt: string };
export type At = { seq: number; at: string };

/** `access` is a person's pod access (agents speak through their token and have none). */
export type Member = {
  memberId: string;
  kind: "agent" | "human";
  displayName: string;
  roles: Role[];
  access: Access | null;
  joinedSeq: number;
};
export type RoleChange = At & {
  memberId: string;
  role: Role;
  action: "assigned" | "rotated_in" | "rotated_out";
};
export type Handoff = At & { from: string; to: string; reason: string };

export type Task = {
  taskId: string;
  description: string;
  status: TaskState;
  dependsOn: string[];
  metadata: Record<string, unknown>;
  implementer: string | null;
  /** Everyone who implemented the task or asked for its review: none of them may review it. */
  implementers: string[];
  reviewer: string | null;
  blockedReason: string | null;
  evidenceIds: string[];
  workcellIds: string[];
  review: (At & { verdict: "approve" | "reject" | "changes_requested"; by: string; comments: string }) | null;
  reviewRounds: number;
  /** The deadline of the latest review request: it moves onto the decision's inbox item once the review approves. */
  due?: Due;
  createdSeq: number;
  updatedSeq: number;
};

export type InboxKind =
  | "escalation"
  | "decision"
  | "job_acceptance"
  | "plan_blocked"
  | "stale"
  | "notice"
  | "tool_approval"
  | "budget"
  /** An agent's Stop held for a person's Resume (session.idle.held); resuming answers it. */
  | "idle";
/**
 * A deadline, made absolute when its event was received: at `at` the server appends
 * deadline.passed with what `then` says. `passed`: it did, and `then` was a reminder, so the
 * item stays, marked overdue.
 */
export type Due = { at: string; then: DeadlineThen; answer?: string; passed?: boolean };
/** `audience: "admins"`: only the pod's admins see the item (notices). */
export type InboxItem = At & {
  id: string;
  kind: InboxKind;
  title: string;
  subject: { kind: string; id: string };
  options?: string[];
  taskId?: string;
  due?: Due;
  audience?: "admins";
  text?: string;
  recent?: string[];
};

/**
 * The cadence watchdog's view of one agent (see cadence.ts). `watchedSince`: when it last became
 * watched (null: not watched now); `lastCheckpointAt`: its latest checkpoint; a checkpoint of a
 * watched agent counts `onTime` when it came within the cadence of the later of the two, else
 * `late`; `stale`: the open staleness episode (agent.stale), cleared by its next checkpoint.
 */
export type AgentCadence = {
  watchedSince: string | null;
  lastCheckpointAt: string | null;
  onTime: number;
  late: number;
  staleEpisodes: number;
  stale: (At & { since: string }) | null;
};

export type Escalation = At & {
  escalationId: string;
  kind: "intent" | "risk_tolerance" | "external_input";
  question: string;
  options: string[];
  taskId: string | null;
  evidenceIds: string[];
  askedBy: string;
  answer: (At & { answer: string; by: string }) | null;
};

export type Decision = At & {
  subject: { kind: string; id: string };
  verdict: string;
  by: string;
  tieBreaker: string | null;
  rationale: string;
  evidenceIds: string[];
};

export type EvidenceLinks = {
  tasks: string[];
  decisions: number[];
  escalations: string[];
  reviews: number[];
  jobs: string[];
};
export type Evidence = At & {
  bundleId: string;
  by: string;
  passed: boolean;
  commandCount: number;
  failedCommands: number;
  artifactCount: number;
  manifestHash: string;
  env: { commit: string; tools: Record<string, string> };
  links: EvidenceLinks;
};

export type Run = At & {
  runId: string;
  workItemId: string;
  mood: string;
  startedBy: string;
  status: "running" | "committed" | "discarded";
  selfVerified: boolean | null;
  directorVerified: boolean | null;
  commit: string | null;
  discardReason: string | null;
  noteSeqs: number[];
};

export type Job = At & {
  jobId: string;
  scope: string;
  constraints: string[];
  acceptanceTests: string[];
  settlement: { amount: number; currency: string; terms: string };
  postedBy: string;
  status: "posted" | "funded" | "delivered" | "accepted" | "rejected" | "settled";
  escrow: "unfunded" | "funded" | "released" | "refunded";
  evidenceIds: string[];
};

export type ProofSummary = At & {
  status: string;
  allPassed: boolean;
  failingGates: string[];
  forbiddenPathViolations: string[];
  diffLines: number;
  overDiffBudget: boolean;
  risk: string | null;
  confidence: number | null;
  followUps: number;
};
export type Workcell = At & {
  workcellId: string;
  issueId: string;
  taskId: string | null;
  title: string;
  forbiddenPaths: string[];
  maxDiffLines: number | null;
  gates: string[];
  proof: ProofSummary | null;
};

/** One agent session (Claude Code's, an OpenTelemetry conversation): what it is and how busy. */
export type AgentSession = At & {
  sessionId: string;
  agentId: string;
  via: string;
  model: string | null;
  cwd: string | null;
  ended: (At & { reason: string | null }) | null;
  prompts: number;
  toolCalls: number;
  failedToolCalls: number;
  compactions: number;
  subagents: number;
  last: At;
  /** A subagent's session: the session that runs it, and its type. */
  parentSessionId?: string;
  agentType?: string;
  /** The turn it is in (session-turns.ts); absent until one of its events says. */
  turn?: SessionTurn;
  /** What people told it from the control room: the pending ones and the latest delivered (reduce-steering.ts). */
  steers?: Steer[];
  /** Its latest Stop held for a person's Resume (session.idle.held), until `until`. */
  idleHold?: At & { until: string };
};
/**
 * `open`: a prompt or a tool call came after the agent's last report, since `since`; closed: the
 * last turn ended at `since`. `tool`: the call under way in an open turn.
 */
export type SessionTurn = {
  open: boolean;
  since: string;
  tool: { name: string; toolUseId: string; at: string } | null;
};
/** One steering act (session.steered) and, once the agent's hook took it, its delivery. */
export type Steer = At & {
  steerId: string;
  act: SteerAct;
  text: string;
  by: string;
  delivered: (At & { via: string; hookId: string }) | null;
};
/** A tool policy of the pod or of one agent (agent.policy.set). */
export type ToolPolicy = At & {
  rules: ToolRule[];
  ask: { minutes: number; then: "allow" | "deny" } | null;
  unreachable: "open" | "closed" | null;
  /** Seconds a Stop waits for a person's Resume (0: off); null: not set here. */
  idleHold?: number | null;
  by: string;
};
export type ToolApproval = At & {
  requestId: string;
  agentId: string;
  sessionId: string | null;
  toolUseId: string;
  tool: string;
  input: string;
  context: string[];
  ruleId: string | null;
  /** Whose hook holds the call (tool-vocabulary.ts reads its tool as that agent's); Claude Code when absent. */
  agent?: AgentKind;
  due: Due;
  answer:
    | (At & {
        decision: "allow" | "deny";
        by: string;
        reason: string | null;
        remember: ToolAnswerScope;
        byDeadline: boolean;
      })
    | null;
};
/** Tokens and cost, added up per agent and model. */
export type Usage = {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  costUsd: number;
  reports: number;
  /** Reports that came without a cost (a model no price list knows): costUsd leaves them out. Absent in older snapshots. */
  unpriced?: number;
};

/**
 * A budget set with budget.set, for the whole pod (agentId null) or one agent.
 * `exceeded`: when the server reported it crossed in this round (budget.exceeded); setting the
 * budget again opens a new round.
 */
export type Budget = At & {
  budgetId: string;
  agentId: string | null;
  metric: BudgetMetric;
  limit: number;
  then: BudgetAction;
  by: string;
  exceeded: (At & { used: number }) | null;
};

/**
 * What budgets count that the rest of the state does not keep whole (sessions are evicted):
 * per agent the tool calls that ran (a call a gate denied did not) and its wall time in sessions
 * (the gaps between its consecutive session events, whatever the session, each counted up to
 * IDLE_GAP_MS; `lastSessionAt` null after a session's end — no clock is read); for the pod its
 * active time (started, not paused), `activeSince` being when the current active stretch began.
 */
export type AgentMeter = {
  toolCalls: number;
  failedToolCalls: number;
  sessionMs: number;
  lastSessionAt: string | null;
};
export type Meters = { agents: Record<string, AgentMeter>; activeMs: number; activeSince: string | null };

/**
 * Bumped when a reducer changes what it projects: a stored state of another version is
 * rebuilt by replaying the tape, so old rows never keep an outdated projection.
 * 2: ages from receivedAt, not the agent's ts.
 * 3: deadlines on inbox items and tasks, the cadence watchdog's per-agent record, notices.
 * 4: agent sessions, usage, tool policies and approvals.
 * 5: budgets that act, meters, signals.
 * 6: signals filled by their fold (step-signals.ts), with what it remembers (signals.tracking).
 * 7: an agent's wall time across its sessions (meters.lastSessionAt); calls a gate denied count as none.
 * 8: remembered Bash allows: "for this session" keeps the exact command line, "always" each command
 *    as written (shell-parse.ts); a line that is not plain is not remembered. Histories keep their
 *    newest entries (roles, handoffs, decisions, a run's notes, evidence links: ../pod-bounds.ts);
 *    the size of what a pod retains for good is counted (retained).
 * 9: one policy for every agent: a call is read in the common vocabulary (tool-vocabulary.ts), and
 *    a held call keeps whose agent asked.
 * 10: a session's turn (session-turns.ts): open or ended, and the tool under way.
 */
export const PROJECTION_VERSION = 10;

export type PodState = {
  /** PROJECTION_VERSION of the reducers that built this state. */
  v: number;
  seq: number;
  status: "forming" | "active" | "paused" | "closed";
  scope: { scope: string; successCriteria: string[]; cadenceMinutes?: number; seq: number } | null;
  members: Record<string, Member>;
  roleHistory: RoleChange[];
  activeAgent: string | null;
  handoffs: Handoff[];
  tasks: Record<string, Task>;
  taskOrder: string[];
  escalations: Record<string, Escalation>;
  decisions: Decision[];
  inbox: Record<string, InboxItem>;
  evidence: Record<string, Evidence>;
  runs: Record<string, Run>;
  jobs: Record<string, Job>;
  workcells: Record<string, Workcell>;
  planBlocks: Record<string, At & { by: string; role: Role; rationale: string }>;
  /** Every budget.exceeded, in order (an agent's own report or the server's). */
  budgets: (At & { budget: string; limit: number; used: number; by: string })[];
  /** The budgets set with budget.set, by id. */
  budgetLimits: Record<string, Budget>;
  meters: Meters;
  /** The raw signals of each agent (signals/step-signals.ts). */
  signals: PodSignals;
  lastCheckpoint: (At & { actor: string }) | null;
  /** Per agent member: checkpoints on cadence, staleness (the watchdog). */
  cadence: Record<string, AgentCadence>;
  /** The latest agent sessions (at most MAX_SESSIONS per agent, the least recently active leave first). */
  sessions: Record<string, AgentSession>;
  usage: Record<string, Record<string, Usage>>;
  policies: { pod: ToolPolicy | null; agents: Record<string, ToolPolicy> };
  /** false: prompt text stays off the tape (only its length is kept). */
  recordPrompts: boolean;
  /** "Allow for this session" answers: the tool and subject allowed, per session. */
  sessionAllows: Record<string, { tool: string; subject: string }[]>;
  /** Open approvals, and the latest answered ones (an agent's hook reads its answer here). */
  toolApprovals: Record<string, ToolApproval>;
  /** Characters of JSON of the entries a pod keeps for good (retained-entries.ts), bounded by POD_BOUNDS.retainedChars. */
  retained: number;
};

/**
 * A shallow copy, field by field: the fold makes one per event, and V8 copies an object of this
 * many fields by spread (`{ ...s }`) about 20 times slower than by a literal of its fields (~1.5 µs
 * against ~70 ns on this project's machines). A field added to PodState without one here does not
 * compile: every field is required.
 */
export function copyPodState(s: PodState): PodState {
  return {
    v: s.v,
    seq: s.seq,
    status: s.status,
    scope: s.scope,
    members: s.members,
    roleHistory: s.roleHistory,
    activeAgent: s.activeAgent,
    handoffs: s.handoffs,
    tasks: s.tasks,
    taskOrder: s.taskOrder,
    escalations: s.escalations,
    decisions: s.decisions,
    inbox: s.inbox,
    evidence: s.evidence,
    runs: s.runs,
    jobs: s.jobs,
    workcells: s.workcells,
    planBlocks: s.planBlocks,
    budgets: s.budgets,
    budgetLimits: s.budgetLimits,
    meters: s.meters,
    signals: s.signals,
    lastCheckpoint: s.lastCheckpoint,
    cadence: s.cadence,
    sessions: s.sessions,
    usage: s.usage,
    policies: s.policies,
    recordPrompts: s.recordPrompts,
    sessionAllows: s.sessionAllows,
    toolApprovals: s.toolApprovals,
    retained: s.retained,
  };
}

/** `s` with `patch`'s fields: what `{ ...s, ...patch }` makes, by copyPodState's literal instead of a spread. */
export function withFields(s: PodState, patch: Partial<PodState>): PodState {
  return Object.assign(copyPodState(s), patch);
}

export function emptyPodState(): PodState {
  return {
    v: PROJECTION_VERSION,
    seq: 0,
    status: "forming",
    scope: null,
    members: {},
    roleHistory: [],
    activeAgent: null,
    handoffs: [],
    tasks: {},
    taskOrder: [],
    escalations: {},
    decisions: [],
    inbox: {},
    evidence: {},
    runs: {},
    jobs: {},
    workcells: {},
    planBlocks: {},
    budgets: [],
    budgetLimits: {},
    meters: { agents: {}, activeMs: 0, activeSince: null },
    signals: emptyPodSignals(),
    lastCheckpoint: null,
    cadence: {},
    sessions: {},
    usage: {},
    policies: { pod: null, agents: {} },
    recordPrompts: true,
    sessionAllows: {},
    toolApprovals: {},
    retained: 0,
  };
}
