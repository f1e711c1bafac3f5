// Every tape event type as one zod discriminated union on `type`. Each family names the
// document of docs/protocol/ that states its rules.
import { z } from "zod";
import { AGENT_EVENT_SCHEMAS } from "./agent-events";
import {
  deadline,
  DEADLINE_MAX_MINUTES,
  envelope,
  ev,
  none,
  ZLine,
  ZRole,
  ZText,
  type Deadline,
} from "./event-kit";
import {
  UNPRINTABLE,
  ZHandoffTaskStep,
  ZId,
  ZPlanJson,
  ZProof,
  ZTaskDescription,
  ZTaskManifest,
  ZTaskMetadata,
  ZTaskState,
} from "./seed-formats";
import {
  ACCESS_LEVELS,
  BUDGET_ACTIONS,
  BUDGET_METRICS,
  DEADLINE_OUTCOMES,
  DECISION_SUBJECTS,
  DECISION_VERDICTS,
  EVENT_TYPES,
  NOTE_KINDS,
  ROLES,
  SYSTEM_ACTOR,
  SYSTEM_EVENT_TYPES,
  TIE_BREAKERS,
  type Access,
  type EventType,
  type NoteKind,
  type Role,
} from "../vocabulary";

// The lists are the wire's vocabulary (zod-free, for the browser); the schemas build on them.
export { deadline, DEADLINE_MAX_MINUTES, envelope, type Deadline };
export {
  ACCESS_LEVELS,
  EVENT_TYPES,
  NOTE_KINDS,
  ROLES,
  SYSTEM_ACTOR,
  SYSTEM_EVENT_TYPES,
  TIE_BREAKERS,
  type Access,
  type EventType,
  type Role,
};

export { ZRole };

const ZEvidenceIds = z.array(ZId).max(200).default([]);

// --- pod lifecycle (docs/protocol/pods-and-modes.md#lifecycle) ---
/** `cadenceMinutes`: how often the pod expects a checkpoint (5–240; absent = 30: docs/protocol/pods-and-modes.md#scope-agreement). */
export const CADENCE_MINUTES = { min: 5, max: 240, default: 30 } as const;
export const ZScopeAgreed = ev(
  "pod.scope_agreed",
  z.object({
    scope: ZText,
    successCriteria: z.array(ZLine).min(1).max(100),
    cadenceMinutes: z.number().int().min(CADENCE_MINUTES.min).max(CADENCE_MINUTES.max).optional(),
  }),
);
export const ZPodStarted = ev("pod.started", none);
export const ZPodPaused = ev("pod.paused", z.object({ reason: z.string().max(2000).optional() }).default({}));
export const ZPodResumed = ev("pod.resumed", none);
export const ZPodClosed = ev("pod.closed", z.object({ reason: z.string().max(2000).optional() }).default({}));

// --- members and roles (docs/protocol/roles.md, docs/protocol/pods-and-modes.md#members-and-access) ---
export const ZAccess = z.enum(ACCESS_LEVELS);
export const ZMemberJoined = ev(
  "member.joined",
  z.object({
    memberId: ZId,
    kind: z.enum(["agent", "human"]),
    displayName: z.string().min(1).max(200),
    access: ZAccess.optional(), // humans: viewer unless said otherwise
  }),
);
export const ZAccessGranted = ev("access.granted", z.object({ memberId: ZId, access: ZAccess }));
/** A person leaves the pod: they no longer see it; a later member.joined brings them back. */
export const ZAccessRevoked = ev("access.revoked", z.object({ memberId: ZId }));
export const ZRoleAssigned = ev("role.assigned", z.object({ memberId: ZId, role: ZRole }));
export const ZRoleRotated = ev("role.rotated", z.object({ role: ZRole, from: ZId, to: ZId }));

// --- plan (docs/protocol/plan-and-handoffs.md: plan.json and plan_add_task / plan_update_task) ---
export const ZPlanImported = ev("plan.imported", z.object({ plan: ZPlanJson }));
export const ZTaskAdded = ev(
  "task.added",
  z.object({
    taskId: ZId.optional(), // plan_add_task(description) numbers the task when absent
    description: ZTaskDescription,
    dependsOn: z.array(ZId).max(100).default([]),
    metadata: ZTaskMetadata.default({}),
  }),
);
export const ZTaskUpdated = ev(
  "task.updated",
  z.object({
    taskId: ZId,
    status: ZTaskState.optional(),
    metadata: ZTaskMetadata.optional(), // merged into the task's: the result is bounded alike (pod-bounds.ts)
    blockedReason: z.string().max(2000).optional(),
    assignee: ZId.optional(),
  }),
);

