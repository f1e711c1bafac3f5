// GET /api/v1/inbox's answer as a schema (the operation's output, its OpenAPI document and the
// browser's types): the same shapes as the view types in ./views.ts, which the domain's
// projections build.
import { z } from "zod";
import {
  AGENT_KINDS,
  BUDGET_ACTIONS,
  BUDGET_METRICS,
  DEADLINE_THEN,
  TASK_STATES,
} from "../domain/vocabulary";

const ZAt = z.object({ seq: z.number().int(), at: z.string() });
const ZInboxEvidence = z.object({
  bundleId: z.string(),
  passed: z.boolean(),
  commandCount: z.number().int(),
  failedCommands: z.number().int(),
  seq: z.number().int(),
});
const ZInboxProof = z.object({
  workcellId: z.string(),
  title: z.string(),
  /** null while no proof was submitted. */
  status: z.string().nullable(),
  gates: z.array(z.object({ name: z.string(), passed: z.boolean().nullable() })),
  forbiddenPathViolations: z.array(z.string()),
  overDiffBudget: z.boolean(),
});
const ZReview = ZAt.extend({
  verdict: z.enum(["approve", "reject", "changes_requested"]),
  by: z.string(),
  comments: z.string(),
});

/** What backs a decision: what the inbox card shows beside its title. */
export const ZInboxContext = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("task"),
    taskId: z.string(),
    description: z.string(),
    status: z.enum(TASK_STATES),
    review: ZReview.nullable(),
    evidence: z.array(ZInboxEvidence),
    proofs: z.array(ZInboxProof),
  }),
  z.object({
    kind: z.literal("job"),
    jobId: z.string(),
    scope: z.string(),
    settlement: z.object({ amount: z.number(), currency: z.string(), terms: z.string() }),
    constraints: z.array(z.string()),
    acceptanceTests: z.array(z.string()),
    escrow: z.enum(["unfunded", "funded", "released", "refunded"]),
    evidence: z.array(ZInboxEvidence),
  }),
  z.object({
    kind: z.literal("escalation"),
    escalationKind: z.enum(["intent", "risk_tolerance", "external_input"]),
    question: z.string(),
    askedBy: z.string(),
    options: z.array(z.string()),
    task: z.object({ taskId: z.string(), description: z.string() }).nullable(),
    evidence: z.array(ZInboxEvidence),
  }),
  z.object({
    kind: z.literal("plan"),
    planId: z.string(),
    blocks: z.array(z.object({ by: z.string(), role: z.string(), rationale: z.string() })),
  }),
  z.object({
    kind: z.literal("tool"),
    requestId: z.string(),
    agentId: z.string(),
    /** The agent program holding the call (Claude Code, Codex, Gemini CLI): `tool` is in its names. */
    agentKind: z.enum(AGENT_KINDS),
    tool: z.string(),
    sessionId: z.string().nullable(),
    cwd: z.string().nullable(),
    ruleId: z.string().nullable(),
  }),
  z.object({
    kind: z.literal("budget"),
    budgetId: z.string(),
    agentId: z.string().nullable(),
    metric: z.enum(BUDGET_METRICS),
    limit: z.number(),
    then: z.enum(BUDGET_ACTIONS),
    usedAtCrossing: z.number().nullable(),
    usedNow: z.number(),
    podStatus: z.enum(["forming", "active", "paused", "closed"]),
  }),
]);

/** One thing waiting for a human, in any pod the caller may see, with whether they may act on it. */
export const ZInboxEntry = ZAt.extend({
  id: z.string(),
  kind: z.enum([
    "escalation",
    "decision",
    "job_acceptance",
    "plan_blocked",
    "stale",
    "notice",
    "tool_approval",
    "budget",
    "idle",
  ]),
  title: z.string(),
  subject: z.object({ kind: z.string(), id: z.string() }),
  options: z.array(z.string()).optional(),
  taskId: z.string().optional(),
  /** A deadline: at `at` the server appends deadline.passed with what `then` says; `passed`: a reminder went. */
  due: z
    .object({
      at: z.string(),
      then: z.enum(DEADLINE_THEN),
      answer: z.string().optional(),
      passed: z.boolean().optional(),
    })
    .optional(),
  /** Only the pod's admins see the item (notices). */
  audience: z.literal("admins").optional(),
  text: z.string().optional(),
  recent: z.array(z.string()).optional(),
  /** What backs it (null when its subject is gone from the state). */
  context: ZInboxContext.nullable(),
  podId: z.string(),
  podName: z.string(),
  canAct: z.boolean(),
  /** Why the pod's rules refuse this caller's answer though they may act (an escalation, for a site admin who is no member). */
  answerRefused: z.string().optional(),
  blockedBy: z.array(z.string()),
  /** The person chose that this pod sends them nothing of this kind (hidden from the default view). */
  muted: z.boolean().optional(),
});
/** GET /api/v1/inbox: oldest first. */
export const ZInboxResponse = z.object({ items: z.array(ZInboxEntry) });
