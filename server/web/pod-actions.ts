// What the control room's server actions do, declared once: the schema they
// parse, the access they need, and the events they append as the person.
import { z } from "zod";
import { TIE_BREAKERS } from "../domain/events/event-schemas";
import { definePodAction } from "./run-action";

export const decideAction = definePodAction({
  schema: z.object({
    podId: z.string().min(1),
    subject: z.object({ kind: z.enum(["task", "milestone", "plan", "job", "run"]), id: z.string().min(1) }),
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
  schema: z.object({ podId: z.string().min(1), escalationId: z.string().min(1), answer: z.string().trim().min(1, "write an answer").max(5000) }),
  need: "approver" as const,
  events: (a, actor) => [{ type: "escalation.answered" as const, actor, body: { escalationId: a.escalationId, answer: a.answer } }],
});