// --- the task loop (docs/protocol/plan-and-handoffs.md#the-review-loop) ---
export const ZReviewRequested = ev(
  "task.review_requested",
  z.object({ taskId: ZId, evidenceIds: ZEvidenceIds, deadline: deadline(["approve", "reject"]).optional() }),
);
export const ZReview = ev(
  "review",
  z.object({
    taskId: ZId,
    verdict: z.enum(["approve", "reject", "changes_requested"]),
    comments: z.string().max(20000).default(""),
    evidenceIds: ZEvidenceIds,
  }),
);

// --- checkpoints (docs/protocol/pods-and-modes.md#checkpoints-and-cadence) ---
/** A checkpoint is a report: an empty or blank one would only be a blank row on the tape, whoever sends it (API, CLI, MCP). */
const ZReportLine = ZLine.regex(/\S/, { message: "a line must not be blank" });
export const ZCheckpoint = ev(
  "checkpoint",
  z
    .object({
      completed: z.array(ZReportLine).max(100),
      next: z.array(ZReportLine).max(100),
      blocked: z.array(ZReportLine).max(100),
      taskId: ZId.optional(),
    })
    .refine((b) => b.completed.length + b.next.length + b.blocked.length > 0, {
      message: "a checkpoint needs at least one line in completed, next or blocked",
    }),
);

// --- notes (docs/protocol/runs-and-notes.md#notes: typed NOTE events with RUN_ID … REFERENCES) ---
const noteFields = {
  text: ZText.optional(),
  BODY: z.unknown().optional(),
  RUN_ID: ZId.optional(),
  WORK_ITEM_ID: ZId.optional(),
  MOOD: z.string().max(50).optional(),
  TIMESTAMP: z.string().max(50).optional(),
  REFERENCES: z.array(ZId).max(200).optional(),
};
const note = <K extends NoteKind, S extends z.core.$ZodLooseShape>(kind: K, extra: S) =>
  z.looseObject({ kind: z.literal(kind), ...noteFields, ...extra });
const ZNoteBody = z
  .discriminatedUnion("kind", [
    note("OBSERVATION", {}),
    note("HYPOTHESIS", { test: ZText, budget: z.union([ZText, z.number()]) }), // must include test + budget
    note("HYPERTHESIS", { blindSpot: ZText, bound: ZText }), // blind spot + bound
    note("CONJECTURE", { claim: ZText, test: ZText, edge: ZText, deltaO: ZText, scope: ZText }), // claim/test/edge/ΔO/scope
    note("STATUS", {}),
    note("REQUEST_HELP", {}),
    note("REQUEST_VERIFY", {}),
  ])
  .refine((n) => n.text !== undefined || n.BODY !== undefined, {
    message: "a note needs text or BODY",
    path: ["text"],
  });
export const ZNote = ev("note", ZNoteBody);

// --- decisions (docs/protocol/decisions-and-escalations.md, docs/protocol/roles.md#decision-authority) ---
export const ZDecision = ev(
  "decision",
  z.object({
    subject: z.object({ kind: z.enum(DECISION_SUBJECTS), id: ZId }),
    verdict: z.enum(DECISION_VERDICTS),
    tieBreaker: z.enum(TIE_BREAKERS).optional(),
    rationale: ZText,
    evidenceIds: ZEvidenceIds,
  }),
);
/** The contract guardian's and the cost controller's plan gate: docs/protocol/roles.md#plan-gates. */
export const ZPlanReview = ev(
  "plan.review",
  z.object({
    verdict: z.enum(["APPROVE", "BLOCK"]),
    rationale: z.string().max(20000).default(""),
    planId: ZId.default("plan"),
  }),
);

// --- escalation (docs/protocol/decisions-and-escalations.md#escalations) ---
export const ZEscalation = ev(
  "escalation",
  z
    .object({
      escalationId: ZId.optional(),
      kind: z.enum(["intent", "risk_tolerance", "external_input"]),
      question: ZText,
      options: z.array(ZLine).max(20).optional(),
      taskId: ZId.optional(),
      evidenceIds: ZEvidenceIds,
      deadline: deadline().optional(),
    })
    .superRefine((b, ctx) => {
      const d = b.deadline;
      if (d?.then === "reject")
        ctx.addIssue({
          code: "custom",
          message: `an escalation's deadline says "remind" or "answer" (with the default answer); there is nothing to reject`,
          path: ["deadline", "then"],
        });
      if (d?.answer !== undefined && b.options?.length && !b.options.includes(d.answer)) {
        ctx.addIssue({
          code: "custom",
          message: `the default answer must be one of the options (${b.options.join(", ")})`,
          path: ["deadline", "answer"],
        });
      }
    }),
);
export const ZEscalationAnswered = ev("escalation.answered", z.object({ escalationId: ZId, answer: ZText }));

