"use server";
// Decisions and answers from the control room. Each one goes through
// runPodAction: authenticated, parsed, checked on the server, then appended
// to the tape as the signed-in person (the domain checks the rest).
import { z } from "zod";
import { TIE_BREAKERS } from "@/server/domain/events/event-schemas";
import { runPodAction } from "@/server/web/run-action";

const ZDecide = z.object({
  podId: z.string().min(1),
  subject: z.object({ kind: z.enum(["task", "milestone", "plan", "job", "run"]), id: z.string().min(1) }),
  verdict: z.enum(["approve", "reject", "accept", "block"]),
  rationale: z.string().trim().min(1, "say why").max(5000),
  tieBreaker: z.enum(TIE_BREAKERS).optional(),
});

export async function decide(raw: unknown) {
  return runPodAction(ZDecide, raw, "approver", (d, actor) => {
    const decision = { type: "decision" as const, actor, body: { subject: d.subject, verdict: d.verdict, rationale: d.rationale, evidenceIds: [], ...(d.tieBreaker ? { tieBreaker: d.tieBreaker } : {}) } };
    if (d.subject.kind !== "job") return [decision];
    // Accepting a job releases its escrow; rejecting refunds it — one request, all or nothing.
    const outcome = d.verdict === "accept" ? ("released" as const) : ("refunded" as const);
    return [decision, { type: "job.settled" as const, actor, body: { jobId: d.subject.id, outcome } }];
  });
}

const ZAnswer = z.object({ podId: z.string().min(1), escalationId: z.string().min(1), answer: z.string().trim().min(1, "write an answer").max(5000) });

export async function answerEscalation(raw: unknown) {
  return runPodAction(ZAnswer, raw, "approver", (a, actor) => [{ type: "escalation.answered" as const, actor, body: { escalationId: a.escalationId, answer: a.answer } }]);
}
