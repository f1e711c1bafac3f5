// What the control room's server actions do, declared once: the schema they
// parse, the access they need, and the events they append as the person.
import { z } from "zod";
import { ROLES, TIE_BREAKERS } from "../domain/events/event-schemas";
import { ZId } from "../domain/events/seed-formats";
import { definePodAction } from "./run-action";
import type { TEvent } from "../wire/events";

export const decideAction = definePodAction({
  schema: z.object({
    podId: z.string().min(1),
    subject: z.object({ kind: z.enum(["task", "milestone", "plan", "job", "run"]), id: ZId }),
    verdict: z.enum(["approve", "reject", "accept", "block"]),
    rationale: z.string().trim().min(1, "say why").max(5000),
    tieBreaker: z.enum(TIE_BREAKERS).optional(),
  }),
  need: "approver" as const,
  events: (d, actor) => {
    const decision = { type: "decision" as const, actor, body: { subject: d.subject, verdict: d.verdict, rationale: d.rationale, evidenceIds: [], ...(d.tieBreaker ? { tieBreaker: d.tieBreaker } : {}) } };
    if (d.subject.kind !== "job") return [decision];
    // Accepting a job releases its escrow; rejecting refunds it — one request, all or nothing.
    return [decision, { type: "job.settled" as const, actor, body: { jobId: d.subject.id, outcome: d.verdict === "accept" ? ("released" as const) : ("refunded" as const) } }];
  },
});

export const answerEscalationAction = definePodAction({
  schema: z.object({ podId: z.string().min(1), escalationId: ZId, answer: z.string().trim().min(1, "write an answer").max(5000) }),
  need: "approver" as const,
  events: (a, actor) => [{ type: "escalation.answered" as const, actor, body: { escalationId: a.escalationId, answer: a.answer } }],
});

// --- orchestration from the control room (approvers; the domain checks the rest) ---
const ZPodId = z.string().min(1);

export const setPausedAction = definePodAction({
  schema: z.object({ podId: ZPodId, paused: z.boolean(), reason: z.string().max(2000).optional() }),
  need: "approver" as const,
  events: (a, actor): TEvent[] => [a.paused ? { type: "pod.paused", actor, body: a.reason ? { reason: a.reason } : {} } : { type: "pod.resumed", actor, body: {} }],
});

export const assignRoleAction = definePodAction({
  schema: z.object({ podId: ZPodId, memberId: ZId, role: z.enum(ROLES) }),
  need: "approver" as const,
  events: (a, actor) => [{ type: "role.assigned" as const, actor, body: { memberId: a.memberId, role: a.role } }],
});

export const rotateRoleAction = definePodAction({
  schema: z.object({ podId: ZPodId, role: z.enum(ROLES), from: ZId, to: ZId }),
  need: "approver" as const,
  events: (a, actor) => [{ type: "role.rotated" as const, actor, body: { role: a.role, from: a.from, to: a.to } }],
});

export const handOffAction = definePodAction({
  schema: z.object({ podId: ZPodId, to: ZId, reason: z.string().trim().min(1, "say why").max(2000) }),
  need: "approver" as const,
  events: (a, actor) => [{ type: "handoff" as const, actor, body: { to: a.to, reason: a.reason } }],
});

export const addTaskAction = definePodAction({
  schema: z.object({ podId: ZPodId, description: z.string().trim().min(1, "describe the task").max(5000), dependsOn: z.array(ZId).max(100).default([]) }),
  need: "approver" as const,
  events: (a, actor) => [{ type: "task.added" as const, actor, body: { description: a.description, dependsOn: a.dependsOn, metadata: {} } }],
});

/** Splitting a task: it is cancelled and its parts take its place, in one all-or-nothing request. */
export const splitTaskAction = definePodAction({
  schema: z.object({ podId: ZPodId, taskId: ZId, parts: z.array(z.string().trim().min(1).max(5000)).min(2).max(10) }),
  need: "approver" as const,
  events: (a, actor) => [
    { type: "task.updated" as const, actor, body: { taskId: a.taskId, status: "cancelled" as const, metadata: { splitInto: a.parts.map((_, i) => `${a.taskId}.${i + 1}`) } } },
    ...a.parts.map((description, i) => ({ type: "task.added" as const, actor, body: { taskId: `${a.taskId}.${i + 1}`, description, dependsOn: [], metadata: { splitFrom: a.taskId } } })),
  ],
});