// --- handoff (docs/protocol/plan-and-handoffs.md#handoffs: handoff(destination_agent, reason)) ---
/** Either `{ to, reason }` or a TaskStep whose tool_call is a handoff, kept as `step`. */
const ZHandoffFromStep = ZHandoffTaskStep.transform((step, ctx) => {
  const call = step.parts.find(
    (p) =>
      p.type === "tool_call" && (p as { tool_call: { tool_name: string } }).tool_call.tool_name === "handoff",
  ) as { tool_call: { args: Record<string, unknown> } } | undefined;
  const args = call?.tool_call.args ?? {};
  if (
    typeof args.destination_agent !== "string" ||
    !args.destination_agent ||
    typeof args.reason !== "string" ||
    !args.reason
  ) {
    ctx.addIssue({
      code: "custom",
      message: "a TaskStep handoff needs a handoff tool_call with args.destination_agent and args.reason",
      path: ["parts"],
    });
    return z.NEVER;
  }
  return { to: args.destination_agent, reason: args.reason, step };
});
export const ZHandoff = ev("handoff", z.union([z.object({ to: ZId, reason: ZText }), ZHandoffFromStep]));

// --- runs (docs/protocol/runs-and-notes.md#runs-are-transactions) ---
export const ZRunStarted = ev(
  "run.started",
  z.object({ runId: ZId, workItemId: ZId, mood: z.string().min(1).max(50) }),
);
export const ZRunVerified = ev(
  "run.verified",
  z.object({
    runId: ZId,
    by: z.enum(["self", "director"]),
    passed: z.boolean(),
    checks: z.array(z.looseObject({ name: ZId, passed: z.boolean() })).default([]),
  }),
);
export const ZRunCommitted = ev(
  "run.committed",
  z.object({ runId: ZId, commit: z.string().min(1).max(200) }),
);
export const ZRunDiscarded = ev("run.discarded", z.object({ runId: ZId, reason: ZText }));

/**
 * A path inside an evidence bundle: relative, "/"-separated, already normal.
 * A bundle names files, it must never point outside itself ("..", "/etc/…", "C:\\…").
 */
export const ZRelativePath = z
  .string()
  .min(1)
  .max(1000)
  .refine(
    (p) =>
      !p.includes("\\") &&
      !/^[a-zA-Z]:/.test(p) &&
      !p.startsWith("/") &&
      p.split("/").every((seg) => seg !== "" && seg !== "." && seg !== ".."),
    {
      message:
        "must be a normalised relative path: no leading '/', no '..' or '.' segments, no empty segments, no backslashes",
    },
  )
  // Paths are shown in the control room and terminals and become file names: nothing that cuts, hides or reorders text.
  .refine((p) => !UNPRINTABLE.test(p), {
    message: "must not contain control characters (NUL, newlines, escapes, bidi overrides, line separators)",
  });

/** A SHA-256 as lowercase hex: how artifacts, manifests and blobs are named. */
export const SHA256_HEX = /^[0-9a-f]{64}$/;
const ZSha256 = z.string().regex(SHA256_HEX);

// --- evidence (docs/protocol/workcells-and-evidence.md#evidence-bundles) ---
export const ZEvidenceBundle = ev(
  "evidence.bundle",
  z.object({
    bundleId: ZId,
    commands: z
      .array(
        z.looseObject({
          command: z.string().min(1),
          exit_code: z.number().int(),
          duration_ms: z.number().min(0).optional(),
        }),
      )
      .max(10000),
    artifacts: z
      .array(z.object({ path: ZRelativePath, sha256: ZSha256, size: z.number().int().min(0) }))
      .max(100000)
      .refine((list) => new Set(list.map((a) => a.path)).size === list.length, {
        message: "each artifact path may appear once",
      }),
    env: z.looseObject({ commit: z.string().min(1), tools: z.record(z.string(), z.string()).default({}) }),
    manifestHash: ZSha256,
  }),
);

// --- workcells (docs/protocol/workcells-and-evidence.md: task manifest, proof.json) ---
export const ZWorkcellOpened = ev("workcell.opened", z.object({ manifest: ZTaskManifest }));
export const ZWorkcellProof = ev("workcell.proof", z.object({ proof: ZProof }));

// --- contracting (docs/protocol/contracting.md: job, evidence, decision, escrow settlement) ---
export const ZJobPosted = ev(
  "job.posted",
  z.object({
    jobId: ZId,
    scope: ZText,
    constraints: z.array(ZLine).max(100).default([]),
    acceptanceTests: z.array(ZLine).min(1).max(100),
    settlement: z.object({
      amount: z.number().positive(),
      currency: z.string().min(3).max(10),
      terms: z.string().max(5000),
    }),
  }),
);
export const ZJobFunded = ev("job.funded", z.object({ jobId: ZId }));
export const ZJobDelivered = ev(
  "job.delivered",
  z.object({ jobId: ZId, evidenceIds: ZEvidenceIds, deadline: deadline(["accept", "reject"]).optional() }),
);
export const ZJobSettled = ev(
  "job.settled",
  z.object({ jobId: ZId, outcome: z.enum(["released", "refunded"]) }),
);

