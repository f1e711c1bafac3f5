// GET /api/v1/pods/{podId}/state's answer as a schema: the OpenAPI document's and the walk test's.
// The view is built from the domain's projections (server/pods/read-pod-state.ts) and typed by
// PodStateView (./views.ts); the schema is checked against that type both ways at compile time,
// and never parsed on the request path (a lived-in pod's view is ~1.3 MB, written in slices).
import { z } from "zod";
import { ZToolRule } from "../domain/events/agent-events";
import { ZAccess } from "../domain/events/event-schemas";
import { ZRole } from "../domain/events/event-kit";
import { ZTaskState } from "../domain/events/seed-formats";
import { DEADLINE_THEN, STEER_ACTS } from "../domain/vocabulary";
import { ZInboxEntry } from "./inbox";
import { agree, type SameType } from "./same-type";
import type { PodStateView } from "./views";

const int = z.number().int();
const ZAt = z.object({ seq: int, at: z.string() });
const ZSubject = z.object({ kind: z.string(), id: z.string() });
const ZDue = z.object({
  at: z.string(),
  then: z.enum(DEADLINE_THEN),
  answer: z.string().optional(),
  passed: z.boolean().optional(),
});

const ZMember = z.object({
  memberId: z.string(),
  kind: z.enum(["agent", "human"]),
  displayName: z.string(),
  roles: z.array(ZRole),
  access: ZAccess.nullable(),
  joinedSeq: int,
});
const ZTask = z.object({
  taskId: z.string(),
  description: z.string(),
  status: ZTaskState,
  dependsOn: z.array(z.string()),
  metadata: z.record(z.string(), z.unknown()),
  implementer: z.string().nullable(),
  implementers: z.array(z.string()),
  reviewer: z.string().nullable(),
  blockedReason: z.string().nullable(),
  evidenceIds: z.array(z.string()),
  workcellIds: z.array(z.string()),
  review: ZAt.extend({
    verdict: z.enum(["approve", "reject", "changes_requested"]),
    by: z.string(),
    comments: z.string(),
  }).nullable(),
  reviewRounds: int,
  due: ZDue.optional(),
  createdSeq: int,
  updatedSeq: int,
});
const ZEscalation = ZAt.extend({
  escalationId: z.string(),
  kind: z.enum(["intent", "risk_tolerance", "external_input"]),
  question: z.string(),
  options: z.array(z.string()),
  taskId: z.string().nullable(),
  evidenceIds: z.array(z.string()),
  askedBy: z.string(),
  answer: ZAt.extend({ answer: z.string(), by: z.string() }).nullable(),
});
const ZEvidence = ZAt.extend({
  bundleId: z.string(),
  by: z.string(),
  passed: z.boolean(),
  commandCount: int,
  failedCommands: int,
  artifactCount: int,
  manifestHash: z.string(),
  env: z.object({ commit: z.string(), tools: z.record(z.string(), z.string()) }),
  links: z.object({
    tasks: z.array(z.string()),
    decisions: z.array(int),
    escalations: z.array(z.string()),
    reviews: z.array(int),
    jobs: z.array(z.string()),
  }),
});
const ZRun = ZAt.extend({
  runId: z.string(),
  workItemId: z.string(),
  mood: z.string(),
  startedBy: z.string(),
  status: z.enum(["running", "committed", "discarded"]),
  selfVerified: z.boolean().nullable(),
  directorVerified: z.boolean().nullable(),
  commit: z.string().nullable(),
  discardReason: z.string().nullable(),
  noteSeqs: z.array(int),
});
const ZJob = ZAt.extend({
  jobId: z.string(),
  scope: z.string(),
  constraints: z.array(z.string()),
  acceptanceTests: z.array(z.string()),
  settlement: z.object({ amount: z.number(), currency: z.string(), terms: z.string() }),
  postedBy: z.string(),
  status: z.enum(["posted", "funded", "delivered", "accepted", "rejected", "settled"]),
  escrow: z.enum(["unfunded", "funded", "released", "refunded"]),
  evidenceIds: z.array(z.string()),
});
const ZWorkcell = ZAt.extend({
  workcellId: z.string(),
  issueId: z.string(),
  taskId: z.string().nullable(),
  title: z.string(),
  forbiddenPaths: z.array(z.string()),
  maxDiffLines: int.nullable(),
  gates: z.array(z.string()),
  proof: ZAt.extend({
    status: z.string(),
    allPassed: z.boolean(),
    failingGates: z.array(z.string()),
    forbiddenPathViolations: z.array(z.string()),
    diffLines: int,
    overDiffBudget: z.boolean(),
    risk: z.string().nullable(),
    confidence: z.number().nullable(),
    followUps: int,
  }).nullable(),
});
const ZToolPolicy = ZAt.extend({
  rules: z.array(ZToolRule),
  ask: z.object({ minutes: z.number(), then: z.enum(["allow", "deny"]) }).nullable(),
  unreachable: z.enum(["open", "closed"]).nullable(),
  idleHold: z.number().nullable().optional(),
  by: z.string(),
});
/** A person's steering act on a session: pending, then delivered at the agent's next hook. */
export const ZSteer = ZAt.extend({
  steerId: z.string(),
  act: z.enum(STEER_ACTS),
  text: z.string(),
  by: z.string(),
  delivered: ZAt.extend({ via: z.string(), hookId: z.string() }).nullable(),
});
const ZSession = ZAt.extend({
  sessionId: z.string(),
  agentId: z.string(),
  via: z.string(),
  model: z.string().nullable(),
  cwd: z.string().nullable(),
  ended: ZAt.extend({ reason: z.string().nullable() }).nullable(),
  prompts: int,
  toolCalls: int,
  failedToolCalls: int,
  compactions: int,
  subagents: int,
  last: ZAt,
  /** A subagent's session: the session that runs it, and its type. */
  parentSessionId: z.string().optional(),
  agentType: z.string().optional(),
  /** The turn it is in: open since `since` (with the call under way), or ended at `since`. */
  turn: z
    .object({
      open: z.boolean(),
      since: z.string(),
      tool: z.object({ name: z.string(), toolUseId: z.string(), at: z.string() }).nullable(),
    })
    .optional(),
  /** What people told it from the control room: pending, then delivered at the agent's next hook. */
  steers: z.array(ZSteer).optional(),
  /** Its latest Stop held for a person's Resume, until `until` (shown while its turn stays ended). */
  idleHold: ZAt.extend({ until: z.string() }).optional(),
});
const ZUsage = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  cacheReadTokens: z.number(),
  cacheWriteTokens: z.number(),
  costUsd: z.number(),
  reports: int,
  /** Reports that came without a cost (a model no price list knows): costUsd leaves them out. */
  unpriced: int,
});

