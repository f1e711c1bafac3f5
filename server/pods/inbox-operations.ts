// The inbox: what waits for a person across the pods they may see, and their answers to it.
// Declared once: the REST routes, the control room's server actions and the reference come from
// this table; a notification's buttons answer through server/pods/inbox-answer-actions.ts.
import { z } from "zod";
import { defineOperation } from "../operations/operation";
import { ZDismissNoticeInput } from "../wire/actions";
import { ZInboxResponse } from "../wire/inbox";
import { ZInboxQuery } from "../wire/pods";
import { asTheApiWould } from "./perform-pod-action";
import { dismissNoticeEvent } from "./dismiss-notice";
import { readInbox } from "./read-inbox";
import { appendOperation } from "./append-operation";
import { answerEscalationAction, answerToolApprovalAction, decideAction } from "./inbox-answer-actions";

const tag = "Inbox";

export const inboxOperations = {
  listInbox: defineOperation({
    name: "listInbox",
    summary:
      "Everything waiting for a person in the pods the caller may see, oldest first, with what backs each item and " +
      "whether the caller may act on it; `podId`: that pod's part only.",
    tag,
    input: ZInboxQuery,
    output: ZInboxResponse,
    guard: "authenticated",
    http: { method: "GET", path: "/api/v1/inbox", status: 200 },
    run: async ({ app, identity }, a) => ({ items: await readInbox(app.store, identity, a.podId) }),
  }),
  dismissNotice: defineOperation({
    name: "dismissNotice",
    summary:
      "A pod admin has read a notice: `notice.dismissed` on the tape, and the notice leaves the inbox.",
    tag,
    input: ZDismissNoticeInput,
    output: z.object({ event: z.object({ id: z.string(), seq: z.number().int(), hash: z.string() }) }),
    guard: { pod: "admin" },
    http: { method: "POST", path: "/api/v1/pods/{podId}/notices/{noticeId}/dismiss", status: 201 },
    action: true,
    run: async ({ app, identity, actor }, a) => {
      const [event] = await app.append(
        a.podId,
        [asTheApiWould(dismissNoticeEvent(a.noticeId, actor))],
        identity,
      );
      return { event: event! };
    },
  }),
  // A person's answers: the events are inbox-answer-actions.ts's, which a notification's buttons append too.
  decide: appendOperation({
    name: "decide",
    summary:
      "A verdict on a task, milestone, plan, job or run (approvers), with the rationale: `decision` (a job's also " +
      "settles its escrow).",
    tag,
    input: decideAction.schema,
    need: decideAction.need,
    events: decideAction.events,
  }),
  answerEscalation: appendOperation({
    name: "answerEscalation",
    summary: "Answers an escalation (approvers): `escalation.answered`.",
    tag,
    input: answerEscalationAction.schema,
    need: answerEscalationAction.need,
    events: answerEscalationAction.events,
  }),
  answerToolApproval: appendOperation({
    name: "answerToolApproval",
    summary:
      "Allows or denies a held tool call (approvers), once, for the session or always: `tool.approval.answered`.",
    tag,
    input: answerToolApprovalAction.schema,
    need: answerToolApprovalAction.need,
    events: answerToolApprovalAction.events,
  }),
};