// --- budgets (docs/protocol/budgets.md) ---
/**
 * A budget of the pod (no agentId) or of one agent, set by a human approver or the
 * cost controller; `limit: null` removes it. Setting it again starts a new round: it may be
 * crossed (and reported) once more.
 */
export const ZBudgetSet = ev(
  "budget.set",
  z.object({
    budgetId: ZId,
    agentId: ZId.optional(),
    metric: z.enum(BUDGET_METRICS),
    limit: z.number().positive().max(1e12).nullable(),
    then: z.enum(BUDGET_ACTIONS).default("notify"),
  }),
);
/**
 * A budget was crossed. An agent may report its own (a dispatcher's: `budget` names it);
 * the server appends one, as podwatch, when a budget set with budget.set is crossed — then
 * `metric`, `agentId`, `then` and `round` say which and what follows (only the server's carry them).
 */
export const ZBudgetExceeded = ev(
  "budget.exceeded",
  z.object({
    budget: ZId,
    limit: z.number(),
    used: z.number(),
    metric: z.enum(BUDGET_METRICS).optional(),
    agentId: ZId.optional(),
    then: z.enum(BUDGET_ACTIONS).optional(),
    /** The seq of the budget.set that armed the round this report closes. */
    round: z.number().int().min(1).optional(),
  }),
);

// --- the server's own events, appended only as SYSTEM_ACTOR ---
/** A deadline passed: its outcome, applied like a person's answer or decision. `itemId` is the inbox item, `subject` what it is about. */
export const ZDeadlinePassed = ev(
  "deadline.passed",
  z.object({
    itemId: z.string().min(1).max(300),
    subject: z.object({ kind: z.enum(["escalation", "task", "job", "tool"]), id: ZId }),
    outcome: z.enum(DEADLINE_OUTCOMES),
    answer: ZText.optional(),
  }),
);
/** A watched agent has not checkpointed within the pod's cadence since `since` (its last checkpoint, or when it became watched). */
export const ZAgentStale = ev(
  "agent.stale",
  z.object({
    agentId: ZId,
    since: z.iso.datetime({ offset: true }),
    cadenceMinutes: z.number().int().min(1).max(CADENCE_MINUTES.max),
  }),
);
/** Something the pod's admins should know (e.g. a webhook endpoint disabled); an inbox item only they see. */
export const ZNoticePosted = ev(
  "notice.posted",
  z.object({
    noticeId: ZId,
    title: ZLine,
    text: z.string().max(20000).optional(),
    audience: z.enum(["admins"]),
  }),
);
/** A pod admin has read the notice: it leaves the inbox. */
export const ZNoticeDismissed = ev("notice.dismissed", z.object({ noticeId: ZId }));

export const EVENT_SCHEMAS = [
  ZScopeAgreed,
  ZPodStarted,
  ZPodPaused,
  ZPodResumed,
  ZPodClosed,
  ZMemberJoined,
  ZAccessGranted,
  ZAccessRevoked,
  ZRoleAssigned,
  ZRoleRotated,
  ZPlanImported,
  ZTaskAdded,
  ZTaskUpdated,
  ZReviewRequested,
  ZReview,
  ZCheckpoint,
  ZNote,
  ZDecision,
  ZPlanReview,
  ZEscalation,
  ZEscalationAnswered,
  ZHandoff,
  ZRunStarted,
  ZRunVerified,
  ZRunCommitted,
  ZRunDiscarded,
  ZEvidenceBundle,
  ZWorkcellOpened,
  ZWorkcellProof,
  ZJobPosted,
  ZJobFunded,
  ZJobDelivered,
  ZJobSettled,
  ZBudgetSet,
  ZBudgetExceeded,
  ZDeadlinePassed,
  ZAgentStale,
  ZNoticePosted,
  ZNoticeDismissed,
  ...AGENT_EVENT_SCHEMAS,
] as const;

export const ZEventInput = z.discriminatedUnion("type", EVENT_SCHEMAS);
export type TEventInput = z.input<typeof ZEventInput>;
export type TEvent = z.output<typeof ZEventInput>;
export type EventOf<T extends EventType> = Extract<TEvent, { type: T }>;

// `ev` admits only the vocabulary's event types; this admits no vocabulary type without its schema.
type WithoutSchema = Exclude<EventType, TEvent["type"]>;
const _everyEventTypeHasASchema: [WithoutSchema] extends [never]
  ? true
  : { "event types without a schema": WithoutSchema } = true;
