// A person's answers to inbox items: a verdict, an escalation's answer, a held tool call allowed
// or denied. Declared once for every door a person answers from: the control room's server
// actions (server/web/server-actions.ts) and a notification's buttons (server/notify).
import { definePodAction } from "./perform-pod-action";
import { decideEvents } from "../domain/commands/decide";
import { ZAnswerEscalationInput, ZAnswerToolApprovalInput, ZDecideInput } from "../wire/actions";

export const decideAction = definePodAction({
  schema: ZDecideInput,
  need: "approver" as const,
  // A job's verdict also settles its escrow (server/domain/commands/decide.ts).
  events: (d, actor) => decideEvents(d, actor),
});

export const answerEscalationAction = definePodAction({
  schema: ZAnswerEscalationInput,
  need: "approver" as const,
  events: (a, actor) => [
    { type: "escalation.answered" as const, actor, body: { escalationId: a.escalationId, answer: a.answer } },
  ],
});

/** Allows or denies a held tool call; "session" and "always" are remembered by the reducer, on the tape. */
export const answerToolApprovalAction = definePodAction({
  schema: ZAnswerToolApprovalInput,
  need: "approver" as const,
  events: (a, actor) => [{ type: "tool.approval.answered" as const, actor, body: a.answer }],
});
