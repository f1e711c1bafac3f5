// The control room's server actions: what each takes (parsed on the server before anything else)
// and what each answers. The decision's subject, verdict and tie-breaker are the decision
// event's own fields, so a kind or verdict is never spelled twice.
import { z } from "zod";
import { ZDecision, ZRole } from "../domain/events/event-schemas";
import { ZAgentPolicySet, ZToolApprovalAnswered } from "../domain/events/agent-events";
import { ZId } from "../domain/events/seed-formats";

const ZPodId = z.string().min(1);
const decision = ZDecision.shape.body.shape;

export const ZDecideInput = z.object({
  podId: ZPodId,
  subject: decision.subject,
  verdict: decision.verdict,
  rationale: z.string().trim().min(1, "say why").max(5000),
  tieBreaker: decision.tieBreaker,
});

export const ZAnswerEscalationInput = z.object({
  podId: ZPodId,
  escalationId: ZId,
  answer: z.string().trim().min(1, "write an answer").max(5000),
});
/** Gated tools: a pod's or one agent's tool policy (pod admins), the body of agent.policy.set as it is. */
export const ZSetToolPolicyInput = z.object({ podId: ZPodId, policy: ZAgentPolicySet.shape.body });
/** A person's answer to a held tool call (approvers): the body of tool.approval.answered. */
export const ZAnswerToolApprovalInput = z.object({ podId: ZPodId, answer: ZToolApprovalAnswered.shape.body });
/** A pod admin has read a notice (pod admins; the API twin is POST /api/v1/pods/{podId}/notices/{noticeId}/dismiss). */
export const ZDismissNoticeInput = z.object({ podId: ZPodId, noticeId: ZId });

// --- orchestration from the control room (approvers; the domain checks the rest) ---
export const ZSetPausedInput = z.object({
  podId: ZPodId,
  paused: z.boolean(),
  reason: z.string().max(2000).optional(),
});
export const ZAssignRoleInput = z.object({ podId: ZPodId, memberId: ZId, role: ZRole });
export const ZRotateRoleInput = z.object({ podId: ZPodId, role: ZRole, from: ZId, to: ZId });
export const ZHandOffInput = z.object({
  podId: ZPodId,
  to: ZId,
  reason: z.string().trim().min(1, "say why").max(2000),
});
export const ZAddTaskInput = z.object({
  podId: ZPodId,
  description: z.string().trim().min(1, "describe the task").max(5000),
  dependsOn: z.array(ZId).max(100).default([]),
});
/** Splitting a task: it is cancelled and its parts take its place. */
export const ZSplitTaskInput = z.object({
  podId: ZPodId,
  taskId: ZId,
  parts: z.array(z.string().trim().min(1).max(5000)).min(2).max(10),
});

/** What a server action that does more than append answers: its value, or why nothing was done. */
export type CallResult<T> = { ok: true; value: T } | { ok: false; code: string; error: string };

// --- a pod's life (pod admins) ---
export const ZPodInput = z.object({ podId: ZPodId });
export const ZClosePodInput = z.object({
  podId: ZPodId,
  reason: z.string().trim().max(2000, "keep the reason under 2,000 characters").optional(),
});

/** What every server action answers: the seqs it appended, or why nothing was. */
export type ActionResult = { ok: true; seqs: number[] } | { ok: false; code: string; error: string };