/** GET /api/v1/pods/{podId}/state (also `?atSeq=`): the pod's projections, the board in plan order, the inbox oldest first. */
export const ZPodStateView = z.object({
  seq: int,
  status: z.enum(["forming", "active", "paused", "closed"]),
  scope: z
    .object({
      scope: z.string(),
      successCriteria: z.array(z.string()),
      cadenceMinutes: z.number().optional(),
      seq: int,
    })
    .nullable(),
  activeAgent: z.string().nullable(),
  roleHistory: z.array(
    ZAt.extend({
      memberId: z.string(),
      role: ZRole,
      action: z.enum(["assigned", "rotated_in", "rotated_out"]),
    }),
  ),
  handoffs: z.array(ZAt.extend({ from: z.string(), to: z.string(), reason: z.string() })),
  decisions: z.array(
    ZAt.extend({
      subject: ZSubject,
      verdict: z.string(),
      by: z.string(),
      tieBreaker: z.string().nullable(),
      rationale: z.string(),
      evidenceIds: z.array(z.string()),
    }),
  ),
  /** Every budget.exceeded, in order (an agent's own report or the server's). */
  budgets: z.array(ZAt.extend({ budget: z.string(), limit: z.number(), used: z.number(), by: z.string() })),
  lastCheckpoint: ZAt.extend({ actor: z.string() }).nullable(),
  members: z.array(ZMember),
  /** Each task with the gates that hold its approval (failing evidence or proofs). */
  board: z.array(ZTask.extend({ failingGates: z.array(z.string()) })),
  inbox: z.array(
    ZInboxEntry.omit({
      podId: true,
      podName: true,
      canAct: true,
      answerRefused: true,
      blockedBy: true,
      muted: true,
    }),
  ),
  escalations: z.array(ZEscalation),
  evidence: z.array(ZEvidence),
  runs: z.array(ZRun),
  jobs: z.array(ZJob),
  workcells: z.array(ZWorkcell),
  planBlocks: z.array(ZAt.extend({ by: z.string(), role: ZRole, rationale: z.string() })),
  /** The cadence watchdog: checkpoints on cadence and agents stale now. */
  cadence: z.object({
    onTime: int,
    late: int,
    staleEpisodes: int,
    staleNow: z.array(z.string()),
    percent: z.number().nullable(),
  }),
  /** Gated tools: the pod's and each agent's tool policy, and whether prompt text goes on the tape. */
  toolPolicies: z.object({
    policies: z.object({ pod: ZToolPolicy.nullable(), agents: z.record(z.string(), ZToolPolicy) }),
    recordPrompts: z.boolean(),
  }),
  /** Agent sessions, the most recently active first, and tokens and cost per agent and model. */
  sessions: z.array(ZSession),
  usage: z.array(ZUsage.extend({ agentId: z.string(), model: z.string() })),
});
agree<SameType<z.output<typeof ZPodStateView>, PodStateView>>();
