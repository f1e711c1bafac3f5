// Steering a pod from the control room: its tool policy (pod admins), pausing and resuming it,
// roles, handoffs and tasks (approvers). Each appends as the person; the write path and the
// reducers check the rest (a second chair, an unknown task). Declared once: the server actions
// come from this table (agents append the same events over POST /events).
import type { TEvent } from "../wire/events";
import {
  ZAddTaskInput,
  ZAssignRoleInput,
  ZHandOffInput,
  ZRotateRoleInput,
  ZSetPausedInput,
  ZSetToolPolicyInput,
  ZSplitTaskInput,
} from "../wire/actions";
import { appendOperation } from "./append-operation";

const tag = "Steering";

export const steerOperations = {
  setToolPolicy: appendOperation({
    name: "setToolPolicy",
    summary: "Replaces the pod's (no `agentId`) or one agent's tool policy (pod admins): `agent.policy.set`.",
    tag,
    input: ZSetToolPolicyInput,
    need: "admin",
    events: (a, actor) => [{ type: "agent.policy.set", actor, body: a.policy }],
  }),
  setPaused: appendOperation({
    name: "setPaused",
    summary: "Pauses the pod (with a reason or none) or resumes it: `pod.paused` or `pod.resumed`.",
    tag,
    input: ZSetPausedInput,
    need: "approver",
    events: (a, actor): TEvent[] => [
      a.paused
        ? { type: "pod.paused", actor, body: a.reason ? { reason: a.reason } : {} }
        : { type: "pod.resumed", actor, body: {} },
    ],
  }),
  assignRole: appendOperation({
    name: "assignRole",
    summary: "Gives a member a protocol role: `role.assigned`.",
    tag,
    input: ZAssignRoleInput,
    need: "approver",
    events: (a, actor) => [{ type: "role.assigned", actor, body: { memberId: a.memberId, role: a.role } }],
  }),
  rotateRole: appendOperation({
    name: "rotateRole",
    summary: "Moves a role from one member to another: `role.rotated`.",
    tag,
    input: ZRotateRoleInput,
    need: "approver",
    events: (a, actor) => [{ type: "role.rotated", actor, body: { role: a.role, from: a.from, to: a.to } }],
  }),
  handOff: appendOperation({
    name: "handOff",
    summary: "Hands the pod's work to a member, saying why: `handoff`.",
    tag,
    input: ZHandOffInput,
    need: "approver",
    events: (a, actor) => [{ type: "handoff", actor, body: { to: a.to, reason: a.reason } }],
  }),
  addTask: appendOperation({
    name: "addTask",
    summary: "Adds a task to the board: `task.added`.",
    tag,
    input: ZAddTaskInput,
    need: "approver",
    events: (a, actor) => [
      {
        type: "task.added",
        actor,
        body: { description: a.description, dependsOn: a.dependsOn, metadata: {} },
      },
    ],
  }),
  splitTask: appendOperation({
    name: "splitTask",
    summary:
      "Splits a task: it is cancelled and its parts (`{taskId}.1`, `.2`, …) take its place, in one all-or-nothing append.",
    tag,
    input: ZSplitTaskInput,
    need: "approver",
    events: (a, actor): TEvent[] => [
      {
        type: "task.updated",
        actor,
        body: {
          taskId: a.taskId,
          status: "cancelled",
          metadata: { splitInto: a.parts.map((_, i) => `${a.taskId}.${i + 1}`) },
        },
      },
      ...a.parts.map((description, i): TEvent => ({
        type: "task.added",
        actor,
        body: {
          taskId: `${a.taskId}.${i + 1}`,
          description,
          dependsOn: [],
          metadata: { splitFrom: a.taskId },
        },
      })),
    ],
  }),
};
