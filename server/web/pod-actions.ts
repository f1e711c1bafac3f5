// What the control room's server actions do, declared once: the schema they
// parse, the access they need, and the events they append as the person. The answers
// to inbox items, which a notification's buttons give too, are server/pods/inbox-answer-actions.ts.
import { definePodAction } from "../pods/perform-pod-action";
import {
  ZAddTaskInput,
  ZAssignRoleInput,
  ZHandOffInput,
  ZRotateRoleInput,
  ZSetPausedInput,
  ZSplitTaskInput,
} from "../wire/actions";
import type { TEvent } from "../wire/events";
import { ZDismissNoticeInput, ZSetToolPolicyInput } from "../wire/actions";
import { dismissNoticeEvent } from "../pods/dismiss-notice";

// --- gated tools: the policy (pod admins; the reducer checks again) ---
/** Replaces the pod's (no agentId) or one agent's tool policy. */
export const setToolPolicyAction = definePodAction({
  schema: ZSetToolPolicyInput,
  need: "admin" as const,
  events: (a, actor) => [{ type: "agent.policy.set" as const, actor, body: a.policy }],
});

/** Notices are for the pod's admins; one of them dismisses it (the same use-case as the API's). */
export const dismissNoticeAction = definePodAction({
  schema: ZDismissNoticeInput,
  need: "admin" as const,
  events: (a, actor) => [dismissNoticeEvent(a.noticeId, actor)],
});

// --- orchestration from the control room (approvers; the domain checks the rest) ---
export const setPausedAction = definePodAction({
  schema: ZSetPausedInput,
  need: "approver" as const,
  events: (a, actor): TEvent[] => [
    a.paused
      ? { type: "pod.paused", actor, body: a.reason ? { reason: a.reason } : {} }
      : { type: "pod.resumed", actor, body: {} },
  ],
});

export const assignRoleAction = definePodAction({
  schema: ZAssignRoleInput,
  need: "approver" as const,
  events: (a, actor) => [
    { type: "role.assigned" as const, actor, body: { memberId: a.memberId, role: a.role } },
  ],
});

export const rotateRoleAction = definePodAction({
  schema: ZRotateRoleInput,
  need: "approver" as const,
  events: (a, actor) => [
    { type: "role.rotated" as const, actor, body: { role: a.role, from: a.from, to: a.to } },
  ],
});

export const handOffAction = definePodAction({
  schema: ZHandOffInput,
  need: "approver" as const,
  events: (a, actor) => [{ type: "handoff" as const, actor, body: { to: a.to, reason: a.reason } }],
});

export const addTaskAction = definePodAction({
  schema: ZAddTaskInput,
  need: "approver" as const,
  events: (a, actor) => [
    {
      type: "task.added" as const,
      actor,
      body: { description: a.description, dependsOn: a.dependsOn, metadata: {} },
    },
  ],
});

/** Splitting a task: it is cancelled and its parts take its place, in one all-or-nothing request. */
export const splitTaskAction = definePodAction({
  schema: ZSplitTaskInput,
  need: "approver" as const,
  events: (a, actor) => [
    {
      type: "task.updated" as const,
      actor,
      body: {
        taskId: a.taskId,
        status: "cancelled" as const,
        metadata: { splitInto: a.parts.map((_, i) => `${a.taskId}.${i + 1}`) },
      },
    },
    ...a.parts.map((description, i) => ({
      type: "task.added" as const,
      actor,
      body: { taskId: `${a.taskId}.${i + 1}`, description, dependsOn: [], metadata: { splitFrom: a.taskId } },
    })),
  ],
});
